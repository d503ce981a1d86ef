package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Action states. The runner performs only approved actions; pending ones
// wait for staff; the rest are final.
const (
	StatePending  = "pending"  // waits for staff approval
	StateApproved = "approved" // will be performed by the runner
	StateSending  = "sending"  // the runner has started it (maybe posted)
	StateDone     = "done"     // performed; Result holds the post id
	StateRejected = "rejected" // staff said no
	StateSkipped  = "skipped"  // the runner found it no longer applies
	StateFailed   = "failed"   // the forum refused it for good
	StateShadow   = "shadow"   // shadow mode: logged, never performed
	StateDropped  = "dropped"  // below the confidence floor, or filtered
)

// Action is one entry of the action log.
type Action struct {
	ID         int64
	Kind       string // "reply"
	Key        string // idempotency key, e.g. "reply:12:34"
	TopicID    int
	PostID     int
	Payload    json.RawMessage
	Confidence float64
	State      string
	Mode       string
	Reason     string
	DecidedBy  string
	DecidedAt  time.Time
	Attempts   int
	Result     string
	Error      string
	CreatedAt  time.Time
	DoneAt     time.Time
}

// ErrConflict is returned when an action is not in the state a change
// requires (approving a rejected draft, or two staff approving at once).
var ErrConflict = errors.New("store: action changed meanwhile")

// Cursor returns a named cursor and whether it was ever set.
func (d *DB) Cursor(ctx context.Context, name string) (int64, bool, error) {
	var v int64
	err := d.db.QueryRowContext(ctx, "SELECT value FROM cursors WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("store: read cursor %s: %w", name, err)
	}
	return v, true, nil
}

// CursorUpdate moves a cursor forward (never back).
type CursorUpdate struct {
	Name  string
	Value int64
}

