// Package review is the one path by which staff decide what the bot has
// queued: approve, edit and approve, approve as a whisper, reject (saying,
// if they will, which entries do fit the post, that none does or that it
// asks no support question), judge (say the same later of a reply Herald
// kept silent on, posted, or that was rejected without it), and teach
// (propose a posted answer as a knowledge entry). The admin page and
// `herald queue` both call it, so the policy (which states may be
// decided, what an edited draft may contain, what the audit records) is
// written once. Labels reads those decisions back as labelled posts, the
// case format `herald kb fit` refits the model on.
//
// Invariants: approve and reject move a pending action only
// (store.Decide's state check makes a second decision fail with
// store.ErrConflict); a judgement moves no action, is given only on a
// reply that is finished (CanJudge), and fails with store.ErrConflict
// when someone else judged the post in between; an
// edited draft never carries the runner's marker and fits the forum's
// 32,000-character limit; every decision records who made it and its
// verb; fields of the payload that review does not know are kept; the
// entries a rejection says fit exist in the knowledge base.
package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/store"
)

// Verb is what staff decide.
type Verb string

// Verbs.
const (
	Approve Verb = "approve" // post the draft as it is, or as edited in Draft
	Reject  Verb = "reject"  // never post it; Reason is required
	// Judge says which entries answer a post whose reply is finished
	// (CanJudge): one Herald kept silent on, posted, or that was
	// rejected without saying. It changes no state; it makes a labelled
	// post of it.
	Judge Verb = "judge"
)

// judgeable returns the states of a reply staff may judge afterwards:
// what Herald dropped (kept silent on) or logged in shadow mode, what it
// posted, and what was rejected, skipped or refused. A pending reply is
// judged with its rejection; an approved one is on its way.
func judgeable() []string {
	return []string{store.StateDropped, store.StateShadow, store.StateDone, store.StateRejected, store.StateSkipped, store.StateFailed}
}

// CanJudge reports whether staff may judge the action now (Judge).
func CanJudge(a *store.Action) bool {
	return a.Kind == action.KindReply && slices.Contains(judgeable(), a.State)
}

// Decision is one staff decision on a queued action.
type Decision struct {
	ActionID int64
	Actor    string // who decides, as the audit records it
	Verb     Verb
	// Draft replaces the queued draft when it is not empty and differs
	// (an edit); empty keeps the draft.
	Draft   string
	Whisper bool   // post as a staff-only whisper
	Reason  string // why, for a rejection
	// Fits names the knowledge entries that do answer the post,
	// NothingFits says none does, and NotSupport that the post asks no
	// support question; a rejection may give one of them and a
	// judgement gives one, which makes the post a labelled post (Labels).
	Fits        []string
	NothingFits bool
	NotSupport  bool
}

// judges reports whether d says anything of the knowledge base.
func (d Decision) judges() bool { return len(d.Fits) > 0 || d.NothingFits || d.NotSupport }

// InvalidError is a decision that breaks the policy; nothing was changed.
type InvalidError struct{ Msg string }

func (e *InvalidError) Error() string { return "review: " + e.Msg }

// MaxDraft is the longest draft the forum accepts (max_post_length).
const MaxDraft = 32000

// markerRE finds the runner's invisible marker, which staff edits must
// not contain: the runner adds its own, and a copied one would make it
// mistake another post for its own.
var markerRE = regexp.MustCompile(`<!--\s*herald:`)

// Outcome says what a decision did, for the caller to show.
type Outcome struct {
	Audit string // the verb recorded, such as "edit and approve as whisper"
}

// Past words the decision for people: "edited and approved as whisper".
func (o Outcome) Past() string {
	r := strings.NewReplacer("edit and approve", "edited and approved", "approve", "approved", "reject", "rejected", "judge", "judged")
	return r.Replace(o.Audit)
}

