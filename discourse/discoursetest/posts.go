package discoursetest

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
)

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
	s.locked(w, r, true, func(c caller, f url.Values) {
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
		postType := discourse.PostTypeRegular
		if truthy(f.Get("whisper")) {
			if !c.user.Staff() {
				writeError(w, http.StatusForbidden, "invalid_access", "You are not permitted to create whispers.")
				return
			}
			postType = discourse.PostTypeWhisper
		}
		raw, title := f.Get("raw"), f.Get("title")
		newTopic, pm := title != "", f.Get("archetype") == "private_message"
		var t *Topic
		if !newTopic {
			t = s.topics[atoi(f.Get("topic_id"))]
		}
		if errs := s.validateCreate(c.user, t, title, newTopic, pm, raw); len(errs) > 0 {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"action": "create_post", "errors": errs})
			return
		}
		if wait := s.rateLimitWait(c.user, newTopic); wait > 0 {
			writeRateLimited(w, wait)
			return
		}
		if c.user.RequireApproval {
			s.enqueue(w, c.user)
			return
		}
		var p *Post
		if newTopic {
			t, p = s.createTopicFromForm(c.user, f, pm)
		} else {
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
	})
}

// createTopicFromForm creates a topic, or a private message whose
// target_recipients become its allowed users and are told about it
// (lib/post_creator.rb, app/services/post_alerter.rb). The caller holds s.mu.
func (s *Server) createTopicFromForm(u *User, f url.Values, pm bool) (*Topic, *Post) {
	t, p := s.createTopic(u, atoi(f.Get("category")), f.Get("title"), f.Get("raw"), append([]string(nil), f["tags[]"]...))
	if pm {
		t.Archetype, t.CategoryID = "private_message", 0
		t.AllowedUsers = []int{u.ID}
		for _, name := range strings.Split(f.Get("target_recipients"), ",") {
			if ru := s.user(strings.TrimSpace(name)); ru != nil {
				t.AllowedUsers = append(t.AllowedUsers, ru.ID)
				s.notify(ru.ID, discourse.NotificationPrivateMessage, p, u)
			}
		}
	}
	return t, p
}

func (s *Server) enqueue(w http.ResponseWriter, u *User) {
	writeJSON(w, http.StatusOK, map[string]any{"action": "enqueued", "success": true, "pending_count": 1,
		"reason": "new_user", "pending_post": map[string]any{"id": s.id("pending"), "raw": ""}})
}

func (s *Server) canSee(p *Post, u *User) bool {
	if p.Deleted {
		return false
	}
	return p.PostType != discourse.PostTypeWhisper || u != nil && u.Staff()
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

// updatePost is PUT /posts/{id}.json (posts_controller.rb#update): the
// author or staff replace post[raw]; the answer is {"post": …}. A
// post[original_text] that no longer matches is an edit conflict (409).
func (s *Server) updatePost(w http.ResponseWriter, r *http.Request) {
	c, f, ok := readRequest(w, r, true)
	if !ok {
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
		writeForbidden(w)
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
