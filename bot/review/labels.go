package review

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/store"
)

// LabelStats counts what Labels found.
type LabelStats struct {
	// Support, Abstain and NotSupport count the labelled posts written:
	// posts with entries that answer them, posts nothing in the
	// knowledge base answers, and posts that ask no support question.
	Support, Abstain, NotSupport int
	// Unjudged counts decided drafts that say nothing of the knowledge
	// base: rejections that named neither the entries that fit nor that
	// none does, and replies posted without staff whose asker did not
	// accept them.
	Unjudged int
}

// Labels reads staff's decisions on reply drafts back as labelled posts,
// in the case format `herald kb fit` refits the model on (bench.Case),
// newest decision first, one per post:
//
//   - staff's judgement of the knowledge base, given with a rejection or
//     afterwards (Judge) on any finished reply, silent or posted, comes
//     first: the entries that fit make a support post answered by them,
//     "nothing fits" an abstain post and "no support question" a
//     not-support post;
//   - a draft staff approved, as written or edited, is a support post
//     answered by the knowledge entries its posted text still links (an
//     edit that removed a citation says that entry did not fit); one
//     whose posted text links none is an abstain post, since staff
//     answered it without the knowledge base;
//   - a rejection that says nothing of the knowledge base says only that
//     the draft was not to be posted, and is no label;
//   - a reply posted without staff (auto mode) is a support post answered
//     by its citations when the asker accepted it as the solution;
//   - a post Herald kept silent on (or logged in shadow mode) is a label
//     only once staff judge it.
//
// Without judgements, these labels come from the posts Herald drafted, so
// they hold few of the posts it stayed silent on and a fit on them learns
// little about silence: judging a sample of the silent posts (the
// history page's "dropped") is what teaches it. source gives a post's
// address, which becomes the case's source.
func Labels(ctx context.Context, db *store.DB, source func(topicID, postNumber int) string) ([]bench.Case, LabelStats, error) {
	var out []bench.Case
	var st LabelStats
	seen := map[string]bool{}
	filter := store.ActionFilter{Kind: action.KindReply, Limit: 500,
		States: slices.Compact(slices.Sorted(slices.Values(slices.Concat(handledStates(), judgeable()))))}
	for {
		page, err := db.ListActions(ctx, filter)
		if err != nil {
			return nil, st, fmt.Errorf("review: labels: %w", err)
		}
		for _, a := range page {
			var r action.Reply
			if err := json.Unmarshal(a.Payload, &r); err != nil {
				return nil, st, fmt.Errorf("review: labels: action %d: payload: %w", a.ID, err)
			}
			id := fmt.Sprintf("topic-%d-post-%d", r.TopicID, r.PostNumber)
			if seen[id] || strings.TrimSpace(r.Question) == "" {
				continue
			}
			c, ok, err := label(ctx, db, a, r)
			if err != nil {
				return nil, st, err
			}
			if !ok {
				if handled(a) {
					st.Unjudged++
				}
				continue
			}
			seen[id] = true
			c.ID, c.Title, c.Body, c.Source = id, r.TopicTitle, r.Question, source(r.TopicID, r.PostNumber)
			switch c.Category {
			case bench.Support:
				st.Support++
			case bench.Abstain:
				st.Abstain++
			default:
				st.NotSupport++
			}
			out = append(out, c)
		}
		if len(page) < filter.Limit {
			return out, st, nil
		}
		filter.BeforeID = page[len(page)-1].ID
	}
}

// handled reports whether a reply was put to staff or posted: one that
// gives no label then is counted (LabelStats.Unjudged); a silent one is
// not, since nobody has looked at it.
func handled(a store.Action) bool { return slices.Contains(handledStates(), a.State) }

// handledStates are the states of a reply put to staff or posted.
func handledStates() []string {
	return []string{store.StateApproved, store.StateSending, store.StateDone, store.StateRejected}
}

// label is the label one reply gives, if any.
func label(ctx context.Context, db *store.DB, a store.Action, r action.Reply) (bench.Case, bool, error) {
	switch {
	case r.NotSupport:
		return bench.Case{Category: bench.NotSupport}, true, nil
	case r.NothingFits:
		return bench.Case{Category: bench.Abstain}, true, nil
	case len(r.Fits) > 0:
		return bench.Case{Category: bench.Support, Answers: slices.Clone(r.Fits)}, true, nil
	case !handled(a) || a.State == store.StateRejected:
		return bench.Case{}, false, nil
	case a.DecidedBy != "":
		linked, err := linkedEntries(ctx, db, r)
		if err != nil {
			return bench.Case{}, false, err
		}
		if len(linked) == 0 {
			return bench.Case{Category: bench.Abstain}, true, nil
		}
		return bench.Case{Category: bench.Support, Answers: linked}, true, nil
	}
	o, ok, err := db.ReplyOutcome(ctx, a.ID)
	if err != nil {
		return bench.Case{}, false, fmt.Errorf("review: labels: %w", err)
	}
	if !ok || !o.Accepted || len(r.Cited) == 0 {
		return bench.Case{}, false, nil
	}
	return bench.Case{Category: bench.Support, Answers: slices.Clone(r.Cited)}, true, nil
}

// linkRE is an address in a draft, without the punctuation that ends a
// sentence or a Markdown link.
var linkRE = regexp.MustCompile(`https?://[^\s<>"')\]]+`)

// linkedEntries returns the ids of the knowledge entries whose addresses
// the draft's text links, in the order the text first links them: what
// the posted reply cites, after any edit. A link staff added to an entry
// the draft did not match counts as theirs: it is the entry they say
// fits.
func linkedEntries(ctx context.Context, db *store.DB, r action.Reply) ([]string, error) {
	byURL := map[string]string{}
	for _, m := range r.Matches {
		if m.URL != "" {
			byURL[normalURL(m.URL)] = m.ID
		}
	}
	var out []string
	for _, u := range linkRE.FindAllString(r.Draft, -1) {
		u = normalURL(strings.TrimRight(u, ".,;:!?"))
		id, ok := byURL[u]
		if !ok {
			var err error
			if id, err = db.EntryIDByURL(ctx, u); err != nil {
				return nil, fmt.Errorf("review: labels: %w", err)
			}
			byURL[u] = id
		}
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// normalURL compares addresses without a trailing slash or fragment.
func normalURL(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return strings.TrimRight(u, "/")
}
