package knowledge

import (
	"strings"
	"time"
)

// Entry kinds.
const (
	KindIssue = "issue" // a bug report or pull request
	KindDocs  = "docs"  // a documentation page
	KindTopic = "topic" // a solved forum topic
	KindRule  = "rule"  // a curated diagnosis with no single source page
)

// Entry is one piece of knowledge Herald can cite.
type Entry struct {
	ID    string `yaml:"id" json:"id"`
	Kind  string `yaml:"kind" json:"kind"`
	URL   string `yaml:"url" json:"url"`
	Title string `yaml:"title" json:"title"`
	// State is the upstream state: open, closed, merged, or "" for docs.
	State string `yaml:"state" json:"state,omitempty"`
	// Summary says in one or two sentences what the entry establishes.
	Summary string `yaml:"summary" json:"summary,omitempty"`
	// Symptoms are error texts as printed, numbers masked as <N>, or short
	// descriptions; they are compared by Signature and indexed for search.
	Symptoms []string `yaml:"symptoms" json:"symptoms,omitempty"`
	// Flags are the command-line flags (normalised, --a-b) and environment
	// variables (NAME or NAME=value) the entry is about.
	Flags     []string `yaml:"flags" json:"flags,omitempty"`
	Platforms []string `yaml:"platforms" json:"platforms,omitempty"`
	// Affected is a version range of the main package, e.g. ">=0.10, <0.29".
	Affected string `yaml:"affected" json:"affected,omitempty"`
	// Fixed is the first release with the fix, if known.
	Fixed string `yaml:"fixed" json:"fixed,omitempty"`
	// Models are model ids or family names (e.g. "deepseek-v2", "gemma").
	Models []string `yaml:"models" json:"models,omitempty"`
	Tags   []string `yaml:"tags" json:"tags,omitempty"`
	// Advice lists concrete things to try, each one line of Markdown.
	Advice []string `yaml:"advice" json:"advice,omitempty"`
	// Body is free text for search (an imported issue's logs, a doc page).
	Body string `yaml:"body" json:"body,omitempty"`
	// SourceText is the text of the issue or page a curated entry is
	// about, as an importer last read it: an import does not replace a
	// curated entry's fields, but the source's own words still help find
	// it. It is for search only, like Body.
	SourceText string   `yaml:"-" json:"source_text,omitempty"`
	Related    []string `yaml:"related" json:"related,omitempty"`
	// Aliases are the other addresses the same issue or page is
	// published under (a renamed docs page, the raw source of a rendered
	// one). An import at one of them is this entry's source, not another
	// entry: the knowledge base holds one entry per page.
	Aliases []string `yaml:"aliases" json:"aliases,omitempty"`
	// Source names where the entry came from: "pack:vllm", "github", "docs".
	Source string `yaml:"-" json:"source,omitempty"`
	// Prior scales the entry's positive evidence; 0 means 1. Entries are
	// made with 1 (how much a source is worth is a fitted weight, see
	// Model); the outcomes of earlier citations adjust it at answer time,
	// and a pack may lower it for an entry it trusts less.
	Prior float64 `yaml:"prior" json:"prior,omitempty"`
	// Reading is the version of the importer's reading that made the
	// entry (see Reading); 0 for pack entries, which are not read.
	Reading   int       `yaml:"-" json:"reading,omitempty"`
	UpdatedAt time.Time `yaml:"-" json:"updated_at"`
}

// Trusted reports whether the entry's text may go into a reply as its
// own Markdown: only a curated pack's, which people reviewed before it
// shipped. Imported issues and docs, learned and taught topics are quoted
// inert.
func (e *Entry) Trusted() bool { return strings.HasPrefix(e.Source, "pack:") }

// Curated reports whether the entry was written by people (a pack or a
// staff-approved topic) rather than imported in bulk.
func (e *Entry) Curated() bool {
	return strings.HasPrefix(e.Source, "pack:") || e.Kind == KindTopic || e.Kind == KindRule
}

// SearchText returns the entry's text fields for full-text indexing, in the
// column order the store's index uses: title, symptoms, flags, models, body.
func (e *Entry) SearchText() (title, symptoms, flags, models, body string) {
	body = strings.Join([]string{e.Summary, e.adviceText(), strings.Join(e.Tags, " "), e.Body, e.SourceText}, "\n")
	return e.Title, strings.Join(e.Symptoms, "\n"), strings.Join(e.Flags, " "), strings.Join(e.Models, " "), body
}

// adviceText is the entry's advice as words to index, one line each,
// without the conditions that say where a line applies ("{platform
// rocm}"): those are about posts, not what the entry says.
func (e *Entry) adviceText() string {
	lines := make([]string, len(e.Advice))
	for i, a := range e.Advice {
		_, lines[i] = splitAdviceCondition(strings.TrimSpace(a))
	}
	return strings.Join(lines, "\n")
}

// ShortRef is how replies name an entry: "#51396" for GitHub issues,
// the title for docs pages.
func (e *Entry) ShortRef() string {
	if i := strings.LastIndex(e.ID, "#"); i >= 0 && e.Kind != KindDocs {
		return e.ID[i:]
	}
	return e.Title
}

// OutcomePrior turns how an entry's past citations fared into a
// multiplier of its prior: accepted and liked citations raise it, replies
// the asker said did not help lower it, within [0.5, 1.5].
//
// The steps are set by hand, not fitted: no labelled set records
// outcomes yet. They are small and clipped so that outcomes only nudge
// the ranking: five acceptances reach the cap, and a bad record can at
// most halve an entry's evidence.
func OutcomePrior(accepted, liked, unhelpful int) float64 {
	f := 1 + 0.1*float64(accepted) + 0.05*float64(liked) - 0.15*float64(unhelpful)
	return max(0.5, min(1.5, f))
}
