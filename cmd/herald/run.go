package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/heraldbot/herald/service"
)

// cmdRun is `herald run --config FILE`: the long-running bot.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	return withService(ctx, *cfgPath, stderr, func(s *service.Service) error { return s.Run(ctx) })
}

// withService loads the config, builds the service, runs fn and closes
// the store.
func withService(ctx context.Context, cfgPath string, stderr io.Writer, fn func(*service.Service) error) error {
	cfg, err := service.Load(cfgPath)
	if err != nil {
		return err
	}
	s, err := service.Open(ctx, cfg, service.NewLogger(cfg.Log.Level, cfg.Log.Format, stderr))
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
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
	return withService(ctx, *cfgPath, stderr, func(s *service.Service) error { return s.Sweep(ctx, *dryRun, stdout) })
}

// cmdLearn is `herald kb learn --since DATE --config F`.
func cmdLearn(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("kb learn", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	since := fs.String("since", "", "propose entries from topics solved since this date (YYYY-MM-DD)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	t, err := parseDate(*since)
	if err != nil {
		return err
	}
	return withService(ctx, *cfgPath, stderr, func(s *service.Service) error {
		n, err := s.Bot.Learn(ctx, t)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%d knowledge entries proposed from solved topics; review them in the queue (kind learn)\n", n)
		return err
	})
}

// cmdReplay is `herald replay --from-forum --since DATE --config F`: the
// current knowledge base over past topics, in shadow.
func cmdReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	fromForum := fs.Bool("from-forum", false, "replay the forum's past topics (the only source so far)")
	since := fs.String("since", "", "topics created since this date (YYYY-MM-DD)")
	asJSON := fs.Bool("json", false, "print JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if !*fromForum {
		return usagef("replay needs --from-forum")
	}
	t, err := parseDate(*since)
	if err != nil {
		return err
	}
	return withService(ctx, *cfgPath, stderr, func(s *service.Service) error {
		rep, err := s.Bot.Replay(ctx, t)
		if err != nil {
			return err
		}
		if *asJSON {
			return writeJSON(stdout, rep)
		}
		return rep.Write(stdout, *since)
	})
}

// parseDate reads a --since date.
func parseDate(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, usagef("--since must be a date like 2026-01-31")
	}
	return t, nil
}

// cmdPause flips the store's kill switch: `herald pause|resume --config F`
// (or --db PATH).
func cmdPause(ctx context.Context, args []string, paused bool, stdout, stderr io.Writer) error {
	fs := newFlagSet("pause", stderr)
	cfgPath := fs.String("config", "", "configuration file (its store.path is used)")
	dbPath := fs.String("db", "", "database file")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	db, _, err := openStoreFor(ctx, *cfgPath, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.SetSetting(ctx, "paused", fmt.Sprint(paused)); err != nil {
		return err
	}
	state := "resumed"
	if paused {
		state = "paused: no posts until `herald resume`"
	}
	_, err = fmt.Fprintln(stdout, "herald", state)
	return err
}
