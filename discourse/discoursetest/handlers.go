package discoursetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
)

type ctxKey struct{}

// caller is the user a request acts as (nil if anonymous) and whether it
// authenticated with an API key.
type caller struct {
	user *User
	api  bool
}

func callerOf(r *http.Request) caller {
	c, _ := r.Context().Value(ctxKey{}).(caller)
	return c
}

// Handler returns the fake forum's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /posts.json", s.latestPosts)
	mux.HandleFunc("GET /posts/{id}", s.getPost)
	mux.HandleFunc("POST /posts.json", s.createPostHandler)
	mux.HandleFunc("GET /latest.json", s.latestTopics)
	// The extensionless URLs the forum hands out (more_topics_url,
	// load_more_notifications, post_url) answer JSON when asked for it
	// with Accept, as Rails' respond_to does.
	mux.HandleFunc("GET /latest", jsonOrApp(s.latestTopics))
	mux.HandleFunc("GET /c/{slug}/{id}", jsonOrApp(s.categoryTopics))
	mux.HandleFunc("GET /c/{slug}/{id}/l/{filter}", jsonOrApp(s.categoryTopics))
	mux.HandleFunc("GET /t/{id}", s.topicRoute)
	// /t/{slug}/{id}.json, and /t/{id}/{post_number}.json, which the same
	// pattern matches (config/routes.rb).
	mux.HandleFunc("GET /t/{slug}/{id}", s.topicRoute)
	mux.HandleFunc("GET /t/{id}/posts.json", s.topicPosts)
	mux.HandleFunc("GET /t/{id}/post_ids.json", s.topicPostIDs)
	mux.HandleFunc("PUT /t/{slug}/{id}", s.updateTopic)
	mux.HandleFunc("PUT /t/{id}", s.updateTopic)
	mux.HandleFunc("GET /posts/{id}/raw", s.postRaw)
	mux.HandleFunc("GET /posts/by_number/{topic}/{n}", s.postByNumber)
	mux.HandleFunc("POST /solution/unaccept", s.unacceptHandler)
	mux.HandleFunc("GET /notifications.json", s.notificationsHandler)
	mux.HandleFunc("GET /notifications", jsonOrApp(s.notificationsHandler))
	mux.HandleFunc("PUT /posts/{id}", s.updatePost)
	mux.HandleFunc("PUT /notifications/mark-read.json", s.markRead)
	mux.HandleFunc("GET /categories.json", s.categoriesHandler)
	mux.HandleFunc("GET /search.json", s.search)
	mux.HandleFunc("GET /session/current.json", s.currentUser)
	mux.HandleFunc("GET /u/{username}", s.userProfile)
	mux.HandleFunc("POST /solution/accept", s.acceptHandler)
	mux.HandleFunc("GET /session/sso_provider", s.ssoProvider)
	mux.HandleFunc("POST /session/login", s.browserLogin)
	mux.HandleFunc("GET /t/{slug}/{id}/{n}", s.topicRoute)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests[r.Method+" "+r.URL.Path]++
		fault := s.takeFault(r.URL.Path)
		s.mu.Unlock()
		if s.injectBefore(w, r, fault) {
			return
		}
		c, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		if c.api && !s.allowAPI(w, fault) {
			return
		}
		r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, c))
		if fault == FaultTruncated || fault == FaultMalformed || fault == FaultLoseResponse {
			rec := &captureWriter{header: http.Header{}}
			mux.ServeHTTP(rec, r)
			s.injectAfter(w, rec, fault)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) takeFault(path string) Fault {
	for _, key := range []string{path, ""} {
		if q := s.faults[key]; len(q) > 0 {
			s.faults[key] = q[1:]
			return q[0]
		}
	}
	return 0
}

// injectBefore applies faults that replace the answer; it reports whether
// the request is finished.
func (s *Server) injectBefore(w http.ResponseWriter, r *http.Request, f Fault) bool {
	switch f {
	case Fault500:
		w.WriteHeader(http.StatusInternalServerError)
		return true
	case Fault502:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		fmt.Fprint(w, "<html><body><h1>502 Bad Gateway</h1></body></html>")
		return true
	case Fault503:
		writeError(w, http.StatusServiceUnavailable, "read_only", "The site is in read only mode.")
		return true
	case FaultDrop:
		hijackClose(w)
		return true
	case FaultSlow:
		s.mu.Lock()
		d := s.slowDelay
		s.mu.Unlock()
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return true
		case <-t.C:
		}
	}
	return false
}

