package discoursetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
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
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"errors":     []string{fmt.Sprintf("You’ve performed this action too many times. Please wait %d seconds before trying again.", wait)},
		"error_type": "rate_limit",
		"extras":     map[string]any{"wait_seconds": wait, "time_left": fmt.Sprintf("%d seconds", wait)},
	})
	return false
}

func (s *Server) visible(t *Topic, u *User) bool {
	return t != nil && !t.Deleted && (t.Archetype != "private_message" || u != nil && (u.Staff() || u.ID == t.UserID || slices.Contains(t.AllowedUsers, u.ID)))
}

func (s *Server) latestPosts(w http.ResponseWriter, r *http.Request) {
	before := atoi(r.URL.Query().Get("before"))
	c := callerOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for i := len(s.posts) - 1; i >= 0 && len(out) < 50; i-- {
		p := s.posts[i]
		t := s.topics[p.TopicID]
		if before > 0 && p.ID > before || p.Deleted || p.PostType != discourse.PostTypeRegular ||
			!s.visible(t, c.user) || t.Archetype == "private_message" {
			continue
		}
		m := s.postJSON(p, c.user, true)
		m["topic_title"], m["topic_html_title"] = t.Title, t.Title
		m["category_id"] = t.CategoryID
		out = append(out, m)
	}
	if out == nil {
		out = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"latest_posts": out})
}

func (s *Server) getPost(w http.ResponseWriter, r *http.Request) {
	id := atoi(strings.TrimSuffix(r.PathValue("id"), ".json"))
	c := callerOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.post(id)
	if writeAccess(w, s.postAccess(p, c.user)) {
		return
	}
	writeJSON(w, http.StatusOK, s.postJSON(p, c.user, true))
}

func (s *Server) createPostHandler(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.user == nil {
		writeNotLoggedIn(w)
		return
	}
	f, err := params(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameters", err.Error())
		return
	}
	raw := f.Get("raw")
	s.mu.Lock()
	defer s.mu.Unlock()
	key := memoKey(c.user.ID, f)
	if m, ok := s.memo[key]; ok && s.now().Sub(m.at) < 120*time.Second {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(m.body)
		return
	}
	if _, given := f["raw"]; !given {
		writeError(w, http.StatusBadRequest, "", "param is missing or the value is empty: raw")
		return
	}
	if strings.TrimSpace(raw) == "" {
		// A present but blank raw reaches the validators
		// (lib/validators/post_validator.rb) and fails there: 422.
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": []string{"Body can't be blank"}})
		return
	}
	if len([]rune(strings.TrimSpace(raw))) < 20 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": []string{"Body is too short (minimum is 20 characters)"}})
		return
	}
	if len(raw) > 32000 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": []string{"Body is limited to 32000 characters"}})
		return
	}
	postType := discourse.PostTypeRegular
	if truthy(f.Get("whisper")) {
		if !c.user.Staff() {
			writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to create whispers.")
			return
		}
		postType = discourse.PostTypeWhisper
	}
	title := f.Get("title")
	newTopic, pm := title != "", f.Get("archetype") == "private_message"
	if errs := s.validateCreate(c.user, title, newTopic, pm, raw); len(errs) > 0 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": errs})
		return
	}
	if wait := s.rateLimitWait(c.user, newTopic); wait > 0 {
		writeRateLimited(w, wait)
		return
	}
	var t *Topic
	var p *Post
	if newTopic {
		if c.user.RequireApproval {
			s.enqueue(w, c.user)
			return
		}
		var tags []string
		tags = append(tags, f["tags[]"]...)
		t, p = s.createTopic(c.user, atoi(f.Get("category")), title, raw, tags)
		if pm {
			// target_recipients are the message's allowed users, and are
			// told about it (lib/post_creator.rb, post_alerter.rb).
			t.Archetype, t.CategoryID = "private_message", 0
			t.AllowedUsers = []int{c.user.ID}
			for _, name := range strings.Split(f.Get("target_recipients"), ",") {
				if ru := s.user(strings.TrimSpace(name)); ru != nil {
					t.AllowedUsers = append(t.AllowedUsers, ru.ID)
					s.notify(ru.ID, discourse.NotificationPrivateMessage, p, c.user)
				}
			}
		}
	} else {
		t = s.topics[atoi(f.Get("topic_id"))]
		if !s.visible(t, c.user) {
			// PostCreator reports a reply to a topic that is not there as
			// a validation failure (lib/post_creator.rb), not a 404.
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": []string{"Topic not found"}})
			return
		}
		if (t.Closed || t.Archived) && !c.user.Staff() {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": []string{"This topic is closed; you cannot reply."}})
			return
		}
		if c.user.RequireApproval {
			s.enqueue(w, c.user)
			return
		}
		p = s.createPost(c.user, t, raw, atoi(f.Get("reply_to_post_number")), postType)
	}
	s.recordCreate(c.user, newTopic, raw)
	m := s.postJSON(p, c.user, true)
	m["topic_slug"] = t.Slug
	body, _ := jsonMarshal(m)
	s.memo[key] = memoEntry{at: s.now(), body: body}
	if s.afterCreate != nil {
		s.afterCreate(*p)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(body)
}

