package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"golang.org/x/term"

	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

const defaultDB = "herald.db"

func cmdKB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("kb needs a subcommand: import, list, show, search, stats, fit, learn, import-github")
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "learn":
		return cmdLearn(ctx, args, stdout, stderr)
	case "import-github":
		return cmdImportGitHub(ctx, args, stdout, stderr)
	case "fit":
		return cmdFit(ctx, args, stdout, stderr)
	}
	fs := newFlagSet("kb "+sub, stderr)
	dbPath := fs.String("db", defaultDB, "database file")
	var (
		kind, source *string
		limit        *int
		docsBase     *string
	)
	switch sub {
	case "list":
		kind = fs.String("kind", "", "only entries of this kind (issue, docs, topic, rule)")
		source = fs.String("source", "", "only entries from this source (github, docs, pack:vllm, or pack:)")
		limit = fs.Int("limit", 50, "how many")
	case "search":
		limit = fs.Int("limit", 10, "how many")
	case "import":
		docsBase = fs.String("docs-base-url", "", "URL a Markdown docs folder is published under (required for folders)")
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if sub != "import" {
		if _, err := os.Stat(*dbPath); err != nil {
			return fmt.Errorf("knowledge base %s: %w (create it with `herald kb import --db %s builtin:vllm`)", *dbPath, err, *dbPath)
		}
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()

	switch sub {
	case "import":
		return kbImport(ctx, db, pos, *docsBase, stdout, stderr)
	case "list":
		return kbList(ctx, db, store.EntryFilter{Kind: *kind, Source: *source, Limit: *limit}, stdout)
	case "show":
		return kbShow(ctx, db, pos, stdout)
	case "search":
		return kbSearch(ctx, db, pos, *limit, stdout)
	case "stats":
		return kbStats(ctx, db, stdout)
	}
	return usagef("unknown kb subcommand %q", sub)
}

// kbImport imports each source, with progress on stderr.
func kbImport(ctx context.Context, db *store.DB, pos []string, docsBase string, stdout, stderr io.Writer) error {
	if len(pos) == 0 {
		return usagef("kb import needs at least one SOURCE")
	}
	for _, src := range pos {
		bar := newProgress(stderr, src)
		st, err := importer.Import(ctx, db, src, importer.Options{DocsBaseURL: docsBase}, bar.update)
		bar.done()
		if errors.Is(err, importer.ErrUnknownSource) || errors.Is(err, importer.ErrNeedsBaseURL) {
			return usagef("%v", err)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %s\n", src, st)
	}
	return nil
}

// kbList prints the entries f selects as a table.
func kbList(ctx context.Context, db *store.DB, f store.EntryFilter, stdout io.Writer) error {
	entries, err := db.ListEntries(ctx, f)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tSTATE\tSOURCE\tTITLE")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.State, e.Source, oneLine(e.Title, 70))
	}
	return tw.Flush()
}

// kbShow prints one entry with its outcomes as JSON.
func kbShow(ctx context.Context, db *store.DB, pos []string, stdout io.Writer) error {
	if len(pos) != 1 {
		return usagef("kb show takes one ID")
	}
	e, err := db.Entry(ctx, pos[0])
	if err != nil {
		return err
	}
	outs, err := db.EntryOutcomes(ctx)
	if err != nil {
		return err
	}
	o := outs[e.ID]
	type outcomes struct {
		Cited, Accepted, Liked, Unhelpful int
		PriorFactor                       float64 `json:"prior_factor"`
	}
	return writeJSON(stdout, struct {
		*knowledge.Entry
		Outcomes outcomes `json:"outcomes"`
	}{e, outcomes{o.Cited, o.Accepted, o.Liked, o.Negative, knowledge.OutcomePrior(o.Accepted, o.Liked, o.Negative)}})
}

// kbSearch prints the entries whose text best matches the words.
func kbSearch(ctx context.Context, db *store.DB, pos []string, limit int, stdout io.Writer) error {
	if len(pos) == 0 {
		return usagef("kb search needs TEXT")
	}
	cands, err := db.SearchText(ctx, strings.Join(pos, " "), limit)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tID\tTITLE")
	for _, c := range cands {
		fmt.Fprintf(tw, "%.2f\t%s\t%s\n", c.TextScore, c.Entry.ID, oneLine(c.Entry.Title, 80))
	}
	return tw.Flush()
}

// kbStats prints the knowledge base's counts.
func kbStats(ctx context.Context, db *store.DB, stdout io.Writer) error {
	st, err := db.Stats(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "entries: %d\npacks: %s\n", st.Total, strings.Join(st.Packs, ", "))
	for k, n := range st.ByKind {
		fmt.Fprintf(stdout, "kind %s: %d\n", k, n)
	}
	for k, n := range st.BySource {
		fmt.Fprintf(stdout, "source %s: %d\n", k, n)
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n-1] + "…"
	}
	return s
}

// progress draws a one-line bar on a terminal and nothing elsewhere.
type progress struct {
	w     io.Writer
	label string
	tty   bool
	drawn bool
}

func newProgress(w io.Writer, label string) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, label: label, tty: tty}
}

func (p *progress) update(done, total int) {
	if !p.tty || total == 0 {
		return
	}
	const width = 30
	n := done * width / total
	fmt.Fprintf(p.w, "\r%s [%s%s] %d/%d", p.label, strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total)
	p.drawn = true
}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}
