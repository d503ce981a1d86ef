package discourse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// LatestPosts returns up to 50 of the newest public posts, newest first.
// With before > 0 it returns posts with id <= before (the server's filter
// is inclusive).
func (c *Client) LatestPosts(ctx context.Context, before int) ([]Post, error) {
	q := url.Values{}
	if before > 0 {
		q.Set("before", strconv.Itoa(before))
	}
	var out struct {
		LatestPosts []Post `json:"latest_posts"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/posts.json", query: q}, &out); err != nil {
		return nil, err
	}
	return out.LatestPosts, nil
}

// ListOptions page and order topic lists.
type ListOptions struct {
	// Order is one of default, created, activity, views, posts, ...; a
	// poller for new topics wants "created" (no pinned topics first).
	Order string
	// Page is 0-based.
	Page int
}

func (o ListOptions) values() url.Values {
	q := url.Values{}
	if o.Order != "" {
		q.Set("order", o.Order)
	}
	if o.Page > 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	return q
}

// LatestTopics returns one page of /latest.json.
func (c *Client) LatestTopics(ctx context.Context, opts ListOptions) (*TopicList, error) {
	var out struct {
		TopicList TopicList `json:"topic_list"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/latest.json", query: opts.values()}, &out); err != nil {
		return nil, err
	}
	return &out.TopicList, nil
}

// CategoryTopics returns one page of a category's topics.
func (c *Client) CategoryTopics(ctx context.Context, slug string, id int, opts ListOptions) (*TopicList, error) {
	var out struct {
		TopicList TopicList `json:"topic_list"`
	}
	path := "/c/" + url.PathEscape(slug) + "/" + strconv.Itoa(id) + ".json"
	if err := c.do(ctx, request{method: http.MethodGet, path: path, query: opts.values()}, &out); err != nil {
		return nil, err
	}
	return &out.TopicList, nil
}

// Topic returns a topic with the first chunk of its posts, raw included.
func (c *Client) Topic(ctx context.Context, id int) (*Topic, error) {
	var t Topic
	q := url.Values{"include_raw": {"1"}}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/t/" + strconv.Itoa(id) + ".json", query: q}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// TopicPosts returns the given posts of a topic, raw included.
func (c *Client) TopicPosts(ctx context.Context, topicID int, postIDs []int) ([]Post, error) {
	var all []Post
	for start := 0; start < len(postIDs); start += 20 {
		q := url.Values{"include_raw": {"1"}}
		for _, id := range postIDs[start:min(start+20, len(postIDs))] {
			q.Add("post_ids[]", strconv.Itoa(id))
		}
		var out struct {
			PostStream struct {
				Posts []Post `json:"posts"`
			} `json:"post_stream"`
		}
		if err := c.do(ctx, request{method: http.MethodGet, path: "/t/" + strconv.Itoa(topicID) + "/posts.json", query: q}, &out); err != nil {
			return nil, err
		}
		all = append(all, out.PostStream.Posts...)
	}
	return all, nil
}

// AllTopicPosts returns every post of a topic: the first chunk of the topic
// view and the rest of its stream.
func (c *Client) AllTopicPosts(ctx context.Context, t *Topic) ([]Post, error) {
	have := map[int]bool{}
	posts := append([]Post(nil), t.PostStream.Posts...)
	for _, p := range posts {
		have[p.ID] = true
	}
	var missing []int
	for _, id := range t.PostStream.Stream {
		if !have[id] {
			missing = append(missing, id)
		}
	}
	rest, err := c.TopicPosts(ctx, t.ID, missing)
	if err != nil {
		return nil, err
	}
	return append(posts, rest...), nil
}

// Post returns one post with its raw Markdown.
func (c *Client) Post(ctx context.Context, id int) (*Post, error) {
	var p Post
	if err := c.do(ctx, request{method: http.MethodGet, path: "/posts/" + strconv.Itoa(id) + ".json"}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// CreatePostRequest is a reply to create.
type CreatePostRequest struct {
	TopicID           int
	Raw               string
	ReplyToPostNumber int
	// Whisper makes the reply visible to staff only.
	Whisper bool
}

// CreatePost creates a reply. It is never retried: if the answer is lost
// after the request may have been sent, it returns an error wrapping
// ErrResponseLost. A post held for review returns *PendingError.
func (c *Client) CreatePost(ctx context.Context, r CreatePostRequest) (*Post, error) {
	if r.TopicID <= 0 || r.Raw == "" {
		return nil, errors.New("discourse: CreatePost needs a topic and a body")
	}
	form := url.Values{"topic_id": {strconv.Itoa(r.TopicID)}, "raw": {r.Raw}}
	if r.ReplyToPostNumber > 0 {
		form.Set("reply_to_post_number", strconv.Itoa(r.ReplyToPostNumber))
	}
	if r.Whisper {
		form.Set("whisper", "true") // the server compares with the string "true"
	}
	var raw json.RawMessage
	err := c.do(ctx, request{method: http.MethodPost, path: "/posts.json", form: form}, &raw)
	if err != nil {
		var t *transientError
		if errors.As(err, &t) && !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w: %v", ErrResponseLost, err)
		}
		return nil, err
	}
	var pending struct {
		Action       string `json:"action"`
		PendingCount int    `json:"pending_count"`
		Reason       string `json:"reason"`
	}
	if json.Unmarshal(raw, &pending) == nil && pending.Action == "enqueued" {
		return nil, &PendingError{PendingCount: pending.PendingCount, Reason: pending.Reason}
	}
	var p Post
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("discourse: decode created post: %w", err)
	}
	return &p, nil
}

// NotificationOptions filter notifications.
type NotificationOptions struct {
	Unread bool
	Offset int
}

// Notifications returns the API user's notifications, newest first. Both
// the current object shape and the bare array of old servers decode.
func (c *Client) Notifications(ctx context.Context, opts NotificationOptions) ([]Notification, error) {
	q := url.Values{}
	if opts.Unread {
		q.Set("filter", "unread")
	}
	if opts.Offset > 0 {
		q.Set("offset", strconv.Itoa(opts.Offset))
	}
	var raw json.RawMessage
	if err := c.do(ctx, request{method: http.MethodGet, path: "/notifications.json", query: q}, &raw); err != nil {
		return nil, err
	}
	if len(raw) > 0 && raw[0] == '[' {
		var list []Notification
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, fmt.Errorf("discourse: decode notifications: %w", err)
		}
		return list, nil
	}
	var out struct {
		Notifications []Notification `json:"notifications"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("discourse: decode notifications: %w", err)
	}
	return out.Notifications, nil
}

// MarkNotificationRead marks one notification read (id > 0) or all.
func (c *Client) MarkNotificationRead(ctx context.Context, id int) error {
	form := url.Values{}
	if id > 0 {
		form.Set("id", strconv.Itoa(id))
	}
	return c.do(ctx, request{method: http.MethodPut, path: "/notifications/mark-read.json", form: form}, nil)
}

// SetTopicTags replaces a topic's tags (send names; the server returns
// objects on newer versions).
func (c *Client) SetTopicTags(ctx context.Context, topicID int, tags []string) error {
	form := url.Values{}
	if len(tags) == 0 {
		form.Set("tags[]", "")
	}
	for _, t := range tags {
		form.Add("tags[]", t)
	}
	return c.do(ctx, request{method: http.MethodPut, path: "/t/-/" + strconv.Itoa(topicID) + ".json", form: form}, nil)
}

// Categories returns the site's categories.
func (c *Client) Categories(ctx context.Context) ([]Category, error) {
	var out struct {
		CategoryList struct {
			Categories []Category `json:"categories"`
		} `json:"category_list"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/categories.json"}, &out); err != nil {
		return nil, err
	}
	return out.CategoryList.Categories, nil
}

