package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

func hashToken(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// MaxPendingLogins bounds the DiscourseConnect logins started and not yet
// finished or expired: anyone can start one (GET /admin/login), so the
// table must not grow with them.
const MaxPendingLogins = 1000

// ErrTooManyLogins is returned by PutNonce when MaxPendingLogins logins
// are pending.
var ErrTooManyLogins = errors.New("store: too many logins in progress; try again in a few minutes")

// PutNonce records a DiscourseConnect nonce (discourse.NonceStore). Expired
// nonces and login tokens are deleted first, and at most MaxPendingLogins
// may be pending.
func (d *DB) PutNonce(ctx context.Context, nonce string, expires time.Time) error {
	now := d.Now().UTC().Format(time.RFC3339Nano)
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: put nonce: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM nonces WHERE expires_at < ?", now); err != nil {
		return fmt.Errorf("store: expire nonces: %w", err)
	}
	var pending int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM nonces WHERE username = ''").Scan(&pending); err != nil {
		return fmt.Errorf("store: count nonces: %w", err)
	}
	if pending >= MaxPendingLogins {
		return ErrTooManyLogins
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO nonces(nonce, expires_at) VALUES(?, ?)", nonce, expires.UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("store: put nonce: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: put nonce: %w", err)
	}
	return nil
}

// PendingNonces counts the logins started and not finished or expired.
func (d *DB) PendingNonces(ctx context.Context) (int, error) {
	var n int
	err := d.db.QueryRowContext(ctx, "SELECT count(*) FROM nonces WHERE username = '' AND expires_at >= ?", d.Now().UTC().Format(time.RFC3339Nano)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("store: count nonces: %w", err)
	}
	return n, nil
}

// TakeNonce consumes a nonce: true if it existed and had not expired.
func (d *DB) TakeNonce(ctx context.Context, nonce string, now time.Time) (bool, error) {
	var exp string
	err := d.db.QueryRowContext(ctx, "DELETE FROM nonces WHERE nonce = ? AND username = '' RETURNING expires_at", nonce).Scan(&exp)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store: take nonce: %w", err)
	}
	t, _ := time.Parse(time.RFC3339Nano, exp)
	return now.Before(t), nil
}

// PutLoginToken records a one-time login link for username; only its
// hash is stored.
func (d *DB) PutLoginToken(ctx context.Context, token, username string, expires time.Time) error {
	_, err := d.db.ExecContext(ctx, "INSERT INTO nonces(nonce, username, expires_at) VALUES(?, ?, ?)",
		hashToken(token), username, expires.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("store: put login token: %w", err)
	}
	return nil
}

// TakeLoginToken consumes a login token and returns its username, or ""
// if it is unknown, used or expired.
func (d *DB) TakeLoginToken(ctx context.Context, token string, now time.Time) (string, error) {
	var user, exp string
	err := d.db.QueryRowContext(ctx, "DELETE FROM nonces WHERE nonce = ? AND username != '' RETURNING username, expires_at",
		hashToken(token)).Scan(&user, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: take login token: %w", err)
	}
	if t, _ := time.Parse(time.RFC3339Nano, exp); !now.Before(t) {
		return "", nil
	}
	return user, nil
}

// Session is a logged-in staff member of the admin page.
type Session struct {
	Username  string
	UserID    string
	Staff     bool
	CSRF      string
	CreatedAt time.Time
	LastSeen  time.Time
	ExpiresAt time.Time
}

// CreateSession stores a session under the hash of its cookie value.
func (d *DB) CreateSession(ctx context.Context, cookie string, s Session) error {
	f := func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
	_, err := d.db.ExecContext(ctx, `INSERT INTO sessions(id, username, user_id, staff, csrf, created_at, last_seen, expires_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?)`, hashToken(cookie), s.Username, s.UserID, s.Staff, s.CSRF, f(s.CreatedAt), f(s.LastSeen), f(s.ExpiresAt))
	if err != nil {
		return fmt.Errorf("store: create session: %w", err)
	}
	return nil
}

