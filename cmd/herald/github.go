package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/store"
)

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
		if sinceT, err = parseDate(*since); err != nil {
			return err
		}
	}
	db, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	src := importer.GitHubSource{Repo: pos[0], State: *state}
	if *label != "" {
		src.Labels = strings.Split(*label, ",")
	}
	msg, err := importer.ImportGitHub(ctx, db, github.NewClient(*api, os.Getenv("GITHUB_TOKEN"), nil), src, sinceT)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, msg)
	return err
}
