package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// Proposal is the payload of a learn action (declared in bot/action).
type Proposal = action.Learn

// Learn proposes knowledge entries from topics solved since the given
// time (the Solved plugin's accepted answers). Each topic is proposed
// once (key learn:<topic>); staff approve proposals in the queue, and the
// runner adds approved ones to the knowledge base.
func (b *Bot) Learn(ctx context.Context, since time.Time) (int, error) {
	q := "status:solved after:" + since.UTC().Format("2006-01-02")
	seen := map[int]bool{}
	proposed := 0
	for page := 1; page <= 10; page++ {
		res, err := b.client.Search(ctx, q, page)
		b.countAPIError(err)
		if err != nil {
			return proposed, fmt.Errorf("bot: search solved topics: %w", err)
		}
		if len(res.Topics) == 0 {
			break
		}
		for _, t := range res.Topics {
			if seen[t.ID] || !t.HasAcceptedAnswer {
				continue
			}
			seen[t.ID] = true
			n, err := b.proposeFromSolved(ctx, t.ID)
			if err != nil {
				return proposed, err
			}
			proposed += n
		}
		if len(res.Topics) < 50 {
			break
		}
	}
	return proposed, nil
}

func (b *Bot) proposeFromSolved(ctx context.Context, topicID int) (int, error) {
	key := fmt.Sprintf("learn:%d", topicID)
	if a, err := b.db.ActionByKey(ctx, key); err != nil || a != nil {
		return 0, err
	}
	t, err := b.client.Topic(ctx, topicID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("bot: read solved topic %d: %w", topicID, err)
	}
	if t.Accepted == nil {
		return 0, nil
	}
	posts, err := b.client.AllTopicPosts(ctx, t)
	b.countAPIError(err)
	if err != nil {
		return 0, fmt.Errorf("bot: read solved topic %d: %w", topicID, err)
	}
	var question, answer *discourse.Post
	for i := range posts {
		switch posts[i].PostNumber {
		case 1:
			question = &posts[i]
		case t.Accepted.PostNumber:
			answer = &posts[i]
		}
	}
	if question == nil || answer == nil || b.isBot(answer.Username) && answer.Likes() == 0 && !answer.AcceptedAnswer {
		return 0, nil
	}
	e, err := knowledge.TopicEntry(knowledge.SolvedTopic{ForumURL: b.client.BaseURL(), TopicID: t.ID, Title: t.Title,
		Question: question.Raw, Answer: answer.Raw, Answerer: answer.Username}, b.answerer.Schema())
	if err != nil {
		return 0, err
	}
	kind, payload, _ := action.Encode(Proposal{TopicID: t.ID, TopicTitle: t.Title, CategoryID: t.CategoryID,
		Question: truncateRunes(question.Raw, 4000), Draft: describeEntry(e), Entry: e})
	state := store.StatePending
	if b.opts.Mode == ModeShadow {
		state = store.StateShadow
	}
	n, err := b.db.Record(ctx, []store.Action{{Kind: kind, Key: key, TopicID: t.ID, PostID: answer.ID,
		Payload: payload, Confidence: 1, State: state, Mode: string(b.opts.Mode), Reason: "accepted answer by " + answer.Username}})
	return n, err
}

// describeEntry renders a proposed entry for reviewers. Marshalling a
// struct of strings cannot fail, so its error is not checked.
func describeEntry(e knowledge.Entry) string {
	b, _ := json.MarshalIndent(struct {
		ID, Title, URL, Summary string
		Symptoms, Flags, Tags   []string
		Advice                  []string
	}{e.ID, e.Title, e.URL, e.Summary, e.Symptoms, e.Flags, e.Tags, e.Advice}, "", "  ")
	return "Proposed knowledge entry:\n\n```json\n" + string(b) + "\n```"
}

// applyProposal adds an approved learn or teach proposal to the knowledge
// base and rebuilds the index, so the next post can cite it.
func (b *Bot) applyProposal(ctx context.Context, a store.Action) error {
	var p Proposal
	if err := json.Unmarshal(a.Payload, &p); err != nil {
		return b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "undecodable proposal: "+err.Error())
	}
	e := p.Entry
	if a.Kind == action.KindTeach {
		// A staff-approved reply becomes an entry about its topic.
		var teach action.Teach
		if err := json.Unmarshal(a.Payload, &teach); err != nil {
			return b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "undecodable teach proposal: "+err.Error())
		}
		var err error
		e, err = knowledge.TopicEntry(knowledge.SolvedTopic{ForumURL: b.client.BaseURL(), TopicID: teach.TopicID, Title: teach.TopicTitle,
			Question: teach.Question, Answer: teach.Draft}, b.answerer.Schema())
		if err != nil {
			return b.db.FinishAction(ctx, a.ID, store.StateFailed, "", err.Error())
		}
		e.Summary = "Staff-approved answer: " + e.Summary[len("Solved on the forum: "):]
	}
	if e.ID == "" {
		return b.db.FinishAction(ctx, a.ID, store.StateFailed, "", "proposal without an entry")
	}
	e.Source = "forum"
	if _, err := b.db.UpsertEntries(ctx, []knowledge.Entry{e}, nil); err != nil {
		return err
	}
	if err := b.answerer.Reload(ctx); err != nil {
		return err
	}
	b.log.Info("learned", "entry", e.ID, "from", a.Key)
	return b.db.FinishAction(ctx, a.ID, store.StateDone, "entry:"+e.ID, "")
}
