package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

// Case categories.
const (
	Support    = "support"
	Abstain    = "abstain"
	NotSupport = "not_support"
)

// Case is one labelled post, one line of a cases JSONL file.
type Case struct {
	ID       string `json:"case_id"`
	Category string `json:"category"`
	Title    string `json:"title"`
	Body     string `json:"body"`
	Expect   Expect `json:"expect"`
	// Answers are entry ids a good reply cites (strict).
	Answers []string `json:"answers"`
	// TopicMatch are acceptable but not required ids (lenient).
	TopicMatch []string `json:"topic_match"`
	// Source is where the post was found (its URL); SourceFolds holds
	// out the posts of one place together.
	Source string `json:"source"`
}

// SourceGroup is the place a case's post comes from: the repository of a
// GitHub URL ("owner/name"), the host of another URL, or the source as
// written.
func (c Case) SourceGroup() string {
	u, err := url.Parse(c.Source)
	if err != nil || u.Host == "" {
		return c.Source
	}
	if strings.EqualFold(u.Host, "github.com") {
		if parts := strings.SplitN(strings.Trim(u.Path, "/"), "/", 3); len(parts) >= 2 {
			return parts[0] + "/" + parts[1]
		}
	}
	return u.Host
}

// Expect is what extraction should find; nil or empty fields are not
// scored.
type Expect struct {
	Command   *string           `json:"command"`
	Flags     map[string]any    `json:"flags"`
	Exception *string           `json:"exception"`
	Versions  map[string]string `json:"versions"`
	Platform  *string           `json:"platform"`
	GPU       *string           `json:"gpu"`
	Model     *string           `json:"model"`
}

// ReadCases reads a JSONL file of cases. Blank lines are skipped; a bad
// line is an error naming its line number.
func ReadCases(r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c Case
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			return nil, fmt.Errorf("bench: cases line %d: %w", n, err)
		}
		switch c.Category {
		case Support, Abstain, NotSupport:
		default:
			return nil, fmt.Errorf("bench: cases line %d: unknown category %q", n, c.Category)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: read cases: %w", err)
	}
	return out, nil
}

// WriteCases writes cases as ReadCases reads them, one JSON object a
// line.
func WriteCases(w io.Writer, cases []Case) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		if err := enc.Encode(c); err != nil {
			return fmt.Errorf("bench: write case %s: %w", c.ID, err)
		}
	}
	return nil
}

// Result is what a system did with one case.
type Result struct {
	CaseID string
	// Facts is nil for systems that do not extract (the baseline).
	Facts *knowledge.Facts
	// Ranked are entry ids, best first.
	Ranked []string
	// Cited are the ids a reply would cite, best first; empty when the
	// system does not reply.
	Cited      []string
	Decision   knowledge.Decision
	Confidence float64
}
