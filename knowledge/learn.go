package knowledge

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// SolvedTopic is a forum topic whose question has an accepted answer.
type SolvedTopic struct {
	ForumURL string // the forum's base URL
	TopicID  int
	Title    string
	Question string // the first post's raw Markdown
	Answer   string // the accepted answer's raw Markdown
	Answerer string
}

var (
	mdLinkRE  = regexp.MustCompile(`\]\((https?://[^)\s]+)\)|(?:^|\s)(https?://[^\s)>\]]+)`)
	fenceRE   = regexp.MustCompile("(?s)```.*?```")
	commentRE = regexp.MustCompile(`(?s)<!--.*?-->`)
)

// TopicEntry proposes a knowledge entry from a solved topic: the
// question's facts and error signatures as symptoms, the accepted answer's
// gist as summary and its links as advice, and the topic as the source.
// The id is stable per forum and topic, so re-learning updates the entry.
func TopicEntry(t SolvedTopic, s *Schema) (Entry, error) {
	u, err := url.Parse(t.ForumURL)
	if err != nil || u.Host == "" {
		return Entry{}, fmt.Errorf("knowledge: forum URL %q: %v", t.ForumURL, err)
	}
	f, _ := Extract(Post{Title: t.Title, Body: t.Question}, s)
	e := Entry{
		ID:      fmt.Sprintf("topic:%s:%d", u.Host, t.TopicID),
		Kind:    KindTopic,
		URL:     strings.TrimRight(t.ForumURL, "/") + fmt.Sprintf("/t/topic/%d", t.TopicID),
		Title:   strings.TrimSpace(t.Title),
		State:   "solved",
		Source:  "forum",
		Prior:   1,
		Reading: Reading,
		Tags:    f.Topics,
		Body:    truncate(t.Question, 4000) + "\n\n" + truncate(t.Answer, 4000),
	}
	for i, er := range f.Errors {
		if i == 3 {
			break
		}
		e.Symptoms = append(e.Symptoms, er.Type+": "+truncate(strings.TrimSpace(er.Message), 200))
	}
	// The engine's settings: those of a command an evaluation harness
	// started first (lm_eval's --model_args list), then the command the
	// post ran, each in name order so the same topic learns the same
	// entry.
	var from []*Command
	for i := range f.Commands {
		if f.Commands[i].harness {
			from = append(from, &f.Commands[i])
		}
	}
	if c := f.MainCommand(s); c != nil {
		from = append(from, c)
	}
	for _, c := range from {
		for _, k := range slices.Sorted(maps.Keys(c.Flags)) {
			if strings.HasPrefix(k, "--") && len(e.Flags) < 8 && !slices.Contains(e.Flags, k) {
				e.Flags = append(e.Flags, k)
			}
		}
	}
	if f.Platform != "" {
		e.Platforms = []string{f.Platform}
	}
	for _, m := range f.Models {
		if _, name, ok := strings.Cut(m, "/"); ok && len(e.Models) < 3 {
			e.Models = append(e.Models, strings.ToLower(name))
		}
	}
	answer := commentRE.ReplaceAllString(t.Answer, "")
	e.Summary = "Solved on the forum: " + gist(answer)
	for _, m := range mdLinkRE.FindAllStringSubmatch(answer, 8) {
		link := m[1] + m[2]
		if checkURL(link) == nil && len(e.Advice) < 4 {
			e.Advice = append(e.Advice, fmt.Sprintf("See %s (from the accepted answer).", link))
		}
	}
	e.Advice = append(e.Advice, fmt.Sprintf("Read the accepted answer in the solved topic %q.", e.Title))
	return e, nil
}

// gist returns the first two sentences of a Markdown answer, code removed.
func gist(md string) string {
	text := fenceRE.ReplaceAllString(md, " ")
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for _, sentence := range sentenceSplitRE.Split(text, 3) {
		if s := strings.TrimSpace(sentence); s != "" && len(out) < 2 {
			out = append(out, s)
		}
	}
	g := strings.Join(out, ". ")
	if g != "" && !strings.HasSuffix(g, ".") {
		g += "."
	}
	return truncate(g, 400)
}

var sentenceSplitRE = regexp.MustCompile(`[.!?]\s+`)