// Decide applies d to the pending action it names.
func Decide(ctx context.Context, db *store.DB, d Decision) (Outcome, error) {
	if strings.TrimSpace(d.Actor) == "" {
		return Outcome{}, &InvalidError{"a decision needs the name of who makes it"}
	}
	a, err := db.Action(ctx, d.ActionID)
	if err != nil {
		return Outcome{}, fmt.Errorf("review: action %d: %w", d.ActionID, err)
	}
	if d.judges() && (d.Verb == Approve || a.Kind != action.KindReply) {
		return Outcome{}, &InvalidError{"which entries fit is said of a reply, with its rejection or as a judgement"}
	}
	switch d.Verb {
	case Judge:
		if !CanJudge(a) {
			return Outcome{}, &InvalidError{fmt.Sprintf("action %d is %s: judge a reply that is %s (a pending one with its rejection)",
				a.ID, a.State, strings.Join(judgeable(), ", "))}
		}
		if !d.judges() {
			return Outcome{}, &InvalidError{"a judgement names the entries that fit, or says that none does or that the post asks no support question"}
		}
		payload, said, err := judged(ctx, db, a, d)
		if err != nil {
			return Outcome{}, err
		}
		err = db.Annotate(ctx, a.ID, judgeable(), a.Payload, payload, d.Actor, string(Judge), said)
		if errors.Is(err, store.ErrConflict) {
			return Outcome{}, fmt.Errorf("review: action %d was judged or moved meanwhile; look again: %w", a.ID, err)
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("review: action %d: %w", a.ID, err)
		}
		return Outcome{Audit: string(Judge)}, nil
	case Reject:
		reason := strings.TrimSpace(d.Reason)
		if reason == "" {
			return Outcome{}, &InvalidError{"a rejection needs a reason"}
		}
		payload, _, err := judged(ctx, db, a, d)
		if err != nil {
			return Outcome{}, err
		}
		err = db.Decide(ctx, a.ID, []string{store.StatePending}, store.StateRejected, d.Actor, string(Reject), reason, payload)
		return Outcome{Audit: string(Reject)}, decided(a, err)
	case Approve:
		changes, audit, err := approval(a.Payload, d)
		if err != nil {
			return Outcome{}, err
		}
		payload, err := withChanges(a.Payload, changes)
		if err != nil {
			return Outcome{}, fmt.Errorf("review: action %d: payload: %w", a.ID, err)
		}
		err = db.Decide(ctx, a.ID, []string{store.StatePending}, store.StateApproved, d.Actor, audit, "", payload)
		return Outcome{Audit: audit}, decided(a, err)
	}
	return Outcome{}, &InvalidError{fmt.Sprintf("unknown verb %q (approve, reject or judge)", d.Verb)}
}

// judged returns the payload of a reply with staff's judgement of the
// knowledge base (Decision.Fits, NothingFits, NotSupport) in place of any
// earlier one, and the judgement in words for the audit; a nil payload
// when they gave none. Every entry said to fit must exist: a mistyped id
// would be a label no fit can use.
func judged(ctx context.Context, db *store.DB, a *store.Action, d Decision) (payload []byte, said string, err error) {
	if !d.judges() {
		return nil, "", nil
	}
	n := 0
	for _, b := range []bool{len(d.Fits) > 0, d.NothingFits, d.NotSupport} {
		if b {
			n++
		}
	}
	if n > 1 {
		return nil, "", &InvalidError{"say one of which entries fit, that none does, or that the post asks no support question"}
	}
	var fits []string
	for _, id := range d.Fits {
		id = strings.TrimSpace(id)
		if id == "" || slices.Contains(fits, id) {
			continue
		}
		if _, err := db.Entry(ctx, id); errors.Is(err, store.ErrNotFound) {
			return nil, "", &InvalidError{fmt.Sprintf("no knowledge entry %q", id)}
		} else if err != nil {
			return nil, "", fmt.Errorf("review: action %d: %w", a.ID, err)
		}
		fits = append(fits, id)
	}
	if len(fits) == 0 && !d.NothingFits && !d.NotSupport {
		return nil, "", &InvalidError{"no knowledge entry named"}
	}
	changes := map[string]any{"nothing_fits": d.NothingFits, "not_support": d.NotSupport, "fits": fits}
	if payload, err = withChanges(a.Payload, changes); err != nil {
		return nil, "", fmt.Errorf("review: action %d: payload: %w", a.ID, err)
	}
	return payload, action.Reply{Fits: fits, NothingFits: d.NothingFits, NotSupport: d.NotSupport}.Judgement(), nil
}

