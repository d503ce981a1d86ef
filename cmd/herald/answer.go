package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
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

	db, cleanup, err := importer.OpenKB(ctx, *kbPath)
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
