package bot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// SweepOptions configure the unanswered-topics sweep.
type SweepOptions struct {
	// MinAge: topics younger than this are left to the new-topic path.
	MinAge time.Duration
	// MaxAge: topics older than this are not swept (default 14 days).
	MaxAge time.Duration
	// AllowedTags limits the tags a sweep may add; empty adds none.
	AllowedTags []string
	// AutoPost lets confident sweep drafts go out without approval (off
	// by default: sweeps queue).
	AutoPost bool
	// DryRun records nothing and changes nothing; the report says what a
	// real sweep would do.
	DryRun bool
}

// Unanswered is one topic a sweep found without an answer.
type Unanswered struct {
	TopicID     int       `json:"topic_id"`
	Title       string    `json:"title"`
	CategoryID  int       `json:"category_id"`
	CreatedAt   time.Time `json:"created_at"`
	Proposal    string    `json:"proposal"` // the best match, if any
	ProposalURL string    `json:"proposal_url"`
	Confidence  float64   `json:"confidence"`
	Signature   string    `json:"signature"` // the first error's signature
	BotReplied  bool      `json:"bot_replied"`
	Drafted     bool      `json:"drafted"`
	Tags        []string  `json:"tags,omitempty"` // tags added
}

// SweepReport is what a sweep found and did.
type SweepReport struct {
	Started    time.Time    `json:"started"`
	Unanswered []Unanswered `json:"unanswered"`
	Drafted    int          `json:"drafted"`
	Tagged     int          `json:"tagged"`
	Resumed    bool         `json:"resumed"`
}

// ErrSweepRunning is returned when another sweep holds the lock.
var ErrSweepRunning = errors.New("bot: a sweep is already running")

// sweepProgress is saved after every topic so a restarted sweep resumes.
type sweepProgress struct {
	Report    SweepReport `json:"report"`
	LastTopic int         `json:"last_topic"`
}

const sweepProgressKey = "sweep:progress"

// Sweep looks for topics in scope that nobody but the asker has answered
// (a bot reply nobody accepted or liked does not count), queues a draft
// for each (never posting unless AutoPost), and adds tags chosen from the
// matched entries. It never closes, locks or moves topics, and never
// removes a tag. A sweep interrupted by a crash resumes where it stopped.
func (b *Bot) Sweep(ctx context.Context, opts SweepOptions) (*SweepReport, error) {
	if opts.MaxAge == 0 {
		opts.MaxAge = 14 * 24 * time.Hour
	}
	owner := randomID()
	ok, err := b.db.TryLock(ctx, "sweep", owner, 30*time.Minute)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrSweepRunning
	}
	defer func() { _ = b.db.Unlock(context.WithoutCancel(ctx), "sweep", owner) }()

	var prog sweepProgress
	if v, err := b.db.Setting(ctx, sweepProgressKey); err != nil {
		return nil, err
	} else if v != "" && !opts.DryRun {
		if err := json.Unmarshal([]byte(v), &prog); err == nil && prog.LastTopic > 0 {
			prog.Report.Resumed = true
			b.log.Info("resuming an interrupted sweep", "after_topic", prog.LastTopic)
		}
	}
	if prog.Report.Started.IsZero() {
		prog.Report.Started = b.now()
	}
	now := b.now()
	for page := 0; page < 100; page++ {
		list, err := b.client.LatestTopics(ctx, discourse.ListOptions{Order: "created", Page: page})
		b.countAPIError(err)
		if err != nil {
			return &prog.Report, fmt.Errorf("bot: sweep: list topics: %w", err)
		}
		if len(list.Topics) == 0 {
			break
		}
		done := false
		for _, t := range list.Topics {
			if now.Sub(t.CreatedAt) > opts.MaxAge {
				done = true
				break
			}
			if prog.LastTopic > 0 && t.ID >= prog.LastTopic {
				continue // handled before the interruption
			}
			if now.Sub(t.CreatedAt) < opts.MinAge || t.Closed || t.Archived || t.HasAcceptedAnswer ||
				t.Archetype != "regular" || !b.inScope(t.CategoryID) {
				continue
			}
			if err := b.sweepTopic(ctx, t, opts, &prog.Report); err != nil {
				return &prog.Report, err
			}
			prog.LastTopic = t.ID
			if !opts.DryRun {
				if err := b.saveProgress(ctx, prog); err != nil {
					return &prog.Report, err
				}
			}
		}
		if done || list.MoreTopicsURL == "" {
			break
		}
	}
	if !opts.DryRun {
		if err := b.db.SetSetting(ctx, sweepProgressKey, ""); err != nil {
			return &prog.Report, err
		}
	}
	return &prog.Report, nil
}

func (b *Bot) saveProgress(ctx context.Context, p sweepProgress) error {
	v, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return b.db.SetSetting(ctx, sweepProgressKey, string(v))
}

func randomID() string {
	x := make([]byte, 8)
	_, _ = rand.Read(x)
	return hex.EncodeToString(x)
}

