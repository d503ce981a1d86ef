// Package discoursetest is an in-process fake Discourse forum for tests
// and the demo. It keeps users, categories, topics, posts (raw and
// cooked), tags, whispers, notifications on @mention and reply, Solved
// answers, API keys and a DiscourseConnect provider, and answers with the
// field names, types and nesting of a real server (checked against the
// recorded fixtures by the discourse package's contract test).
//
// It follows Discourse's source where its tests pin it
// (discourse/fidelity_test.go): request parsing, the posting rules for
// non-staff accounts (SiteSettings, with Discourse's defaults), 404 for
// what is missing and 403 for what Guardian hides, paging and routes.
// It limits API-key traffic with one shared bucket as the real server
// does, answers 429 in both shapes, and can inject faults: 5xx bursts,
// slow responses, truncated or malformed JSON, dropped connections and
// posts whose response is lost after they were created. Client gives a
// test HTTP connections of its own, which no other test's server closes.
package discoursetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark"

	"github.com/heraldbot/herald/discourse"
)

// Fault is a failure the server can inject into a request.
type Fault int

// Faults.
const (
	Fault500          Fault = iota + 1 // 500 with an empty body
	Fault502                           // 502 with an HTML body, as a proxy sends
	Fault503                           // 503 read-only JSON
	FaultSlow                          // wait SlowDelay (or until the client gives up) before answering
	FaultTruncated                     // a 200 whose JSON body is cut in half
	FaultMalformed                     // a 200 whose body is not JSON
	FaultDrop                          // close the connection without answering
	FaultLoseResponse                  // perform the request, then close the connection
	FaultPlainText429                  // the per-IP limiter's text/plain 429
)

// Server is the fake forum. Its methods are safe for concurrent use.
type Server struct {
	*httptest.Server

	mu            sync.Mutex
	saveMu        sync.Mutex
	now           func() time.Time
	users         map[int]*User
	apiKeys       map[string]string // key → username ("" = any user)
	categories    []*Category
	topics        map[int]*Topic
	posts         []*Post
	byTopic       map[int][]*Post // index over posts
	byID          map[int]*Post
	notifications []*Notification
	nextID        map[string]int
	faults        map[string][]Fault
	slowDelay     time.Duration
	// RatePerMinute is the shared API-key bucket (default 60; 0 = off).
	ratePerMinute int
	apiHits       []time.Time
	limited       int // 429s the shared bucket answered
	requests      map[string]int
	memo          map[string]memoEntry
	ssoSecret     string
	afterCreate   func(Post)
	sessions      map[string]int // browser session cookie → user id
	md            goldmark.Markdown
	settings      SiteSettings
	rules         postingRules
}

type memoEntry struct {
	at   time.Time
	body []byte
}

// Option configures a Server.
type Option func(*Server)

// WithClock sets the server's clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithRateLimit sets the shared API-key budget per minute (0 disables it).
func WithRateLimit(perMinute int) Option { return func(s *Server) { s.ratePerMinute = perMinute } }

// WithSSOSecret enables the DiscourseConnect provider with secret.
func WithSSOSecret(secret string) Option { return func(s *Server) { s.ssoSecret = secret } }

// New starts a fake forum; close it with Close.
func New(opts ...Option) *Server {
	s := newServer(opts...)
	s.Server = httptest.NewServer(s.Handler())
	return s
}

// NewUnstarted returns a fake forum whose handler can be served by the
// caller (Handler), e.g. on a fixed port for the demo.
func NewUnstarted(opts ...Option) *Server { return newServer(opts...) }

func newServer(opts ...Option) *Server {
	s := &Server{
		now:           time.Now,
		users:         map[int]*User{},
		apiKeys:       map[string]string{},
		topics:        map[int]*Topic{},
		byTopic:       map[int][]*Post{},
		byID:          map[int]*Post{},
		nextID:        map[string]int{},
		faults:        map[string][]Fault{},
		slowDelay:     2 * time.Second,
		ratePerMinute: 60,
		requests:      map[string]int{},
		memo:          map[string]memoEntry{},
		sessions:      map[string]int{},
		md:            goldmark.New(),
		settings:      DefaultSiteSettings(),
		rules:         postingRules{last: map[string]time.Time{}, bodies: map[string]time.Time{}},
	}
	for _, o := range opts {
		o(s)
	}
	// The system user, as on every forum.
	s.users[-1] = &User{ID: -1, Username: "system", Name: "system", Admin: true, TrustLevel: 4}
	return s
}

func (s *Server) id(kind string) int {
	s.nextID[kind]++
	return s.nextID[kind]
}

