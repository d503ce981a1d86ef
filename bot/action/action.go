// Package action declares Herald's action kinds and the payloads they
// carry in the action log, once, for the three places that read them:
// the bot that records and performs actions, the review path that
// decides them, and the admin page and CLI that show them.
//
// Invariants: a kind's name and its payload's JSON field names are the
// stored format of the action log, so they only ever gain fields; every
// payload decodes from what an earlier version wrote.
package action

import "github.com/heraldbot/herald/knowledge"

// Kinds of action. The runner performs each (bot/runner.go); reply,
// learn and teach can wait for staff in the approval queue.
const (
	KindReply  = "reply"  // a reply to a topic or mention (Reply)
	KindTag    = "tag"    // tags added to a topic by a sweep
	KindLearn  = "learn"  // a solved topic proposed as a knowledge entry
	KindTeach  = "teach"  // a posted reply proposed by staff as a knowledge entry (Teach)
	KindDigest = "digest" // the staff digest topic of one period
)

// Reply is the payload of a reply action: the draft, why it was made,
// and what it answers.
type Reply struct {
	Trigger    string  `json:"trigger"`
	TopicID    int     `json:"topic_id"`
	TopicTitle string  `json:"topic_title"`
	CategoryID int     `json:"category_id"`
	PostID     int     `json:"post_id"`
	PostNumber int     `json:"post_number"`
	Asker      string  `json:"asker"`
	Draft      string  `json:"draft"`
	Original   string  `json:"original,omitempty"` // the draft before staff edits
	Whisper    bool    `json:"whisper,omitempty"`
	Decision   string  `json:"decision"`
	Confidence float64 `json:"confidence"`
	// Question is the post (or thread) the draft answers, for reviewers.
	Question string            `json:"question,omitempty"`
	Matches  []knowledge.Match `json:"matches"`
	Facts    knowledge.Facts   `json:"facts"`
	// Cited are the ids of the entries the draft cites.
	Cited []string `json:"cited,omitempty"`
}

// Teach is the payload of a teach action: a reply staff approved or saw
// posted, proposed as a knowledge entry about its topic.
type Teach struct {
	SourceAction int64           `json:"source_action"`
	TopicID      int             `json:"topic_id"`
	TopicTitle   string          `json:"topic_title"`
	CategoryID   int             `json:"category_id"`
	Draft        string          `json:"draft"`
	Question     string          `json:"question"`
	Facts        knowledge.Facts `json:"facts"`
	ProposedBy   string          `json:"proposed_by"`
}