func (b *Bot) sweepTopic(ctx context.Context, item discourse.TopicListItem, opts SweepOptions, rep *SweepReport) error {
	t, err := b.client.Topic(ctx, item.ID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("bot: sweep: read topic %d: %w", item.ID, err)
	}
	posts, err := b.client.AllTopicPosts(ctx, t)
	b.countAPIError(err)
	if err != nil {
		return fmt.Errorf("bot: sweep: read topic %d: %w", item.ID, err)
	}
	open, botReplied := b.unanswered(posts)
	if !open {
		return nil
	}
	first := posts[0]
	first.CategoryID, first.TopicTitle = t.CategoryID, t.Title
	ans, err := b.answerer.Answer(ctx, knowledge.Post{Title: t.Title, Body: b.posterText(first.Raw)})
	if err != nil {
		return err
	}
	if ans.Decision == knowledge.DecisionIgnore {
		return nil
	}
	u := Unanswered{TopicID: t.ID, Title: t.Title, CategoryID: t.CategoryID, CreatedAt: item.CreatedAt,
		Confidence: ans.Confidence, BotReplied: botReplied}
	if len(ans.Matches) > 0 && ans.Matches[0].Structured {
		u.Proposal, u.ProposalURL = ans.Matches[0].Title, ans.Matches[0].URL
	}
	if len(ans.Facts.Errors) > 0 {
		u.Signature = ans.Facts.Errors[0].Signature
	}
	var actions []store.Action
	if draft := b.draftFor(ans); draft != "" && !botReplied {
		a := b.decision(TriggerSweep, &first, t.Title, ans, draft, false)
		if a.State == store.StateApproved && !opts.AutoPost {
			a.State, a.Reason = store.StatePending, "sweep drafts wait for staff"
		}
		actions = append(actions, a)
		u.Drafted = true
	}
	if add := b.chooseTags(ans, t.Tags, opts.AllowedTags); len(add) > 0 {
		actions = append(actions, b.tagAction(t, first.ID, add, ans.Confidence))
		u.Tags = add
	}
	if !opts.DryRun && len(actions) > 0 {
		n, err := b.db.Record(ctx, actions)
		if err != nil {
			return err
		}
		if n == 0 {
			u.Drafted = false // decided before; nothing new
		}
	}
	if u.Drafted {
		rep.Drafted++
	}
	if len(u.Tags) > 0 {
		rep.Tagged++
	}
	rep.Unanswered = append(rep.Unanswered, u)
	return nil
}

// unanswered reports whether a topic's posts leave it open: no one but
// its author, the bot and other bots has replied, and no bot reply was
// liked or accepted. botReplied says whether the bot has replied.
func (b *Bot) unanswered(posts []discourse.Post) (open, botReplied bool) {
	if len(posts) == 0 || b.isBot(posts[0].Username) {
		return false, false
	}
	for _, p := range posts[1:] {
		switch {
		case strings.EqualFold(p.Username, b.opts.Username):
			botReplied = true
			if p.Likes() > 0 || p.AcceptedAnswer {
				return false, true // a bot answer someone found useful counts
			}
		case b.isBot(p.Username) || strings.EqualFold(p.Username, posts[0].Username):
		default:
			return false, botReplied // answered by someone
		}
	}
	return true, botReplied
}

// tagAction is the action that adds tags to topic t (shadowed in shadow
// mode).
func (b *Bot) tagAction(t *discourse.Topic, postID int, add []string, confidence float64) store.Action {
	kind, payload, _ := action.Encode(action.Tag{TopicID: t.ID, TopicTitle: t.Title, CategoryID: t.CategoryID, Add: add})
	state := store.StateApproved
	if b.opts.Mode == ModeShadow {
		state = store.StateShadow
	}
	return store.Action{Kind: kind, Key: fmt.Sprintf("tag:%d:%s", t.ID, strings.Join(add, ",")),
		TopicID: t.ID, PostID: postID, Payload: payload, Confidence: confidence, State: state,
		Mode: string(b.opts.Mode), Reason: "tags from matched entries"}
}

// chooseTags picks tags of the structured matches, limited to allowed and
// not already on the topic.
func (b *Bot) chooseTags(ans knowledge.Answer, existing, allowed []string) []string {
	var add []string
	for i, m := range ans.Matches {
		if i == 3 || !m.Structured || knowledge.Confidence(m) < b.opts.QueueFloor {
			continue
		}
		for _, tag := range m.Entry.Tags {
			if slices.Contains(allowed, tag) && !slices.Contains(existing, tag) && !slices.Contains(add, tag) && len(add) < 3 {
				add = append(add, tag)
			}
		}
	}
	sort.Strings(add)
	return add
}

// applyTags adds tags to a topic, keeping every tag already there.
func (b *Bot) applyTags(ctx context.Context, a store.Action) (bool, error) {
	var p action.Tag
	if err := json.Unmarshal(a.Payload, &p); err != nil {
		return false, b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "undecodable payload")
	}
	if paused, err := b.Paused(ctx); err != nil || paused {
		return true, err
	}
	t, err := b.client.Topic(ctx, p.TopicID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return false, b.finish(ctx, a, store.StateSkipped, "", "topic deleted")
	}
	if err != nil {
		return true, err
	}
	tags := append([]string(nil), t.Tags...)
	for _, tag := range p.Add {
		if !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	if len(tags) == len(t.Tags) {
		return false, b.finish(ctx, a, store.StateDone, "already tagged", "")
	}
	if err := b.client.SetTopicTags(ctx, p.TopicID, tags); err != nil {
		b.countAPIError(err)
		var er *discourse.ErrorResponse
		if errors.As(err, &er) && er.StatusCode < 500 && er.StatusCode != 429 {
			return false, b.finish(ctx, a, store.StateFailed, "", err.Error())
		}
		return true, err
	}
	return false, b.finish(ctx, a, store.StateDone, "tags:"+strings.Join(tags, ","), "")
}
