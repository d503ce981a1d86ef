package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/store"
)

// newBotFromConfig builds the store, client, answerer and bot that `run`,
// `sweep` and `kb learn` share.
func newBotFromConfig(ctx context.Context, cfg *Config, log *slog.Logger) (*bot.Bot, *store.DB, error) {
	db, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return nil, nil, err
	}
	for _, src := range cfg.Knowledge.Sources {
		if _, err := importSource(ctx, db, src, importOptions{}, nil); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	client, err := discourse.NewClient(cfg.Discourse.URL,
		discourse.WithAPIKey(cfg.Discourse.APIKey, cfg.Discourse.Username),
		discourse.WithRequestBudget(cfg.Discourse.RequestsPerMinute, 5),
		discourse.WithTimeout(cfg.Discourse.Timeout.D()))
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	a, err := bot.NewAnswerer(ctx, db, cfg.Discourse.Username)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	model, err := loadModel(cfg.Knowledge.Model)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	a.SetModel(model)
	a.Engine.Compose.MaxChars = cfg.Bot.MaxReplyChars
	b, err := bot.New(client, db, a, botOptions(cfg), log, nil)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return b, db, nil
}

func sweepOptions(cfg *Config, dryRun bool) bot.SweepOptions {
	s := cfg.Sweeps.Unanswered
	return bot.SweepOptions{MinAge: s.MinAge.D(), MaxAge: s.MaxAge.D(), AllowedTags: s.AllowedTags, AutoPost: s.AutoPost, DryRun: dryRun}
}

// runSweep runs one sweep and, if configured, posts the digest.
func runSweep(ctx context.Context, b *bot.Bot, cfg *Config, dryRun bool, stdout io.Writer) error {
	if !dryRun {
		// Outcomes of recent replies feed the entries' priors.
		if _, err := b.CollectOutcomes(ctx, time.Now().Add(-cfg.Sweeps.Digest.Period.D())); err != nil {
			return err
		}
	}
	rep, err := b.Sweep(ctx, sweepOptions(cfg, dryRun))
	if err != nil {
		return err
	}
	md, err := b.Digest(ctx, rep, cfg.Sweeps.Digest.Period.D())
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "sweep: %d unanswered, %d drafts queued, %d topics tagged (resumed: %v)\n\n%s", len(rep.Unanswered), rep.Drafted, rep.Tagged, rep.Resumed, md)
	d := cfg.Sweeps.Digest
	if !dryRun && (d.CategoryID > 0 || d.Group != "") {
		// The digest is an action like any write: the runner posts it
		// (not in shadow mode, not while paused, once).
		if err := b.QueueDigest(ctx, md, d.CategoryID, d.Group, d.Period.D()); err != nil {
			return err
		}
		return b.RunActions(ctx)
	}
	return nil
}

// cmdSweep is `herald sweep --once [--dry-run] --config F`.
func cmdSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	once := fs.Bool("once", false, "run one sweep now and exit")
	dryRun := fs.Bool("dry-run", false, "record and change nothing; print what a sweep would do")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if !*once {
		return usagef("sweep runs on the schedule of `herald run`; use --once to run one now")
	}
	return withBot(ctx, *cfgPath, stderr, func(b *bot.Bot, cfg *Config) error {
		return runSweep(ctx, b, cfg, *dryRun, stdout)
	})
}

// withBot loads the config, builds the bot, runs fn and closes the store.
func withBot(ctx context.Context, cfgPath string, stderr io.Writer, fn func(*bot.Bot, *Config) error) error {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return err
	}
	b, db, err := newBotFromConfig(ctx, cfg, newLogger(cfg.Log.Level, cfg.Log.Format, stderr))
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(b, cfg)
}

// cmdLearn is `herald kb learn --since DATE --config F`.
func cmdLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("kb learn", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	since := fs.String("since", "", "propose entries from topics solved since this date (YYYY-MM-DD)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	t, err := time.Parse("2006-01-02", *since)
	if err != nil {
		return usagef("--since must be a date like 2026-01-31")
	}
	return withBot(ctx, *cfgPath, stderr, func(b *bot.Bot, _ *Config) error {
		n, err := b.Learn(ctx, t)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%d knowledge entries proposed from solved topics; review them in the queue (kind learn)\n", n)
		return err
	})
}

// cronLogger adapts slog to robfig/cron's logger.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug(msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error(msg, append(kv, "err", err)...)
}

// startSchedules runs the configured sweeps, digests and learning on
// their cron schedules until ctx is done. Jobs never overlap, recover from
// panics, and get a context that ends with ctx.
func startSchedules(ctx context.Context, b *bot.Bot, cfg *Config, log *slog.Logger) (func(), error) {
	loc := time.Local
	if cfg.Sweeps.Timezone != "" {
		l, err := time.LoadLocation(cfg.Sweeps.Timezone)
		if err != nil {
			return nil, &ValidationError{Field: "sweeps.timezone", Err: err}
		}
		loc = l
	}
	lg := cronLogger{log.With("component", "cron")}
	c := cron.New(cron.WithLocation(loc), cron.WithLogger(lg), cron.WithChain(cron.Recover(lg), cron.SkipIfStillRunning(lg)))
	add := func(field, spec string, job func(context.Context) error) error {
		if spec == "" {
			return nil
		}
		_, err := c.AddFunc(spec, func() {
			jctx, cancel := context.WithTimeout(ctx, time.Hour)
			defer cancel()
			if err := job(jctx); err != nil && ctx.Err() == nil {
				log.Warn("scheduled job failed", "job", field, "err", err)
			}
		})
		if err != nil {
			return &ValidationError{Field: field, Err: err}
		}
		return nil
	}
	if err := add("sweeps.unanswered.schedule", cfg.Sweeps.Unanswered.Schedule, func(ctx context.Context) error {
		return runSweep(ctx, b, cfg, false, io.Discard)
	}); err != nil {
		return nil, err
	}
	if err := add("sweeps.learn.schedule", cfg.Sweeps.Learn.Schedule, func(ctx context.Context) error {
		_, err := b.Learn(ctx, time.Now().Add(-cfg.Sweeps.Learn.Window.D()))
		return err
	}); err != nil {
		return nil, err
	}
	gh := github.NewClient("", os.Getenv("GITHUB_TOKEN"), nil)
	for i, src := range cfg.Knowledge.GitHub {
		if err := add(fmt.Sprintf("knowledge.github[%d].schedule", i), src.Schedule, func(ctx context.Context) error {
			msg, err := importGitHub(ctx, b.Store(), gh, src, time.Time{})
			if err == nil {
				log.Info("github refresh", "result", msg)
				err = b.ReloadKnowledge(ctx)
			}
			return err
		}); err != nil {
			return nil, err
		}
	}
	c.Start()
	return func() { <-c.Stop().Done() }, nil
}