// AddUser adds a user and returns it with its id.
func (s *Server) AddUser(u User) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u.ID = s.id("user")
	s.users[u.ID] = &u
	return &u
}

// AddAPIKey registers an admin API key; username "" makes it an
// all-users key that may act as anyone.
func (s *Server) AddAPIKey(key, username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apiKeys[key] = username
}

// AddCategory adds a category.
func (s *Server) AddCategory(name string) *Category {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &Category{ID: s.id("category"), Name: name, Slug: slugify(name)}
	s.categories = append(s.categories, c)
	return c
}

// SetSlowDelay sets how long FaultSlow waits (default 2s).
func (s *Server) SetSlowDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slowDelay = d
}

// SetAfterCreate sets a function called after a post has been created
// through the API and before the response is written (nil to clear):
// crash tests use it to kill a client between a successful POST and its
// bookkeeping. It runs with the forum locked and must not call back.
func (s *Server) SetAfterCreate(fn func(Post)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.afterCreate = fn
}

// Inject queues faults for requests whose path is path ("" = any path);
// each matching request consumes one.
func (s *Server) Inject(path string, faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[path] = append(s.faults[path], faults...)
}

// RateLimited returns how many requests the shared API bucket refused
// (injected 429s not counted).
func (s *Server) RateLimited() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limited
}

// TotalRequests returns how many requests reached the forum.
func (s *Server) TotalRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.requests {
		n += c
	}
	return n
}

// Requests returns how many requests reached method+path ("GET /posts.json").
func (s *Server) Requests(methodPath string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[methodPath]
}

func (s *Server) user(name string) *User {
	for _, u := range s.users {
		if strings.EqualFold(u.Username, name) {
			return u
		}
	}
	return nil
}

// User returns the user named name, or nil.
func (s *Server) User(name string) *User {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.user(name)
}

// CreateTopic creates a topic with its first post as username.
func (s *Server) CreateTopic(username string, categoryID int, title, raw string, tags ...string) (*Topic, *Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user(username)
	if u == nil {
		return nil, nil, fmt.Errorf("discoursetest: no user %q", username)
	}
	t, p := s.createTopic(u, categoryID, title, raw, tags)
	return t, p, nil
}

func (s *Server) createTopic(u *User, categoryID int, title, raw string, tags []string) (*Topic, *Post) {
	now := s.now()
	t := &Topic{ID: s.id("topic"), Title: title, Slug: slugify(title), CategoryID: categoryID, Tags: tags,
		UserID: u.ID, CreatedAt: now, BumpedAt: now, Visible: true, Archetype: "regular"}
	s.topics[t.ID] = t
	p := s.createPost(u, t, raw, 0, discourse.PostTypeRegular)
	return t, p
}

// CreatePrivateMessage starts a private message from username to the
// recipients, as POST /posts.json with archetype=private_message and
// target_recipients does: the recipients are its allowed users and those
// named in its raw are notified as for any post.
func (s *Server) CreatePrivateMessage(username, title, raw string, recipients ...string) (*Topic, *Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user(username)
	if u == nil {
		return nil, nil, fmt.Errorf("discoursetest: no user %q", username)
	}
	allowed := []int{u.ID}
	for _, name := range recipients {
		r := s.user(name)
		if r == nil {
			return nil, nil, fmt.Errorf("discoursetest: no user %q", name)
		}
		allowed = append(allowed, r.ID)
	}
	now := s.now()
	t := &Topic{ID: s.id("topic"), Title: title, Slug: slugify(title), UserID: u.ID, CreatedAt: now, BumpedAt: now,
		Visible: true, Archetype: "private_message", AllowedUsers: allowed}
	s.topics[t.ID] = t
	p := s.createPost(u, t, raw, 0, discourse.PostTypeRegular)
	return t, p, nil
}

// Reply posts raw in a topic as username (replyTo is a post number or 0).
func (s *Server) Reply(username string, topicID int, raw string, replyTo int) (*Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user(username)
	t := s.topics[topicID]
	if u == nil || t == nil {
		return nil, fmt.Errorf("discoursetest: no user %q or topic %d", username, topicID)
	}
	return s.createPost(u, t, raw, replyTo, discourse.PostTypeRegular), nil
}

// SetStaff makes a user a moderator or takes the role away.
func (s *Server) SetStaff(username string, staff bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.user(username); u != nil {
		u.Moderator = staff
	}
}

// Whisper posts raw in a topic as a staff whisper from username.
func (s *Server) Whisper(username string, topicID int, raw string) (*Post, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user(username)
	t := s.topics[topicID]
	if u == nil || t == nil || !u.Staff() {
		return nil, fmt.Errorf("discoursetest: no staff user %q or no topic %d", username, topicID)
	}
	return s.createPost(u, t, raw, 0, discourse.PostTypeWhisper), nil
}

