package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/heraldbot/herald/knowledge"
)

// bm25Weights weigh the kb_fts columns: title, symptoms, flags, models, body.
const bm25Weights = "4.0, 3.0, 2.0, 1.5, 1.0"

// SearchText is the plain baseline: the text's words, OR-ed, ranked by
// BM25 with the same column weights, without any extraction.
func (d *DB) SearchText(ctx context.Context, text string, limit int) ([]knowledge.Candidate, error) {
	seen := map[string]bool{}
	var phrases []string
	for _, w := range ftsWordRE.FindAllString(strings.ToLower(text), -1) {
		if len(w) < 2 || seen[w] || len(phrases) >= 200 {
			continue
		}
		seen[w] = true
		phrases = append(phrases, `"`+w+`"`)
	}
	if len(phrases) == 0 {
		return nil, nil
	}
	return d.match(ctx, strings.Join(phrases, " OR "), limit)
}

var ftsWordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

func (d *DB) match(ctx context.Context, query string, limit int) ([]knowledge.Candidate, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := d.db.QueryContext(ctx, `SELECT e.data, -bm25(kb_fts, `+bm25Weights+`) AS score
		FROM kb_fts JOIN kb_entries e ON e.rowid = kb_fts.rowid
		WHERE kb_fts MATCH ? ORDER BY bm25(kb_fts, `+bm25Weights+`) LIMIT ?`, query, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	defer rows.Close()
	var out []knowledge.Candidate
	for rows.Next() {
		var data string
		var score float64
		if err := rows.Scan(&data, &score); err != nil {
			return nil, fmt.Errorf("store: search: %w", err)
		}
		e, err := decodeEntry(data)
		if err != nil {
			return nil, err
		}
		out = append(out, knowledge.Candidate{Entry: *e, TextScore: score})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	return out, nil
}
