// Package service assembles Herald from its configuration and runs it:
// it opens the store and imports the configured knowledge, connects to the
// forum, builds the answerer and the bot, serves HTTP (health, metrics,
// the webhook and the admin page) and runs the cron schedules.
//
// It holds no policy of its own: the bot decides and acts, the config
// here only says which parts to build with which settings. Config reads
// the YAML file strictly (an unknown key or a duration without a unit is
// an error naming its line) and names the field of every invalid value.
package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Service is Herald built from a Config: the store with the configured
// knowledge imported, the forum client and the bot.
type Service struct {
	Config   *Config
	DB       *store.DB
	Client   *discourse.Client
	Bot      *bot.Bot
	Log      *slog.Logger
	Registry *prometheus.Registry
}

// Open builds the service of cfg. Close releases it.
func Open(ctx context.Context, cfg *Config, log *slog.Logger) (*Service, error) {
	model, err := LoadModel(cfg.Knowledge.Model)
	if err != nil {
		return nil, err
	}
	db, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, cfg, db, model, log)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func open(ctx context.Context, cfg *Config, db *store.DB, model *knowledge.Model, log *slog.Logger) (*Service, error) {
	for _, src := range cfg.Knowledge.Sources {
		st, err := importer.Import(ctx, db, src, importer.Options{}, nil)
		if err != nil {
			return nil, err
		}
		log.Info("knowledge imported", "source", src, "stats", st.String())
	}
	warnings, err := importer.Staleness(ctx, db, cfg.Store.Path)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		log.Warn(w)
	}
	client, err := discourse.NewClient(cfg.Discourse.URL,
		discourse.WithAPIKey(cfg.Discourse.APIKey, cfg.Discourse.Username),
		discourse.WithRequestBudget(cfg.Discourse.RequestsPerMinute, 5),
		discourse.WithTimeout(cfg.Discourse.Timeout.D()))
	if err != nil {
		return nil, err
	}
	b, reg, err := NewBot(ctx, client, db, BotConfig{Options: cfg.BotOptions(), Model: model, MaxReplyChars: cfg.Bot.MaxReplyChars}, log)
	if err != nil {
		return nil, err
	}
	return &Service{Config: cfg, DB: db, Client: client, Bot: b, Log: log, Registry: reg}, nil
}

// Close closes the store.
func (s *Service) Close() error { return s.DB.Close() }

// BotConfig is what NewBot builds a bot with besides its store and client.
type BotConfig struct {
	Options bot.Options
	// Model is knowledge.model; nil is the embedded model.
	Model         *knowledge.Model
	MaxReplyChars int
}

// NewBot builds the answerer and the bot over db and client, with its
// metrics (and the Go and process collectors) in a new registry.
func NewBot(ctx context.Context, client *discourse.Client, db *store.DB, c BotConfig, log *slog.Logger) (*bot.Bot, *prometheus.Registry, error) {
	a, err := bot.NewAnswerer(ctx, db, c.Options.Username)
	if err != nil {
		return nil, nil, err
	}
	source := "knowledge.model"
	if c.Model != nil {
		a.SetModel(c.Model)
	} else {
		source = "embedded, chosen for the knowledge base"
	}
	m, kb := a.Model(), a.Composition()
	log.Info("deciding with model", "source", source, "fitted_on", m.FittedOn, "reply", m.Reply, "queue_floor", m.QueueFloor,
		"kb_curated", kb.Curated, "kb_imported", kb.Imported)
	a.Engine.Compose.MaxChars = c.MaxReplyChars
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	b, err := bot.New(client, db, a, c.Options, log, bot.NewMetrics(reg))
	if err != nil {
		return nil, nil, err
	}
	return b, reg, nil
}

// BotOptions are the bot's options of the config.
func (cfg *Config) BotOptions() bot.Options {
	b := cfg.Bot
	return bot.Options{
		Username: cfg.Discourse.Username, Mode: bot.Mode(b.Mode), Whisper: b.Whisper, AutoPost: b.AutoPost,
		QueueFloor: b.QueueFloor, CategoryAutoPost: b.CategoryAutoPost, Categories: b.Categories, ExcludeCategories: b.ExcludeCategories,
		MinTrustLevel: b.MinTrustLevel, SkipStaff: b.SkipStaff, SkipTags: b.SkipTags, IgnoreUsers: b.IgnoreUsers,
		MaxPerTopic: b.MaxPerTopic, HourlyBudget: b.HourlyBudget, MaxMentionsPerUser: b.MaxMentionsPerUser,
		Backfill: b.Backfill.D(), Paused: b.Paused,
	}
}

// LoadModel reads the model file of knowledge.model; "" returns nil, the
// embedded model fitted with a knowledge base like the one opened
// (knowledge.DefaultModelFor).
func LoadModel(path string) (*knowledge.Model, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("knowledge.model: %w", err)
	}
	defer f.Close()
	m, err := knowledge.ReadModel(f)
	if err != nil {
		return nil, fmt.Errorf("knowledge.model %s: %w", path, err)
	}
	return m, nil
}

// NewLogger returns the logger of log.level and log.format ("json" or
// text) writing to w.
func NewLogger(level, format string, w io.Writer) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lv}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// CheckForum checks, at start, that the forum accepts the API key as the
// configured bot user, and that the user may whisper when whispers are
// on. A key the forum rejects is a configuration error named by its
// setting; an unreachable forum is not (it may come back): /healthz says
// so until it does.
func (s *Service) CheckForum(ctx context.Context) error {
	cfg := s.Config
	u, err := s.Client.CurrentUser(ctx)
	switch {
	case errors.Is(err, discourse.ErrInvalidKey), errors.Is(err, discourse.ErrForbidden), errors.Is(err, discourse.ErrNotFound):
		return &ValidationError{Field: "discourse.api_key", Err: fmt.Errorf("the forum at %s rejects the key for user %q: %w", cfg.Discourse.URL, cfg.Discourse.Username, err)}
	case err != nil:
		return nil // unreachable for now: serve /healthz "not ready" and keep trying
	case !strings.EqualFold(u.Username, cfg.Discourse.Username):
		return &ValidationError{Field: "discourse.username", Err: fmt.Errorf("the key acts as %q, not %q", u.Username, cfg.Discourse.Username)}
	case cfg.Bot.Whisper && !u.Staff:
		return &ValidationError{Field: "bot.whisper", Err: fmt.Errorf("%s is not staff, and only staff may post whispers", u.Username)}
	}
	return nil
}

// CategoryNames reads the forum's category names for the admin page; a
// forum that does not answer leaves the page showing ids.
func CategoryNames(ctx context.Context, client *discourse.Client, log *slog.Logger) map[int]string {
	cats, err := client.Categories(ctx)
	if err != nil {
		log.Warn("categories unavailable; the admin page shows ids", "err", err)
		return nil
	}
	names := make(map[int]string, len(cats))
	for _, c := range cats {
		names[c.ID] = c.Name
	}
	return names
}
