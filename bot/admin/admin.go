// Package admin is Herald's approval queue: a small server-rendered web
// page where forum staff, logged in through DiscourseConnect (or a
// one-time link from `herald admin-link`), review drafts and approve,
// edit, whisper, reject or teach them, and read the history and the
// shadow-mode report.
//
// Invariants:
//   - Only staff (admins, moderators) or members of configured groups get
//     a session; everyone else sees a refusal.
//   - Sessions are random ids stored hashed in SQLite, with idle and
//     absolute expiry; cookies are HttpOnly, SameSite=Lax, Secure on TLS.
//   - Every state-changing request is a POST carrying the session's CSRF
//     token; pages send a CSP without inline script, deny framing and
//     sniffing, and never show secrets.
//   - Decisions go through bot/review (the policy `herald queue` shares)
//     and so through store.Decide, so two staff approving the same draft
//     at once yield one approval (and the runner one post).
//
// The page writes only to the store; the bot's runner does the posting.
package admin

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Config configures the admin page.
type Config struct {
	DB *store.DB
	// Connect enables "log in with the forum"; nil leaves only login links.
	Connect *discourse.Connect
	// ForumURL is used for topic and post links.
	ForumURL string
	// BaseURL is where the page is served, e.g. https://bot.example.org;
	// DiscourseConnect returns to BaseURL + Prefix + "/auth/callback".
	BaseURL string
	// Prefix is the path the handler is mounted at (default "/admin").
	Prefix string
	// Groups are forum groups whose members may use the page besides staff.
	Groups []string
	// Categories names the forum's categories by id, for the page (nil:
	// ids are shown).
	Categories map[int]string
	// Secure marks cookies Secure (serve over TLS).
	Secure bool
	// IdleTimeout and MaxAge bound sessions (defaults 2h and 24h).
	IdleTimeout, MaxAge time.Duration
	Now                 func() time.Time
	Log                 *slog.Logger
}

// Server serves the admin page.
type Server struct {
	cfg  Config
	tmpl map[string]*template.Template
	// logins limits how fast anyone may start a DiscourseConnect login:
	// each start writes a nonce row.
	logins *rate.Limiter
}

// Login starts are limited to loginRate a second with bursts of
// LoginBurst: far above what a forum's staff do, far below what fills the
// nonce table (store.MaxPendingLogins) within its ten-minute expiry.
const (
	loginRate = 1
	// LoginBurst is how many logins may start at once.
	LoginBurst = 30
)

const cookieName = "herald_session"

// New returns the admin page.
func New(cfg Config) (*Server, error) {
	if cfg.DB == nil {
		return nil, errors.New("admin: a store is required")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "/admin"
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 2 * time.Hour
	}
	if cfg.MaxAge == 0 {
		cfg.MaxAge = 24 * time.Hour
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, tmpl: map[string]*template.Template{}, logins: rate.NewLimiter(loginRate, LoginBurst)}
	for _, name := range []string{"queue", "draft", "history", "message"} {
		t, err := template.New(name).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("admin: parse %s: %w", name, err)
		}
		s.tmpl[name] = t
	}
	return s, nil
}

// Handler returns the page's routes, to be mounted at cfg.Prefix.
func (s *Server) Handler() http.Handler {
	p := s.cfg.Prefix
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET "+p+"/static/", http.StripPrefix(p+"/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET "+p+"/login", s.login)
	mux.HandleFunc("GET "+p+"/auth/callback", s.callback)
	mux.HandleFunc("GET "+p+"/auth/link", s.linkLogin)
	mux.Handle("POST "+p+"/logout", s.staffOnly(s.logout))
	mux.Handle("GET "+p+"/{$}", s.staffOnly(s.queue))
	mux.Handle("GET "+p+"/actions/{id}", s.staffOnly(s.draft))
	mux.Handle("POST "+p+"/actions/{id}/approve", s.staffOnly(s.approve))
	mux.Handle("POST "+p+"/actions/{id}/reject", s.staffOnly(s.reject))
	mux.Handle("POST "+p+"/actions/{id}/judge", s.staffOnly(s.judge))
	mux.Handle("POST "+p+"/actions/{id}/teach", s.staffOnly(s.teach))
	mux.Handle("GET "+p+"/history", s.staffOnly(s.history))
	mux.Handle("GET "+p+"/shadow", s.staffOnly(s.shadow))
	return securityHeaders(mux)
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// session is the logged-in staff member, put in the request context.
type ctxKey struct{}

func sessionOf(r *http.Request) *store.Session {
	s, _ := r.Context().Value(ctxKey{}).(*store.Session)
	return s
}

// staffOnly requires a live session, and for POSTs its CSRF token.
func (s *Server) staffOnly(fn http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ck, err := r.Cookie(cookieName)
		var sess *store.Session
		if err == nil {
			sess, err = s.cfg.DB.TouchSession(r.Context(), ck.Value, s.cfg.Now(), s.cfg.IdleTimeout)
			if err != nil {
				s.fail(w, r, err)
				return
			}
		}
		if sess == nil || !sess.Staff {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, s.cfg.Prefix+"/login", http.StatusSeeOther)
				return
			}
			http.Error(w, "not logged in", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost {
			if err := r.ParseForm(); err != nil {
				http.Error(w, "bad form", http.StatusBadRequest)
				return
			}
			if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(sess.CSRF)) != 1 {
				http.Error(w, "missing or wrong CSRF token", http.StatusForbidden)
				return
			}
		}
		fn(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, sess)))
	})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request, username, userID string) error {
	cookie := randomHex(32)
	now := s.cfg.Now()
	err := s.cfg.DB.CreateSession(r.Context(), cookie, store.Session{Username: username, UserID: userID, Staff: true,
		CSRF: randomHex(16), CreatedAt: now, LastSeen: now, ExpiresAt: now.Add(s.cfg.MaxAge)})
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: cookie, Path: s.cfg.Prefix, HttpOnly: true,
		Secure: s.cfg.Secure || r.TLS != nil, SameSite: http.SameSiteLaxMode, MaxAge: int(s.cfg.MaxAge.Seconds())})
	s.cfg.Log.Info("admin login", "user", username)
	return nil
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Connect == nil {
		s.message(w, r, http.StatusForbidden, "Log in with a link", "This forum has no DiscourseConnect; ask an administrator for a one-time login link (herald admin-link --as USER).")
		return
	}
	if !s.logins.Allow() {
		w.Header().Set("Retry-After", "10")
		s.message(w, r, http.StatusTooManyRequests, "Too many logins", "Logins are being started faster than people log in. Wait a few seconds and try again.")
		return
	}
	u, err := s.cfg.Connect.LoginURL(r.Context(), strings.TrimRight(s.cfg.BaseURL, "/")+s.cfg.Prefix+"/auth/callback")
	if errors.Is(err, store.ErrTooManyLogins) {
		w.Header().Set("Retry-After", "60")
		s.message(w, r, http.StatusTooManyRequests, "Too many logins", "Too many logins are in progress. Try again in a few minutes.")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, u, http.StatusFound)
}

