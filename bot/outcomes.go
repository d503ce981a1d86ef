package bot

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/store"
)

// negativeRE recognises an asker saying the bot's answer did not help.
var negativeRE = regexp.MustCompile(`(?i)\b(did(n'?t| not) (help|work|fix)|does(n'?t| not) (help|work|fix)|still (fails|failing|broken|the same|crashes|ooms?)|not (helpful|relevant|it)|wrong (answer|issue)|same error)\b`)

// CollectOutcomes checks the bot's replies posted since since: accepted as
// the solution, liked, or followed by the asker saying it did not help.
// The counts feed each cited entry's prior (see store.EntryOutcome) and
// show in `herald kb show` and the admin page.
func (b *Bot) CollectOutcomes(ctx context.Context, since time.Time) (int, error) {
	done, err := b.db.ListActions(ctx, store.ActionFilter{Kind: action.KindReply, States: []string{store.StateDone}, Since: since, Limit: 500})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, a := range done {
		postID, err := strconv.Atoi(strings.TrimPrefix(a.Result, "post:"))
		if err != nil {
			continue
		}
		var r Reply
		if err := json.Unmarshal(a.Payload, &r); err != nil || len(r.Cited) == 0 {
			continue
		}
		t, err := b.client.Topic(ctx, a.TopicID)
		b.countAPIError(err)
		if errors.Is(err, discourse.ErrNotVisible) {
			continue
		}
		if err != nil {
			return n, err
		}
		posts, err := b.client.AllTopicPosts(ctx, t)
		b.countAPIError(err)
		if err != nil {
			return n, err
		}
		var o store.Outcome
		botNumber := 0
		for _, p := range posts {
			if p.ID == postID {
				botNumber = p.PostNumber
				o.Accepted = p.AcceptedAnswer || t.Accepted != nil && t.Accepted.PostNumber == p.PostNumber
				o.Liked = p.Likes() > 0
			}
		}
		for _, p := range posts {
			if botNumber > 0 && p.PostNumber > botNumber && strings.EqualFold(p.Username, r.Asker) && negativeRE.MatchString(p.Raw) {
				o.Negative = true
			}
		}
		if err := b.db.RecordOutcome(ctx, a.ID, r.Cited, o); err != nil {
			return n, err
		}
		n++
	}
	return n, b.answerer.Reload(ctx)
}
