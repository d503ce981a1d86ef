package importer

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "kb.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadDocsURLs: a page's id and URL are the base joined with its path
// without the extension, as the site publishes it; files that are not
// Markdown are skipped.
func TestReadDocsURLs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "serving", "env_vars.md"), "# Environment variables\n\nSet `--max-model-len` to bound the context.\n")
	write(t, filepath.Join(dir, "index.md"), "no heading here")
	write(t, filepath.Join(dir, "logo.png"), "\x89PNG")
	entries, err := ReadDocs(dir, "https://docs.example.org/en/latest/")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range entries {
		got[e.URL] = e.Title
	}
	want := map[string]string{
		"https://docs.example.org/en/latest/serving/env_vars/": "Environment variables",
		"https://docs.example.org/en/latest/index/":            "https://docs.example.org/en/latest/index/",
	}
	if len(got) != len(want) {
		t.Fatalf("entries %v, want %v", got, want)
	}
	for u, title := range want {
		if got[u] != title {
			t.Errorf("%s: title %q, want %q", u, got[u], title)
		}
	}
}

// TestImportSources: every kind of source imports, a second import
// changes nothing, and a mistake in the call is a typed error.
func TestImportSources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	dir := t.TempDir()
	issues := filepath.Join(dir, "issues.json")
	write(t, issues, `[{"number": 7, "title": "Bus error in container", "body": "Fatal Python error: Bus error", "url": "https://github.com/o/r/issues/7", "state": "OPEN", "labels": [{"name": "rocm"}]}]`)
	docs := filepath.Join(dir, "docs")
	write(t, filepath.Join(docs, "faq.md"), "# FAQ\n")
	for _, src := range []string{"builtin:vllm", issues, docs} {
		first, err := Import(ctx, db, src, Options{DocsBaseURL: "https://docs.example.org"}, nil)
		if err != nil || first.Inserted == 0 {
			t.Fatalf("import %s: %v, %v", src, first, err)
		}
		again, err := Import(ctx, db, src, Options{DocsBaseURL: "https://docs.example.org"}, nil)
		if err != nil || again.Inserted != 0 || again.Updated != 0 {
			t.Errorf("re-import %s: %v, %v; want nothing new", src, again, err)
		}
	}
	if e, err := db.Entry(ctx, "o/r#7"); err != nil || e.Title != "Bus error in container" {
		t.Errorf("issue entry: %+v, %v", e, err)
	}
	if _, err := Import(ctx, db, docs, Options{}, nil); !errors.Is(err, ErrNeedsBaseURL) {
		t.Errorf("docs folder without a base URL: %v, want ErrNeedsBaseURL", err)
	}
	notes := filepath.Join(dir, "notes.txt")
	write(t, notes, "hello")
	if _, err := Import(ctx, db, notes, Options{}, nil); !errors.Is(err, ErrUnknownSource) {
		t.Errorf("a .txt file: %v, want ErrUnknownSource", err)
	}
	if _, err := Import(ctx, db, "builtin:nope", Options{}, nil); err == nil {
		t.Error("an unknown built-in pack imported")
	}
}