func (s *Server) enqueue(w http.ResponseWriter, u *User) {
	writeJSON(w, http.StatusOK, map[string]any{"action": "enqueued", "success": true, "pending_count": 1,
		"reason": "new_user", "pending_post": map[string]any{"id": s.id("pending"), "raw": ""}})
}

func (s *Server) topicListJSON(ts []*Topic, page, perPage int, more string) map[string]any {
	start := page * perPage
	var items []map[string]any
	for i := start; i < len(ts) && i < start+perPage; i++ {
		items = append(items, s.topicListItemJSON(ts[i]))
	}
	if items == nil {
		items = []map[string]any{}
	}
	list := map[string]any{"can_create_topic": true, "per_page": perPage, "topics": items}
	if start+perPage < len(ts) {
		list["more_topics_url"] = more + "?page=" + strconv.Itoa(page+1)
	}
	return map[string]any{"users": []any{}, "primary_groups": []any{}, "topic_list": list}
}

func (s *Server) sortedTopics(filter func(*Topic) bool, order string, ascending bool) []*Topic {
	var ts []*Topic
	for _, t := range s.topics {
		if filter(t) {
			ts = append(ts, t)
		}
	}
	sortTopics(ts, order)
	if ascending { // lib/topic_query.rb: ascending=true reverses the order
		slices.Reverse(ts)
	}
	return ts
}

func sortTopics(ts []*Topic, order string) {
	less := func(a, b *Topic) bool {
		if !a.BumpedAt.Equal(b.BumpedAt) {
			return a.BumpedAt.After(b.BumpedAt)
		}
		return a.ID > b.ID
	}
	if order == "created" {
		less = func(a, b *Topic) bool {
			if !a.CreatedAt.Equal(b.CreatedAt) {
				return a.CreatedAt.After(b.CreatedAt)
			}
			return a.ID > b.ID
		}
	}
	sort.Slice(ts, func(i, j int) bool { return less(ts[i], ts[j]) })
}

func (s *Server) latestTopics(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	ts := s.sortedTopics(func(t *Topic) bool { return s.visible(t, c.user) && t.Archetype == "regular" }, q.Get("order"), truthy(q.Get("ascending")))
	writeJSON(w, http.StatusOK, s.topicListJSON(ts, atoi(q.Get("page")), 30, "/latest"))
}

func (s *Server) categoryTopics(w http.ResponseWriter, r *http.Request) {
	// /c/{slug}/{id}/l/latest is the same list as /c/{slug}/{id}
	// (config/routes.rb, list_controller.rb category_latest).
	if f := strings.TrimSuffix(r.PathValue("filter"), ".json"); f != "" && f != "latest" {
		writeNotFound(w)
		return
	}
	c := callerOf(r)
	id := atoi(strings.TrimSuffix(r.PathValue("id"), ".json"))
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	var cat *Category
	for _, k := range s.categories {
		if k.ID == id {
			cat = k
		}
	}
	if cat == nil {
		writeNotFound(w)
		return
	}
	ts := s.sortedTopics(func(t *Topic) bool { return s.visible(t, c.user) && t.CategoryID == id }, q.Get("order"), truthy(q.Get("ascending")))
	writeJSON(w, http.StatusOK, s.topicListJSON(ts, atoi(q.Get("page")), 30, "/c/"+cat.Slug+"/"+strconv.Itoa(id)))
}