// TouchSession returns the session for a cookie if it is alive at now —
// within its absolute expiry and idle for less than idle — and marks it
// seen; expired sessions are deleted.
func (d *DB) TouchSession(ctx context.Context, cookie string, now time.Time, idle time.Duration) (*Session, error) {
	id := hashToken(cookie)
	var s Session
	var created, seen, exp string
	err := d.db.QueryRowContext(ctx, "SELECT username, user_id, staff, csrf, created_at, last_seen, expires_at FROM sessions WHERE id = ?", id).
		Scan(&s.Username, &s.UserID, &s.Staff, &s.CSRF, &created, &seen, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: read session: %w", err)
	}
	s.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	s.LastSeen, _ = time.Parse(time.RFC3339Nano, seen)
	s.ExpiresAt, _ = time.Parse(time.RFC3339Nano, exp)
	if !now.Before(s.ExpiresAt) || now.Sub(s.LastSeen) >= idle {
		_, _ = d.db.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
		return nil, nil
	}
	if _, err := d.db.ExecContext(ctx, "UPDATE sessions SET last_seen = ? WHERE id = ?", now.UTC().Format(time.RFC3339Nano), id); err != nil {
		return nil, fmt.Errorf("store: touch session: %w", err)
	}
	s.LastSeen = now
	return &s, nil
}

// DeleteSession logs a session out.
func (d *DB) DeleteSession(ctx context.Context, cookie string) error {
	if _, err := d.db.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", hashToken(cookie)); err != nil {
		return fmt.Errorf("store: delete session: %w", err)
	}
	return nil
}

// AuditEntry is one staff decision.
type AuditEntry struct {
	ActionID int64
	Actor    string
	Verb     string
	Detail   string
	At       time.Time
}

// Decide applies a staff decision atomically: the state transition (which
// fails with ErrConflict if the action is no longer in one of from), an
// optional new payload, and the audit record.
func (d *DB) Decide(ctx context.Context, id int64, from []string, to, actor, verb, reason string, payload []byte) error {
	now := d.Now().UTC()
	args := []any{to, actor, now.Format(time.RFC3339Nano), reason}
	set := "state = ?, decided_by = ?, decided_at = ?, reason = CASE WHEN ? = '' THEN reason ELSE ? END"
	args = append(args, reason)
	if payload != nil {
		set += ", payload = ?"
		args = append(args, string(payload))
	}
	q := "UPDATE actions SET " + set + " WHERE id = ? AND state IN (?" + repeatComma(len(from)-1) + ")"
	args = append(args, id)
	for _, s := range from {
		args = append(args, s)
	}
	return d.updateAudited(ctx, "decide", id, q, args, AuditEntry{Actor: actor, Verb: verb, Detail: reason, At: now})
}

// Annotate records a staff judgement on an action that stays where it is
// (a reply Herald kept silent on, one it posted): the action's payload
// becomes payload and the audit records who said what, atomically. It
// fails with ErrConflict, changing nothing, when the action is no longer
// in one of states or its payload is no longer old, so that two people
// judging the same post at once cannot lose one judgement unseen.
func (d *DB) Annotate(ctx context.Context, id int64, states []string, old, payload []byte, actor, verb, detail string) error {
	if len(states) == 0 {
		return fmt.Errorf("store: annotate action %d: no states given", id)
	}
	args := []any{string(payload), id, string(old)}
	for _, s := range states {
		args = append(args, s)
	}
	q := "UPDATE actions SET payload = ? WHERE id = ? AND payload = ? AND state IN (?" + repeatComma(len(states)-1) + ")"
	return d.updateAudited(ctx, "annotate", id, q, args, AuditEntry{Actor: actor, Verb: verb, Detail: detail, At: d.Now().UTC()})
}

// updateAudited runs one UPDATE of action id and records its audit entry
// e in the same transaction; an update that matches no row changes
// nothing and is ErrConflict. what names the update in errors.
func (d *DB) updateAudited(ctx context.Context, what string, id int64, q string, args []any, e AuditEntry) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s action %d: begin: %w", what, id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: %s action %d: %w", what, id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: action %d", ErrConflict, id)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO audit(action_id, actor, verb, detail, at) VALUES(?, ?, ?, ?, ?)",
		id, e.Actor, e.Verb, e.Detail, e.At.Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("store: audit action %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s action %d: commit: %w", what, id, err)
	}
	return nil
}

func repeatComma(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		b = append(b, ",?"...)
	}
	return string(b)
}

// Audit returns the audit trail of an action, oldest first.
func (d *DB) Audit(ctx context.Context, actionID int64) ([]AuditEntry, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT action_id, actor, verb, detail, at FROM audit WHERE action_id = ? ORDER BY id", actionID)
	if err != nil {
		return nil, fmt.Errorf("store: read audit: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at string
		if err := rows.Scan(&e.ActionID, &e.Actor, &e.Verb, &e.Detail, &at); err != nil {
			return nil, fmt.Errorf("store: read audit: %w", err)
		}
		e.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, e)
	}
	return out, rows.Err()
}