func (s *Server) injectAfter(w http.ResponseWriter, rec *captureWriter, f Fault) {
	switch f {
	case FaultLoseResponse:
		hijackClose(w)
		return
	case FaultTruncated:
		rec.body = rec.body[:len(rec.body)/2]
	case FaultMalformed:
		rec.body = []byte("<html>oops</html>")
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body)
}

func hijackClose(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	// Not hijackable (an in-process transport): fail like a reset.
	panic(http.ErrAbortHandler)
}

type captureWriter struct {
	header http.Header
	status int
	body   []byte
}

func (c *captureWriter) Header() http.Header { return c.header }
func (c *captureWriter) WriteHeader(s int)   { c.status = s }
func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body = append(c.body, b...)
	return len(b), nil
}

// authenticate resolves Api-Key/Api-Username (or a browser session) to a
// user; bad credentials are a 403 invalid_access as on a real server.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (caller, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := r.Header.Get("Api-Key")
	if key == "" {
		if ck, err := r.Cookie("_t"); err == nil {
			if id, ok := s.sessions[ck.Value]; ok {
				return caller{user: s.users[id]}, true
			}
		}
		return caller{}, true
	}
	bound, ok := s.apiKeys[key]
	name := r.Header.Get("Api-Username")
	// Api-User-Id names the user by id instead
	// (lib/auth/default_current_user_provider.rb, API_USER_ID).
	if id := r.Header.Get("Api-User-Id"); name == "" && id != "" {
		if u := s.users[atoi(id)]; u != nil {
			name = u.Username
		}
	}
	if ok && bound != "" && name != "" && !strings.EqualFold(bound, name) {
		ok = false
	}
	if name == "" {
		name = bound
	}
	u := s.user(name)
	if !ok || u == nil {
		writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource. The API username or key is invalid.")
		return caller{}, false
	}
	return caller{user: u, api: true}, true
}

// allowAPI applies the shared per-minute bucket for API-key traffic.
func (s *Server) allowAPI(w http.ResponseWriter, f Fault) bool {
	s.mu.Lock()
	now := s.now()
	keep := s.apiHits[:0]
	for _, t := range s.apiHits {
		if now.Sub(t) < time.Minute {
			keep = append(keep, t)
		}
	}
	s.apiHits = keep
	limited := f == FaultPlainText429 || s.ratePerMinute > 0 && len(s.apiHits) >= s.ratePerMinute
	wait := 1
	if limited && len(s.apiHits) > 0 && f != FaultPlainText429 {
		wait = max(1, int(time.Minute-now.Sub(s.apiHits[0])+time.Second-1)/int(time.Second))
	}
	if !limited {
		s.apiHits = append(s.apiHits, now)
	} else if f != FaultPlainText429 {
		s.limited++
	}
	s.mu.Unlock()
	if !limited {
		return true
	}
	w.Header().Set("Retry-After", strconv.Itoa(wait))
	if f == FaultPlainText429 {
		w.Header().Set("Discourse-Rate-Limit-Error-Code", "ip_10_secs_limit")
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, "Slow down, you're making too many requests.\nPlease retry again in %d seconds.\nError code: ip_10_secs_limit.\n", wait)
		return false
	}
	w.Header().Set("Discourse-Rate-Limit-Error-Code", "admin_api_key_rate_limit")
	writeRateLimited(w, time.Duration(wait)*time.Second)
	return false
}

