package discoursetest

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

func avatar(u *User) string {
	return "/letter_avatar_proxy/v4/letter/" + strings.ToLower(u.Username[:1]) + "/8c91f0/{size}.png"
}

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// postJSON renders a post with the fields of the real PostSerializer.
// postJSON is PostSerializer's shape. raw is included only when asked
// (withRaw): topics_controller.rb sets the serializer's include_raw flag
// from the include_raw parameter, while posts_controller.rb's show, latest
// and create always add it. reply_to_user names the author of the post
// replied to (post_serializer.rb, include_reply_to_user?).
func (s *Server) postJSON(p *Post, viewer *User, withRaw bool) map[string]any {
	u := s.users[p.UserID]
	t := s.topics[p.TopicID]
	var replyTo, replyToUser any
	if p.ReplyToPostNumber > 0 {
		replyTo = p.ReplyToPostNumber
		for _, q := range s.byTopic[p.TopicID] {
			if q.PostNumber == p.ReplyToPostNumber {
				if ru := s.users[q.UserID]; ru != nil {
					replyToUser = map[string]any{"username": ru.Username, "name": ru.Name, "avatar_template": avatar(ru)}
				}
			}
		}
	}
	var deleted any
	if p.Deleted {
		deleted = ts(p.CreatedAt)
	}
	actions := []map[string]any{}
	if p.Likes > 0 {
		actions = append(actions, map[string]any{"id": 2, "count": p.Likes})
	}
	name := any(u.Name)
	if u.Name == "" {
		name = nil
	}
	m := map[string]any{
		"id": p.ID, "name": name, "username": u.Username, "avatar_template": avatar(u),
		"created_at": ts(p.CreatedAt), "cooked": p.Cooked, "post_number": p.PostNumber, "post_type": p.PostType,
		"updated_at": ts(p.CreatedAt), "reply_count": 0, "reply_to_post_number": replyTo, "quote_count": 0,
		"avg_time": nil, "incoming_link_count": 0, "reads": 1, "score": 0.2, "yours": viewer != nil && viewer.ID == u.ID,
		"topic_id": p.TopicID, "topic_slug": t.Slug, "display_username": name, "primary_group_name": nil,
		"primary_group_flair_url": nil, "primary_group_flair_bg_color": nil, "primary_group_flair_color": nil,
		"version": 1, "can_edit": viewer != nil && viewer.Staff(), "can_delete": viewer != nil && viewer.Staff(),
		"can_recover": false, "can_wiki": false, "user_title": nil, "actions_summary": actions,
		"moderator": u.Moderator, "admin": u.Admin, "staff": u.Staff(), "user_id": u.ID, "hidden": false,
		"trust_level": u.TrustLevel, "deleted_at": deleted, "user_deleted": false, "edit_reason": nil,
		"can_view_edit_history": true, "wiki": false, "reply_to_user": replyToUser,
		"accepted_answer": t.AcceptedPostID == p.ID, "topic_accepted_answer": t.AcceptedPostID != 0,
		"posts_count": s.postsCount(t.ID), "readers_count": 0, "flair_name": nil, "flair_url": nil,
		"flair_bg_color": nil, "flair_color": nil, "bookmarked": false, "reviewable_id": nil,
		"reviewable_score_count": 0, "reviewable_score_pending_count": 0,
		"post_url":            "/t/" + t.Slug + "/" + itoa(t.ID) + "/" + itoa(p.PostNumber),
		"can_accept_answer":   viewer != nil && (viewer.Staff() || viewer.ID == t.UserID) && p.PostNumber > 1,
		"can_unaccept_answer": viewer != nil && viewer.Staff() && t.AcceptedPostID == p.ID,
	}
	if withRaw {
		m["raw"] = p.Raw
	}
	return m
}

func (s *Server) postsCount(topicID int) int {
	n := 0
	for _, p := range s.byTopic[topicID] {
		if !p.Deleted && p.PostType == discourse.PostTypeRegular {
			n++
		}
	}
	return n
}

func (s *Server) lastPost(topicID int) *Post {
	var last *Post
	for _, p := range s.byTopic[topicID] {
		if !p.Deleted && p.PostType == discourse.PostTypeRegular {
			last = p
		}
	}
	return last
}

// tagsJSON renders tags as current servers do: {id, name, slug} objects.
func tagsJSON(tags []string) []map[string]any {
	out := []map[string]any{}
	for i, t := range tags {
		out = append(out, map[string]any{"id": i + 1, "name": t, "slug": t})
	}
	return out
}

