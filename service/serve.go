package service

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/store"
)

// Run runs the configured service until ctx is done: it checks that the
// forum accepts the key, then serves the bot loop, the HTTP endpoints with
// the admin page, and the schedules.
func (s *Service) Run(ctx context.Context) error {
	cfg := s.Config
	adminBase := cfg.AdminBaseURL()
	warnExposed(s.Log, cfg)
	var connect *discourse.Connect
	if cfg.Admin.ConnectSecret != "" {
		connect = &discourse.Connect{ForumURL: cfg.Discourse.URL, Secret: cfg.Admin.ConnectSecret, Nonces: s.DB}
	}
	page, err := admin.New(admin.Config{DB: s.DB, Connect: connect, ForumURL: cfg.Discourse.URL, BaseURL: adminBase,
		Groups: cfg.Admin.Groups, Secure: strings.HasPrefix(adminBase, "https://"), Log: s.Log.With("component", "admin"),
		Categories: CategoryNames(ctx, s.Client, s.Log)})
	if err != nil {
		return err
	}
	if err := s.CheckForum(ctx); err != nil {
		return err
	}
	return Serve(ctx, Runtime{
		Bot: s.Bot, DB: s.DB, Registry: s.Registry, Log: s.Log, Interval: cfg.Bot.PollInterval.D(),
		Listen: cfg.HTTP.Listen, TLSCert: cfg.HTTP.TLSCert, TLSKey: cfg.HTTP.TLSKey, MetricsListen: cfg.HTTP.MetricsListen,
		WebhookPath: cfg.Webhook.Path, WebhookSecret: cfg.Webhook.Secret,
		Schedules: s.StartSchedules,
		Extra:     func(mux *http.ServeMux) { mux.Handle("/admin/", page.Handler()) },
	})
}

// Runtime is what Serve runs: a built bot and the HTTP server beside it.
type Runtime struct {
	Bot      *bot.Bot
	DB       *store.DB
	Registry *prometheus.Registry
	Log      *slog.Logger
	// Interval is the poll interval.
	Interval time.Duration
	// Listen is the HTTP address; TLSCert and TLSKey serve it over TLS;
	// MetricsListen, when set, serves /metrics there instead.
	Listen, TLSCert, TLSKey, MetricsListen string
	// WebhookSecret enables the webhook receiver at WebhookPath.
	WebhookPath, WebhookSecret string
	// Extra mounts more handlers on the HTTP server (the admin page).
	Extra func(mux *http.ServeMux)
	// Ready is called with the HTTP server's address once it listens.
	Ready func(addr string)
	// Schedules starts the cron jobs; the returned func stops them.
	Schedules func(ctx context.Context) (func(), error)
}

// Serve runs the bot loop and its HTTP server (/healthz, /metrics, the
// webhook receiver) until ctx is done, then shuts both down.
func Serve(ctx context.Context, rt Runtime) error {
	metricsHandler := promhttp.HandlerFor(rt.Registry, promhttp.HandlerOpts{})
	ln, err := net.Listen("tcp", rt.Listen)
	if err != nil {
		return fmt.Errorf("listen %s: %w", rt.Listen, err)
	}
	srv := NewHTTPServer(botMux(rt, metricsHandler))
	serveErr := make(chan error, 1)
	go func() { serveErr <- serveOn(srv, ln, rt.TLSCert, rt.TLSKey) }()
	if rt.MetricsListen != "" {
		mln, err := net.Listen("tcp", rt.MetricsListen)
		if err != nil {
			_ = srv.Close()
			return fmt.Errorf("listen %s (http.metrics_listen): %w", rt.MetricsListen, err)
		}
		mmux := http.NewServeMux()
		mmux.Handle("GET /metrics", metricsHandler)
		msrv := NewHTTPServer(mmux)
		go func() { _ = msrv.Serve(mln) }()
		defer msrv.Close()
	}
	rt.Log.Info("herald running", "mode", rt.Bot.Mode(), "http", ln.Addr().String())
	if rt.Ready != nil {
		rt.Ready(ln.Addr().String())
	}
	stopCron := func() {}
	if rt.Schedules != nil {
		if stopCron, err = rt.Schedules(ctx); err != nil {
			_ = srv.Close()
			return err
		}
	}
	runErr := rt.Bot.Run(ctx, rt.Interval)
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
// (which only wakes the poller) and whatever rt.Extra adds.
func botMux(rt Runtime, metricsHandler http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if _, err := rt.DB.Setting(r.Context(), "paused"); err != nil {
			http.Error(w, "not ready: store unavailable", http.StatusServiceUnavailable)
			return
		}
		if ok, reason := rt.Bot.Ready(); !ok {
			http.Error(w, "not ready: "+reason, http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	if rt.MetricsListen == "" {
		mux.Handle("GET /metrics", metricsHandler)
	}
	if rt.WebhookSecret != "" {
		wh := &discourse.Webhook{Secret: rt.WebhookSecret}
		mux.Handle("POST "+rt.WebhookPath, wh.Handler(func(r *http.Request, ev *discourse.Event) error {
			rt.Log.Debug("webhook", "event", ev.Name, "type", ev.Type)
			rt.Bot.Wake() // a webhook only triggers a poll; posting stays in the runner
			return nil
		}))
	}
	if rt.Extra != nil {
		rt.Extra(mux)
	}
	return mux
}

// Limits of Herald's HTTP servers: a client that trickles its headers or
// body, or sends a huge one, costs a bounded connection, not a goroutine
// forever. Webhook payloads and admin forms are far below maxBodyBytes.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
	maxBodyBytes      = 1 << 20
)

// NewHTTPServer returns a server for h with every timeout and size limit
// set.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           http.MaxBytesHandler(h, maxBodyBytes),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// serveOn serves srv on ln, over TLS when a certificate is configured.
func serveOn(srv *http.Server, ln net.Listener, certFile, keyFile string) error {
	if certFile != "" {
		return srv.ServeTLS(ln, certFile, keyFile)
	}
	return srv.Serve(ln)
}

// AdminBaseURL is where staff reach the admin page, which is where
// DiscourseConnect sends them back: admin.base_url, or the listen address
// with a host a browser can open (an empty or unspecified host becomes
// localhost).
func (cfg *Config) AdminBaseURL() string {
	if cfg.Admin.BaseURL != "" {
		return strings.TrimRight(cfg.Admin.BaseURL, "/")
	}
	scheme := "http"
	if cfg.HTTP.TLSCert != "" {
		scheme = "https"
	}
	host, port, err := net.SplitHostPort(cfg.HTTP.Listen)
	if err != nil {
		return scheme + "://" + cfg.HTTP.Listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// warnExposed logs what makes a listener unsafe on a network: plain HTTP
// on a non-loopback address with no https base URL in front of it.
func warnExposed(log *slog.Logger, cfg *Config) {
	host, _, err := net.SplitHostPort(cfg.HTTP.Listen)
	if err != nil {
		return
	}
	loopback := host != "" && discourse.IsLoopback(host)
	if !loopback && cfg.HTTP.TLSCert == "" && !strings.HasPrefix(cfg.Admin.BaseURL, "https://") {
		log.Warn(fmt.Sprintf("http.listen %s is reachable from the network over plain HTTP: set http.tls_cert and http.tls_key, or put a TLS reverse proxy in front and set admin.base_url to its https:// address", cfg.HTTP.Listen))
	}
}