// SetClosed opens or closes a topic.
func (s *Server) SetClosed(topicID int, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.topics[topicID]; t != nil {
		t.Closed = closed
	}
}

// DeleteTopic soft-deletes a topic.
func (s *Server) DeleteTopic(topicID int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.topics[topicID]; t != nil {
		t.Deleted, t.DeletedAt = true, s.now()
	}
}

// Accept marks post id as its topic's solution.
func (s *Server) Accept(postID int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.post(postID)
	if p == nil {
		return fmt.Errorf("discoursetest: no post %d", postID)
	}
	s.topics[p.TopicID].AcceptedPostID = p.ID
	return nil
}

// Like adds a like to a post.
func (s *Server) Like(postID int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.post(postID); p != nil {
		p.Likes++
	}
}

// Posts returns copies of a topic's posts, in order.
func (s *Server) Posts(topicID int) []Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Post
	for _, p := range s.byTopic[topicID] {
		out = append(out, *p)
	}
	return out
}

// TopicByID returns a copy of a topic.
func (s *Server) TopicByID(id int) (Topic, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.topics[id]
	if !ok {
		return Topic{}, false
	}
	return *t, true
}

func (s *Server) post(id int) *Post { return s.byID[id] }

// index adds p to the lookup maps.
func (s *Server) index(p *Post) {
	s.byTopic[p.TopicID] = append(s.byTopic[p.TopicID], p)
	s.byID[p.ID] = p
}

var mentionRE = regexp.MustCompile(`(^|[^\w@/])@([\w][\w.-]{0,59}\w|\w)`)

func (s *Server) createPost(u *User, t *Topic, raw string, replyTo, postType int) *Post {
	n := len(s.byTopic[t.ID])
	p := &Post{ID: s.id("post"), TopicID: t.ID, PostNumber: n + 1, UserID: u.ID, Raw: raw,
		PostType: postType, ReplyToPostNumber: replyTo, CreatedAt: s.now()}
	var mentioned []string
	p.Cooked, mentioned = s.cook(raw)
	s.posts = append(s.posts, p)
	s.index(p)
	if postType == discourse.PostTypeRegular {
		t.BumpedAt = p.CreatedAt
	}
	notified := map[int]bool{u.ID: true}
	for _, name := range mentioned {
		// A whisper alerts only those who may read it (post_alerter.rb).
		if m := s.user(name); m != nil && !notified[m.ID] && (postType != discourse.PostTypeWhisper || m.Staff()) {
			notified[m.ID] = true
			s.notify(m.ID, discourse.NotificationMentioned, p, u)
		}
	}
	if replyTo > 0 {
		for _, q := range s.byTopic[t.ID] {
			if q.PostNumber == replyTo && !notified[q.UserID] {
				notified[q.UserID] = true
				s.notify(q.UserID, discourse.NotificationReplied, p, u)
			}
		}
	}
	return p
}

func (s *Server) notify(userID, typ int, p *Post, from *User) {
	s.notifications = append(s.notifications, &Notification{ID: s.id("notification"), UserID: userID, Type: typ,
		TopicID: p.TopicID, PostNum: p.PostNumber, PostID: p.ID, FromUser: from.Username, CreatedAt: p.CreatedAt})
}

var codeRE = regexp.MustCompile(`(?s)<pre>.*?</pre>|<code>.*?</code>|<blockquote>.*?</blockquote>`)