// approval returns the payload changes and audit verb of an approval.
func approval(payload []byte, d Decision) (map[string]any, string, error) {
	var cur action.Reply
	if err := json.Unmarshal(payload, &cur); err != nil {
		return nil, "", fmt.Errorf("review: action %d: payload: %w", d.ActionID, err)
	}
	draft := strings.TrimSpace(strings.ReplaceAll(d.Draft, "\r\n", "\n"))
	changes := map[string]any{}
	audit := string(Approve)
	if draft != "" && draft != strings.TrimSpace(cur.Draft) {
		switch {
		case markerRE.MatchString(draft):
			return nil, "", &InvalidError{"the draft may not contain a herald marker"}
		case len(draft) > MaxDraft:
			return nil, "", &InvalidError{fmt.Sprintf("the draft is %d characters; the forum takes at most %d", len(draft), MaxDraft)}
		}
		changes["draft"], changes["original"] = draft, cur.Draft
		audit = "edit and approve"
	}
	if d.Whisper {
		changes["whisper"] = true
		audit += " as whisper"
	}
	return changes, audit, nil
}

// decided words a failed store decision.
func decided(a *store.Action, err error) error {
	if errors.Is(err, store.ErrConflict) {
		return fmt.Errorf("review: action %d is %s, not pending: %w", a.ID, a.State, err)
	}
	if err != nil {
		return fmt.Errorf("review: action %d: %w", a.ID, err)
	}
	return nil
}

// withChanges returns the payload with fields replaced, keeping the
// fields review does not know.
func withChanges(payload []byte, changes map[string]any) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(payload, &m); err != nil {
		return nil, err
	}
	for k, v := range changes {
		m[k] = v
	}
	return json.Marshal(m)
}

// Teach proposes the answer of a reply action that was approved or
// posted as a knowledge entry: a pending teach action joins the queue,
// and the learning loop imports it once staff approve it. Teaching the
// same reply twice is a no-op (the key is the reply's id).
func Teach(ctx context.Context, db *store.DB, actionID int64, actor string) error {
	if strings.TrimSpace(actor) == "" {
		return &InvalidError{"a proposal needs the name of who makes it"}
	}
	a, err := db.Action(ctx, actionID)
	if err != nil {
		return fmt.Errorf("review: action %d: %w", actionID, err)
	}
	if a.Kind != action.KindReply || a.State != store.StateDone && a.State != store.StateApproved {
		return &InvalidError{"only approved or posted replies can be taught"}
	}
	var r action.Reply
	if err := json.Unmarshal(a.Payload, &r); err != nil {
		return fmt.Errorf("review: action %d: payload: %w", a.ID, err)
	}
	kind, payload, err := action.Encode(action.Teach{SourceAction: a.ID, TopicID: a.TopicID, TopicTitle: r.TopicTitle,
		CategoryID: r.CategoryID, Draft: r.Draft, Question: r.Question, Facts: r.Facts, ProposedBy: actor})
	if err != nil {
		return fmt.Errorf("review: action %d: %w", a.ID, err)
	}
	_, err = db.Record(ctx, []store.Action{{Kind: kind, Key: fmt.Sprintf("teach:%d", a.ID), TopicID: a.TopicID,
		PostID: a.PostID, Payload: payload, Confidence: a.Confidence, State: store.StatePending, Mode: "staff",
		Reason: "proposed by " + actor}})
	if err != nil {
		return fmt.Errorf("review: teach %d: %w", a.ID, err)
	}
	return nil
}
