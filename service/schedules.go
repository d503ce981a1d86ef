package service

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/importer"
)

// Sweep runs one sweep of unanswered topics, writes its report and the
// digest to w, and, unless dryRun, queues the digest where the config
// says and runs the actions that are due.
func (s *Service) Sweep(ctx context.Context, dryRun bool, w io.Writer) error {
	cfg, b := s.Config, s.Bot
	if !dryRun {
		// Outcomes of recent replies feed the entries' priors.
		if _, err := b.CollectOutcomes(ctx, time.Now().Add(-cfg.Sweeps.Digest.Period.D())); err != nil {
			return err
		}
	}
	u := cfg.Sweeps.Unanswered
	rep, err := b.Sweep(ctx, bot.SweepOptions{MinAge: u.MinAge.D(), MaxAge: u.MaxAge.D(), AllowedTags: u.AllowedTags, AutoPost: u.AutoPost, DryRun: dryRun})
	if err != nil {
		return err
	}
	md, err := b.Digest(ctx, rep, cfg.Sweeps.Digest.Period.D())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sweep: %d unanswered, %d drafts queued, %d topics tagged (resumed: %v)\n\n%s", len(rep.Unanswered), rep.Drafted, rep.Tagged, rep.Resumed, md)
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

// cronLogger adapts slog to robfig/cron's logger.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug(msg, kv...) }
func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error(msg, append(kv, "err", err)...)
}

// StartSchedules runs the configured sweeps, digests, learning and GitHub
// refreshes on their cron schedules until ctx is done. Jobs never overlap,
// recover from panics, and get a context that ends with ctx. The returned
// func stops the schedules and waits for running jobs.
func (s *Service) StartSchedules(ctx context.Context) (func(), error) {
	cfg, log := s.Config, s.Log
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
		return s.Sweep(ctx, false, io.Discard)
	}); err != nil {
		return nil, err
	}
	if err := add("sweeps.learn.schedule", cfg.Sweeps.Learn.Schedule, func(ctx context.Context) error {
		_, err := s.Bot.Learn(ctx, time.Now().Add(-cfg.Sweeps.Learn.Window.D()))
		return err
	}); err != nil {
		return nil, err
	}
	gh := github.NewClient("", os.Getenv("GITHUB_TOKEN"), nil)
	for i, src := range cfg.Knowledge.GitHub {
		if err := add(fmt.Sprintf("knowledge.github[%d].schedule", i), src.Schedule, func(ctx context.Context) error {
			msg, err := importer.ImportGitHub(ctx, s.DB, gh, src, time.Time{})
			if err == nil {
				log.Info("github refresh", "result", msg)
				err = s.Bot.ReloadKnowledge(ctx)
			}
			return err
		}); err != nil {
			return nil, err
		}
	}
	c.Start()
	return func() { <-c.Stop().Done() }, nil
}
