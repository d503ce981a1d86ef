package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/heraldbot/herald/knowledge"
)

// mustOpen opens a fresh database in a temporary directory.
func mustOpen(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), "herald.db"))
	if err != nil {
		tb.Fatal(err)
	}
	db.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestOpenSetsPragmasAndMigratesOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	for i := 0; i < 2; i++ { // the second open must find the schema current
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		var fk, busy int
		var sync int
		if err := db.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
			t.Fatal(err)
		}
		if err := db.db.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
			t.Fatal(err)
		}
		if err := db.db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
			t.Fatal(err)
		}
		if fk != 1 || busy != 10000 || sync != 1 {
			t.Errorf("pragmas foreign_keys=%d busy_timeout=%d synchronous=%d", fk, busy, sync)
		}
		var n int
		if err := db.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
			t.Fatal(err)
		}
		files, _ := fs.Glob(migrations, "migrations/*.sql")
		if n != len(files) {
			t.Errorf("schema_migrations has %d rows, want %d", n, len(files))
		}
		db.Close()
	}
}

func entry(id, title string, source string) knowledge.Entry {
	return knowledge.Entry{ID: id, Kind: knowledge.KindIssue, URL: "https://github.com/o/r/issues/1",
		Title: title, Source: source, Prior: 1, Flags: []string{"--cpu-offload-gb"},
		Symptoms: []string{"torch.OutOfMemoryError: CUDA out of memory"}}
}

func TestUpsertIsIdempotentAndCuratedWins(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	curated := entry("o/r#1", "curated title", "pack:vllm")
	st, err := db.UpsertEntries(ctx, []knowledge.Entry{curated, entry("o/r#2", "cpu offload ignored", "github")}, nil)
	if err != nil || st.Inserted != 2 {
		t.Fatalf("first import: %+v, %v", st, err)
	}
	st, err = db.UpsertEntries(ctx, []knowledge.Entry{curated}, nil)
	if err != nil || st.Unchanged != 1 {
		t.Fatalf("re-import: %+v, %v", st, err)
	}
	st, err = db.UpsertEntries(ctx, []knowledge.Entry{entry("o/r#1", "bulk title", "github")}, nil)
	if err != nil || st.Kept != 1 {
		t.Fatalf("bulk over curated: %+v, %v", st, err)
	}
	e, err := db.Entry(ctx, "o/r#1")
	if err != nil || e.Title != "curated title" {
		t.Fatalf("entry = %+v, %v; the curated title must win", e, err)
	}
	updated := entry("o/r#2", "cpu offload silently ignored", "github")
	if st, err := db.UpsertEntries(ctx, []knowledge.Entry{updated}, nil); err != nil || st.Updated != 1 {
		t.Fatalf("update: %+v, %v", st, err)
	}
	// The index follows the update: the new word is found, nothing is doubled.
	cands, err := db.SearchText(ctx, "silently", 10)
	if err != nil || len(cands) != 1 || cands[0].Entry.ID != "o/r#2" {
		t.Fatalf("search after update = %+v, %v", cands, err)
	}
	cands, err = db.SearchText(ctx, "cpu offload gb", 10)
	if err != nil || len(cands) != 2 {
		t.Fatalf("search = %d candidates, %v; want 2 (no duplicates)", len(cands), err)
	}
	if _, err := db.Entry(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing entry: %v, want ErrNotFound", err)
	}
	stats, err := db.Stats(ctx)
	if err != nil || stats.Total != 2 || stats.BySource["github"] != 1 {
		t.Errorf("stats = %+v, %v", stats, err)
	}
}

// TestCuratedKeepsSourceText: an import that meets a curated entry leaves
// its text on it for search, whichever came first; the curated fields
// win either way, and importing the same again changes nothing.
func TestCuratedKeepsSourceText(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	imported := entry("o/r#1", "bulk title", "github")
	imported.Body = "Traceback ... RuntimeError: zygomorphic kernel failure"
	curated := entry("o/r#1", "curated title", "pack:vllm")
	for _, order := range [][]knowledge.Entry{{curated, imported}, {imported, curated}} {
		db := mustOpen(t)
		for _, e := range order {
			if _, err := db.UpsertEntries(ctx, []knowledge.Entry{e}, nil); err != nil {
				t.Fatal(err)
			}
		}
		e, err := db.Entry(ctx, "o/r#1")
		if err != nil || e.Title != "curated title" || e.SourceText != imported.Body {
			t.Fatalf("%s then %s: entry = %+v, %v; want the curated title and the imported text", order[0].Source, order[1].Source, e, err)
		}
		cands, err := db.SearchText(ctx, "zygomorphic", 10)
		if err != nil || len(cands) != 1 || cands[0].Entry.ID != "o/r#1" {
			t.Errorf("search for the source's word = %+v, %v", cands, err)
		}
		for _, again := range order {
			st, err := db.UpsertEntries(ctx, []knowledge.Entry{again}, nil)
			if err != nil || st.Inserted+st.Updated != 0 {
				t.Errorf("importing %s again: %+v, %v; want nothing changed", again.Source, st, err)
			}
		}
	}
}

