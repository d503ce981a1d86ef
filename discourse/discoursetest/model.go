package discoursetest

import (
	"time"
)

// User is a forum account.
type User struct {
	ID         int
	Username   string
	Name       string
	Email      string
	Admin      bool
	Moderator  bool
	TrustLevel int
	Groups     []string
	// RequireApproval sends this user's posts to the review queue.
	RequireApproval bool
}

// Staff reports whether u is an admin or moderator.
func (u *User) Staff() bool { return u.Admin || u.Moderator }

// Category is a forum category.
type Category struct {
	ID   int
	Name string
	Slug string
}

// Topic is a forum topic.
type Topic struct {
	ID         int
	Title      string
	Slug       string
	CategoryID int
	Tags       []string
	UserID     int
	CreatedAt  time.Time
	BumpedAt   time.Time
	Closed     bool
	Archived   bool
	Visible    bool
	Deleted    bool
	DeletedAt  time.Time
	Archetype  string
	// AllowedUsers are the participants of a private message (its author
	// included); as in Discourse's Guardian, they and staff may see it.
	AllowedUsers []int
	// AcceptedPostID is the Solved answer, 0 if none.
	AcceptedPostID int
}

// Post is a forum post.
type Post struct {
	ID                int
	TopicID           int
	PostNumber        int
	UserID            int
	Raw               string
	Cooked            string
	PostType          int
	ReplyToPostNumber int
	CreatedAt         time.Time
	Deleted           bool
	Likes             int
}

// Notification is a notification of one user.
type Notification struct {
	ID        int
	UserID    int
	Type      int
	TopicID   int
	PostNum   int
	PostID    int
	FromUser  string
	Read      bool
	CreatedAt time.Time
}
