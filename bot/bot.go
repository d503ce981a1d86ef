package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Mode says what the bot may post.
type Mode string

// Modes.
const (
	// ModeShadow decides and logs, posts nothing (the default).
	ModeShadow Mode = "shadow"
	// ModeQueue puts every reply in the approval queue.
	ModeQueue Mode = "queue"
	// ModeAuto posts confident replies, queues the rest.
	ModeAuto Mode = "auto"
)

// Options are the bot's policy. The zero value is completed by defaults.
type Options struct {
	Username string // the bot's own forum account
	Mode     Mode
	// Whisper posts replies as staff-only whispers.
	Whisper bool
	// AutoPost is the confidence at or above which auto mode posts
	// without approval; QueueFloor the confidence below which a draft is
	// dropped (the reason kept) instead of queued. Zero means the
	// thresholds fitted into the Answerer's model.
	AutoPost, QueueFloor float64
	// CategoryAutoPost overrides AutoPost per category id.
	CategoryAutoPost map[int]float64
	// Categories limits new-topic triage to these category ids (empty:
	// all); ExcludeCategories are never triaged.
	Categories, ExcludeCategories []int
	// MinTrustLevel skips posters below it; SkipStaff skips staff posts.
	MinTrustLevel int
	SkipStaff     bool
	// SkipTags: topics carrying one of these tags are left alone.
	SkipTags []string
	// IgnoreUsers are other bots and system accounts never answered.
	IgnoreUsers []string
	// MaxPerTopic bounds bot posts in one topic; HourlyBudget bounds bot
	// posts per hour overall; MaxMentionsPerUser bounds the answers to one
	// account's mentions and replies in a day.
	MaxPerTopic, HourlyBudget, MaxMentionsPerUser int
	// Backfill, on the first start, triages topics created this long ago
	// instead of starting at the newest post.
	Backfill time.Duration
	// MaxPages bounds how far back one poll pages (50 posts a page).
	MaxPages int
	// Paused is the kill switch from the config file; the store's
	// "paused" setting (herald pause) is the one staff flip at run time.
	Paused bool
}

// DefaultOptions is the bot's default policy, the one place its numbers
// are set; the config file's defaults are read from it. The thresholds
// are not here: they come fitted with the knowledge model.
//
// Why these numbers: shadow mode until staff choose otherwise; three bot
// posts in one topic is a reply and two follow-ups; 30 posts an hour is
// well under Discourse's shared 60-a-minute API budget and more than a
// busy support forum's new topics; five answered mentions a day keep one
// account from turning the bot into a chat; 100 pages of 50 posts bound
// one poll after a long outage.
func DefaultOptions() Options {
	return Options{Mode: ModeShadow, MaxPerTopic: 3, HourlyBudget: 30, MaxMentionsPerUser: 5, MaxPages: 100}
}

func (o *Options) defaults(m *knowledge.Model) {
	d := DefaultOptions()
	if o.Mode == "" {
		o.Mode = d.Mode
	}
	if o.AutoPost == 0 {
		o.AutoPost = m.Reply
	}
	if o.QueueFloor == 0 {
		o.QueueFloor = m.QueueFloor
	}
	if o.MaxPerTopic == 0 {
		o.MaxPerTopic = d.MaxPerTopic
	}
	if o.HourlyBudget == 0 {
		o.HourlyBudget = d.HourlyBudget
	}
	if o.MaxMentionsPerUser == 0 {
		o.MaxMentionsPerUser = d.MaxMentionsPerUser
	}
	if o.MaxPages == 0 {
		o.MaxPages = d.MaxPages
	}
	o.IgnoreUsers = append(o.IgnoreUsers, "system", "discobot")
}

// Bot is the long-running forum bot.
type Bot struct {
	client   *discourse.Client
	db       *store.DB
	answerer *Answerer
	opts     Options
	log      *slog.Logger
	metrics  *Metrics
	now      func() time.Time
	wake     chan struct{}
	health   health
	kinds    map[string]performer
}