// TestOpenKBWithoutAPathHoldsTheBuiltins: the temporary knowledge base
// holds every embedded pack and is removed on close.
func TestOpenKBWithoutAPathHoldsTheBuiltins(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, closeDB, err := OpenKB(ctx, "", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	st, err := db.Stats(ctx)
	closeDB()
	if err != nil || st.Total == 0 || len(st.Packs) == 0 {
		t.Errorf("stats %+v, %v; want the embedded packs", st, err)
	}
	if _, _, err := OpenKB(ctx, filepath.Join(t.TempDir(), "missing.db"), io.Discard); err == nil {
		t.Error("a missing knowledge base opened")
	}
}

// TestStalenessNamesOlderReadings: entries an older Herald read from a
// source are counted by source, with how to refresh them, until they are
// imported again; pack entries, which are not read, never are.
func TestStalenessNamesOlderReadings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	if err := ImportBuiltins(ctx, db); err != nil {
		t.Fatal(err)
	}
	issue := knowledge.IssueEntry(knowledge.Issue{Repo: "o/r", Number: 7, Title: "[Bug]: GLM 4.7 crashes", URL: "https://github.com/o/r/issues/7"}, nil)
	old := issue
	old.Reading, old.Prior = 0, 0.6 // as an earlier Herald stored it
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{old}, nil); err != nil {
		t.Fatal(err)
	}
	warnings, err := Staleness(ctx, db, "kb.db")
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "1 github entries") || !strings.Contains(warnings[0], "herald kb import --db kb.db") {
		t.Errorf("warnings = %q; want one naming the github entry and the import command", warnings)
	}
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{issue}, nil); err != nil {
		t.Fatal(err)
	}
	if warnings, err := Staleness(ctx, db, "kb.db"); err != nil || len(warnings) != 0 {
		t.Errorf("after re-import: %q, %v", warnings, err)
	}
}

// TestStalePacks: a knowledge base holding an older copy of an embedded
// pack's schema is named until the pack is imported again.
func TestStalePacks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t)
	// refresh imports the embedded packs and wants none stale after it.
	refresh := func(when string) {
		t.Helper()
		if err := ImportBuiltins(ctx, db); err != nil {
			t.Fatal(err)
		}
		if stale, err := StalePacks(ctx, db); err != nil || len(stale) != 0 {
			t.Errorf("%s: stale %v, %v", when, stale, err)
		}
	}
	wantStale := func(what string) {
		t.Helper()
		if stale, err := StalePacks(ctx, db); err != nil || !slices.Equal(stale, []string{"vllm"}) {
			t.Errorf("%s: stale %v, %v; want [vllm]", what, stale, err)
		}
	}
	refresh("fresh import")
	p, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	old := p.Schema()
	old.Vocabulary.Package = knowledge.MainPackage{} // what an earlier Herald stored
	if err := db.SaveSchema(ctx, "vllm", old); err != nil {
		t.Fatal(err)
	}
	wantStale("older schema")
	refresh("after re-import")
	// An entry stored as an earlier pack had it (without its aliases).
	e := p.Entries[0]
	e.Aliases, e.Title = nil, e.Title+" (old)"
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{e}, nil); err != nil {
		t.Fatal(err)
	}
	wantStale("older entry")
	refresh("after importing the pack again")
}

// TestImportGitHubRevalidates: a repository's issues become entries whose
// labels name platforms through the pack's vocabulary; the next full
// import revalidates with the stored ETag and changes nothing.
func TestImportGitHubRevalidates(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		_, _ = io.WriteString(w, `[{"number": 5, "title": "[Bug]: HIP error on MI300", "body": "RuntimeError: HIP error: invalid device function",
			"html_url": "https://github.com/o/r/issues/5", "state": "open", "labels": [{"name": "rocm"}], "updated_at": "2026-11-01T00:00:00Z"}]`)
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()
	db := openDB(t)
	if err := ImportBuiltins(ctx, db); err != nil {
		t.Fatal(err)
	}
	c := github.NewClient(srv.URL, "", srv.Client())
	src := GitHubSource{Repo: "o/r", State: "all"}
	msg, err := ImportGitHub(ctx, db, c, src, time.Time{})
	if err != nil || !strings.Contains(msg, "1 issues") {
		t.Fatalf("first import: %q, %v", msg, err)
	}
	e, err := db.Entry(ctx, "o/r#5")
	if err != nil || !slices.Contains(e.Platforms, "rocm") {
		t.Fatalf("entry %+v, %v; want the rocm label read as a platform", e, err)
	}
	before := requests.Load()
	msg, err = ImportGitHub(ctx, db, c, src, time.Time{})
	if err != nil || !strings.Contains(msg, "not modified") || requests.Load() != before+1 {
		t.Errorf("second import: %q, %v, %d requests", msg, err, requests.Load()-before)
	}
}
