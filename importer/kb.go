package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// OpenKB opens the knowledge base at path, or, with no path, a temporary
// database holding the embedded packs; close closes it and removes a
// temporary one. A knowledge base holding an older copy of an embedded
// pack's schema (made by an earlier Herald) is read as it is, with a
// warning on warn: the schema's vocabulary is what posts are read with.
func OpenKB(ctx context.Context, path string, warn io.Writer) (db *store.DB, close func(), err error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, nil, fmt.Errorf("knowledge base %s: %w (create it with `herald kb import --db %s builtin:vllm`)", path, err, path)
		}
		db, err := store.Open(ctx, path)
		if err != nil {
			return nil, nil, err
		}
		warnings, err := Staleness(ctx, db, path)
		if err != nil {
			db.Close()
			return nil, nil, err
		}
		for _, w := range warnings {
			fmt.Fprintf(warn, "herald: warning: %s\n", w)
		}
		return db, func() { db.Close() }, nil
	}
	db, _, cleanup, err := OpenTemp(ctx, "herald-kb-")
	if err != nil {
		return nil, nil, fmt.Errorf("temporary knowledge base: %w", err)
	}
	if err := ImportBuiltins(ctx, db); err != nil {
		cleanup()
		return nil, nil, err
	}
	return db, cleanup, nil
}

// Staleness says, one sentence each, what in the knowledge base at path
// was built by an older Herald and how to refresh it: embedded packs whose
// stored schema differs from this binary's (StalePacks), and entries read
// from a source by an older reading (knowledge.Reading). Ranking such a
// base with this binary's model works but is not what the model was
// fitted for.
func Staleness(ctx context.Context, db *store.DB, path string) ([]string, error) {
	packs, err := StalePacks(ctx, db)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range packs {
		out = append(out, fmt.Sprintf("%s holds an older copy of the built-in pack %s; refresh it with `herald kb import --db %s builtin:%s`", path, name, path, name))
	}
	sources := knowledge.ReadSources()
	older, err := db.OlderReadings(ctx, sources, knowledge.Reading)
	if err != nil {
		return nil, err
	}
	for _, src := range sources {
		n := older[src]
		if n == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s holds %d %s entries read by an older Herald; %s", path, n, src, refreshHint(src, path)))
	}
	return out, nil
}

// refreshHint tells how entries of a source are read again.
func refreshHint(source, path string) string {
	switch source {
	case "github":
		return fmt.Sprintf("import their issues again (`herald kb import --db %s ISSUES.json` or `herald kb import-github`)", path)
	case "docs":
		return fmt.Sprintf("import the docs folder again (`herald kb import --db %s DOCS-FOLDER`)", path)
	case "forum":
		return "learn the solved topics again (`herald kb learn --since DATE`)"
	}
	return "import their source again"
}

// StalePacks names the embedded packs whose schema or entries in db
// differ from the ones built into this binary.
func StalePacks(ctx context.Context, db *store.DB) ([]string, error) {
	var stale []string
	for _, name := range knowledge.BuiltinPacks() {
		stored, err := db.PackSchema(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		p, err := knowledge.BuiltinPack(name)
		if err != nil {
			return nil, err
		}
		a, errA := json.Marshal(stored)
		b, errB := json.Marshal(p.Schema())
		if err := errors.Join(errA, errB); err != nil {
			return nil, fmt.Errorf("importer: compare schema %s: %w", name, err)
		}
		same := bytes.Equal(a, b)
		if same {
			if same, err = storedAsEmbedded(ctx, db, p); err != nil {
				return nil, err
			}
		}
		if !same {
			stale = append(stale, name)
		}
	}
	return stale, nil
}

// storedAsEmbedded reports whether db holds every entry of pack p as p
// has it, apart from what storing adds (the time, the source text).
func storedAsEmbedded(ctx context.Context, db *store.DB, p *knowledge.Pack) (bool, error) {
	for _, e := range p.Entries {
		stored, err := db.Entry(ctx, e.ID)
		if errors.Is(err, store.ErrNotFound) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		stored.SourceText, stored.UpdatedAt = "", time.Time{}
		e.UpdatedAt = time.Time{}
		a, errA := json.Marshal(stored)
		b, errB := json.Marshal(e)
		if err := errors.Join(errA, errB); err != nil {
			return false, fmt.Errorf("importer: compare entry %s: %w", e.ID, err)
		}
		if !bytes.Equal(a, b) {
			return false, nil
		}
	}
	return true, nil
}

// OpenTemp opens a new, empty database in a fresh temporary directory
// named after prefix; cleanup closes it and removes the directory.
func OpenTemp(ctx context.Context, prefix string) (db *store.DB, path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, "", nil, err
	}
	path = filepath.Join(dir, "herald.db")
	db, err = store.Open(ctx, path)
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", nil, err
	}
	return db, path, func() { db.Close(); os.RemoveAll(dir) }, nil
}
