package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Outcome is what happened to one bot reply.
type Outcome struct {
	Accepted, Liked, Negative bool
}

// EntryOutcome counts how an entry's citations fared.
type EntryOutcome struct {
	Cited, Accepted, Liked, Negative int
}

// RecordOutcome stores a reply's outcome and moves the counts of the
// entries it cited by the difference from what was recorded before, in one
// transaction, so checking a reply again never double counts.
func (d *DB) RecordOutcome(ctx context.Context, actionID int64, cited []string, o Outcome) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin outcome: %w", err)
	}
	defer tx.Rollback()
	var prev Outcome
	seen := true
	err = tx.QueryRowContext(ctx, "SELECT accepted, liked, negative FROM reply_outcomes WHERE action_id = ?", actionID).
		Scan(&prev.Accepted, &prev.Liked, &prev.Negative)
	if errors.Is(err, sql.ErrNoRows) {
		seen = false
	} else if err != nil {
		return fmt.Errorf("store: read outcome: %w", err)
	}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	dCited := 1 - b(seen)
	dAcc, dLiked, dNeg := b(o.Accepted)-b(prev.Accepted), b(o.Liked)-b(prev.Liked), b(o.Negative)-b(prev.Negative)
	if _, err := tx.ExecContext(ctx, `INSERT INTO reply_outcomes(action_id, accepted, liked, negative, checked_at) VALUES(?, ?, ?, ?, ?)
		ON CONFLICT(action_id) DO UPDATE SET accepted = excluded.accepted, liked = excluded.liked, negative = excluded.negative, checked_at = excluded.checked_at`,
		actionID, o.Accepted, o.Liked, o.Negative, d.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("store: record outcome: %w", err)
	}
	for _, id := range cited {
		if _, err := tx.ExecContext(ctx, `INSERT INTO entry_outcomes(entry_id, cited, accepted, liked, negative) VALUES(?, ?, ?, ?, ?)
			ON CONFLICT(entry_id) DO UPDATE SET cited = cited + excluded.cited, accepted = accepted + excluded.accepted,
			liked = liked + excluded.liked, negative = negative + excluded.negative`, id, dCited, dAcc, dLiked, dNeg); err != nil {
			return fmt.Errorf("store: entry outcome %s: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit outcome: %w", err)
	}
	return nil
}

// EntryOutcomes returns the outcome counts of every entry that has any.
func (d *DB) EntryOutcomes(ctx context.Context) (map[string]EntryOutcome, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT entry_id, cited, accepted, liked, negative FROM entry_outcomes")
	if err != nil {
		return nil, fmt.Errorf("store: read entry outcomes: %w", err)
	}
	defer rows.Close()
	out := map[string]EntryOutcome{}
	for rows.Next() {
		var id string
		var o EntryOutcome
		if err := rows.Scan(&id, &o.Cited, &o.Accepted, &o.Liked, &o.Negative); err != nil {
			return nil, fmt.Errorf("store: read entry outcomes: %w", err)
		}
		out[id] = o
	}
	return out, rows.Err()
}

// ReplyOutcome returns the outcome last recorded for a reply action; ok
// is false when none has been.
func (d *DB) ReplyOutcome(ctx context.Context, actionID int64) (o Outcome, ok bool, err error) {
	err = d.db.QueryRowContext(ctx, "SELECT accepted, liked, negative FROM reply_outcomes WHERE action_id = ?", actionID).
		Scan(&o.Accepted, &o.Liked, &o.Negative)
	if errors.Is(err, sql.ErrNoRows) {
		return Outcome{}, false, nil
	}
	if err != nil {
		return Outcome{}, false, fmt.Errorf("store: read outcome of action %d: %w", actionID, err)
	}
	return o, true, nil
}