func (s *Server) callback(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Connect == nil {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	u, err := s.cfg.Connect.Verify(r.Context(), q.Get("sso"), q.Get("sig"))
	switch {
	case errors.Is(err, discourse.ErrBadSignature), errors.Is(err, discourse.ErrBadNonce):
		s.message(w, r, http.StatusForbidden, "Login refused", "The forum's answer was forged, replayed or expired. Start again.")
		return
	case err != nil:
		s.message(w, r, http.StatusForbidden, "Login refused", "The forum did not confirm who you are.")
		return
	}
	if !u.Staff() && !u.InGroup(s.cfg.Groups...) {
		s.message(w, r, http.StatusForbidden, "Staff only", fmt.Sprintf("Sorry %s, only the forum's staff can review Herald's drafts.", u.Username))
		return
	}
	if err := s.startSession(w, r, u.Username, u.ExternalID); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, s.cfg.Prefix+"/", http.StatusSeeOther)
}

func (s *Server) linkLogin(w http.ResponseWriter, r *http.Request) {
	user, err := s.cfg.DB.TakeLoginToken(r.Context(), r.URL.Query().Get("t"), s.cfg.Now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if user == "" {
		s.message(w, r, http.StatusForbidden, "Link expired", "This login link is unknown, used or expired. Ask for a new one.")
		return
	}
	if err := s.startSession(w, r, user, "link:"+user); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, s.cfg.Prefix+"/", http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if ck, err := r.Cookie(cookieName); err == nil {
		_ = s.cfg.DB.DeleteSession(r.Context(), ck.Value)
	}
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: s.cfg.Prefix, MaxAge: -1, HttpOnly: true})
	s.message(w, r, http.StatusOK, "Logged out", "You are logged out.")
}

// NewLoginLink issues a one-time login link for username, valid for ttl.
func NewLoginLink(ctx context.Context, db *store.DB, pageURL, username string, ttl time.Duration) (string, error) {
	token := randomHex(24)
	if err := db.PutLoginToken(ctx, token, username, time.Now().Add(ttl)); err != nil {
		return "", err
	}
	return strings.TrimRight(pageURL, "/") + "/auth/link?" + url.Values{"t": {token}}.Encode(), nil
}

// page is the data every template gets.
type page struct {
	Title, Base, User, CSRF string
	Message, Link, LinkText string
}

func (s *Server) page(r *http.Request, title string) page {
	p := page{Title: title, Base: s.cfg.Prefix}
	if sess := sessionOf(r); sess != nil {
		p.User, p.CSRF = sess.Username, sess.CSRF
	}
	return p
}

func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := s.tmpl[name].ExecuteTemplate(w, name+".html", data); err != nil {
		s.cfg.Log.Warn("render", "template", name, "err", err)
	}
}

func (s *Server) message(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	p := s.page(r, title)
	p.Message = msg
	s.render(w, status, "message", p)
}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	s.cfg.Log.Error("admin", "path", r.URL.Path, "err", err)
	s.message(w, r, http.StatusInternalServerError, "Something went wrong", "The error was logged.")
}

func actionID(r *http.Request) (int64, error) {
	return strconv.ParseInt(r.PathValue("id"), 10, 64)
}

func (s *Server) topicURL(topicID int) string {
	return strings.TrimRight(s.cfg.ForumURL, "/") + "/t/topic/" + strconv.Itoa(topicID) + "/1"
}

// decodeReply reads a reply (or teach) payload for display. Other kinds'
// payloads decode to an empty reply; one that is not JSON at all (a row
// written by hand, or damaged) is logged and shown empty, so that one bad
// row does not take the queue page down with it.
func (s *Server) decodeReply(a *store.Action) action.Reply {
	var r action.Reply
	if err := json.Unmarshal(a.Payload, &r); err != nil {
		s.cfg.Log.Warn("admin: undecodable action payload", "action", a.ID, "kind", a.Kind, "err", err)
	}
	return r
}
