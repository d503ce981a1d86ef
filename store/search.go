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

// SearchKB returns up to limit entries that match any of terms, best BM25
// first. Each term is searched as a phrase, so "cpu offload gb" matches the
// flag --cpu-offload-gb and not three unrelated words.
func (d *DB) SearchKB(ctx context.Context, terms []string, limit int) ([]knowledge.Candidate, error) {
	var phrases []string
	for _, t := range terms {
		if p := ftsPhrase(t); p != "" {
			phrases = append(phrases, p)
		}
	}
	if len(phrases) == 0 {
		return nil, nil
	}
	q := strings.Join(phrases, " OR ")
	// Curated entries are few and precise; search them on their own too so
	// that thousands of noisy imported issues cannot crowd them out.
	curated, err := d.match(ctx, q, limit, true)
	if err != nil {
		return nil, err
	}
	all, err := d.match(ctx, q, limit, false)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(curated))
	for _, c := range curated {
		seen[c.Entry.ID] = true
	}
	for _, c := range all {
		if !seen[c.Entry.ID] {
			curated = append(curated, c)
		}
	}
	return curated, nil
}

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
	return d.match(ctx, strings.Join(phrases, " OR "), limit, false)
}

var ftsWordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

// ftsPhrase turns a term into a quoted FTS5 phrase of its words; quotes
// and operators in the input cannot escape it.
func ftsPhrase(t string) string {
	words := ftsWordRE.FindAllString(strings.ToLower(t), 8)
	if len(words) == 0 {
		return ""
	}
	return `"` + strings.Join(words, " ") + `"`
}

func (d *DB) match(ctx context.Context, query string, limit int, curatedOnly bool) ([]knowledge.Candidate, error) {
	if limit <= 0 {
		limit = 50
	}
	filter := ""
	if curatedOnly {
		filter = " AND e.curated = 1"
	}
	rows, err := d.db.QueryContext(ctx, `SELECT e.data, -bm25(kb_fts, `+bm25Weights+`) AS score
		FROM kb_fts JOIN kb_entries e ON e.rowid = kb_fts.rowid
		WHERE kb_fts MATCH ?`+filter+` ORDER BY bm25(kb_fts, `+bm25Weights+`) LIMIT ?`, query, limit)
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
