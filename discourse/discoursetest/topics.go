package discoursetest

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

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

func (s *Server) updateTopic(w http.ResponseWriter, r *http.Request) {
	s.locked(w, r, false, func(c caller, f url.Values) {
		id := atoi(strings.TrimSuffix(r.PathValue("id"), ".json"))
		t := s.topics[id]
		if writeAccess(w, s.topicAccess(t, c.user)) {
			return
		}
		if c.user == nil || !c.user.Staff() && c.user.ID != t.UserID {
			writeForbidden(w)
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
	})
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

// topicRoute serves a topic URL as JSON to API clients and as a page to
// browsers.
func (s *Server) topicRoute(w http.ResponseWriter, r *http.Request) {
	if wantsJSON(r) {
		s.topicView(w, r)
		return
	}
	s.topicPage(w, r)
}
