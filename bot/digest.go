package bot

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

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
	done, err := b.db.ListActions(ctx, store.ActionFilter{Kind: "reply", States: []string{store.StateDone}, Since: since, Limit: 500})
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

// PostDigest publishes a digest as a topic in a staff category or, with
// group set, as a PM to that group.
func (b *Bot) PostDigest(ctx context.Context, md string, categoryID int, group string) error {
	title := "Herald digest " + b.now().Format("2006-01-02 15:04")
	var err error
	if group != "" {
		_, err = b.client.CreatePrivateMessage(ctx, title, md, []string{group})
	} else {
		_, err = b.client.CreateTopic(ctx, title, md, categoryID)
	}
	b.countAPIError(err)
	return err
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
