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
	"errors"
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
	// Fits, NothingFits and NotSupport are staff's judgement of the
	// knowledge base for the post, given with a rejection or afterwards
	// on a reply Herald kept silent on or posted (review.Judge): the
	// entries that do answer it, that none does, or that the post asks
	// no support question. Any of them makes the action a labelled post
	// (review.Labels).
	Fits        []string `json:"fits,omitempty"`
	NothingFits bool     `json:"nothing_fits,omitempty"`
	NotSupport  bool     `json:"not_support,omitempty"`
}

// Judgement words staff's judgement of the post (Fits, NothingFits,
// NotSupport), as the audit records it and the admin pages show it; ""
// when there is none.
func (r Reply) Judgement() string {
	switch {
	case r.NotSupport:
		return "not a support question"
	case r.NothingFits:
		return "nothing in the knowledge base answers it"
	case len(r.Fits) > 0:
		return "answered by " + strings.Join(r.Fits, ", ")
	}
	return ""
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

// Payload is what an action of one kind carries. Each kind's payload
// names its kind and describes itself, so a kind's name, stored format and
// display are declared together; the runner in package bot performs
// each kind.
type Payload interface {
	// Kind is the action kind the payload belongs to.
	Kind() string
	// Describe is one line, in words a moderator reads, for the admin
	// page and the CLI.
	Describe() string
}

func (Reply) Kind() string  { return KindReply }
func (Teach) Kind() string  { return KindTeach }
func (Tag) Kind() string    { return KindTag }
func (Learn) Kind() string  { return KindLearn }
func (Digest) Kind() string { return KindDigest }

func (r Reply) Describe() string { return r.TopicTitle }
func (t Teach) Describe() string { return "Teach: " + t.TopicTitle }
func (t Tag) Describe() string {
	return fmt.Sprintf("Tag %s: %s", strings.Join(t.Add, ", "), t.TopicTitle)
}
func (l Learn) Describe() string  { return "Learn from: " + l.TopicTitle }
func (d Digest) Describe() string { return d.Title }

// Encode returns the kind and stored form of p, for recording it.
func Encode(p Payload) (kind string, payload []byte, err error) {
	payload, err = json.Marshal(p)
	if err != nil {
		return "", nil, fmt.Errorf("action: encode %s: %w", p.Kind(), err)
	}
	return p.Kind(), payload, nil
}

// ErrUnknownKind is returned by Decode for a kind this version does not
// know.
var ErrUnknownKind = errors.New("action: unknown kind")

// Decode decodes the stored payload of an action of kind.
func Decode(kind string, payload []byte) (Payload, error) {
	var p Payload
	switch kind {
	case KindReply:
		p = &Reply{}
	case KindTeach:
		p = &Teach{}
	case KindTag:
		p = &Tag{}
	case KindLearn:
		p = &Learn{}
	case KindDigest:
		p = &Digest{}
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	if err := json.Unmarshal(payload, p); err != nil {
		return nil, fmt.Errorf("action: decode %s: %w", kind, err)
	}
	return p, nil
}

// Describe titles an action of kind with payload for the admin page and
// the CLI; a payload that does not decode has an empty title.
func Describe(kind string, payload []byte) string {
	p, err := Decode(kind, payload)
	if err != nil {
		return ""
	}
	return p.Describe()
}
