package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Answerer runs the whole answer pipeline for one post: extract facts,
// find candidates in an in-memory index of the knowledge base, rank,
// decide and compose. It is the one path every trigger (new topic,
// @mention, sweep) takes to produce a reply.
//
// The index is built when the Answerer is made; call Reload after the
// knowledge base changes. An Answerer is safe for concurrent use: Answer
// reads one immutable snapshot of the schema, index and priors, and
// Reload builds a new one and swaps it in whole. Engine and the candidate
// bounds are settings, set before the Answerer is shared.
type Answerer struct {
	DB     *store.DB
	Engine knowledge.Engine
	// Candidates bounds how many candidates are ranked, and Curated how
	// many curated entries are added beyond them.
	Candidates, Curated int

	snap atomic.Pointer[snapshot]
}

// snapshot is what Reload reads from the store; it is never modified
// after it is published.
type snapshot struct {
	schema *knowledge.Schema
	index  *knowledge.Index
	cache  *entryCache // safe for concurrent use
	// priors are outcome multipliers of entries' priors, by entry id.
	priors map[string]float64
	// kb is the knowledge base's make-up.
	kb knowledge.Composition
}

// Schema returns the program schemas and vocabulary the Answerer reads
// posts with.
func (a *Answerer) Schema() *knowledge.Schema { return a.snap.Load().schema }

// entryCacheSize bounds the decoded entries kept between posts.
const entryCacheSize = 4096

// NewAnswerer returns an Answerer over db using the program schemas stored
// with its packs, with its index built, deciding with the embedded model
// fitted with a knowledge base made like db's (knowledge.DefaultModelFor);
// SetModel replaces it. The model is chosen once: a Reload after a few
// learned topics does not change how the Answerer decides.
func NewAnswerer(ctx context.Context, db *store.DB, botName string) (*Answerer, error) {
	a := &Answerer{
		DB: db,
		Engine: knowledge.Engine{
			Thresholds: knowledge.DefaultThresholds(),
			Compose:    knowledge.ComposeOptions{BotName: botName},
		},
		Candidates: 50,
		Curated:    20,
	}
	if err := a.Reload(ctx); err != nil {
		return nil, err
	}
	a.SetModel(knowledge.DefaultModelFor(a.Composition()))
	return a, nil
}

// Composition returns the make-up of the knowledge base at the last
// Reload.
func (a *Answerer) Composition() knowledge.Composition { return a.snap.Load().kb }

// SetModel makes the Answerer rank, calibrate and decide with m (fitted
// by `herald kb fit`), including m's reply threshold.
func (a *Answerer) SetModel(m *knowledge.Model) {
	a.Engine.Model = m
	a.Engine.Thresholds.Reply = m.Reply
}

// Model returns the model the Answerer decides with. It only reads: the
// Answerer is shared between goroutines once built.
func (a *Answerer) Model() *knowledge.Model {
	if a.Engine.Model == nil {
		return knowledge.DefaultModel() // as Engine.Answer does
	}
	return a.Engine.Model
}

// Reload re-reads the schemas and rebuilds the index, and the error
// templates of every entry's symptoms, from the store.
func (a *Answerer) Reload(ctx context.Context) error {
	schema, err := a.DB.Schema(ctx)
	if err != nil {
		return fmt.Errorf("bot: load schemas: %w", err)
	}
	b := knowledge.NewIndexBuilder()
	var (
		templates knowledge.TemplateSet
		kb        knowledge.Composition
	)
	err = a.DB.EachEntry(ctx, func(rowid int64, e *knowledge.Entry) error {
		if rowid > math.MaxInt32 {
			return fmt.Errorf("bot: row id %d too large for the index", rowid)
		}
		b.Add(int32(rowid), e)
		templates.Add(e)
		if e.Curated() {
			kb.Curated++
		} else {
			kb.Imported++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bot: build index: %w", err)
	}
	// Every stored entry's symptoms name the classes of messages posts
	// paste without them, not only the packs' entries.
	schema.Templates = append(schema.Templates, templates.Templates()...)
	schema.Prepare()
	outcomes, err := a.DB.EntryOutcomes(ctx)
	if err != nil {
		return fmt.Errorf("bot: load outcomes: %w", err)
	}
	priors := make(map[string]float64, len(outcomes))
	for id, o := range outcomes {
		priors[id] = knowledge.OutcomePrior(o.Accepted, o.Liked, o.Negative)
	}
	a.snap.Store(&snapshot{schema: schema, index: b.Build(), cache: newEntryCache(entryCacheSize), priors: priors, kb: kb})
	return nil
}

// Answer answers one post. A truncated post is still answered from the
// facts that were read; the truncation shows in Answer.Facts.Truncated.
func (a *Answerer) Answer(ctx context.Context, p knowledge.Post) (knowledge.Answer, error) {
	snap := a.snap.Load()
	f, err := knowledge.Extract(p, snap.schema)
	if err != nil && !errors.Is(err, knowledge.ErrTruncated) {
		return knowledge.Answer{}, fmt.Errorf("bot: extract: %w", err)
	}
	hits := snap.index.Search(knowledge.PostKeys(p, &f), a.Candidates, a.Curated)
	var missing []int64
	for _, h := range hits {
		if _, ok := snap.cache.get(int64(h.ID)); !ok {
			missing = append(missing, int64(h.ID))
		}
	}
	read, err := a.DB.EntriesByRowID(ctx, missing)
	if err != nil {
		return knowledge.Answer{}, fmt.Errorf("bot: read candidates: %w", err)
	}
	for id, e := range read {
		snap.cache.put(id, e)
	}
	cands := make([]knowledge.Candidate, 0, len(hits))
	for _, h := range hits {
		e, ok := read[int64(h.ID)]
		if !ok {
			if e, ok = snap.cache.get(int64(h.ID)); !ok {
				continue // deleted since Reload
			}
		}
		if f, ok := snap.priors[e.ID]; ok {
			if e.Prior == 0 {
				e.Prior = 1
			}
			e.Prior *= f // outcomes of earlier citations
		}
		cands = append(cands, knowledge.Candidate{Entry: e, TextScore: h.Score, KeyScores: h.Kinds})
	}
	return a.Engine.Answer(p, f, cands), nil
}
