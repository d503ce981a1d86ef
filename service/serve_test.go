package service

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/store"
)

func TestHTTPServerLimits(t *testing.T) {
	t.Parallel()
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("a limit is unset: %+v", srv)
	}
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()
	resp, err := discoursetest.Client(t.Cleanup).Post(ts.URL, "application/octet-stream", bytes.NewReader(make([]byte, maxBodyBytes+1)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte body got %d, want 413", maxBodyBytes+1, resp.StatusCode)
	}
}

func TestAdminBaseURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ listen, base, cert, want string }{
		{":8080", "", "", "http://localhost:8080"},
		{"0.0.0.0:8080", "", "", "http://localhost:8080"},
		{"127.0.0.1:9000", "", "", "http://127.0.0.1:9000"},
		{":8443", "", "c.pem", "https://localhost:8443"},
		{":8080", "https://herald.example.org/", "", "https://herald.example.org"},
	} {
		var c Config
		c.HTTP.Listen, c.Admin.BaseURL, c.HTTP.TLSCert = tt.listen, tt.base, tt.cert
		if got := c.AdminBaseURL(); got != tt.want {
			t.Errorf("adminBaseURL(%q, %q) = %q, want %q", tt.listen, tt.base, got, tt.want)
		}
	}
}

// TestServeEndpoints runs Serve against the fake forum: /metrics has the
// bot's metrics, /healthz answers, the webhook refuses an unsigned
// delivery, Extra handlers are mounted, and cancelling ctx stops it all.
func TestServeEndpoints(t *testing.T) {
	t.Parallel()
	forum := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(forum.Close)
	forum.Seed("herald")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := importer.ImportBuiltins(ctx, db); err != nil {
		t.Fatal(err)
	}
	client, err := discourse.NewClient(forum.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"))
	if err != nil {
		t.Fatal(err)
	}
	var logged lockedBuffer
	log := slog.New(slog.NewTextHandler(&logged, nil))
	b, reg, err := NewBot(ctx, client, db, BotConfig{Options: bot.Options{Username: "herald"}}, log)
	if err != nil {
		t.Fatal(err)
	}
	// The admin learns which model decides: the embedded one chosen for
	// a knowledge base of the pack alone.
	if l := logged.String(); !strings.Contains(l, `msg="deciding with model" source="embedded, chosen for the knowledge base"`) || !strings.Contains(l, "kb_imported=0") {
		t.Errorf("start-up log does not say which model decides:\n%s", l)
	}
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, Runtime{Bot: b, DB: db, Registry: reg, Log: log, Interval: time.Hour,
			Listen: "127.0.0.1:0", WebhookPath: "/webhooks/discourse", WebhookSecret: "a-long-enough-secret",
			Extra: func(mux *http.ServeMux) {
				mux.HandleFunc("GET /extra", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "mounted") })
			},
			Ready: func(a string) { addr <- a }})
	}()
	base := "http://" + <-addr
	web := discoursetest.Client(t.Cleanup)
	get := func(path string) (int, string) {
		resp, err := web.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "herald_polls_total") {
		t.Errorf("/metrics: %d, no herald_polls_total", code)
	}
	if code, body := get("/healthz"); code != 200 && !(code == 503 && strings.HasPrefix(body, "not ready: ")) {
		t.Errorf("/healthz: %d %q, want ok or a reason", code, body)
	}
	if code, body := get("/extra"); code != 200 || body != "mounted" {
		t.Errorf("/extra: %d %q", code, body)
	}
	resp, err := web.Post(base+"/webhooks/discourse", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Errorf("an unsigned webhook delivery got %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Serve after cancel: %v", err)
	}
}

// TestStartSchedulesNamesBadFields: a timezone or a cron line the
// scheduler cannot read is an error naming its setting.
func TestStartSchedulesNamesBadFields(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for field, set := range map[string]func(c *Config){
		"sweeps.timezone":            func(c *Config) { c.Sweeps.Timezone = "Mars/Olympus_Mons" },
		"sweeps.unanswered.schedule": func(c *Config) { c.Sweeps.Unanswered.Schedule = "every tuesday" },
		"sweeps.learn.schedule":      func(c *Config) { c.Sweeps.Learn.Schedule = "61 * * * *" },
	} {
		c := Default()
		set(&c)
		s := &Service{Config: &c, Log: log}
		stop, err := s.StartSchedules(context.Background())
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: %v, want a ValidationError on it", field, err)
		}
		if stop != nil {
			stop()
		}
	}
	c := Default()
	c.Sweeps.Unanswered.Schedule = "0 */6 * * *"
	stop, err := (&Service{Config: &c, Log: log}).StartSchedules(context.Background())
	if err != nil {
		t.Fatalf("a valid schedule: %v", err)
	}
	stop()
}

// lockedBuffer is a log sink the bot's goroutines may write to while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