func (s *Server) visible(t *Topic, u *User) bool {
	return t != nil && !t.Deleted && (t.Archetype != "private_message" || u != nil && (u.Staff() || u.ID == t.UserID || slices.Contains(t.AllowedUsers, u.ID)))
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html><head><title>Log in — fake forum</title></head><body>
<h1>Log in to the forum</h1>
<form method="post" action="/session/login">
<input type="hidden" name="next" value="{{.Next}}">
<label>Username <input name="username" id="username" autofocus></label>
<button type="submit" id="login">Log in</button>
</form></body></html>`))

// ssoProvider is the DiscourseConnect provider endpoint: it verifies the
// request, and either sends the logged-in browser back with a signed
// payload or shows a login form first.
func (s *Server) ssoProvider(w http.ResponseWriter, r *http.Request) {
	if s.ssoSecret == "" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	req, err := discourse.DecodePayload(s.ssoSecret, q.Get("sso"), q.Get("sig"))
	if err != nil {
		http.Error(w, "invalid DiscourseConnect request", http.StatusBadRequest)
		return
	}
	c := callerOf(r)
	if c.user == nil {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = loginPage.Execute(w, struct{ Next string }{r.URL.RequestURI()})
		return
	}
	u := c.user
	fields := url.Values{
		"nonce": {req.Get("nonce")}, "return_sso_url": {req.Get("return_sso_url")},
		"external_id": {strconv.Itoa(u.ID)}, "username": {u.Username}, "name": {u.Name}, "email": {u.Email},
		"admin": {strconv.FormatBool(u.Admin)}, "moderator": {strconv.FormatBool(u.Moderator)},
		"groups": {strings.Join(u.Groups, ",")},
	}
	sso, sig := discourse.EncodePayload(s.ssoSecret, fields)
	ret, err := url.Parse(req.Get("return_sso_url"))
	if err != nil {
		http.Error(w, "bad return_sso_url", http.StatusBadRequest)
		return
	}
	rq := ret.Query()
	rq.Set("sso", sso)
	rq.Set("sig", sig)
	ret.RawQuery = rq.Encode()
	http.Redirect(w, r, ret.String(), http.StatusFound)
}

// params are a request's parameters as Rails sees them: the query string
// merged with a form, multipart or JSON body (ActionDispatch's params), so
// that a client may send any of them, as Discourse's API docs show JSON.
func params(r *http.Request) (url.Values, error) {
	out := url.Values{}
	for k, vs := range r.URL.Query() {
		out[k] = append(out[k], vs...)
	}
	ct := r.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "application/json"):
		var body map[string]any
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&body); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("bad JSON body: %w", err)
		}
		for k, v := range body {
			switch v := v.(type) {
			case []any:
				for _, item := range v {
					out.Add(k+"[]", fmt.Sprint(item))
				}
			case nil:
			default:
				out.Set(k, fmt.Sprint(v))
			}
		}
	case strings.HasPrefix(ct, "multipart/form-data"):
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			return nil, fmt.Errorf("bad multipart body: %w", err)
		}
		for k, vs := range r.MultipartForm.Value {
			out[k] = append(out[k], vs...)
		}
	default:
		if err := r.ParseForm(); err != nil {
			return nil, fmt.Errorf("bad form: %w", err)
		}
		for k, vs := range r.PostForm {
			out[k] = append(out[k], vs...)
		}
	}
	return out, nil
}

// truthy casts a parameter as ActiveModel::Type::Boolean does: empty and
// the false values ("0", "f", "false", "off") are false, anything else true.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "f", "false", "off":
		return false
	}
	return true
}

func isDigits(s string) bool {
	for _, r := range strings.TrimSuffix(s, ".json") {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// wantsJSON reports whether a request asks for JSON, by extension or by
// Accept, the two ways Rails picks the format.
func wantsJSON(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, ".json") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

// jsonOrApp serves h to JSON requests and, to a browser, the page
// Discourse's Ember app would render there (a shell the fake keeps empty).
func jsonOrApp(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if wantsJSON(r) {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!doctype html><html><head><title>Discourse</title></head><body><noscript>This forum needs JavaScript.</noscript></body></html>")
	}
}

// locked runs fn, a handler that changes the forum, with the request's
// caller and parameters and the server's lock held; a request
// readRequest refuses never reaches it.
func (s *Server) locked(w http.ResponseWriter, r *http.Request, needUser bool, fn func(c caller, f url.Values)) {
	c, f, ok := readRequest(w, r, needUser)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(c, f)
}

// readRequest reads a request's caller and parameters. It answers 403
// not_logged_in when needUser and nobody is logged in, and 400 for
// parameters it cannot read; ok is false when it has answered.
func readRequest(w http.ResponseWriter, r *http.Request, needUser bool) (caller, url.Values, bool) {
	c := callerOf(r)
	if needUser && c.user == nil {
		writeNotLoggedIn(w)
		return c, nil, false
	}
	f, err := params(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameters", err.Error())
		return c, nil, false
	}
	return c, f, true
}