func (s *Server) topicView(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	id := atoi(strings.TrimSuffix(r.PathValue("id"), ".json"))
	if slug := r.PathValue("slug"); slug != "" && isDigits(slug) {
		id = atoi(slug) // /t/{id}/{post_number}.json
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.topics[id]
	switch s.topicAccess(t, c.user) {
	case accessNotFound:
		writeJSON(w, http.StatusNotFound, map[string]any{"errors": []string{"The requested URL or resource could not be found."},
			"error_type": "not_found", "extras": map[string]any{"html": "<div class=\"page-not-found\">Oops! That page doesn’t exist or is private.</div>", "group": nil}})
		return
	case accessForbidden:
		writeJSON(w, http.StatusForbidden, map[string]any{"errors": []string{"You are not permitted to view the requested resource."},
			"error_type": "invalid_access", "extras": map[string]any{"html": "<div class=\"page-not-found\">Oops! That page is private.</div>", "group": nil}})
		return
	}
	writeJSON(w, http.StatusOK, s.topicViewJSON(t, c.user, r.URL.Query().Get("include_raw") != "", atoi(r.URL.Query().Get("page"))))
}

func (s *Server) topicPosts(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	id := atoi(r.PathValue("id"))
	want := map[int]bool{}
	for _, v := range r.URL.Query()["post_ids[]"] {
		want[atoi(v)] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.topics[id]
	if writeAccess(w, s.topicAccess(t, c.user)) {
		return
	}
	// Without post_ids[] (nor post_number), TopicView serves the first
	// chunk of 20 posts (topics_controller.rb#posts, lib/topic_view.rb).
	withRaw := r.URL.Query().Get("include_raw") != ""
	var posts []map[string]any
	for _, p := range s.byTopic[id] {
		if !s.canSee(p, c.user) || len(want) > 0 && !want[p.ID] || len(want) == 0 && len(posts) == 20 {
			continue
		}
		posts = append(posts, s.postJSON(p, c.user, withRaw))
	}
	if posts == nil {
		posts = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"post_stream": map[string]any{"posts": posts}, "id": id})
}

func (s *Server) canSee(p *Post, u *User) bool {
	if p.Deleted {
		return false
	}
	return p.PostType != discourse.PostTypeWhisper || u != nil && u.Staff()
}

func (s *Server) updateTopic(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	id := atoi(strings.TrimSuffix(r.PathValue("id"), ".json"))
	f, err := params(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameters", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.topics[id]
	if writeAccess(w, s.topicAccess(t, c.user)) {
		return
	}
	if c.user == nil || !c.user.Staff() && c.user.ID != t.UserID {
		writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
		return
	}
	if tags, ok := f["tags[]"]; ok {
		var clean []string
		for _, tg := range tags {
			if tg = strings.TrimSpace(strings.ToLower(tg)); tg != "" {
				if len(tg) > 20 {
					writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": []string{"Tag is too long: " + tg}})
					return
				}
				clean = append(clean, tg)
			}
		}
		if len(clean) > 5 {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": []string{"You can only apply 5 tags to a topic."}})
			return
		}
		t.Tags = clean
	}
	if title := r.PostForm.Get("title"); title != "" {
		t.Title, t.Slug = title, slugify(title)
	}
	writeJSON(w, http.StatusOK, map[string]any{"basic_topic": map[string]any{"id": t.ID, "title": t.Title,
		"fancy_title": t.Title, "slug": t.Slug, "posts_count": s.postsCount(t.ID)}})
}

func (s *Server) notificationsHandler(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.user == nil {
		writeNotLoggedIn(w)
		return
	}
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Another user's notifications are for admins only
	// (notifications_controller.rb, guardian can_see_notifications?).
	owner := c.user
	if name := q.Get("username"); name != "" && !strings.EqualFold(name, c.user.Username) {
		if !c.user.Admin {
			writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
			return
		}
		if owner = s.user(name); owner == nil {
			writeNotFound(w)
			return
		}
	}
	offset := atoi(q.Get("offset"))
	var out []map[string]any
	total := 0
	for i := len(s.notifications) - 1; i >= 0; i-- {
		n := s.notifications[i]
		if n.UserID != owner.ID || q.Get("filter") == "unread" && n.Read || q.Get("filter") == "read" && !n.Read {
			continue
		}
		total++
		if total <= offset || len(out) >= 60 {
			continue
		}
		out = append(out, s.notificationJSON(n))
	}
	if out == nil {
		out = []map[string]any{}
	}
	seen := 0
	if len(s.notifications) > 0 {
		seen = s.notifications[len(s.notifications)-1].ID
	}
	writeJSON(w, http.StatusOK, map[string]any{"notifications": out, "total_rows_notifications": total,
		"seen_notification_id": seen, "load_more_notifications": "/notifications?offset=" + itoa(offset+len(out)) + "&username=" + owner.Username})
}

func (s *Server) markRead(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.user == nil {
		writeNotLoggedIn(w)
		return
	}
	_ = r.ParseForm()
	id := atoi(r.PostForm.Get("id"))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.notifications {
		if n.UserID == c.user.ID && (id == 0 || n.ID == id) {
			n.Read = true
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": "OK"})
}

func (s *Server) categoriesHandler(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var cats []map[string]any
	for _, c := range s.categories {
		n := 0
		for _, t := range s.topics {
			if t.CategoryID == c.ID && !t.Deleted {
				n++
			}
		}
		cats = append(cats, map[string]any{"id": c.ID, "name": c.Name, "color": "0088CC", "text_color": "FFFFFF",
			"style_type": "square", "emoji": nil, "icon": nil,
			"slug": c.Slug, "topic_count": n, "post_count": n, "position": c.ID, "description": nil,
			"description_text": nil, "description_excerpt": nil,
			"topic_url": "/t/about-the-" + c.Slug + "-category", "read_restricted": false, "permission": 1,
			"notification_level": 1, "can_edit": false, "topic_template": nil, "topic_title_placeholder": nil,
			"has_children": false, "subcategory_count": 0, "sort_order": nil, "sort_ascending": nil,
			"show_subcategory_list": false, "num_featured_topics": 3, "default_view": nil,
			"subcategory_list_style": "rows_with_featured_topics", "default_top_period": "all",
			"default_list_filter": "all", "minimum_required_tags": 0, "navigate_to_first_post_after_read": false,
			"topics_day": 0, "topics_week": n, "topics_month": n, "topics_year": n, "topics_all_time": n,
			"subcategory_ids": []int{}, "uploaded_logo": nil, "uploaded_logo_dark": nil,
			"uploaded_background": nil, "uploaded_background_dark": nil})
	}
	if cats == nil {
		cats = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"category_list": map[string]any{"can_create_category": false,
		"can_create_topic": true, "categories": cats}})
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	// Quotes mark a phrase in Discourse's search; every word of it must
	// match, which is what is modelled.
	q := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(r.URL.Query().Get("q"), `"`, " ")))
	s.mu.Lock()
	defer s.mu.Unlock()
	var words []string
	unsolved, solved := false, false
	for _, f := range strings.Fields(q) {
		switch f {
		case "status:unsolved":
			unsolved = true
		case "status:solved":
			solved = true
		default:
			if strings.Contains(f, ":") { // other operators (after:, #cat) are not modelled
				continue
			}
			words = append(words, f)
		}
	}
	posts := []map[string]any{}
	topics := []map[string]any{}
	seen := map[int]bool{}
	for _, p := range s.posts {
		t := s.topics[p.TopicID]
		if !s.visible(t, c.user) || !s.canSee(p, c.user) || unsolved && t.AcceptedPostID != 0 || solved && t.AcceptedPostID == 0 {
			continue
		}
		hay := strings.ToLower(t.Title + " " + p.Raw)
		match := true
		for _, wd := range words {
			if !strings.Contains(hay, wd) {
				match = false
			}
		}
		if !match {
			continue
		}
		u := s.users[p.UserID]
		blurb := p.Raw
		if len(blurb) > 200 {
			blurb = blurb[:200]
		}
		posts = append(posts, map[string]any{"id": p.ID, "name": u.Name, "username": u.Username, "avatar_template": avatar(u),
			"created_at": p.CreatedAt.UTC().Format(time.RFC3339Nano), "like_count": p.Likes, "blurb": blurb,
			"post_number": p.PostNumber, "topic_id": p.TopicID})
		if !seen[t.ID] {
			seen[t.ID] = true
			topics = append(topics, s.topicListItemJSON(t))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"posts": posts, "topics": topics, "users": []any{}, "categories": []any{},
		"tags": []any{}, "groups": []any{}, "grouped_search_result": map[string]any{"more_posts": nil, "more_users": nil,
			"more_categories": nil, "term": q, "search_log_id": 1, "more_full_page_results": nil, "can_create_topic": true,
			"error": nil, "post_ids": []int{}, "user_ids": []int{}, "category_ids": []int{}, "tag_ids": []int{}, "group_ids": []int{}}})
}

func (s *Server) currentUser(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.user == nil {
		w.WriteHeader(http.StatusNotFound) // the real server's empty 404
		return
	}
	u := c.user
	writeJSON(w, http.StatusOK, map[string]any{"current_user": map[string]any{"id": u.ID, "username": u.Username,
		"name": u.Name, "avatar_template": avatar(u), "admin": u.Admin, "moderator": u.Moderator, "staff": u.Staff(),
		"trust_level": u.TrustLevel, "whisperer": u.Staff(), "title": nil}})
}

// userProfile is users_controller#show: /u/{username}.json, the profile
// with admin, moderator and (for staff callers) group memberships.
func (s *Server) userProfile(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(r.PathValue("username"), ".json")
	s.mu.Lock()
	u := s.user(name)
	s.mu.Unlock()
	if u == nil {
		writeNotFound(w)
		return
	}
	groups := []map[string]any{}
	for _, g := range u.Groups {
		groups = append(groups, map[string]any{"name": g})
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": u.ID, "username": u.Username, "name": u.Name,
		"avatar_template": avatar(u), "admin": u.Admin, "moderator": u.Moderator, "trust_level": u.TrustLevel, "groups": groups}})
}

