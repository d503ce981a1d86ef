package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// marker is the invisible tag every reply carries: an HTML comment with
// the action key, kept in the post's raw Markdown and absent from its
// rendering. It lets the runner recognise its own post after a crash.
func marker(key string) string { return "<!-- herald:" + key + " -->" }

// RunActions performs approved actions, oldest first. It is the only code
// that writes to the forum.
func (b *Bot) RunActions(ctx context.Context) error {
	if paused, err := b.Paused(ctx); err != nil || paused {
		return err
	}
	seen := map[int64]bool{}
	for {
		actions, err := b.db.ListActions(ctx, store.ActionFilter{States: []string{store.StateApproved, store.StateSending}, Oldest: true, Limit: 50})
		if err != nil {
			return err
		}
		progressed := false
		for _, a := range actions {
			if seen[a.ID] {
				continue // requeued in this cycle: leave it for the next
			}
			seen[a.ID] = true
			progressed = true
			if err := ctx.Err(); err != nil {
				return err
			}
			stop, err := b.perform(ctx, a)
			if err != nil {
				b.log.Warn("action failed", "action_key", a.Key, "err", err)
			}
			if stop {
				return err
			}
		}
		if !progressed {
			return nil
		}
	}
}

// performer performs one action of its kind; stop asks the runner to end
// this cycle (rate limited, forum unreachable, budget spent).
type performer func(ctx context.Context, a store.Action) (stop bool, err error)

// performers are how the runner performs each kind in bot/action; each
// lives in the file of its kind.
func (b *Bot) performers() map[string]performer {
	proposal := func(ctx context.Context, a store.Action) (bool, error) { return false, b.applyProposal(ctx, a) }
	return map[string]performer{
		action.KindReply:  b.performReply,
		action.KindTag:    b.applyTags,
		action.KindLearn:  proposal,
		action.KindTeach:  proposal,
		action.KindDigest: b.postDigest,
	}
}

// perform runs one action with its kind's performer; an action of a kind
// this version does not know fails, with the reason kept.
func (b *Bot) perform(ctx context.Context, a store.Action) (stop bool, err error) {
	run, ok := b.kinds[a.Kind]
	if !ok {
		return false, b.finish(ctx, a, store.StateFailed, "", fmt.Sprintf("unknown action kind %q", a.Kind))
	}
	return run(ctx, a)
}

// performReply posts a reply action once: budgets, then the attempt is
// marked, then the live topic is re-read and every rail re-checked, then
// the draft is checked inert and posted with its marker.
func (b *Bot) performReply(ctx context.Context, a store.Action) (stop bool, err error) {
	var r Reply
	if err := json.Unmarshal(a.Payload, &r); err != nil {
		return false, b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "undecodable payload: "+err.Error())
	}
	// Budgets first: they do not depend on the forum.
	total, _, err := b.db.DoneSince(ctx, action.KindReply, b.now().Add(-time.Hour), r.TopicID)
	if err != nil {
		return true, err
	}
	if total >= b.opts.HourlyBudget {
		b.log.Info("hourly budget spent; waiting", "budget", b.opts.HourlyBudget)
		return true, nil
	}
	// Mark the attempt before touching the forum.
	attempts, err := b.db.StartAction(ctx, a.ID)
	if errors.Is(err, store.ErrConflict) {
		return false, nil // rejected or finished meanwhile
	}
	if err != nil {
		return true, err
	}
	if stop, settled, err := b.recheck(ctx, a, r); settled || err != nil {
		return stop, err
	}
	if paused, err := b.Paused(ctx); err != nil || paused {
		return true, b.requeue(ctx, a, errors.New("paused"))
	}
	// A draft the bot wrote (not one staff edited) must be inert but for
	// the links of the entries it cites; check again right before posting.
	if r.Original == "" {
		if problems := knowledge.ReplyProblems(r.Draft, citedURLs(r)); len(problems) > 0 {
			return false, b.finish(ctx, a, store.StateFailed, "", "draft is not inert: "+problems[0])
		}
	}
	return b.postReply(ctx, a, r, attempts)
}