// Search runs a full-text search (q may use operators such as
// status:unsolved or #category).
func (c *Client) Search(ctx context.Context, q string, page int) (*SearchResult, error) {
	v := url.Values{"q": {q}}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	var out SearchResult
	if err := c.do(ctx, request{method: http.MethodGet, path: "/search.json", query: v}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CurrentUser returns the user the client acts as; an unauthenticated
// client gets an error matching ErrNotFound (the server's empty 404).
func (c *Client) CurrentUser(ctx context.Context) (*CurrentUser, error) {
	var out struct {
		CurrentUser CurrentUser `json:"current_user"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/session/current.json"}, &out); err != nil {
		return nil, err
	}
	return &out.CurrentUser, nil
}

// AcceptAnswer marks a post as its topic's solution (Solved plugin).
func (c *Client) AcceptAnswer(ctx context.Context, postID int) error {
	return c.do(ctx, request{method: http.MethodPost, path: "/solution/accept", form: url.Values{"id": {strconv.Itoa(postID)}}}, nil)
}

// CreateTopic creates a topic in a category and returns its first post.
func (c *Client) CreateTopic(ctx context.Context, title, raw string, categoryID int) (*Post, error) {
	form := url.Values{"title": {title}, "raw": {raw}, "category": {strconv.Itoa(categoryID)}}
	return c.createFromForm(ctx, form)
}

// CreatePrivateMessage sends a PM to users or groups.
func (c *Client) CreatePrivateMessage(ctx context.Context, title, raw string, recipients []string) (*Post, error) {
	form := url.Values{"title": {title}, "raw": {raw}, "archetype": {"private_message"}, "target_recipients": {strings.Join(recipients, ",")}}
	return c.createFromForm(ctx, form)
}

func (c *Client) createFromForm(ctx context.Context, form url.Values) (*Post, error) {
	var p Post
	err := c.do(ctx, request{method: http.MethodPost, path: "/posts.json", form: form}, &p)
	if err != nil {
		var t *transientError
		if errors.As(err, &t) && !errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w: %v", ErrResponseLost, err)
		}
		return nil, err
	}
	return &p, nil
}

// User returns a user's profile by username (ErrNotFound if none).
func (c *Client) User(ctx context.Context, username string) (*User, error) {
	var out struct {
		User User `json:"user"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "/u/" + url.PathEscape(username) + ".json"}, &out); err != nil {
		return nil, err
	}
	return &out.User, nil
}