// Record inserts actions and advances cursors in one transaction, so a
// crash leaves either both or neither. Actions whose key is already
// logged are left as they are (idempotency). It returns how many were new.
func (d *DB) Record(ctx context.Context, actions []Action, cursors ...CursorUpdate) (int, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: begin record: %w", err)
	}
	defer tx.Rollback()
	now := d.Now().UTC().Format(time.RFC3339Nano)
	n := 0
	for _, a := range actions {
		res, err := tx.ExecContext(ctx, `INSERT INTO actions(kind, key, topic_id, post_id, payload, confidence, state, mode, reason, created_at)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING`,
			a.Kind, a.Key, a.TopicID, a.PostID, string(a.Payload), a.Confidence, a.State, a.Mode, a.Reason, now)
		if err != nil {
			return 0, fmt.Errorf("store: record action %s: %w", a.Key, err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	for _, c := range cursors {
		if _, err := tx.ExecContext(ctx, `INSERT INTO cursors(name, value, updated_at) VALUES(?, ?, ?)
			ON CONFLICT(name) DO UPDATE SET value = max(value, excluded.value), updated_at = excluded.updated_at`,
			c.Name, c.Value, now); err != nil {
			return 0, fmt.Errorf("store: advance cursor %s: %w", c.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: commit record: %w", err)
	}
	return n, nil
}

const actionCols = `id, kind, key, topic_id, post_id, payload, confidence, state, mode, reason, decided_by,
	coalesce(decided_at, ''), attempts, result, error, created_at, coalesce(done_at, '')`

func scanAction(sc interface{ Scan(...any) error }) (Action, error) {
	var a Action
	var payload, decided, created, done string
	err := sc.Scan(&a.ID, &a.Kind, &a.Key, &a.TopicID, &a.PostID, &payload, &a.Confidence, &a.State, &a.Mode,
		&a.Reason, &a.DecidedBy, &decided, &a.Attempts, &a.Result, &a.Error, &created, &done)
	if err != nil {
		return a, err
	}
	a.Payload = json.RawMessage(payload)
	a.DecidedAt, _ = time.Parse(time.RFC3339Nano, decided)
	a.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	a.DoneAt, _ = time.Parse(time.RFC3339Nano, done)
	return a, nil
}

// Action returns one action by id, or ErrNotFound.
func (d *DB) Action(ctx context.Context, id int64) (*Action, error) {
	a, err := scanAction(d.db.QueryRowContext(ctx, "SELECT "+actionCols+" FROM actions WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: action %d", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: read action %d: %w", id, err)
	}
	return &a, nil
}

// ActionFilter selects actions for ListActions.
type ActionFilter struct {
	States  []string
	Kind    string
	TopicID int
	// CategoryID filters on the payload's category_id.
	CategoryID    int
	MinConfidence float64
	Since         time.Time
	// BeforeID pages backwards: only actions with id < BeforeID.
	BeforeID int64
	// Oldest lists oldest first (the runner); default newest first.
	Oldest bool
	Limit  int
}

// ListActions returns actions matching f.
func (d *DB) ListActions(ctx context.Context, f ActionFilter) ([]Action, error) {
	var where []string
	var args []any
	if len(f.States) > 0 {
		where = append(where, "state IN (?"+strings.Repeat(",?", len(f.States)-1)+")")
		for _, s := range f.States {
			args = append(args, s)
		}
	}
	if f.TopicID > 0 {
		where = append(where, "topic_id = ?")
		args = append(args, f.TopicID)
	}
	if f.Kind != "" {
		where = append(where, "kind = ?")
		args = append(args, f.Kind)
	}
	if f.CategoryID > 0 {
		where = append(where, "json_extract(payload, '$.category_id') = ?")
		args = append(args, f.CategoryID)
	}
	if f.MinConfidence > 0 {
		where = append(where, "confidence >= ?")
		args = append(args, f.MinConfidence)
	}
	if !f.Since.IsZero() {
		where = append(where, "created_at >= ?")
		args = append(args, f.Since.UTC().Format(time.RFC3339Nano))
	}
	if f.BeforeID > 0 {
		where = append(where, "id < ?")
		args = append(args, f.BeforeID)
	}
	q := "SELECT " + actionCols + " FROM actions"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Oldest {
		q += " ORDER BY id ASC"
	} else {
		q += " ORDER BY id DESC"
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q += " LIMIT ?"
	args = append(args, limit)
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list actions: %w", err)
	}
	defer rows.Close()
	var out []Action
	for rows.Next() {
		a, err := scanAction(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list actions: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CountActions counts actions by state.
func (d *DB) CountActions(ctx context.Context) (map[string]int, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT state, count(*) FROM actions GROUP BY state")
	if err != nil {
		return nil, fmt.Errorf("store: count actions: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, fmt.Errorf("store: count actions: %w", err)
		}
		out[s] = n
	}
	return out, rows.Err()
}

// Transition moves an action from one of the states in from to state to,
// recording who decided and why; ErrConflict if it was in another state
// (so two staff approving at once yield one approval).
func (d *DB) Transition(ctx context.Context, id int64, from []string, to, by, reason string) error {
	now := d.Now().UTC().Format(time.RFC3339Nano)
	q := `UPDATE actions SET state = ?, decided_by = CASE WHEN ? = '' THEN decided_by ELSE ? END,
		decided_at = CASE WHEN ? = '' THEN decided_at ELSE ? END, reason = CASE WHEN ? = '' THEN reason ELSE ? END
		WHERE id = ? AND state IN (?` + strings.Repeat(",?", len(from)-1) + ")"
	args := []any{to, by, by, by, now, reason, reason, id}
	for _, s := range from {
		args = append(args, s)
	}
	res, err := d.db.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: transition action %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: action %d is not %s", ErrConflict, id, strings.Join(from, "/"))
	}
	return nil
}

// UpdatePayload replaces a pending action's payload (staff edits).
func (d *DB) UpdatePayload(ctx context.Context, id int64, payload json.RawMessage) error {
	res, err := d.db.ExecContext(ctx, "UPDATE actions SET payload = ? WHERE id = ? AND state = ?", string(payload), id, StatePending)
	if err != nil {
		return fmt.Errorf("store: update action %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: action %d is not pending", ErrConflict, id)
	}
	return nil
}

// StartAction marks an approved (or interrupted) action as being sent and
// counts the attempt. It must commit before the forum is written to, so
// that after a crash the runner knows to look for its own post first.
func (d *DB) StartAction(ctx context.Context, id int64) (attempts int, err error) {
	err = d.db.QueryRowContext(ctx, `UPDATE actions SET state = ?, attempts = attempts + 1
		WHERE id = ? AND state IN (?, ?) RETURNING attempts`, StateSending, id, StateApproved, StateSending).Scan(&attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w: action %d is not approved", ErrConflict, id)
	}
	if err != nil {
		return 0, fmt.Errorf("store: start action %d: %w", id, err)
	}
	return attempts, nil
}

// FinishAction records an action's outcome: done with a result, or a
// final state (skipped, failed) with the reason.
func (d *DB) FinishAction(ctx context.Context, id int64, state, result, errText string) error {
	now := d.Now().UTC().Format(time.RFC3339Nano)
	_, err := d.db.ExecContext(ctx, `UPDATE actions SET state = ?, result = ?, error = ?, done_at = ? WHERE id = ?`,
		state, result, errText, now, id)
	if err != nil {
		return fmt.Errorf("store: finish action %d: %w", id, err)
	}
	return nil
}

// RetryLater puts a sending action back to approved with the error kept.
func (d *DB) RetryLater(ctx context.Context, id int64, errText string) error {
	_, err := d.db.ExecContext(ctx, `UPDATE actions SET state = ?, error = ? WHERE id = ? AND state = ?`,
		StateApproved, errText, id, StateSending)
	if err != nil {
		return fmt.Errorf("store: requeue action %d: %w", id, err)
	}
	return nil
}

// DoneSince counts actions of kind performed since t, overall and in one
// topic (topicID 0 counts none).
func (d *DB) DoneSince(ctx context.Context, kind string, since time.Time, topicID int) (total, inTopic int, err error) {
	s := since.UTC().Format(time.RFC3339Nano)
	err = d.db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(topic_id = ?), 0) FROM actions
		WHERE kind = ? AND state = ? AND done_at >= ?`, topicID, kind, StateDone, s).Scan(&total, &inTopic)
	if err != nil {
		return 0, 0, fmt.Errorf("store: count done actions: %w", err)
	}
	return total, inTopic, nil
}

// SetSetting stores a run-time switch.
func (d *DB) SetSetting(ctx context.Context, name, value string) error {
	_, err := d.db.ExecContext(ctx, `INSERT INTO settings(name, value) VALUES(?, ?)
		ON CONFLICT(name) DO UPDATE SET value = excluded.value`, name, value)
	if err != nil {
		return fmt.Errorf("store: set %s: %w", name, err)
	}
	return nil
}

// Setting reads a run-time switch ("" if unset).
func (d *DB) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := d.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: read %s: %w", name, err)
	}
	return v, nil
}

// ActionByKey returns the action with an idempotency key, or nil.
func (d *DB) ActionByKey(ctx context.Context, key string) (*Action, error) {
	a, err := scanAction(d.db.QueryRowContext(ctx, "SELECT "+actionCols+" FROM actions WHERE key = ?", key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: read action %s: %w", key, err)
	}
	return &a, nil
}

// TryLock takes a named lock for owner until ttl passes; it fails if
// another owner holds it unexpired. Sweeps use it so that two runs (two
// processes, or a cron tick during a manual run) never overlap.
func (d *DB) TryLock(ctx context.Context, name, owner string, ttl time.Duration) (bool, error) {
	now := d.Now().UTC()
	value := owner + "|" + now.Add(ttl).Format(time.RFC3339Nano)
	res, err := d.db.ExecContext(ctx, `INSERT INTO settings(name, value) VALUES(?, ?)
		ON CONFLICT(name) DO UPDATE SET value = excluded.value
		WHERE substr(settings.value, instr(settings.value, '|') + 1) < ? OR substr(settings.value, 1, instr(settings.value, '|') - 1) = ?`,
		"lock:"+name, value, now.Format(time.RFC3339Nano), owner)
	if err != nil {
		return false, fmt.Errorf("store: lock %s: %w", name, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// Unlock releases a lock held by owner.
func (d *DB) Unlock(ctx context.Context, name, owner string) error {
	_, err := d.db.ExecContext(ctx, `DELETE FROM settings WHERE name = ? AND substr(value, 1, instr(value, '|') - 1) = ?`, "lock:"+name, owner)
	if err != nil {
		return fmt.Errorf("store: unlock %s: %w", name, err)
	}
	return nil
}

// ReplyCount selects reply actions to count: by the payload's asker and
// trigger, created since Since, in one of States.
type ReplyCount struct {
	Asker    string
	Triggers []string
	States   []string
	Since    time.Time
}

// CountReplies counts the reply actions q selects.
func (d *DB) CountReplies(ctx context.Context, q ReplyCount) (int, error) {
	where := []string{"kind = 'reply'", "created_at >= ?", "json_extract(payload, '$.asker') = ? COLLATE NOCASE"}
	args := []any{q.Since.UTC().Format(time.RFC3339Nano), q.Asker}
	if len(q.Triggers) > 0 {
		where = append(where, "json_extract(payload, '$.trigger') IN (?"+strings.Repeat(",?", len(q.Triggers)-1)+")")
		for _, t := range q.Triggers {
			args = append(args, t)
		}
	}
	if len(q.States) > 0 {
		where = append(where, "state IN (?"+strings.Repeat(",?", len(q.States)-1)+")")
		for _, s := range q.States {
			args = append(args, s)
		}
	}
	var n int
	if err := d.db.QueryRowContext(ctx, "SELECT count(*) FROM actions WHERE "+strings.Join(where, " AND "), args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count replies: %w", err)
	}
	return n, nil
}
