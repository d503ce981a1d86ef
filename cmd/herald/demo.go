package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/service"
)

// cmdDemo starts the fake forum seeded with support topics and the bot in
// auto mode against it; with --forum-only it serves just the forum.
func cmdDemo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fset := newFlagSet("demo", stderr)
	forumOnly := fset.Bool("forum-only", false, "serve only the fake forum")
	listen := fset.String("listen", "127.0.0.1:0", "forum address")
	statePath := fset.String("state", "", "with --forum-only: keep the forum's state in FILE across restarts")
	apiKey := fset.String("api-key", "", "with --forum-only: a global API key valid for any Api-Username")
	botListen := fset.String("bot-listen", "127.0.0.1:0", "the bot's /healthz and /metrics address")
	poll := fset.Duration("poll", 2*time.Second, "poll interval")
	mode := fset.String("mode", "auto", "the bot's mode: auto (post what the model is sure of, queue the rest), queue (every draft waits for approval) or shadow (post nothing)")
	if _, err := parseInterleaved(fset, args); err != nil {
		return err
	}
	switch bot.Mode(*mode) {
	case bot.ModeAuto, bot.ModeQueue, bot.ModeShadow:
	default:
		return usagef("demo --mode %q: want auto, queue or shadow", *mode)
	}
	log := service.NewLogger("info", "text", stderr)
	const connectSecret = "demo-discourse-connect-secret"
	handler, err := demoForum(*forumOnly, *statePath, *apiKey, connectSecret, log)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("demo: listen: %w", err)
	}
	forumURL := "http://" + ln.Addr().String()
	srv := service.NewHTTPServer(handler)
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(c)
	}()
	fmt.Fprintf(stdout, "forum: %s\n", forumURL)
	if *forumOnly {
		<-ctx.Done()
		return nil
	}

	return demoBot(ctx, forumURL, bot.Mode(*mode), *botListen, *poll, connectSecret, log, stdout)
}

// demoForum seeds the fake forum (or loads its saved state) and returns
// its handler, which saves the state after each change when statePath is
// set.
func demoForum(forumOnly bool, statePath, apiKey, connectSecret string, log *slog.Logger) (http.Handler, error) {
	forum := discoursetest.NewUnstarted(discoursetest.WithSSOSecret(connectSecret))
	if forumOnly {
		switch _, err := os.Stat(statePath); {
		case statePath != "" && err == nil:
			if err := forum.LoadState(statePath); err != nil {
				return nil, err
			}
		case statePath != "" && !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("demo: %w", err)
		default:
			forum.SeedBasic("herald")
		}
		if apiKey != "" {
			forum.AddAPIKey(apiKey, "")
		}
	} else {
		forum.Seed("herald")
	}
	if forumOnly && statePath != "" {
		// Save before serving, so this snapshot never lands after a newer one.
		if err := forum.SaveState(statePath); err != nil {
			return nil, err
		}
	}
	var handler http.Handler = forum.Handler()
	if forumOnly && statePath != "" {
		handler = forum.Persist(handler, statePath, func(err error) { log.Warn("saving forum state", "err", err) })
	}
	return handler, nil
}

// demoBot runs Herald against the demo forum at forumURL, with the admin
// page and a login link printed once it listens.
func demoBot(ctx context.Context, forumURL string, mode bot.Mode, botListen string, poll time.Duration, connectSecret string, log *slog.Logger, stdout io.Writer) error {
	db, closeDB, err := importer.OpenKB(ctx, "", io.Discard)
	if err != nil {
		return err
	}
	defer closeDB()
	client, err := discourse.NewClient(forumURL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
		discourse.WithRequestBudget(600, 20))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "api key (any user): %s\n", discoursetest.AdminAPIKey)
	fmt.Fprintf(stdout, "mode: %s (drafts the model is not sure enough to post wait in the approval queue on the admin page)\n", mode)
	fmt.Fprintf(stdout, "Post a topic as alice and watch Herald answer it, or queue a draft, within seconds:\n")
	fmt.Fprintf(stdout, "  curl -s %s/posts.json -H 'Api-Key: %s' -H 'Api-Username: alice' -d category=1 --data-urlencode 'title=OOM with --cpu-offload-gb on 0.24' --data-urlencode \"raw=$(printf 'vllm serve google/gemma-3-27b-it --cpu-offload-gb 40\\n\\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\\n\\nvllm 0.24.0')\"\n", forumURL, discoursetest.AdminAPIKey)
	fmt.Fprintf(stdout, "  then read it: %s/t/topic/6/1 (or /t/6.json)\n", forumURL)
	b, reg, err := service.NewBot(ctx, client, db, service.BotConfig{
		Options: bot.Options{Username: "herald", Mode: mode, Backfill: 24 * time.Hour}}, log)
	if err != nil {
		return err
	}
	var page atomic.Pointer[admin.Server]
	return service.Serve(ctx, service.Runtime{
		Bot: b, DB: db, Registry: reg, Log: log, Listen: botListen, Interval: poll,
		Extra: func(mux *http.ServeMux) {
			mux.Handle("/admin/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if p := page.Load(); p != nil {
					p.Handler().ServeHTTP(w, r)
					return
				}
				http.Error(w, "starting", http.StatusServiceUnavailable)
			}))
		},
		Ready: func(addr string) {
			base := "http://" + addr
			p, err := admin.New(admin.Config{DB: db, ForumURL: forumURL, BaseURL: base, Log: log.With("component", "admin"),
				Categories: service.CategoryNames(ctx, client, log),
				Connect:    &discourse.Connect{ForumURL: forumURL, Secret: connectSecret, Nonces: db}})
			if err != nil {
				log.Error("admin page", "err", err)
				return
			}
			page.Store(p)
			link, err := admin.NewLoginLink(ctx, db, base+"/admin", "admin", time.Hour)
			if err != nil {
				log.Error("login link", "err", err)
				return
			}
			fmt.Fprintf(stdout, "admin: %s/admin/\n", base)
			fmt.Fprintf(stdout, "login: %s\n", link)
		},
	})
}
