package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

func newLogger(level, format string, w io.Writer) *slog.Logger {
	var lv slog.Level
	_ = lv.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: lv}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func botOptions(c *Config) bot.Options {
	b := c.Bot
	return bot.Options{
		Username: c.Discourse.Username, Mode: bot.Mode(b.Mode), Whisper: b.Whisper, AutoPost: b.AutoPost,
		QueueFloor: b.QueueFloor, CategoryAutoPost: b.CategoryAutoPost, Categories: b.Categories, ExcludeCategories: b.ExcludeCategories,
		MinTrustLevel: b.MinTrustLevel, SkipStaff: b.SkipStaff, SkipTags: b.SkipTags, IgnoreUsers: b.IgnoreUsers,
		MaxPerTopic: b.MaxPerTopic, HourlyBudget: b.HourlyBudget, MaxMentionsPerUser: b.MaxMentionsPerUser,
		Backfill: b.Backfill.D(), Paused: b.Paused,
	}
}

// cmdRun is `herald run --config FILE`: the long-running bot.
func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return err
	}
	log := newLogger(cfg.Log.Level, cfg.Log.Format, stderr)
	model, err := loadModel(cfg.Knowledge.Model)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.Store.Path)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, src := range cfg.Knowledge.Sources {
		st, err := importSource(ctx, db, src, importOptions{}, nil)
		if err != nil {
			return err
		}
		log.Info("knowledge imported", "source", src, "stats", st.String())
	}
	client, err := discourse.NewClient(cfg.Discourse.URL,
		discourse.WithAPIKey(cfg.Discourse.APIKey, cfg.Discourse.Username),
		discourse.WithRequestBudget(cfg.Discourse.RequestsPerMinute, 5),
		discourse.WithTimeout(cfg.Discourse.Timeout.D()))
	if err != nil {
		return err
	}
	adminBase := adminBaseURL(cfg)
	warnExposed(log, cfg)
	var connect *discourse.Connect
	if cfg.Admin.ConnectSecret != "" {
		connect = &discourse.Connect{ForumURL: cfg.Discourse.URL, Secret: cfg.Admin.ConnectSecret, Nonces: db}
	}
	page, err := admin.New(admin.Config{DB: db, Connect: connect, ForumURL: cfg.Discourse.URL, BaseURL: adminBase,
		Groups: cfg.Admin.Groups, Secure: strings.HasPrefix(adminBase, "https://"), Log: log.With("component", "admin"),
		Categories: categoryNames(ctx, client, log)})
	if err != nil {
		return err
	}
	if err := checkForum(ctx, client, cfg); err != nil {
		return err
	}
	return serveBot(ctx, botRuntime{
		schedules: func(ctx context.Context, b *bot.Bot) (func(), error) { return startSchedules(ctx, b, cfg, log) },
		extra:     func(mux *http.ServeMux) { mux.Handle("/admin/", page.Handler()) },
		db:        db, client: client, opts: botOptions(cfg), log: log, listen: cfg.HTTP.Listen,
		interval: cfg.Bot.PollInterval.D(), webhookPath: cfg.Webhook.Path, webhookSecret: cfg.Webhook.Secret,
		botName: cfg.Discourse.Username, maxReplyChars: cfg.Bot.MaxReplyChars, model: model,
		tlsCert: cfg.HTTP.TLSCert, tlsKey: cfg.HTTP.TLSKey, metricsListen: cfg.HTTP.MetricsListen,
	}, stdout)
}

type botRuntime struct {
	db            *store.DB
	client        *discourse.Client
	opts          bot.Options
	log           *slog.Logger
	listen        string
	interval      time.Duration
	webhookPath   string
	webhookSecret string
	botName       string
	maxReplyChars int
	// model is knowledge.model; nil is the embedded model.
	model *knowledge.Model
	// tlsCert and tlsKey serve listen over TLS; metricsListen, when set,
	// serves /metrics there instead.
	tlsCert, tlsKey, metricsListen string
	// extra mounts more handlers on the bot's HTTP server (the demo).
	extra func(mux *http.ServeMux)
	// ready is called with the HTTP server's address once it listens.
	ready func(addr string)
	// schedules starts the cron jobs; the returned func stops them.
	schedules func(ctx context.Context, b *bot.Bot) (func(), error)
}

