package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// maxInputBytes bounds what answer reads from a file or stdin; Extract
// itself keeps the head and tail of anything over knowledge.MaxPostBytes.
const maxInputBytes = 16 << 20

func cmdAnswer(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("answer", stderr)
	title := fs.String("title", "", "topic title")
	kbPath := fs.String("kb", "", "knowledge base made by `herald kb import` (default: the embedded vLLM pack)")
	format := fs.String("format", "markdown", "output: markdown or json")
	botName := fs.String("bot", "herald", "the bot's forum username, named in the follow-up hint")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *format != "markdown" && *format != "json" {
		return usagef("--format must be markdown or json, not %q", *format)
	}
	if len(pos) > 1 {
		return usagef("answer takes one FILE, got %d", len(pos))
	}
	var in io.Reader = stdin
	if len(pos) == 1 && pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return fmt.Errorf("answer: %w", err)
		}
		defer f.Close()
		in = f
	}
	body, err := io.ReadAll(io.LimitReader(in, maxInputBytes))
	if err != nil {
		return fmt.Errorf("answer: read post: %w", err)
	}

	db, cleanup, err := openKB(ctx, *kbPath)
	if err != nil {
		return err
	}
	defer cleanup()
	a, err := bot.NewAnswerer(ctx, db, *botName)
	if err != nil {
		return err
	}
	ans, err := a.Answer(ctx, knowledge.Post{Title: *title, Body: string(body)})
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(ans)
	}
	return writeMarkdown(stdout, ans, a)
}

// writeMarkdown prints the reply, or why there is none and the draft staff
// would find in the approval queue.
func writeMarkdown(w io.Writer, ans knowledge.Answer, a *bot.Answerer) error {
	switch ans.Decision {
	case knowledge.DecisionReply:
		_, err := io.WriteString(w, ans.Reply)
		return err
	case knowledge.DecisionIgnore:
		_, err := fmt.Fprintln(w, "<!-- herald: ignore — this does not look like a support question; no reply -->")
		return err
	}
	m := a.Model()
	draft := a.Draft(ans, m.QueueFloor)
	if draft == "" {
		_, err := fmt.Fprintf(w, "<!-- herald: abstain — confidence %.3f is below the reply threshold %.3f and the queue floor %.3f; no reply, no draft -->\n",
			ans.Confidence, a.Engine.Thresholds.Reply, m.QueueFloor)
		return err
	}
	_, err := fmt.Fprintf(w, "<!-- herald: abstain — confidence %.3f is below the reply threshold %.3f, so nothing is posted; staff would find this draft in the approval queue -->\n\n%s",
		ans.Confidence, a.Engine.Thresholds.Reply, draft)
	return err
}

// openKB opens the knowledge base at path, or, with no path, a temporary
// database holding the embedded packs, removed by cleanup.
func openKB(ctx context.Context, path string) (*store.DB, func(), error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return nil, nil, fmt.Errorf("knowledge base %s: %w (create it with `herald kb import --db %s builtin:vllm`)", path, err, path)
		}
		db, err := store.Open(ctx, path)
		if err != nil {
			return nil, nil, err
		}
		return db, func() { db.Close() }, nil
	}
	db, _, cleanup, err := openTempDB(ctx, "herald-kb-")
	if err != nil {
		return nil, nil, fmt.Errorf("temporary knowledge base: %w", err)
	}
	for _, name := range knowledge.BuiltinPacks() {
		if _, err := importSource(ctx, db, "builtin:"+name, importOptions{}, nil); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	return db, cleanup, nil
}

// openTempDB opens a new database in a fresh temporary directory named
// after prefix; cleanup closes it and removes the directory.
func openTempDB(ctx context.Context, prefix string) (db *store.DB, path string, cleanup func(), err error) {
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