// [code] blocks as Discourse's Markdown engine reads them
// (discourse-markdown-it's bbcode-block.js): the tag alone on its line,
// in any case and with any attributes, up to the [/code] alone on a line
// that pairs with it as brackets pair (clean [code] lines between them
// nest), or code between the tags on one line; Discourse renders the
// content as a fenced code block. Lines inside a Markdown fence are code
// already, and an unclosed tag is text. knowledge reads posts by the same
// rules (its discourseCode); the fake forum keeps its own copy on
// purpose, so that a test of Herald against it checks Herald's reading
// against a second one rather than against itself.
var (
	bbcodeOpenRE   = regexp.MustCompile(`(?i)^ {0,3}\[code(?:[^a-z\]\n][^\]\n]*)?\][ \t\r]*$`)
	bbcodeCloseRE  = regexp.MustCompile(`(?i)^ {0,3}\[/code\][ \t\r]*$`)
	bbcodeInlineRE = regexp.MustCompile(`(?i)^ {0,3}\[code(?:[^a-z\]\n][^\]\n]*)?\](.+)\[/code\][ \t\r]*$`)
	mdFenceRE      = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// codeBlocksAsFences returns raw with its [code] blocks written as fenced
// code blocks, each fence longer than any backtick run inside.
func codeBlocksAsFences(raw string) string {
	lines := strings.Split(raw, "\n")
	closeAt := make([]int, len(lines))
	var open []int
	for i, l := range lines {
		closeAt[i] = -1
		switch {
		case bbcodeOpenRE.MatchString(l):
			open = append(open, i)
		case bbcodeCloseRE.MatchString(l) && len(open) > 0:
			closeAt[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	fenced := func(code []string) []string {
		longest := 0 // the longest run of backticks in the code
		for _, l := range code {
			run := 0
			for i := 0; i < len(l); i++ {
				if l[i] != '`' {
					run = 0
					continue
				}
				run++
				longest = max(longest, run)
			}
		}
		fence := strings.Repeat("`", max(3, longest+1))
		return append(append([]string{fence}, code...), fence)
	}
	var out []string
	mark := "" // the open Markdown fence's marks
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch m := mdFenceRE.FindStringSubmatch(l); {
		case mark != "":
			if t := strings.TrimSpace(l); strings.HasPrefix(t, mark) && strings.Trim(t, mark[:1]) == "" {
				mark = ""
			}
			out = append(out, l)
		case m != nil:
			mark = m[1]
			out = append(out, l)
		case closeAt[i] > i:
			out = append(out, fenced(lines[i+1:closeAt[i]])...)
			i = closeAt[i]
		default:
			if inline := bbcodeInlineRE.FindStringSubmatch(l); inline != nil {
				out = append(out, fenced([]string{inline[1]})...)
			} else {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// cook renders raw Markdown to HTML as Discourse does in outline: [code]
// blocks are code, and mentions outside code and quotes become links and
// are returned.
func (s *Server) cook(raw string) (string, []string) {
	raw = codeBlocksAsFences(raw)
	var buf bytes.Buffer
	if err := s.md.Convert([]byte(raw), &buf); err != nil {
		buf.Reset()
		buf.WriteString("<p>" + htmlEscape(raw) + "</p>")
	}
	html := strings.TrimSpace(buf.String())
	var mentioned []string
	var out strings.Builder
	last := 0
	link := func(seg string) string {
		return mentionRE.ReplaceAllStringFunc(seg, func(m string) string {
			sm := mentionRE.FindStringSubmatch(m)
			name := sm[2]
			if s.user(name) == nil {
				return m
			}
			mentioned = append(mentioned, name)
			return sm[1] + `<a class="mention" href="/u/` + strings.ToLower(name) + `">@` + name + `</a>`
		})
	}
	for _, loc := range codeRE.FindAllStringIndex(html, -1) {
		out.WriteString(link(html[last:loc[0]]))
		out.WriteString(html[loc[0]:loc[1]])
		last = loc[1]
	}
	out.WriteString(link(html[last:]))
	return out.String(), mentioned
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

var slugRE = regexp.MustCompile(`[^a-z0-9]+`)

func slugify(s string) string {
	s = strings.Trim(slugRE.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if s == "" {
		return "topic"
	}
	return s
}

// memoKey identifies a create request for the server's 120-second
// duplicate-request memo.
func memoKey(userID int, form url.Values) string {
	keys := make([]string, 0, len(form))
	for k := range form {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	fmt.Fprint(h, userID)
	for _, k := range keys {
		fmt.Fprintf(h, "&%s=%s", k, strings.Join(form[k], ","))
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, errorType string, msgs ...string) {
	body := map[string]any{"errors": msgs}
	if errorType != "" {
		body["error_type"] = errorType
	}
	writeJSON(w, status, body)
}

// writeNotFound answers as Discourse does for a missing or hidden resource.
func writeNotFound(w http.ResponseWriter) {
	writeError(w, http.StatusNotFound, "not_found", "The requested URL or resource could not be found.")
}

// writeForbidden answers as Discourse does for what Guardian refuses
// (Discourse::InvalidAccess).
func writeForbidden(w http.ResponseWriter) {
	writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to view the requested resource.")
}

// writeNotLoggedIn answers as Discourse does when a call needs a user.
func writeNotLoggedIn(w http.ResponseWriter) {
	writeError(w, http.StatusForbidden, "not_logged_in", "You need to be logged in to do that.")
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// SetTags replaces a topic's tags, as staff editing the topic do.
func (s *Server) SetTags(topicID int, tags ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.topics[topicID]; t != nil {
		t.Tags = append([]string(nil), tags...)
	}
}
