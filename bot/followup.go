package bot

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/knowledge"
	"github.com/heraldbot/herald/store"
)

// maxThreadPosts bounds how many of the asker's side posts are read into
// a follow-up: the first post and the latest ones carry the context.
const maxThreadPosts = 6

var (
	linkRE = regexp.MustCompile(`\]\((https?://[^)\s]+)\)`)
	// modelSpecificRE recognises "only with this model; others work".
	modelSpecificRE = regexp.MustCompile(`(?i)\b(specific to|only (happens )?(with|for|on)|other (similar |large )?models? (work|run)|similarly large models|works? (fine )?with other|bug (related to|in|with))\b`)
)

// followUp answers an @mention of the bot or a reply to it, with the
// whole topic as context: facts merged across the asker's posts, what the
// bot already cited left out, and what the asker said since taken into
// account. Every mention gets an answer, if only an honest "nothing more".
func (b *Bot) followUp(ctx context.Context, trigger string, n discourse.Notification) (store.Action, bool, error) {
	postID := n.Data.OriginalPostID
	if postID == 0 {
		return store.Action{}, false, nil
	}
	p, err := b.client.Post(ctx, postID)
	b.countAPIError(err)
	if errors.Is(err, discourse.ErrNotVisible) {
		return store.Action{}, false, nil // deleted meanwhile
	}
	if err != nil {
		return store.Action{}, false, fmt.Errorf("bot: read post %d: %w", postID, err)
	}
	if b.isBot(p.Username) || p.PostType != discourse.PostTypeRegular {
		return store.Action{}, false, nil
	}
	// The same rails as a new topic: a mention does not open a private
	// message, a skip-tagged topic, another category or a low trust level.
	t, in, err := b.topicFor(ctx, p)
	if !in || err != nil {
		return store.Action{}, false, err
	}
	if over, err := b.overMentionCap(ctx, p.Username); err != nil || over {
		return store.Action{}, false, err
	}
	posts, err := b.client.AllTopicPosts(ctx, t)
	b.countAPIError(err)
	if err != nil {
		return store.Action{}, false, fmt.Errorf("bot: read topic %d posts: %w", p.TopicID, err)
	}
	p.CategoryID = t.CategoryID
	body, cited := b.threadContext(posts, p)
	ans, err := b.answerer.Answer(ctx, knowledge.Post{Title: t.Title, Body: body})
	if err != nil {
		return store.Action{}, false, err
	}
	fresh := knowledge.Citations(ans.Matches, b.answerer.Engine.Thresholds, func(m knowledge.Match) bool { return cited[m.URL] })
	specific := modelSpecificRE.MatchString(b.posterText(p.Raw))
	var draft string
	// Sources, however sure: decision queues an answer below the queue
	// floor for staff instead of posting it.
	if len(fresh) > 0 {
		draft = knowledge.Compose(&ans.Facts, fresh, b.answerer.Engine.Compose)
		if specific {
			draft = modelNote(&ans.Facts, true) + "\n\n" + draft
		}
	} else {
		draft = b.nothingMore(&ans.Facts, specific, len(cited) > 0)
	}
	return b.decision(trigger, p, t.Title, ans, draft, true), true, nil
}

// threadContext joins the asker's side of the thread (first post, then
// the latest posts up to the trigger, other bots' and our own left out,
// and so are the quotes of them: posterText)
// and collects the links the bot already cited.
func (b *Bot) threadContext(posts []discourse.Post, trigger *discourse.Post) (string, map[string]bool) {
	cited := map[string]bool{}
	var user []discourse.Post
	for _, q := range posts {
		if q.PostNumber > trigger.PostNumber {
			continue
		}
		if strings.EqualFold(q.Username, b.opts.Username) {
			for _, m := range linkRE.FindAllStringSubmatch(q.Raw, -1) {
				cited[m[1]] = true
			}
			continue
		}
		if b.isBot(q.Username) || q.PostType != discourse.PostTypeRegular {
			continue
		}
		user = append(user, q)
	}
	if len(user) > maxThreadPosts {
		user = append(user[:1:1], user[len(user)-maxThreadPosts+1:]...)
	}
	if !slices.ContainsFunc(user, func(q discourse.Post) bool { return q.ID == trigger.ID }) {
		user = append(user, *trigger)
	}
	var parts []string
	for _, q := range user {
		parts = append(parts, b.posterText(q.Raw))
	}
	return strings.Join(parts, "\n\n"), cited
}

// modelNote acknowledges that the problem seems specific to one model.
func modelNote(f *knowledge.Facts, withMore bool) string {
	model := "this model"
	if len(f.Models) > 0 {
		model = knowledge.Code(f.Models[0])
	}
	s := fmt.Sprintf("**Noted:** if the same settings work with other models of similar size, the problem is likely specific to %s (its architecture or the model runner it selects) rather than to the memory settings.", model)
	if withMore {
		s += " Known issues that fit that reading:"
	}
	return s
}

// nothingMore is the honest follow-up when the knowledge base has nothing
// new: say so, and say what a good bug report needs.
func (b *Bot) nothingMore(f *knowledge.Facts, specific, citedBefore bool) string {
	var s strings.Builder
	if specific {
		s.WriteString(modelNote(f, false) + "\n\n")
	}
	if citedBefore {
		s.WriteString("I have no known issues beyond the ones I linked above. ")
	} else {
		s.WriteString("I could not find a known issue that matches this. ")
	}
	s.WriteString("This may be a new bug; a maintainer can help fastest with a bug report that has:\n\n")
	s.WriteString("1. the exact command or code you ran;\n2. the complete log from start-up to the error;\n3. your versions and hardware (the project's environment report);\n4. whether a smaller or different model works with the same settings.\n\n")
	s.WriteString(knowledge.Footer(b.answerer.Engine.Compose.BotName) + "\n")
	return s.String()
}