// recheck re-reads the live topic right before writing. settled reports
// that the action was finished (posted before a crash, or skipped by a
// rail) or requeued, so nothing is to be posted now.
func (b *Bot) recheck(ctx context.Context, a store.Action, r Reply) (stop, settled bool, err error) {
	t, err := b.client.Topic(ctx, r.TopicID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return false, true, b.finish(ctx, a, store.StateSkipped, "", "topic deleted or hidden")
	}
	if err != nil {
		return true, true, b.requeue(ctx, a, err)
	}
	posts, err := b.client.AllTopicPosts(ctx, t)
	b.countAPIError(err)
	if err != nil {
		return true, true, b.requeue(ctx, a, err)
	}
	mine := 0
	for _, p := range posts {
		if !strings.EqualFold(p.Username, b.opts.Username) {
			continue
		}
		if strings.Contains(p.Raw, marker(a.Key)) {
			// Posted before a crash (or a lost response): record it.
			return false, true, b.finish(ctx, a, store.StateDone, "post:"+strconv.Itoa(p.ID), "")
		}
		mine++
	}
	if reason := b.liveRails(t, r, mine); reason != "" {
		return false, true, b.finish(ctx, a, store.StateSkipped, "", reason)
	}
	return false, false, nil
}

// liveRails is why the live topic t no longer takes reply r, or "";
// mine counts the bot's posts in it.
func (b *Bot) liveRails(t *discourse.Topic, r Reply, mine int) string {
	opening := r.Trigger == TriggerNewTopic || r.Trigger == TriggerSweep
	switch {
	case t.DeletedAt != nil: // staff accounts still see deleted topics
		return "topic deleted"
	case t.Closed || t.Archived:
		return "topic closed"
	case t.Archetype == ArchetypePrivateMessage:
		return "a private message"
	case b.skipTagged(t) != "":
		return b.skipTagged(t)
	case !b.inScope(t.CategoryID):
		return "topic moved out of scope"
	case opening && t.Accepted != nil:
		return "already solved"
	case opening && mine > 0:
		return "the bot already answered this topic"
	case mine >= b.opts.MaxPerTopic:
		return fmt.Sprintf("the bot has %d posts in this topic (max %d)", mine, b.opts.MaxPerTopic)
	}
	return ""
}

// postReply posts the draft with its marker and records the outcome.
func (b *Bot) postReply(ctx context.Context, a store.Action, r Reply, attempts int) (stop bool, err error) {
	raw := strings.TrimRight(r.Draft, "\n") + "\n\n" + marker(a.Key)
	p, err := b.client.CreatePost(ctx, discourse.CreatePostRequest{TopicID: r.TopicID, Raw: raw,
		ReplyToPostNumber: r.PostNumber, Whisper: r.Whisper})
	b.countAPIError(err)
	var pending *discourse.PendingError
	var er *discourse.ErrorResponse
	switch {
	case err == nil:
		b.metrics.RepliesPosted.Inc()
		b.log.Info("replied", "action_key", a.Key, "topic_id", r.TopicID, "post_id", p.ID, "attempt", attempts)
		return false, b.finish(ctx, a, store.StateDone, "post:"+strconv.Itoa(p.ID), "")
	case errors.As(err, &pending):
		return false, b.finish(ctx, a, store.StateDone, "queued for review by the forum", "")
	case errors.Is(err, discourse.ErrResponseLost):
		// Leave it in "sending": the next cycle looks for the marker.
		return true, err
	case errors.As(err, &er) && er.StatusCode < 500 && er.StatusCode != 429:
		return false, b.finish(ctx, a, store.StateFailed, "", err.Error())
	default:
		return true, b.requeue(ctx, a, err)
	}
}

// citedURLs are the URLs a reply action's draft may link: its matches'.
func citedURLs(r Reply) []string {
	out := make([]string, 0, len(r.Matches))
	for _, m := range r.Matches {
		out = append(out, m.URL)
	}
	return out
}

func (b *Bot) finish(ctx context.Context, a store.Action, state, result, reason string) error {
	if state != store.StateDone {
		b.log.Info("action not performed", "action_key", a.Key, "state", state, "reason", reason)
	}
	return b.db.FinishAction(ctx, a.ID, state, result, reason)
}

func (b *Bot) requeue(ctx context.Context, a store.Action, cause error) error {
	if err := b.db.RetryLater(ctx, a.ID, cause.Error()); err != nil {
		return errors.Join(cause, err)
	}
	return cause
}
