package bot

import (
	"context"
	"fmt"
	"slices"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Cursor names.
const (
	cursorPosts         = "posts"
	cursorNotifications = "notifications"
)

// Poll reads what is new on the forum — posts since the cursor, and the
// bot's notifications — and records a decision for each trigger. It
// writes nothing to the forum.
//
// A quiet forum costs one request a cycle: notifications are read only
// when new posts arrived (a mention or a reply is a post), or while the
// notification cursor is not yet set.
func (b *Bot) Poll(ctx context.Context) error {
	b.metrics.Polls.Inc()
	fresh, err := b.pollPosts(ctx)
	if err != nil {
		return err
	}
	if !fresh {
		if _, ok, err := b.db.Cursor(ctx, cursorNotifications); err != nil || ok {
			return err
		}
	}
	return b.pollNotifications(ctx)
}

// pollPosts triages new topics' first posts and reports whether there
// were new posts at all.
func (b *Bot) pollPosts(ctx context.Context) (bool, error) {
	cursor, ok, err := b.db.Cursor(ctx, cursorPosts)
	if err != nil {
		return false, err
	}
	page, err := b.client.LatestPosts(ctx, 0)
	b.countAPIError(err)
	if err != nil {
		return false, fmt.Errorf("bot: poll posts: %w", err)
	}
	if len(page) == 0 {
		if !ok {
			// First start on an empty forum: remember that we looked, so
			// that its first topics are new posts, not history.
			_, err := b.db.Record(ctx, nil, store.CursorUpdate{Name: cursorPosts, Value: 0})
			b.log.Info("first start on an empty forum: every new topic will be triaged")
			return false, err
		}
		return false, nil
	}
	newest := int64(page[0].ID)
	var since = b.now().Add(-b.opts.Backfill)
	if !ok && b.opts.Backfill == 0 {
		// First start: begin at the newest post, leave history to sweeps.
		_, err := b.db.Record(ctx, nil, store.CursorUpdate{Name: cursorPosts, Value: newest})
		b.log.Info("first start: cursor set to the newest post", "post_id", newest)
		return true, err
	}
	if newest <= cursor {
		return false, nil
	}
	fresh := newerThan(page, cursor)
	for pages := 1; len(page) == 50 && int64(page[len(page)-1].ID) > cursor+1 && pages < b.opts.MaxPages; pages++ {
		page, err = b.client.LatestPosts(ctx, page[len(page)-1].ID-1)
		b.countAPIError(err)
		if err != nil {
			return false, fmt.Errorf("bot: poll older posts: %w", err)
		}
		fresh = append(fresh, newerThan(page, cursor)...)
	}
	if len(page) == 50 && int64(page[len(page)-1].ID) > cursor+1 && ok {
		b.log.Warn("more new posts than one poll pages through; older ones are left to the sweeps",
			"pages", b.opts.MaxPages, "oldest_read", page[len(page)-1].ID, "cursor", cursor)
	}
	slices.SortFunc(fresh, func(a, b discourse.Post) int { return a.ID - b.ID })
	b.metrics.PostsSeen.Add(float64(len(fresh)))
	var actions []store.Action
	for i := range fresh {
		p := &fresh[i]
		if p.PostNumber != 1 || !ok && p.CreatedAt.Before(since) {
			continue // replies are followed through notifications
		}
		a, keep, err := b.triage(ctx, p)
		if err != nil {
			return false, err
		}
		if keep {
			actions = append(actions, a)
		}
	}
	n, err := b.db.Record(ctx, actions, store.CursorUpdate{Name: cursorPosts, Value: newest})
	if err != nil {
		return false, err
	}
	for _, a := range actions {
		b.metrics.Decisions.WithLabelValues(TriggerNewTopic, a.State).Inc()
	}
	if n > 0 {
		b.log.Info("decided", "new_topics", n, "cursor", newest)
	}
	return true, nil
}

func newerThan(posts []discourse.Post, cursor int64) []discourse.Post {
	var out []discourse.Post
	for _, p := range posts {
		if int64(p.ID) > cursor {
			out = append(out, p)
		}
	}
	return out
}

// triage decides about a new topic's first post. keep is false for posts
// the bot must not even consider (its own, other bots', out of scope).
func (b *Bot) triage(ctx context.Context, p *discourse.Post) (store.Action, bool, error) {
	// What the post itself says first: it costs no request.
	if b.stayOut(p, nil) != "" {
		return store.Action{}, false, nil
	}
	// Then the topic's tags, when any are skipped. /posts.json lists
	// public posts only (Post.public_posts in Discourse's
	// posts_controller.rb#latest), so no private message arrives here;
	// the runner re-checks the archetype before it writes.
	if len(b.opts.SkipTags) > 0 {
		if _, in, err := b.topicFor(ctx, p); !in || err != nil {
			return store.Action{}, false, err
		}
	}
	ans, err := b.answerer.Answer(ctx, knowledge.Post{Title: p.TopicTitle, Body: b.posterText(p.Raw)})
	if err != nil {
		return store.Action{}, false, err
	}
	return b.decision(TriggerNewTopic, p, p.TopicTitle, ans, b.draftFor(ans), false), true, nil
}

// pollNotifications answers @mentions of the bot and replies to it.
func (b *Bot) pollNotifications(ctx context.Context) error {
	cursor, ok, err := b.db.Cursor(ctx, cursorNotifications)
	if err != nil {
		return err
	}
	notes, err := b.client.Notifications(ctx, discourse.NotificationOptions{})
	b.countAPIError(err)
	if err != nil {
		return fmt.Errorf("bot: poll notifications: %w", err)
	}
	if len(notes) == 0 {
		if !ok { // remember that we looked, so quiet cycles can skip this
			_, err := b.db.Record(ctx, nil, store.CursorUpdate{Name: cursorNotifications, Value: 0})
			return err
		}
		return nil
	}
	newest := int64(0)
	for _, n := range notes {
		newest = max(newest, int64(n.ID))
	}
	if !ok && b.opts.Backfill == 0 {
		_, err := b.db.Record(ctx, nil, store.CursorUpdate{Name: cursorNotifications, Value: newest})
		return err
	}
	slices.SortFunc(notes, func(a, b discourse.Notification) int { return a.ID - b.ID })
	for _, n := range notes {
		if int64(n.ID) <= cursor {
			continue
		}
		trigger := ""
		switch n.NotificationType {
		case discourse.NotificationMentioned, discourse.NotificationGroupMentioned:
			trigger = TriggerMention
		case discourse.NotificationReplied:
			trigger = TriggerReply
		}
		var actions []store.Action
		if trigger != "" {
			a, keep, err := b.followUp(ctx, trigger, n)
			if err != nil {
				return err
			}
			if keep {
				actions = append(actions, a)
			}
		}
		// One transaction per notification: its decision and the cursor.
		if _, err := b.db.Record(ctx, actions, store.CursorUpdate{Name: cursorNotifications, Value: int64(n.ID)}); err != nil {
			return err
		}
		for _, a := range actions {
			b.metrics.Decisions.WithLabelValues(trigger, a.State).Inc()
		}
	}
	return nil
}