// TestAliasesHoldOneEntryPerPage: an import at another address of a
// curated entry (a renamed docs page) is that entry's source, whether it
// came before the curated entry or after: one entry, the curated fields,
// the page's text for search.
func TestAliasesHoldOneEntryPerPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	curated := knowledge.Entry{ID: "https://docs.example.org/old.html", Kind: knowledge.KindDocs, URL: "https://docs.example.org/old.html",
		Title: "Old page", Source: "pack:vllm", Aliases: []string{"https://docs.example.org/new/"}}
	page := knowledge.Entry{ID: "https://docs.example.org/new/", Kind: knowledge.KindDocs, URL: "https://docs.example.org/new/",
		Title: "New page", Source: "docs", Body: "run the container with a zygomorphic shm size"}
	for _, order := range [][]knowledge.Entry{{curated, page}, {page, curated}} {
		db := mustOpen(t)
		for _, e := range order {
			if _, err := db.UpsertEntries(ctx, []knowledge.Entry{e}, nil); err != nil {
				t.Fatal(err)
			}
		}
		stats, err := db.Stats(ctx)
		if err != nil || stats.Total != 1 {
			t.Fatalf("%s then %s: %d entries, %v; want one per page", order[0].Source, order[1].Source, stats.Total, err)
		}
		e, err := db.Entry(ctx, curated.ID)
		if err != nil || e.Title != "Old page" || e.SourceText != page.Body {
			t.Errorf("%s then %s: entry = %+v, %v", order[0].Source, order[1].Source, e, err)
		}
		if _, err := db.Entry(ctx, page.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the page's own entry: %v, want ErrNotFound", err)
		}
		if st, err := db.UpsertEntries(ctx, []knowledge.Entry{page}, nil); err != nil || st.Kept != 1 || st.Inserted != 0 {
			t.Errorf("the page again: %+v, %v; want it kept on the curated entry", st, err)
		}
		// A link to either address names the curated entry.
		for _, u := range []string{"https://docs.example.org/old.html", "https://docs.example.org/new", "https://docs.example.org/new/"} {
			if id, err := db.EntryIDByURL(ctx, u); err != nil || id != curated.ID {
				t.Errorf("EntryIDByURL(%s) = %q, %v; want %s", u, id, err, curated.ID)
			}
		}
		if id, err := db.EntryIDByURL(ctx, "https://blog.example/x"); err != nil || id != "" {
			t.Errorf("an address no entry has: %q, %v", id, err)
		}
	}
}

func TestSearchQuotesHostileTerms(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	if _, err := db.UpsertEntries(ctx, []knowledge.Entry{entry("o/r#1", "NEAR AND OR", "github")}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`"`, `NEAR(`, `a OR`, `*`, `title:x`, "\x00", `"""`} {
		if _, err := db.SearchText(ctx, q, 5); err != nil {
			t.Errorf("SearchText(%q): %v", q, err)
		}
	}
}

func TestConcurrentImports(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var batch []knowledge.Entry
			for i := 0; i < 200; i++ {
				batch = append(batch, entry(fmtID(w, i), "title", "github"))
			}
			_, err := db.UpsertEntries(ctx, batch, nil)
			errs <- err
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st, err := db.Stats(ctx)
	if err != nil || st.Total != 800 {
		t.Fatalf("stats = %+v, %v; want 800 entries", st, err)
	}
}

func fmtID(w, i int) string { return fmt.Sprintf("o/r#%d-%d", w, i) }

func TestSchemaRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := mustOpen(t)
	p, err := knowledge.BuiltinPack("vllm")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveSchema(ctx, p.Name, p.Schema()); err != nil {
		t.Fatal(err)
	}
	s, err := db.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Programs) != len(p.Programs) || len(s.Topics) != len(p.Topics) {
		t.Errorf("schema round trip lost data: %d programs, %d topics", len(s.Programs), len(s.Topics))
	}
}

// TestNoncesExpireAndAreBounded: anyone can start a login, so expired
// nonces are deleted and at most MaxPendingLogins are kept.
func TestNoncesExpireAndAreBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	for i := range MaxPendingLogins {
		if err := db.PutNonce(ctx, fmt.Sprintf("n%d", i), now.Add(10*time.Minute)); err != nil {
			t.Fatalf("nonce %d: %v", i, err)
		}
	}
	if err := db.PutNonce(ctx, "one-too-many", now.Add(10*time.Minute)); !errors.Is(err, ErrTooManyLogins) {
		t.Fatalf("nonce past the bound: %v, want ErrTooManyLogins", err)
	}
	now = now.Add(11 * time.Minute) // all expired
	if err := db.PutNonce(ctx, "fresh", now.Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if n, err := db.PendingNonces(ctx); err != nil || n != 1 {
		t.Errorf("pending nonces = %d, %v; want the expired ones deleted", n, err)
	}
	if ok, _ := db.TakeNonce(ctx, "fresh", now); !ok {
		t.Error("the fresh nonce was not kept")
	}
}