func (s *Server) acceptHandler(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.post(atoi(r.PostForm.Get("id")))
	if p == nil {
		writeNotFound(w)
		return
	}
	t := s.topics[p.TopicID]
	if c.user == nil || !c.user.Staff() && c.user.ID != t.UserID {
		writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
		return
	}
	t.AcceptedPostID = p.ID
	s.notifications = append(s.notifications, &Notification{ID: s.id("notification"), UserID: p.UserID,
		Type: discourse.NotificationCustom, TopicID: t.ID, PostNum: p.PostNumber, PostID: p.ID, FromUser: c.user.Username, CreatedAt: s.now()})
	writeJSON(w, http.StatusOK, map[string]any{"success": "OK"})
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

// browserLogin logs a browser in by username (the fake has no passwords)
// and continues to next.
func (s *Server) browserLogin(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	s.mu.Lock()
	u := s.user(r.PostForm.Get("username"))
	var token string
	if u != nil {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		token = hex.EncodeToString(b)
		s.sessions[token] = u.ID
	}
	s.mu.Unlock()
	if u == nil {
		http.Error(w, "no such user", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: "_t", Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	next := r.PostForm.Get("next")
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		next = "/"
	}
	http.Redirect(w, r, next, http.StatusFound)
}

// topicPage serves a minimal HTML view of a topic for people and browsers.
func (s *Server) topicPage(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	id := atoi(r.PathValue("id"))
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.topics[id]
	if !s.visible(t, c.user) {
		http.NotFound(w, r)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title></head><body><h1>%s</h1>", template.HTMLEscapeString(t.Title), template.HTMLEscapeString(t.Title))
	for _, p := range s.byTopic[id] {
		if s.canSee(p, c.user) {
			fmt.Fprintf(&b, `<article class="post" id="post_%d"><b>%s</b>%s</article>`, p.PostNumber, template.HTMLEscapeString(s.users[p.UserID].Username), p.Cooked)
		}
	}
	b.WriteString("</body></html>")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, b.String())
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

// topicPostIDs is /t/{id}/post_ids.json: the ids of the topic's posts the
// caller may see (topics_controller.rb#post_ids).
func (s *Server) topicPostIDs(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.topics[atoi(r.PathValue("id"))]
	if writeAccess(w, s.topicAccess(t, c.user)) {
		return
	}
	ids := []int{}
	for _, p := range s.byTopic[t.ID] {
		if s.canSee(p, c.user) {
			ids = append(ids, p.ID)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"post_ids": ids})
}

// postRaw is /posts/{id}/raw: the Markdown as text/plain
// (posts_controller.rb#markdown_id).
func (s *Server) postRaw(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	s.mu.Lock()
	p := s.post(atoi(r.PathValue("id")))
	a := s.postAccess(p, c.user)
	s.mu.Unlock()
	if writeAccess(w, a) {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, p.Raw)
}

// postByNumber is /posts/by_number/{topic_id}/{post_number}.json
// (posts_controller.rb#by_number).
func (s *Server) postByNumber(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	n := atoi(strings.TrimSuffix(r.PathValue("n"), ".json"))
	for _, p := range s.byTopic[atoi(r.PathValue("topic"))] {
		if p.PostNumber == n {
			if !writeAccess(w, s.postAccess(p, c.user)) {
				writeJSON(w, http.StatusOK, s.postJSON(p, c.user, true))
			}
			return
		}
	}
	writeNotFound(w)
}

// unacceptHandler is the Solved plugin's POST /solution/unaccept.
func (s *Server) unacceptHandler(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	f, err := params(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameters", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.post(atoi(f.Get("id")))
	if writeAccess(w, s.postAccess(p, c.user)) {
		return
	}
	t := s.topics[p.TopicID]
	if c.user == nil || !c.user.Staff() && c.user.ID != t.UserID {
		writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
		return
	}
	if t.AcceptedPostID == p.ID {
		t.AcceptedPostID = 0
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": "OK"})
}

// wantsJSON reports whether a request asks for JSON, by extension or by
// Accept, the two ways Rails picks the format.
func wantsJSON(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, ".json") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

// updatePost is PUT /posts/{id}.json (posts_controller.rb#update): the
// author or staff replace post[raw]; the answer is {"post": …}. A
// post[original_text] that no longer matches is an edit conflict (409).
func (s *Server) updatePost(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r)
	if c.user == nil {
		writeNotLoggedIn(w)
		return
	}
	f, err := params(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_parameters", err.Error())
		return
	}
	raw, given := f["post[raw]"]
	if !given {
		writeError(w, http.StatusBadRequest, "", "param is missing or the value is empty: post")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.post(atoi(strings.TrimSuffix(r.PathValue("id"), ".json")))
	if writeAccess(w, s.postAccess(p, c.user)) {
		return
	}
	if !c.user.Staff() && c.user.ID != p.UserID { // guardian ensure_can_edit!
		writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
		return
	}
	if orig, ok := f["post[original_text]"]; ok && orig[0] != p.Raw {
		writeError(w, http.StatusConflict, "", "The post was changed by someone else while you were editing it.")
		return
	}
	body := strings.TrimSpace(raw[0])
	switch {
	case body == "":
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": []string{"Body can't be blank"}})
		return
	case len([]rune(body)) < 20:
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"errors": []string{"Body is too short (minimum is 20 characters)"}})
		return
	}
	p.Raw = raw[0]
	p.Cooked, _ = s.cook(p.Raw)
	writeJSON(w, http.StatusOK, map[string]any{"post": s.postJSON(p, c.user, true)})
}

// topicRoute serves a topic URL as JSON to API clients and as a page to
// browsers.
func (s *Server) topicRoute(w http.ResponseWriter, r *http.Request) {
	if wantsJSON(r) {
		s.topicView(w, r)
		return
	}
	s.topicPage(w, r)
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
