// Package bot is Herald's behaviour. It turns forum posts into answers by
// running the knowledge engine over the store's knowledge base
// (Answerer), and runs the long-lived bot (Bot): it polls the forum,
// decides what to say about each trigger, records every decision in the
// store's action log, and performs approved actions exactly once.
//
// Invariants:
//   - Decide, then act. Polling only records decisions; the runner is the
//     one place that writes to the forum.
//   - A decision and the cursor that passed its trigger commit in one
//     transaction, and decisions are keyed (reply:<topic>:<post>), so no
//     trigger is lost or decided twice across crashes.
//   - Before posting, the runner marks the action as sending and re-reads
//     the live topic; every reply carries its key in an invisible marker,
//     so a crash between posting and recording is repaired by finding the
//     marker instead of posting again.
//   - Shadow mode (the default) posts nothing; the store's pause switch
//     and the configured budgets are checked before every write. The
//     digest is an action like a reply, found by its title when a
//     second attempt may follow a lost response.
//   - Every trigger (new topic, mention, reply to the bot, sweep) passes
//     the same rails (stayOut), and the runner re-checks them on the
//     live topic; a draft the bot wrote is checked inert
//     (knowledge.ReplyProblems) right before it is posted.
//   - Herald never answers itself or another bot: their posts are not
//     triggers, and what it reads of a person's post leaves out the
//     quotes of theirs (posterText).
//   - Answer reads one immutable snapshot of the knowledge base's index
//     and schema; Reload swaps in a new one.
//
// Dependencies point one way: bot uses discourse, knowledge, store and
// bot/action (the action kinds and payloads). Only the assembling layers
// import bot: service (which builds and runs it), bot/evaluate (which
// measures the Answerer) and cmd/herald. The admin page (bot/admin) and
// the review path (bot/review) share bot/action with it instead. It
// talks neither SQL nor HTTP itself.
package bot
