// Package action declares Herald's action kinds and the payloads they
// carry in the action log, once, for the three places that read them:
// the bot that records and performs actions, the review path that
// decides them, and the admin page and CLI that show them.
//
// Invariants: a kind's name and its payload's JSON field names are the
// stored format of the action log, so they only ever gain fields; every
// payload decodes from what an earlier version wrote.
package action

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

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

// Tag is the payload of a tag action: tags a sweep adds to a topic.
type Tag struct {
	TopicID    int      `json:"topic_id"`
	TopicTitle string   `json:"topic_title"`
	CategoryID int      `json:"category_id"`
	Add        []string `json:"add"`
}

// Learn is the payload of a learn action (and what an approved teach
// action becomes): the knowledge entry staff are asked to accept, and
// what it came from.
type Learn struct {
	TopicID    int             `json:"topic_id"`
	TopicTitle string          `json:"topic_title"`
	CategoryID int             `json:"category_id"`
	Question   string          `json:"question"`
	Draft      string          `json:"draft"` // the entry as staff will read it
	Entry      knowledge.Entry `json:"entry"`
}

// Digest is the payload of a digest action: a staff post, a new topic in
// CategoryID or a private message to Group.
type Digest struct {
	Title      string `json:"title"`
	Raw        string `json:"raw"`
	CategoryID int    `json:"category_id,omitempty"`
	Group      string `json:"group,omitempty"`
}

// Describe is how the admin page and the CLI title an action of kind
// with payload: one line, in words a moderator reads.
func Describe(kind string, payload []byte) string {
	var p struct {
		TopicTitle string   `json:"topic_title"`
		Title      string   `json:"title"`
		Add        []string `json:"add"`
	}
	_ = json.Unmarshal(payload, &p)
	switch kind {
	case KindTeach:
		return "Teach: " + p.TopicTitle
	case KindLearn:
		return "Learn from: " + p.TopicTitle
	case KindTag:
		return fmt.Sprintf("Tag %s: %s", strings.Join(p.Add, ", "), p.TopicTitle)
	case KindDigest:
		return p.Title
	}
	return p.TopicTitle
}
