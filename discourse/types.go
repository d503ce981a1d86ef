package discourse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Post types.
const (
	PostTypeRegular         = 1
	PostTypeModeratorAction = 2
	PostTypeSmallAction     = 3
	PostTypeWhisper         = 4
)

// Post is one post, as /posts.json, /posts/{id}.json, topic post streams
// and webhook payloads return it.
type Post struct {
	ID                int        `json:"id"`
	Username          string     `json:"username"`
	Name              string     `json:"name,omitempty"`
	UserID            int        `json:"user_id"`
	CreatedAt         time.Time  `json:"created_at"`
	UpdatedAt         time.Time  `json:"updated_at,omitempty"`
	Cooked            string     `json:"cooked"`
	Raw               string     `json:"raw,omitempty"`
	PostNumber        int        `json:"post_number"`
	PostType          int        `json:"post_type"`
	ReplyToPostNumber *int       `json:"reply_to_post_number"`
	TopicID           int        `json:"topic_id"`
	TopicSlug         string     `json:"topic_slug,omitempty"`
	TopicTitle        string     `json:"topic_title,omitempty"`
	CategoryID        int        `json:"category_id,omitempty"`
	Admin             bool       `json:"admin"`
	Moderator         bool       `json:"moderator"`
	Staff             bool       `json:"staff"`
	TrustLevel        int        `json:"trust_level"`
	Hidden            bool       `json:"hidden"`
	DeletedAt         *time.Time `json:"deleted_at"`
	// Solved plugin fields.
	AcceptedAnswer      bool `json:"accepted_answer,omitempty"`
	TopicAcceptedAnswer bool `json:"topic_accepted_answer,omitempty"`
	// ActionsSummary entries with ID 2 are likes.
	ActionsSummary []ActionSummary `json:"actions_summary,omitempty"`
}

// ActionSummary counts one kind of post action (2 = like).
type ActionSummary struct {
	ID    int `json:"id"`
	Count int `json:"count,omitempty"`
}

// Likes returns the post's like count.
func (p *Post) Likes() int {
	for _, a := range p.ActionsSummary {
		if a.ID == 2 {
			return a.Count
		}
	}
	return 0
}

// Tags decodes topic tags sent either as names (older servers) or as
// {id, name, slug} objects (current servers); it holds the names.
type Tags []string

// UnmarshalJSON accepts both shapes.
func (t *Tags) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*t = nil
		return nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("tags: %w", err)
	}
	out := make(Tags, 0, len(raw))
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, s)
			continue
		}
		var o struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(r, &o); err != nil {
			return fmt.Errorf("tag: %w", err)
		}
		out = append(out, o.Name)
	}
	*t = out
	return nil
}

// AcceptedAnswer is the Solved plugin's accepted answer of a topic.
type AcceptedAnswer struct {
	PostNumber int    `json:"post_number"`
	Username   string `json:"username"`
	Excerpt    string `json:"excerpt,omitempty"`
	Accepter   string `json:"accepter_username,omitempty"`
}

// Topic is a topic view (/t/{id}.json) or a webhook topic payload.
type Topic struct {
	ID                int        `json:"id"`
	Title             string     `json:"title"`
	FancyTitle        string     `json:"fancy_title,omitempty"`
	Slug              string     `json:"slug"`
	PostsCount        int        `json:"posts_count"`
	HighestPostNumber int        `json:"highest_post_number"`
	CategoryID        int        `json:"category_id"`
	Tags              Tags       `json:"tags"`
	Closed            bool       `json:"closed"`
	Archived          bool       `json:"archived"`
	Visible           bool       `json:"visible"`
	Archetype         string     `json:"archetype"`
	UserID            int        `json:"user_id"`
	CreatedAt         time.Time  `json:"created_at"`
	DeletedAt         *time.Time `json:"deleted_at"`
	PostStream        struct {
		Posts  []Post `json:"posts"`
		Stream []int  `json:"stream"`
	} `json:"post_stream"`
	// Accepted is the accepted answer, read from `accepted_answer` (an
	// object on 2019–2025 servers) or `accepted_answers` (newest).
	Accepted *AcceptedAnswer `json:"-"`
}