func (s *Server) topicListItemJSON(t *Topic) map[string]any {
	last := s.lastPost(t.ID)
	lastAt := t.CreatedAt
	lastUser := s.users[t.UserID]
	highest := 0
	if last != nil {
		lastAt, lastUser, highest = last.CreatedAt, s.users[last.UserID], last.PostNumber
	}
	return map[string]any{
		"id": t.ID, "title": t.Title, "fancy_title": t.Title, "slug": t.Slug, "posts_count": s.postsCount(t.ID),
		"reply_count": max(0, s.postsCount(t.ID)-1), "highest_post_number": highest, "image_url": nil,
		"created_at": ts(t.CreatedAt), "last_posted_at": ts(lastAt), "bumped": true, "bumped_at": ts(t.BumpedAt),
		"archetype": t.Archetype, "unseen": false, "pinned": false, "unpinned": nil, "visible": t.Visible,
		"closed": t.Closed, "archived": t.Archived, "bookmarked": nil, "liked": nil, "tags": tagsJSON(t.Tags),
		"views": 1, "like_count": 0, "has_summary": false, "last_poster_username": lastUser.Username,
		"category_id": t.CategoryID, "pinned_globally": false, "featured_link": nil,
		"has_accepted_answer": t.AcceptedPostID != 0,
		"posters": []map[string]any{{"extras": "latest single", "description": "Original Poster, Most Recent Poster",
			"user_id": t.UserID, "primary_group_id": nil}},
	}
}

// topicViewJSON is TopicViewSerializer's shape for page (1-based) of the
// topic's posts, 20 a page (lib/topic_view.rb chunk_size; ?page=N).
func (s *Server) topicViewJSON(t *Topic, viewer *User, withRaw bool, page int) map[string]any {
	if page < 1 {
		page = 1
	}
	var posts []map[string]any
	var stream []int
	seen := 0
	for _, p := range s.byTopic[t.ID] {
		if !s.canSee(p, viewer) {
			continue
		}
		stream = append(stream, p.ID)
		if seen >= (page-1)*20 && len(posts) < 20 {
			posts = append(posts, s.postJSON(p, viewer, withRaw))
		}
		seen++
	}
	if posts == nil {
		posts = []map[string]any{}
		stream = []int{}
	}
	creator := s.users[t.UserID]
	highest := 0
	if last := s.lastPost(t.ID); last != nil {
		highest = last.PostNumber
	}
	// Staff may open a deleted topic (lib/topic_view.rb finds it
	// with_deleted for them); deleted_at is how they can tell.
	var deletedAt any
	if t.Deleted {
		deletedAt = ts(t.DeletedAt)
	}
	out := map[string]any{
		"post_stream":     map[string]any{"posts": posts, "stream": stream},
		"timeline_lookup": []any{}, "tags": tagsJSON(t.Tags), "id": t.ID, "title": t.Title, "fancy_title": t.Title,
		"posts_count": s.postsCount(t.ID), "created_at": ts(t.CreatedAt), "views": 1, "reply_count": max(0, s.postsCount(t.ID)-1),
		"like_count": 0, "last_posted_at": ts(t.BumpedAt), "visible": t.Visible, "closed": t.Closed, "archived": t.Archived,
		"has_summary": false, "archetype": t.Archetype, "slug": t.Slug, "category_id": t.CategoryID, "word_count": 0,
		"deleted_at": deletedAt, "user_id": t.UserID, "featured_link": nil, "pinned_globally": false, "pinned_at": nil,
		"pinned_until": nil, "image_url": nil, "slow_mode_seconds": 0, "draft": nil, "draft_key": "topic_" + itoa(t.ID),
		"draft_sequence": 0, "unpinned": nil, "pinned": false, "current_post_number": 1, "highest_post_number": highest,
		"deleted_by": nil, "actions_summary": []any{}, "chunk_size": 20, "bookmarked": false, "topic_timer": nil,
		"message_bus_last_id": 0, "participant_count": 1, "show_read_indicator": false, "thumbnails": nil,
		"suggested_topics": []any{}, "tags_descriptions": map[string]any{}, "has_deleted": false,
		"bookmarks": []any{}, "slow_mode_enabled_until": nil,
		"details": map[string]any{"can_edit": viewer != nil && viewer.Staff(), "notification_level": 1,
			"participants": []any{}, "created_by": map[string]any{"id": creator.ID, "username": creator.Username,
				"name": creator.Name, "avatar_template": avatar(creator)},
			"last_poster": map[string]any{"id": creator.ID, "username": creator.Username, "name": creator.Name,
				"avatar_template": avatar(creator)}},
	}
	if t.AcceptedPostID != 0 {
		if p := s.post(t.AcceptedPostID); p != nil {
			ex := p.Raw
			if len(ex) > 140 {
				ex = ex[:140]
			}
			out["accepted_answer"] = map[string]any{"post_number": p.PostNumber, "username": s.users[p.UserID].Username,
				"name": s.users[p.UserID].Name, "excerpt": ex}
		}
	}
	return out
}

func (s *Server) notificationJSON(n *Notification) map[string]any {
	t := s.topics[n.TopicID]
	title, slug := "", ""
	if t != nil {
		title, slug = t.Title, t.Slug
	}
	return map[string]any{
		"id": n.ID, "user_id": n.UserID, "notification_type": n.Type, "read": n.Read, "high_priority": false,
		"created_at": ts(n.CreatedAt), "post_number": n.PostNum, "topic_id": n.TopicID, "fancy_title": title, "slug": slug,
		"data": map[string]any{"topic_title": title, "original_post_id": n.PostID, "original_post_type": 1,
			"original_username": n.FromUser, "revision_number": nil, "display_username": n.FromUser},
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
