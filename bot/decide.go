package bot

import (
	"fmt"
	"strings"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Triggers.
const (
	TriggerNewTopic = "new_topic"
	TriggerMention  = "mention"
	TriggerReply    = "reply"
	TriggerSweep    = "sweep"
)

// Reply is the payload of a reply action (declared in bot/action).
type Reply = action.Reply

// ActionKey is the idempotency key of a reply to one post.
func ActionKey(topicID, postID int) string { return fmt.Sprintf("reply:%d:%d", topicID, postID) }

// decision turns an answer into an action for the log, applying the mode
// and thresholds: what to post, what to queue, what to drop.
func (b *Bot) decision(trigger string, p *discourse.Post, title string, ans knowledge.Answer, draft string, forced bool) store.Action {
	r := Reply{
		Trigger: trigger, TopicID: p.TopicID, TopicTitle: title, CategoryID: p.CategoryID, PostID: p.ID,
		PostNumber: p.PostNumber, Asker: p.Username, Draft: draft, Whisper: b.opts.Whisper,
		Decision: string(ans.Decision), Confidence: ans.Confidence, Matches: ans.Matches, Facts: ans.Facts,
		Question: truncateRunes(p.Raw, 4000), Cited: citedIDs(draft, ans),
	}
	kind, payload, _ := action.Encode(r)
	a := store.Action{Kind: kind, Key: ActionKey(p.TopicID, p.ID), TopicID: p.TopicID, PostID: p.ID,
		Payload: payload, Confidence: ans.Confidence, Mode: string(b.opts.Mode)}
	switch {
	case draft == "":
		a.State = store.StateDropped
		a.Reason = dropReason(ans)
	case b.opts.Mode == ModeShadow:
		a.State = store.StateShadow
		a.Reason = "shadow mode"
	case b.opts.Mode == ModeQueue:
		a.State = store.StatePending
		a.Reason = "queue mode"
	case forced && heldBack(ans) != "":
		// Asked directly about a post the engine never replies to
		// (knowledge.HeldBack: another engine's or program's problem, a
		// refused command line its top entry does not speak of): staff
		// decide whether any of it helps.
		a.State = store.StatePending
		a.Reason = "asked directly; " + heldBack(ans)
	case forced && ans.Confidence < b.opts.QueueFloor && ans.Decision != knowledge.DecisionIgnore && len(ans.Matches) > 0 && draftCites(draft):
		// Asked directly, but on evidence too weak to stand behind:
		// staff decide.
		a.State = store.StatePending
		a.Reason = fmt.Sprintf("asked directly; confidence %.2f below the queue floor %.2f", ans.Confidence, b.opts.QueueFloor)
	case forced || ans.Decision == knowledge.DecisionReply && ans.Confidence >= b.autoPost(p.CategoryID):
		a.State = store.StateApproved
		a.Reason = fmt.Sprintf("confidence %.2f ≥ auto-post %.2f", ans.Confidence, b.autoPost(p.CategoryID))
		if forced {
			a.Reason = "asked directly"
		}
	default:
		a.State = store.StatePending
		a.Reason = fmt.Sprintf("confidence %.2f below auto-post %.2f", ans.Confidence, b.autoPost(p.CategoryID))
	}
	return a
}

// heldBack is knowledge.HeldBack for an answer: why the engine never
// replies to its post, or "".
func heldBack(ans knowledge.Answer) string {
	var top *knowledge.Match
	if len(ans.Matches) > 0 {
		top = &ans.Matches[0]
	}
	return knowledge.HeldBack(&ans.Facts, top)
}

// draftCites reports whether a draft cites sources (rather than being the
// honest "nothing more" checklist, which claims nothing).
func draftCites(draft string) bool { return linkRE.MatchString(draft) }

func dropReason(ans knowledge.Answer) string {
	if ans.Decision == knowledge.DecisionIgnore {
		return "not a support question"
	}
	return fmt.Sprintf("confidence %.2f below the queue floor", ans.Confidence)
}

// draftFor returns the text to post or queue for an answer: the engine's
// reply, or for an uncertain answer above the queue floor a draft citing
// its strongest matches, for staff to judge.
func (b *Bot) draftFor(ans knowledge.Answer) string {
	return b.answerer.Draft(ans, b.opts.QueueFloor)
}

// Draft returns the text to post or queue for an answer: the engine's
// reply, or for an uncertain answer at or above queueFloor a draft citing
// its strongest matches, for staff to judge; "" when there is neither.
func (a *Answerer) Draft(ans knowledge.Answer, queueFloor float64) string {
	switch {
	case ans.Decision == knowledge.DecisionReply:
		return ans.Reply
	case ans.Decision == knowledge.DecisionAbstain && ans.Confidence >= queueFloor && len(ans.Matches) > 0:
		cited := knowledge.Citations(ans.Matches, a.Engine.Thresholds, nil)
		if len(cited) == 0 {
			return ""
		}
		return knowledge.Compose(&ans.Facts, cited, a.Engine.Compose)
	}
	return ""
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// citedIDs returns the ids of the matches whose URL the draft links.
func citedIDs(draft string, ans knowledge.Answer) []string {
	var ids []string
	for _, m := range ans.Matches {
		if m.URL != "" && strings.Contains(draft, "("+m.URL+")") {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// Preview is what `herald answer` prints for an answer: the reply, or why
// there is none and the draft staff would find in the approval queue.
func (a *Answerer) Preview(ans knowledge.Answer) string {
	switch ans.Decision {
	case knowledge.DecisionReply:
		return ans.Reply
	case knowledge.DecisionIgnore:
		return "<!-- herald: ignore — this does not look like a support question; no reply -->\n"
	}
	m := a.Model()
	draft := a.Draft(ans, m.QueueFloor)
	if draft == "" {
		return fmt.Sprintf("<!-- herald: abstain — confidence %.3f is below the reply threshold %.3f and the queue floor %.3f; no reply, no draft -->\n",
			ans.Confidence, a.Engine.Thresholds.Reply, m.QueueFloor)
	}
	return fmt.Sprintf("<!-- herald: abstain — confidence %.3f is below the reply threshold %.3f, so nothing is posted; staff would find this draft in the approval queue -->\n\n%s",
		ans.Confidence, a.Engine.Thresholds.Reply, draft)
}
