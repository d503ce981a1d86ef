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
	"github.com/heraldbot/herald/service"
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
	modelPath := fs.String("model", "", "model file made by `herald kb fit` (default: the embedded model fitted with a knowledge base like --kb's)")
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
	model, err := service.LoadModel(*modelPath)
	if err != nil {
		return err
	}

	a, closeKB, err := openAnswerer(ctx, *kbPath, *botName, stderr)
	if err != nil {
		return err
	}
	defer closeKB()
	if model != nil {
		a.SetModel(model)
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
	_, err = io.WriteString(stdout, a.Preview(ans))
	return err
}

// openAnswerer opens the knowledge base at kb ("" for the embedded packs)
// and an Answerer over it; closeKB releases the knowledge base.
func openAnswerer(ctx context.Context, kb, botName string, stderr io.Writer) (a *bot.Answerer, closeKB func(), err error) {
	db, closeKB, err := importer.OpenKB(ctx, kb, stderr)
	if err != nil {
		return nil, nil, err
	}
	a, err = bot.NewAnswerer(ctx, db, botName)
	if err != nil {
		closeKB()
		return nil, nil, err
	}
	return a, closeKB, nil
}
