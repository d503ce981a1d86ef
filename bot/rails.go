package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/store"
)

// ArchetypePrivateMessage is the archetype of Discourse's private messages.
const ArchetypePrivateMessage = "private_message"

// stayOut is the one set of rails every trigger obeys (a new topic, an
// @mention, a reply to the bot, a sweep) and the runner re-checks before
// it writes: it returns why the bot must not answer post p in topic t, or
// "" when it may. Who wrote the post (the bot itself, another bot or an
// ignored account, staff when skipped, a trust level below the minimum)
// and where (a private message, a category out of scope, a skip tag).
func (b *Bot) stayOut(p *discourse.Post, t *discourse.Topic) string {
	category := p.CategoryID
	if t != nil {
		category = t.CategoryID
	}
	switch {
	case b.isBot(p.Username):
		return "written by the bot or an ignored account"
	case t != nil && t.Archetype == ArchetypePrivateMessage:
		return "a private message"
	case !b.inScope(category):
		return "outside the bot's categories"
	case b.opts.SkipStaff && p.Staff:
		return "written by staff"
	case p.TrustLevel < b.opts.MinTrustLevel:
		return fmt.Sprintf("the poster's trust level %d is below %d", p.TrustLevel, b.opts.MinTrustLevel)
	}
	if t != nil {
		if reason := b.skipTagged(t); reason != "" {
			return reason
		}
	}
	return ""
}

// skipTagged reports a topic that carries one of the skip tags.
func (b *Bot) skipTagged(t *discourse.Topic) string {
	for _, tag := range t.Tags {
		if slices.Contains(b.opts.SkipTags, tag) {
			return "tagged " + tag
		}
	}
	return ""
}

// mentionWindow is the period the per-user cap on mention answers counts.
const mentionWindow = 24 * time.Hour

// overMentionCap reports whether the asker has had MaxMentionsPerUser
// answers to mentions or replies in the last mentionWindow: one account
// cannot make the bot spend its hourly budget.
func (b *Bot) overMentionCap(ctx context.Context, asker string) (bool, error) {
	n, err := b.db.CountReplies(ctx, store.ReplyCount{Asker: asker, Triggers: []string{TriggerMention, TriggerReply},
		Since: b.now().Add(-mentionWindow), States: []string{store.StatePending, store.StateApproved, store.StateSending, store.StateDone}})
	if err != nil {
		return false, err
	}
	return n >= b.opts.MaxMentionsPerUser, nil
}

// topicFor reads the live topic of post p and applies the rails to both;
// in is false when the topic is gone or hidden, or a rail keeps the bot
// out.
func (b *Bot) topicFor(ctx context.Context, p *discourse.Post) (t *discourse.Topic, in bool, err error) {
	t, err = b.client.Topic(ctx, p.TopicID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("bot: read topic %d: %w", p.TopicID, err)
	}
	return t, b.stayOut(p, t) == "", nil
}