// serveBot runs the bot loop and its HTTP server (/healthz, /metrics, the
// webhook receiver) until ctx is done, then shuts both down.
func serveBot(ctx context.Context, rt botRuntime, stdout io.Writer) error {
	answerer, err := bot.NewAnswerer(ctx, rt.db, rt.botName)
	if err != nil {
		return err
	}
	if rt.model != nil {
		answerer.SetModel(rt.model)
	}
	answerer.Engine.Compose.MaxChars = rt.maxReplyChars
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := bot.NewMetrics(reg)
	b, err := bot.New(rt.client, rt.db, answerer, rt.opts, rt.log, metrics)
	if err != nil {
		return err
	}
	metricsHandler := promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	mux := botMux(rt, b, metricsHandler)
	ln, err := net.Listen("tcp", rt.listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", rt.listen, err)
	}
	srv := newHTTPServer(mux)
	serveErr := make(chan error, 2)
	go func() { serveErr <- serveOn(srv, ln, rt.tlsCert, rt.tlsKey) }()
	if rt.metricsListen != "" {
		mln, err := net.Listen("tcp", rt.metricsListen)
		if err != nil {
			_ = srv.Close()
			return fmt.Errorf("listen %s (http.metrics_listen): %w", rt.metricsListen, err)
		}
		mmux := http.NewServeMux()
		mmux.Handle("GET /metrics", metricsHandler)
		msrv := newHTTPServer(mmux)
		go func() { _ = msrv.Serve(mln) }()
		defer msrv.Close()
	}
	rt.log.Info("herald running", "mode", rt.opts.Mode, "http", ln.Addr().String())
	if rt.ready != nil {
		rt.ready(ln.Addr().String())
	}
	stopCron := func() {}
	if rt.schedules != nil {
		if stopCron, err = rt.schedules(ctx, b); err != nil {
			_ = srv.Close()
			return err
		}
	}
	runErr := b.Run(ctx, rt.interval)
	stopCron()
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(shutCtx)
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return errors.Join(runErr, err)
	}
	return runErr
}

// botMux serves the bot's /healthz (ready only when the store and the
// forum answer), /metrics unless it has its own listener, the webhook
// (which only wakes the poller) and whatever rt.extra adds.
func botMux(rt botRuntime, b *bot.Bot, metricsHandler http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if _, err := rt.db.Setting(r.Context(), "paused"); err != nil {
			http.Error(w, "not ready: store unavailable", http.StatusServiceUnavailable)
			return
		}
		if ok, reason := b.Ready(); !ok {
			http.Error(w, "not ready: "+reason, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	if rt.metricsListen == "" {
		mux.Handle("GET /metrics", metricsHandler)
	}
	if rt.webhookSecret != "" {
		wh := &discourse.Webhook{Secret: rt.webhookSecret}
		mux.Handle("POST "+rt.webhookPath, wh.Handler(func(r *http.Request, ev *discourse.Event) error {
			rt.log.Debug("webhook", "event", ev.Name, "type", ev.Type)
			b.Wake() // a webhook only triggers a poll; posting stays in the runner
			return nil
		}))
	}
	if rt.extra != nil {
		rt.extra(mux)
	}
	return mux
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
	path := *dbPath
	if path == "" && *cfgPath != "" {
		cfg, err := loadConfig(*cfgPath)
		if err != nil {
			return err
		}
		path = cfg.Store.Path
	}
	if path == "" {
		return usagef("pause/resume needs --config or --db")
	}
	db, err := store.Open(ctx, path)
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

// checkForum checks, at start, that the forum accepts the API key as the
// configured bot user, and that the user may whisper when whispers are
// on. A key the forum rejects is a configuration error named by its
// setting; an unreachable forum is not (it may come back): /healthz says
// so until it does.
func checkForum(ctx context.Context, client *discourse.Client, cfg *Config) error {
	u, err := client.CurrentUser(ctx)
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

// categoryNames reads the forum's category names for the admin page; a
// forum that does not answer leaves the page showing ids.
func categoryNames(ctx context.Context, client *discourse.Client, log *slog.Logger) map[int]string {
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
