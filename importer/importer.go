// Package importer turns knowledge sources into entries in the store: the
// embedded packs, YAML packs, the JSON `gh issue list` prints, folders of
// Markdown docs, and repositories read through GitHub's API.
//
// It owns the sources' wire formats (with the github package, which reads
// GitHub's); the knowledge engine only ever sees knowledge.Entry values.
// Importing is idempotent: entries are upserted by id, so a source read
// twice leaves the store as once.
package importer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Options are what some sources need besides their name.
type Options struct {
	// DocsBaseURL is where a folder of Markdown docs is published; it is
	// required for folders.
	DocsBaseURL string
}

// ErrUnknownSource is returned for a source that is none of the kinds
// Import reads, and ErrNeedsBaseURL for a docs folder without
// Options.DocsBaseURL; both are mistakes in how Import was called.
var (
	ErrUnknownSource = errors.New("unknown source type (want builtin:NAME, a .yaml pack, a .json GitHub issue list, or a folder of Markdown docs)")
	ErrNeedsBaseURL  = errors.New("a docs folder needs the URL its pages are published under (--docs-base-url)")
)

// Progress is told how many of a source's entries are stored so far.
type Progress func(done, total int)

// Import imports one source: builtin:NAME, a YAML pack, a JSON array of
// GitHub issues, or a folder of Markdown docs.
func Import(ctx context.Context, db *store.DB, src string, opts Options, progress Progress) (store.ImportStats, error) {
	if name, ok := strings.CutPrefix(src, "builtin:"); ok {
		p, err := knowledge.BuiltinPack(name)
		if err != nil {
			return store.ImportStats{}, err
		}
		return ImportPack(ctx, db, p, progress)
	}
	info, err := os.Stat(src)
	if err != nil {
		return store.ImportStats{}, fmt.Errorf("import %s: %w", src, err)
	}
	if info.IsDir() {
		if opts.DocsBaseURL == "" {
			return store.ImportStats{}, fmt.Errorf("import %s: %w", src, ErrNeedsBaseURL)
		}
		entries, err := ReadDocs(src, opts.DocsBaseURL)
		if err != nil {
			return store.ImportStats{}, err
		}
		return db.UpsertEntries(ctx, entries, progress)
	}
	ext := strings.ToLower(filepath.Ext(src))
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return store.ImportStats{}, fmt.Errorf("import %s: %w", src, ErrUnknownSource)
	}
	f, err := os.Open(src)
	if err != nil {
		return store.ImportStats{}, fmt.Errorf("import %s: %w", src, err)
	}
	defer f.Close()
	if ext == ".json" {
		issues, _, err := github.ParseIssueList(f)
		if err != nil {
			return store.ImportStats{}, fmt.Errorf("import %s: %w", src, err)
		}
		return importIssues(ctx, db, issues, progress)
	}
	p, err := knowledge.ParsePack(f)
	if err != nil {
		return store.ImportStats{}, fmt.Errorf("import %s: %w", src, err)
	}
	return ImportPack(ctx, db, p, progress)
}

// importIssues stores issues as entries, their labels read with the
// vocabulary of the packs imported so far (import packs first).
func importIssues(ctx context.Context, db *store.DB, issues []knowledge.Issue, progress Progress) (store.ImportStats, error) {
	schema, err := db.Schema(ctx)
	if err != nil {
		return store.ImportStats{}, err
	}
	entries := make([]knowledge.Entry, 0, len(issues))
	for _, is := range issues {
		if strings.TrimSpace(is.Title) != "" {
			entries = append(entries, knowledge.IssueEntry(is, &schema.Vocabulary))
		}
	}
	return db.UpsertEntries(ctx, entries, progress)
}

// ImportPack stores a pack's schema and its entries.
func ImportPack(ctx context.Context, db *store.DB, p *knowledge.Pack, progress Progress) (store.ImportStats, error) {
	if err := db.SaveSchema(ctx, p.Name, p.Schema()); err != nil {
		return store.ImportStats{}, err
	}
	return db.UpsertEntries(ctx, p.Entries, progress)
}

// ImportBuiltins imports every embedded pack.
func ImportBuiltins(ctx context.Context, db *store.DB) error {
	for _, name := range knowledge.BuiltinPacks() {
		if _, err := Import(ctx, db, "builtin:"+name, Options{}, nil); err != nil {
			return err
		}
	}
	return nil
}

// ReadDocs reads every .md file under dir as a docs entry whose id and URL
// are base joined with the file's path without its extension, as static
// site generators (MkDocs, Sphinx's dirhtml) publish them.
func ReadDocs(dir, base string) ([]knowledge.Entry, error) {
	var out []knowledge.Entry
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".md") {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		u := strings.TrimSuffix(base, "/") + "/" + strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel)) + "/"
		out = append(out, knowledge.DocEntry(u, u, string(body)))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("import docs %s: %w", dir, err)
	}
	return out, nil
}
