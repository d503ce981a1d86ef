package knowledge

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Issue is an issue as an importer hands it over, whatever its wire
// format (the github package reads `gh issue list --json` and the REST
// API into it).
type Issue struct {
	// Repo is the repository, "owner/name".
	Repo      string
	Number    int
	Title     string
	Body      string
	URL       string
	State     string
	Labels    []string
	UpdatedAt time.Time
}

// Priors of imported entries (see Entry.Prior). They are set by hand: an
// imported issue's symptoms and flags are read off raw text and are
// noisier than a curated entry's, a docs page lists many flags it is not
// about. Setting both to 1 and leaving the source to the fitted curated
// and docs weights was measured on the held-out dev posts and posted more
// wrong answers, so they stay.
const (
	issuePrior = 0.6
	docsPrior  = 0.8
)

// maxIssueBody bounds how much of an issue body is kept for search.
const maxIssueBody = 8 << 10

// IssueEntry converts one issue to an Entry. Structured fields are read
// off the title and the machine text in the body (the flags it uses and
// its error signatures) and off its labels, which name a platform as the
// vocabulary's LabelPlatforms say (v may be nil).
func IssueEntry(is Issue, v *Vocabulary) Entry {
	e := Entry{
		ID:        is.Repo + "#" + strconv.Itoa(is.Number),
		Kind:      KindIssue,
		URL:       is.URL,
		Title:     strings.TrimSpace(is.Title),
		State:     strings.ToLower(is.State),
		Source:    "github",
		Prior:     issuePrior,
		UpdatedAt: is.UpdatedAt,
	}
	body := is.Body
	if len(body) > maxIssueBody {
		body = body[:maxIssueBody]
	}
	e.Body = body
	for _, l := range is.Labels {
		e.Tags = append(e.Tags, l)
		if v != nil {
			e.Platforms = appendUnique(e.Platforms, v.labelPlatforms(l)...)
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

// labelPlatforms returns the platforms an issue label names, in a fixed
// order.
func (v *Vocabulary) labelPlatforms(label string) []string {
	var out []string
	for plat, labels := range v.LabelPlatforms {
		for _, l := range labels {
			if strings.EqualFold(l, label) {
				out = append(out, plat)
				break
			}
		}
	}
	slices.Sort(out)
	return out
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
	e := Entry{ID: id, Kind: KindDocs, URL: url, Title: title, Body: body, Source: "docs", Prior: docsPrior}
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
