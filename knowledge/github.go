package knowledge

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// GitHubIssue is one row of `gh issue list --json
// number,title,body,url,state,labels`.
type GitHubIssue struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	URL    string `json:"url"`
	State  string `json:"state"`
	Labels []struct {
		Name string `json:"name"`
	} `json:"labels"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// UnmarshalJSON accepts labels as objects ({"name": "bug"}) or strings.
func (g *GitHubIssue) UnmarshalJSON(b []byte) error {
	type plain GitHubIssue
	var aux struct {
		plain
		Labels []json.RawMessage `json:"labels"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*g = GitHubIssue(aux.plain)
	g.Labels = nil
	for _, raw := range aux.Labels {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			g.Labels = append(g.Labels, struct {
				Name string `json:"name"`
			}{s})
			continue
		}
		var o struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &o); err != nil {
			return fmt.Errorf("label: %w", err)
		}
		g.Labels = append(g.Labels, o)
	}
	return nil
}

// maxIssueBody bounds how much of an issue body is kept for search.
const maxIssueBody = 8 << 10

var issueURLRE = regexp.MustCompile(`^https://github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d+)`)

// ParseGitHubIssues reads a JSON array of GitHub issues and converts each
// into an Entry with id "owner/repo#N". Issues without a usable URL are
// skipped and counted in the returned skipped number.
func ParseGitHubIssues(r io.Reader) (entries []Entry, skipped int, err error) {
	var issues []GitHubIssue
	dec := json.NewDecoder(r)
	if err := dec.Decode(&issues); err != nil {
		return nil, 0, fmt.Errorf("knowledge: parse GitHub issues: %w", err)
	}
	for _, is := range issues {
		m := issueURLRE.FindStringSubmatch(is.URL)
		if m == nil || strings.TrimSpace(is.Title) == "" {
			skipped++
			continue
		}
		entries = append(entries, IssueEntry(m[1], is))
	}
	return entries, skipped, nil
}

// IssueEntry converts one GitHub issue of repo ("owner/name") to an Entry.
// Structured fields are read off the title and the machine text in the
// body: the flags it uses, its error signatures and platform labels.
func IssueEntry(repo string, is GitHubIssue) Entry {
	e := Entry{
		ID:        repo + "#" + strconv.Itoa(is.Number),
		Kind:      KindIssue,
		URL:       is.URL,
		Title:     strings.TrimSpace(is.Title),
		State:     strings.ToLower(is.State),
		Source:    "github",
		Prior:     0.6,
		UpdatedAt: is.UpdatedAt,
	}
	body := is.Body
	if len(body) > maxIssueBody {
		body = body[:maxIssueBody]
	}
	e.Body = body
	for _, l := range is.Labels {
		e.Tags = append(e.Tags, l.Name)
		switch strings.ToLower(l.Name) {
		case "rocm", "amd":
			e.Platforms = appendUnique(e.Platforms, "rocm")
		case "cpu":
			e.Platforms = appendUnique(e.Platforms, "cpu")
		case "tpu":
			e.Platforms = appendUnique(e.Platforms, "tpu")
		case "intel-gpu", "xpu":
			e.Platforms = appendUnique(e.Platforms, "xpu")
		}
	}
	doc := &document{title: e.Title, prose: strings.Split(body, "\n")}
	doc.prose = append(doc.prose, e.Title)
	for _, er := range extractErrors(doc, nil) {
		if len(e.Symptoms) < 4 {
			e.Symptoms = appendUnique(e.Symptoms, er.Type+": "+er.Message)
		}
	}
	for _, f := range flagMentionRE.FindAllString(e.Title+"\n"+body, 32) {
		e.Flags = appendUnique(e.Flags, normFlag(f))
	}
	return e
}

var flagMentionRE = regexp.MustCompile(`--[a-z][a-z0-9_-]{2,40}`)

// DocEntry converts a Markdown documentation page into an Entry. The title
// is the first heading (or the name); url is where the page is published.
func DocEntry(id, url, markdownText string) Entry {
	title := id
	for _, l := range strings.Split(markdownText, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "# "); ok {
			title = strings.TrimSpace(t)
			break
		}
	}
	body := markdownText
	if len(body) > 64<<10 {
		body = body[:64<<10]
	}
	e := Entry{ID: id, Kind: KindDocs, URL: url, Title: title, Body: body, Source: "docs", Prior: 0.8}
	for _, f := range flagMentionRE.FindAllString(body, 64) {
		e.Flags = appendUnique(e.Flags, normFlag(f))
	}
	return e
}

func appendUnique(list []string, items ...string) []string {
	for _, s := range items {
		if !contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
