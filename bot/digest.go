package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"

	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Outcomes are what happened to the bot's replies in a period.
type Outcomes struct {
	Posted, Accepted, Liked, Rejected int
}

// Outcomes counts replies posted since since, how many were accepted as
// the solution or liked (read from the forum, at most 50 replies), and
// drafts staff rejected.
func (b *Bot) Outcomes(ctx context.Context, since time.Time) (Outcomes, error) {
	var o Outcomes
	done, err := b.db.ListActions(ctx, store.ActionFilter{Kind: action.KindReply, States: []string{store.StateDone}, Since: since, Limit: 500})
	if err != nil {
		return o, err
	}
	o.Posted = len(done)
	for i, a := range done {
		if i == 50 {
			break
		}
		id, err := strconv.Atoi(strings.TrimPrefix(a.Result, "post:"))
		if err != nil {
			continue
		}
		p, err := b.client.Post(ctx, id)
		b.countAPIError(err)
		if err != nil {
			continue
		}
		if p.AcceptedAnswer {
			o.Accepted++
		}
		if p.Likes() > 0 {
			o.Liked++
		}
	}
	rejected, err := b.db.ListActions(ctx, store.ActionFilter{States: []string{store.StateRejected}, Since: since, Limit: 1000})
	o.Rejected = len(rejected)
	return o, err
}

// Digest writes the staff digest: unanswered topics by category and age
// with what Herald proposes, clusters of open topics failing the same way
// (a hint of an undocumented known issue), and last period's outcomes.
func (b *Bot) Digest(ctx context.Context, rep *SweepReport, period time.Duration) (string, error) {
	now := b.now()
	o, err := b.Outcomes(ctx, now.Add(-period))
	if err != nil {
		return "", err
	}
	forum := strings.TrimRight(b.client.BaseURL(), "/")
	var s strings.Builder
	fmt.Fprintf(&s, "## Herald digest, %s\n\n", now.Format("2006-01-02"))
	fmt.Fprintf(&s, "**Last %s:** %d replies posted, %d accepted as the solution, %d liked; %d drafts rejected in review.\n\n",
		humanDuration(period), o.Posted, o.Accepted, o.Liked, o.Rejected)
	byCat := map[int][]Unanswered{}
	var cats []int
	for _, u := range rep.Unanswered {
		if _, ok := byCat[u.CategoryID]; !ok {
			cats = append(cats, u.CategoryID)
		}
		byCat[u.CategoryID] = append(byCat[u.CategoryID], u)
	}
	sort.Ints(cats)
	fmt.Fprintf(&s, "### Unanswered topics (%d)\n", len(rep.Unanswered))
	if len(rep.Unanswered) == 0 {
		s.WriteString("\nNone: every topic in scope has an answer.\n")
	}
	for _, c := range cats {
		fmt.Fprintf(&s, "\n**Category %d**\n\n", c)
		list := byCat[c]
		sort.Slice(list, func(i, j int) bool { return list[i].CreatedAt.Before(list[j].CreatedAt) })
		for _, u := range list {
			fmt.Fprintf(&s, "- [%s](%s/t/topic/%d) — open %s", knowledge.LinkText(u.Title), forum, u.TopicID, humanDuration(now.Sub(u.CreatedAt)))
			switch {
			case u.Proposal != "":
				fmt.Fprintf(&s, "; Herald proposes [%s](%s) (confidence %.2f)", knowledge.LinkText(u.Proposal), u.ProposalURL, u.Confidence)
			default:
				s.WriteString("; no known issue fits")
			}
			if u.Drafted {
				s.WriteString(", draft in the queue")
			}
			if u.BotReplied {
				s.WriteString(", Herald replied but nobody confirmed it")
			}
			s.WriteString("\n")
		}
	}
	clusters := map[string][]Unanswered{}
	for _, u := range rep.Unanswered {
		if u.Signature != "" {
			clusters[u.Signature] = append(clusters[u.Signature], u)
		}
	}
	var sigs []string
	for sig, us := range clusters {
		if len(us) >= 2 {
			sigs = append(sigs, sig)
		}
	}
	sort.Slice(sigs, func(i, j int) bool {
		return len(clusters[sigs[i]]) > len(clusters[sigs[j]]) || len(clusters[sigs[i]]) == len(clusters[sigs[j]]) && sigs[i] < sigs[j]
	})
	if len(sigs) > 0 {
		s.WriteString("\n### Open topics failing the same way\n\nThese may be a known issue nobody has documented yet:\n\n")
		for _, sig := range sigs {
			var ids []string
			for _, u := range clusters[sig] {
				ids = append(ids, fmt.Sprintf("[#%d](%s/t/topic/%d)", u.TopicID, forum, u.TopicID))
			}
			fmt.Fprintf(&s, "- %s — %d topics: %s\n", knowledge.Code(sig), len(ids), strings.Join(ids, ", "))
		}
	}
	return s.String(), nil
}

