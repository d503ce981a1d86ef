package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
)

// ReplayReport says what the current knowledge base would have done with
// past topics, so admins can judge a change before it goes live.
type ReplayReport struct {
	Topics  int `json:"topics"`
	Replies int `json:"would_reply"`
	Queued  int `json:"would_queue"`
	Silent  int `json:"silent"`
	Ignored int `json:"ignored"`
	Solved  int `json:"solved"`
	// Agree counts solved topics Herald would answer where the accepted
	// answer names or links one of Herald's citations.
	Agree int `json:"agree_with_accepted"`
	// Disagree counts solved topics Herald would answer where it does not.
	Disagree int `json:"disagree_with_accepted"`
	// Confidence buckets of the replies: [0.6,0.7), [0.7,0.8), [0.8,1].
	Buckets [3]int `json:"confidence_buckets"`
}

// Write prints the report for people; since is the date it started at.
func (r *ReplayReport) Write(w io.Writer, since string) error {
	_, err := fmt.Fprintf(w, "replayed %d topics since %s (shadow: nothing recorded or posted)\n"+
		"  would reply: %d (confidence 0.6–0.7: %d, 0.7–0.8: %d, ≥0.8: %d)\n"+
		"  would queue for staff: %d; silent: %d; not support questions: %d\n"+
		"  solved topics: %d; of those Herald would answer, its citations agree with the accepted answer in %d and not in %d\n",
		r.Topics, since, r.Replies, r.Buckets[0], r.Buckets[1], r.Buckets[2], r.Queued, r.Silent, r.Ignored, r.Solved, r.Agree, r.Disagree)
	return err
}

var issueRefRE = regexp.MustCompile(`#\d+`)

// Replay runs the engine over the first posts of topics created since
// since, in shadow: it records and posts nothing.
func (b *Bot) Replay(ctx context.Context, since time.Time) (*ReplayReport, error) {
	rep := &ReplayReport{}
	for page := 0; page < 100; page++ {
		list, err := b.client.LatestTopics(ctx, discourse.ListOptions{Order: "created", Page: page})
		b.countAPIError(err)
		if err != nil {
			return rep, fmt.Errorf("bot: replay: list topics: %w", err)
		}
		stop := false
		for _, item := range list.Topics {
			if item.CreatedAt.Before(since) {
				stop = true
				break
			}
			if item.Archetype != "regular" || !b.inScope(item.CategoryID) {
				continue
			}
			if err := b.replayTopic(ctx, item, rep); err != nil {
				return rep, err
			}
		}
		if stop || list.MoreTopicsURL == "" || len(list.Topics) == 0 {
			break
		}
	}
	return rep, nil
}

func (b *Bot) replayTopic(ctx context.Context, item discourse.TopicListItem, rep *ReplayReport) error {
	t, err := b.client.Topic(ctx, item.ID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return nil
	}
	if err != nil {
		return err
	}
	posts, err := b.client.AllTopicPosts(ctx, t)
	b.countAPIError(err)
	if err != nil || len(posts) == 0 {
		return err
	}
	if b.isBot(posts[0].Username) {
		return nil
	}
	rep.Topics++
	ans, err := b.answerer.Answer(ctx, knowledge.Post{Title: t.Title, Body: b.posterText(posts[0].Raw)})
	if err != nil {
		return err
	}
	switch {
	case ans.Decision == knowledge.DecisionIgnore:
		rep.Ignored++
	case ans.Decision == knowledge.DecisionReply && ans.Confidence >= b.opts.AutoPost:
		rep.Replies++
		switch {
		case ans.Confidence >= 0.8:
			rep.Buckets[2]++
		case ans.Confidence >= 0.7:
			rep.Buckets[1]++
		default:
			rep.Buckets[0]++
		}
	case b.draftFor(ans) != "":
		rep.Queued++
	default:
		rep.Silent++
	}
	if t.Accepted == nil {
		return nil
	}
	rep.Solved++
	if ans.Decision != knowledge.DecisionReply {
		return nil
	}
	var accepted string
	for _, p := range posts {
		if p.PostNumber == t.Accepted.PostNumber {
			accepted = p.Raw
		}
	}
	refs := issueRefRE.FindAllString(accepted, -1)
	for _, m := range ans.Matches {
		if !containsString(ans.Cited, m.ID) {
			continue
		}
		if strings.Contains(accepted, m.URL) || containsString(refs, m.Entry.ShortRef()) {
			rep.Agree++
			return nil
		}
	}
	rep.Disagree++
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