// New returns a bot. metrics may be nil.
func New(client *discourse.Client, db *store.DB, a *Answerer, opts Options, log *slog.Logger, metrics *Metrics) (*Bot, error) {
	opts.defaults(a.Model())
	if opts.Username == "" {
		return nil, errors.New("bot: the bot's username is required")
	}
	switch opts.Mode {
	case ModeShadow, ModeQueue, ModeAuto:
	default:
		return nil, fmt.Errorf("bot: unknown mode %q", opts.Mode)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if metrics == nil {
		metrics = NewMetrics(nil)
	}
	b := &Bot{client: client, db: db, answerer: a, opts: opts, log: log.With("component", "bot"),
		metrics: metrics, now: time.Now, wake: make(chan struct{}, 1)}
	b.kinds = b.performers()
	return b, nil
}

// SetClock replaces time.Now (tests).
func (b *Bot) SetClock(now func() time.Time) { b.now = now }

// Wake asks a running bot to poll now (a webhook arrived); it never blocks.
func (b *Bot) Wake() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// Run polls every interval until ctx is done.
func (b *Bot) Run(ctx context.Context, interval time.Duration) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := b.Cycle(ctx); err != nil && ctx.Err() == nil {
			b.log.Warn("cycle failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		case <-b.wake:
		}
	}
}

// Cycle polls once and performs the approved actions.
func (b *Bot) Cycle(ctx context.Context) error {
	perr := b.Poll(ctx)
	b.health.observe(perr)
	rerr := b.RunActions(ctx)
	b.updateQueueDepth(ctx)
	return errors.Join(perr, rerr)
}

// Ready reports whether the bot's last poll reached the forum with its key
// accepted, and if not, why: what /healthz answers.
func (b *Bot) Ready() (bool, string) { return b.health.get() }

// health is the outcome of the last poll, read by /healthz.
type health struct {
	mu     sync.Mutex
	ok     bool
	reason string
}

func (h *health) observe(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var rl *discourse.RateLimitError
	switch {
	case err == nil, errors.As(err, &rl):
		h.ok, h.reason = true, "" // rate limited is reachable and authorised
	case errors.Is(err, discourse.ErrInvalidKey), errors.Is(err, discourse.ErrForbidden):
		h.ok, h.reason = false, "the forum rejects the API key or its username (discourse.api_key, discourse.username): "+err.Error()
	case errors.Is(err, context.Canceled):
	default:
		h.ok, h.reason = false, "the forum is unreachable or failing (discourse.url): "+err.Error()
	}
}

func (h *health) get() (bool, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.ok && h.reason == "" {
		return false, "starting: the forum has not been polled yet"
	}
	return h.ok, h.reason
}

// Paused reports whether staff have paused the bot (herald pause).
func (b *Bot) Paused(ctx context.Context) (bool, error) {
	if b.opts.Paused {
		return true, nil
	}
	v, err := b.db.Setting(ctx, "paused")
	return v == "true", err
}

func (b *Bot) isBot(username string) bool {
	return strings.EqualFold(username, b.opts.Username) || slices.ContainsFunc(b.opts.IgnoreUsers, func(u string) bool {
		return strings.EqualFold(u, username)
	})
}

// autoPost returns the auto-post confidence for a category.
func (b *Bot) autoPost(categoryID int) float64 {
	if v, ok := b.opts.CategoryAutoPost[categoryID]; ok {
		return v
	}
	return b.opts.AutoPost
}

func (b *Bot) inScope(categoryID int) bool {
	if slices.Contains(b.opts.ExcludeCategories, categoryID) {
		return false
	}
	return len(b.opts.Categories) == 0 || slices.Contains(b.opts.Categories, categoryID)
}

func (b *Bot) countAPIError(err error) {
	if err == nil {
		return
	}
	var rl *discourse.RateLimitError
	if errors.As(err, &rl) {
		b.metrics.RateLimitWaits.Inc()
		return
	}
	b.metrics.APIErrors.Inc()
}

func (b *Bot) updateQueueDepth(ctx context.Context) {
	if counts, err := b.db.CountActions(ctx); err == nil {
		b.metrics.QueueDepth.Set(float64(counts[store.StatePending]))
	}
}

// Mode is the mode the bot was built with.
func (b *Bot) Mode() Mode { return b.opts.Mode }

// ReloadKnowledge rebuilds the answerer's index after the knowledge base
// changed underneath it (an import).
func (b *Bot) ReloadKnowledge(ctx context.Context) error { return b.answerer.Reload(ctx) }