// Digest is the payload of a digest action (declared in bot/action).
type Digest = action.Digest

// DigestKey is the action key of the digest of the period starting at
// start: one digest a period, however often the sweep runs.
func DigestKey(start time.Time) string { return "digest:" + start.UTC().Format("2006-01-02T15:04") }

// QueueDigest records the digest md for the period that contains now as a
// keyed action; the runner posts it (to categoryID, or as a private
// message to group). Like every write it waits in shadow mode, stops with
// `herald pause`, and is posted at most once across crashes.
func (b *Bot) QueueDigest(ctx context.Context, md string, categoryID int, group string, period time.Duration) error {
	if period <= 0 {
		period = 7 * 24 * time.Hour
	}
	start := b.now().UTC().Truncate(period)
	d := Digest{Title: "Herald digest for " + start.Format("2006-01-02 15:04") + " UTC", Raw: md, CategoryID: categoryID, Group: group}
	kind, payload, err := action.Encode(d)
	if err != nil {
		return fmt.Errorf("bot: %w", err)
	}
	a := store.Action{Kind: kind, Key: DigestKey(start), Payload: payload, Mode: string(b.opts.Mode),
		State: store.StateApproved, Reason: "scheduled digest"}
	if b.opts.Mode == ModeShadow {
		a.State, a.Reason = store.StateShadow, "shadow mode"
	}
	_, err = b.db.Record(ctx, []store.Action{a})
	return err
}

// postDigest performs a digest action. A second attempt first looks for
// the digest by its title, which holds the period: a crash after the
// forum created it, or a lost response, does not post it twice.
func (b *Bot) postDigest(ctx context.Context, a store.Action) (stop bool, err error) {
	var d Digest
	if err := json.Unmarshal(a.Payload, &d); err != nil {
		return false, b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "undecodable payload: "+err.Error())
	}
	if paused, err := b.Paused(ctx); err != nil || paused {
		return true, err
	}
	attempts, err := b.db.StartAction(ctx, a.ID)
	if errors.Is(err, store.ErrConflict) {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if attempts > 1 {
		res, err := b.client.Search(ctx, `"`+d.Title+`"`, 1)
		b.countAPIError(err)
		if err != nil {
			return true, b.requeue(ctx, a, err)
		}
		for _, t := range res.Topics {
			if t.Title == d.Title {
				return false, b.finish(ctx, a, store.StateDone, "topic:"+strconv.Itoa(t.ID), "")
			}
		}
	}
	raw := strings.TrimRight(d.Raw, "\n") + "\n\n" + marker(a.Key)
	var p *discourse.Post
	if d.Group != "" {
		p, err = b.client.CreatePrivateMessage(ctx, d.Title, raw, []string{d.Group})
	} else {
		p, err = b.client.CreateTopic(ctx, d.Title, raw, d.CategoryID)
	}
	b.countAPIError(err)
	var er *discourse.ErrorResponse
	switch {
	case err == nil:
		return false, b.finish(ctx, a, store.StateDone, "topic:"+strconv.Itoa(p.TopicID), "")
	case errors.Is(err, discourse.ErrResponseLost):
		return true, err // stays "sending"; the next attempt searches first
	case errors.As(err, &er) && er.StatusCode < 500 && er.StatusCode != 429:
		return false, b.finish(ctx, a, store.StateFailed, "", err.Error())
	default:
		return true, b.requeue(ctx, a, err)
	}
}

func humanDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d.Hours()))
	}
	return fmt.Sprintf("%d minutes", int(d.Minutes()))
}
