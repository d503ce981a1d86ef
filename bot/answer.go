package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Answerer runs the whole answer pipeline for one post: extract facts,
// fetch full-text candidates from the knowledge base, rank, decide and
// compose. It is the one path every trigger (new topic, @mention, sweep)
// takes to produce a reply.
type Answerer struct {
	DB     *store.DB
	Engine knowledge.Engine
	// Candidates bounds how many full-text candidates are ranked.
	Candidates int
}

// NewAnswerer returns an Answerer over db using the program schemas stored
// with its packs and the default thresholds.
func NewAnswerer(ctx context.Context, db *store.DB, botName string) (*Answerer, error) {
	schema, err := db.Schema(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: load schemas: %w", err)
	}
	return &Answerer{
		DB: db,
		Engine: knowledge.Engine{
			Schema:     schema,
			Thresholds: knowledge.DefaultThresholds(),
			Compose:    knowledge.ComposeOptions{BotName: botName},
		},
		Candidates: 60,
	}, nil
}

// Answer answers one post. A truncated post is still answered from the
// facts that were read; the truncation shows in Answer.Facts.Truncated.
func (a *Answerer) Answer(ctx context.Context, p knowledge.Post) (knowledge.Answer, error) {
	f, err := knowledge.Extract(p, a.Engine.Schema)
	if err != nil && !errors.Is(err, knowledge.ErrTruncated) {
		return knowledge.Answer{}, fmt.Errorf("bot: extract: %w", err)
	}
	terms := knowledge.SearchTerms(p.Title, &f)
	cands, err := a.DB.SearchKB(ctx, terms, a.Candidates)
	if err != nil {
		return knowledge.Answer{}, fmt.Errorf("bot: search knowledge base: %w", err)
	}
	return a.Engine.Answer(p, f, cands), nil
}
