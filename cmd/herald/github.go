package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// GitHubSource is one repository kept in the knowledge base.
type GitHubSource struct {
	Repo     string   `yaml:"repo"`
	Labels   []string `yaml:"labels"`
	State    string   `yaml:"state"`
	Schedule string   `yaml:"schedule"` // cron; empty: import at start only
}

// importGitHub imports (or refreshes) a repository's issues, revalidating
// with the ETag of the previous import of the same query.
func importGitHub(ctx context.Context, db *store.DB, c *github.Client, src GitHubSource, since time.Time) (string, error) {
	key := "github:etag:" + src.Repo + ":" + strings.Join(src.Labels, ",") + ":" + src.State
	etag, err := db.Setting(ctx, key)
	if err != nil {
		return "", err
	}
	if !since.IsZero() {
		etag = "" // a different query
	}
	res, err := c.ListIssues(ctx, src.Repo, github.ListOptions{Labels: src.Labels, State: src.State, Since: since, ETag: etag})
	if err != nil {
		return "", err
	}
	if res.NotModified {
		return src.Repo + ": not modified since the last import", nil
	}
	entries := make([]knowledge.Entry, 0, len(res.Issues))
	for _, is := range res.Issues {
		if strings.TrimSpace(is.Title) != "" {
			entries = append(entries, knowledge.IssueEntry(src.Repo, is))
		}
	}
	st, err := db.UpsertEntries(ctx, entries, nil)
	if err != nil {
		return "", err
	}
	if since.IsZero() && res.ETag != "" {
		if err := db.SetSetting(ctx, key, res.ETag); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%s: %d issues in %d pages: %s", src.Repo, len(res.Issues), res.Pages, st), nil
}

// cmdImportGitHub is `herald kb import-github owner/repo [--label L]
// [--state all] [--since D] [--db PATH]`; the token comes from
// GITHUB_TOKEN.
func cmdImportGitHub(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("kb import-github", stderr)
	dbPath := fs.String("db", defaultDB, "database file")
	label := fs.String("label", "", "only issues with this label (comma-separated for several)")
	state := fs.String("state", "all", "open, closed or all")
	since := fs.String("since", "", "only issues updated since this date (YYYY-MM-DD)")
	api := fs.String("api", "", "GitHub API base URL (default https://api.github.com)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("kb import-github takes one owner/repo")
	}
	var sinceT time.Time
	if *since != "" {
		if sinceT, err = time.Parse("2006-01-02", *since); err != nil {
			return usagef("--since must be a date like 2026-01-31")
		}
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	src := GitHubSource{Repo: pos[0], State: *state}
	if *label != "" {
		src.Labels = strings.Split(*label, ",")
	}
	msg, err := importGitHub(ctx, db, github.NewClient(*api, os.Getenv("GITHUB_TOKEN"), nil), src, sinceT)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, msg)
	return err
}
