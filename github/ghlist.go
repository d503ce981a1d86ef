package github

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/heraldbot/herald/knowledge"
)

// listedIssue is one row of `gh issue list --json
// number,title,body,url,state,labels,updatedAt`: the wire format of the
// issue files `herald kb import` reads.
type listedIssue struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	URL       string    `json:"url"`
	State     string    `json:"state"`
	Labels    []label   `json:"labels"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// label is an issue label, written by gh as an object ({"name": "bug"})
// and by some exports as a bare string.
type label string

func (l *label) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*l = label(s)
		return nil
	}
	var o struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return fmt.Errorf("label: %w", err)
	}
	*l = label(o.Name)
	return nil
}

var issueURLRE = regexp.MustCompile(`^https://github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull)/(\d+)`)

// ParseIssueList reads the JSON array `gh issue list --json` prints into
// issues, each with the repository taken from its URL. Issues without a
// usable URL or title are skipped and counted.
func ParseIssueList(r io.Reader) (issues []knowledge.Issue, skipped int, err error) {
	var listed []listedIssue
	if err := json.NewDecoder(r).Decode(&listed); err != nil {
		return nil, 0, fmt.Errorf("github: parse issue list: %w", err)
	}
	for _, is := range listed {
		m := issueURLRE.FindStringSubmatch(is.URL)
		if m == nil || strings.TrimSpace(is.Title) == "" {
			skipped++
			continue
		}
		ki := knowledge.Issue{Repo: m[1], Number: is.Number, Title: is.Title, Body: is.Body, URL: is.URL, State: is.State, UpdatedAt: is.UpdatedAt}
		for _, l := range is.Labels {
			ki.Labels = append(ki.Labels, string(l))
		}
		issues = append(issues, ki)
	}
	return issues, skipped, nil
}