// UnmarshalJSON decodes a topic and both shapes of its accepted answer.
func (t *Topic) UnmarshalJSON(b []byte) error {
	type plain Topic
	var aux struct {
		plain
		AcceptedAnswer  json.RawMessage   `json:"accepted_answer"`
		AcceptedAnswers []json.RawMessage `json:"accepted_answers"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*t = Topic(aux.plain)
	if len(aux.AcceptedAnswer) > 0 && aux.AcceptedAnswer[0] == '{' {
		var a AcceptedAnswer
		if err := json.Unmarshal(aux.AcceptedAnswer, &a); err != nil {
			return fmt.Errorf("accepted_answer: %w", err)
		}
		t.Accepted = &a
	}
	if len(aux.AcceptedAnswers) > 0 {
		var p struct {
			PostNumber int    `json:"post_number"`
			Username   string `json:"username"`
			Excerpt    string `json:"excerpt"`
			Cooked     string `json:"cooked"`
			Accepter   struct {
				Username string `json:"username"`
			} `json:"accepter"`
		}
		if err := json.Unmarshal(aux.AcceptedAnswers[0], &p); err != nil {
			return fmt.Errorf("accepted_answers: %w", err)
		}
		t.Accepted = &AcceptedAnswer{PostNumber: p.PostNumber, Username: p.Username, Excerpt: p.Excerpt, Accepter: p.Accepter.Username}
	}
	return nil
}

// TopicListItem is one topic of /latest.json and category lists.
type TopicListItem struct {
	ID                int       `json:"id"`
	Title             string    `json:"title"`
	Slug              string    `json:"slug"`
	PostsCount        int       `json:"posts_count"`
	HighestPostNumber int       `json:"highest_post_number"`
	CreatedAt         time.Time `json:"created_at"`
	BumpedAt          time.Time `json:"bumped_at"`
	CategoryID        int       `json:"category_id"`
	Pinned            bool      `json:"pinned"`
	Closed            bool      `json:"closed"`
	Archived          bool      `json:"archived"`
	Visible           bool      `json:"visible"`
	Archetype         string    `json:"archetype"`
	Tags              Tags      `json:"tags"`
	HasAcceptedAnswer bool      `json:"has_accepted_answer"`
}

// TopicList is a page of topics.
type TopicList struct {
	Topics        []TopicListItem `json:"topics"`
	MoreTopicsURL string          `json:"more_topics_url,omitempty"`
	PerPage       int             `json:"per_page,omitempty"`
}

// Notification is one notification of the API user.
type Notification struct {
	ID               int       `json:"id"`
	UserID           int       `json:"user_id"`
	NotificationType int       `json:"notification_type"`
	Read             bool      `json:"read"`
	CreatedAt        time.Time `json:"created_at"`
	PostNumber       int       `json:"post_number"`
	TopicID          int       `json:"topic_id"`
	FancyTitle       string    `json:"fancy_title,omitempty"`
	Slug             string    `json:"slug,omitempty"`
	Data             struct {
		TopicTitle       string `json:"topic_title,omitempty"`
		OriginalPostID   int    `json:"original_post_id,omitempty"`
		OriginalPostType int    `json:"original_post_type,omitempty"`
		OriginalUsername string `json:"original_username,omitempty"`
		DisplayUsername  string `json:"display_username,omitempty"`
		Message          string `json:"message,omitempty"`
	} `json:"data"`
}

// Notification types Herald reacts to (see API-FACTS §4.7 for the rest).
const (
	NotificationMentioned      = 1
	NotificationReplied        = 2
	NotificationQuoted         = 3
	NotificationPrivateMessage = 6
	NotificationCustom         = 14
	NotificationGroupMentioned = 15
)

// Category is one category of /categories.json.
type Category struct {
	ID               int    `json:"id"`
	Name             string `json:"name"`
	Slug             string `json:"slug"`
	ParentCategoryID int    `json:"parent_category_id,omitempty"`
	ReadRestricted   bool   `json:"read_restricted"`
}

// CurrentUser is /session/current.json's current_user.
type CurrentUser struct {
	ID         int    `json:"id"`
	Username   string `json:"username"`
	Name       string `json:"name,omitempty"`
	Admin      bool   `json:"admin"`
	Moderator  bool   `json:"moderator"`
	Staff      bool   `json:"staff"`
	TrustLevel int    `json:"trust_level"`
	Whisperer  bool   `json:"whisperer,omitempty"`
}

// SearchResult is /search.json.
type SearchResult struct {
	Posts  []SearchPost      `json:"posts"`
	Topics []TopicListItem   `json:"topics"`
	Users  []json.RawMessage `json:"users,omitempty"`
}

// SearchPost is one post hit of a search.
type SearchPost struct {
	ID         int       `json:"id"`
	Username   string    `json:"username"`
	CreatedAt  time.Time `json:"created_at"`
	Blurb      string    `json:"blurb"`
	PostNumber int       `json:"post_number"`
	TopicID    int       `json:"topic_id"`
}

// User is a user's public profile, /u/{username}.json as an admin key sees
// it: enough to decide whether they may use Herald's admin page.
type User struct {
	ID         int    `json:"id"`
	Username   string `json:"username"`
	Admin      bool   `json:"admin"`
	Moderator  bool   `json:"moderator"`
	TrustLevel int    `json:"trust_level"`
	Suspended  bool   `json:"suspended,omitempty"`
	Groups     []struct {
		Name string `json:"name"`
	} `json:"groups"`
}

// Staff reports whether u is an admin or moderator.
func (u *User) Staff() bool { return u.Admin || u.Moderator }

// InGroup reports whether u is a member of one of groups.
func (u *User) InGroup(groups ...string) bool {
	for _, g := range u.Groups {
		for _, want := range groups {
			if strings.EqualFold(g.Name, want) {
				return true
			}
		}
	}
	return false
}
