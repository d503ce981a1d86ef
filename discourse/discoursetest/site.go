package discoursetest

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
)

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
			writeForbidden(w)
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
		writeForbidden(w)
		return
	}
	t.AcceptedPostID = p.ID
	s.notifications = append(s.notifications, &Notification{ID: s.id("notification"), UserID: p.UserID,
		Type: discourse.NotificationCustom, TopicID: t.ID, PostNum: p.PostNumber, PostID: p.ID, FromUser: c.user.Username, CreatedAt: s.now()})
	writeJSON(w, http.StatusOK, map[string]any{"success": "OK"})
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

// unacceptHandler is the Solved plugin's POST /solution/unaccept.
func (s *Server) unacceptHandler(w http.ResponseWriter, r *http.Request) {
	s.locked(w, r, false, func(c caller, f url.Values) {
		p := s.post(atoi(f.Get("id")))
		if writeAccess(w, s.postAccess(p, c.user)) {
			return
		}
		t := s.topics[p.TopicID]
		if c.user == nil || !c.user.Staff() && c.user.ID != t.UserID {
			writeForbidden(w)
			return
		}
		if t.AcceptedPostID == p.ID {
			t.AcceptedPostID = 0
		}
		writeJSON(w, http.StatusOK, map[string]any{"success": "OK"})
	})
}
