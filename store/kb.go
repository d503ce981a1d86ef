package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/heraldbot/herald/knowledge"
)

// ImportStats counts what an import did.
type ImportStats struct {
	Inserted  int `json:"inserted"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	// Kept counts imported entries not applied because a curated entry
	// with the same id exists (curated knowledge wins over bulk imports);
	// the curated entry keeps the import's text for search
	// (knowledge.Entry.SourceText).
	Kept int `json:"kept_curated"`
}

func (s ImportStats) String() string {
	return fmt.Sprintf("%d inserted, %d updated, %d unchanged, %d kept curated", s.Inserted, s.Updated, s.Unchanged, s.Kept)
}

// importBatch is how many entries one write transaction holds: big enough
// to amortise commits, small enough not to hold the write lock for long.
const importBatch = 500

// UpsertEntries writes entries, replacing those with the same id. It is
// idempotent: re-importing the same entries changes nothing. progress, if
// not nil, is called after each batch with the number done so far.
func (d *DB) UpsertEntries(ctx context.Context, entries []knowledge.Entry, progress func(done, total int)) (ImportStats, error) {
	var st ImportStats
	for start := 0; start < len(entries); start += importBatch {
		end := min(start+importBatch, len(entries))
		if err := d.upsertBatch(ctx, entries[start:end], &st); err != nil {
			return st, err
		}
		if progress != nil {
			progress(end, len(entries))
		}
	}
	return st, nil
}

func (d *DB) upsertBatch(ctx context.Context, entries []knowledge.Entry, st *ImportStats) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin import: %w", err)
	}
	defer tx.Rollback()
	now := d.Now().UTC()
	for _, e := range entries {
		// A copy: the caller's entries are not written to.
		if err := upsertEntry(ctx, tx, &e, now, st); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit import: %w", err)
	}
	return nil
}

func upsertEntry(ctx context.Context, tx *sql.Tx, e *knowledge.Entry, now time.Time, st *ImportStats) error {
	if e.ID == "" {
		return errors.New("store: entry without id")
	}
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = now
	}
	rowid, oldHash, old, err := lookupEntry(ctx, tx, "id", e.ID)
	if errors.Is(err, sql.ErrNoRows) {
		if !e.Curated() {
			// An import at another address of a curated entry is that
			// entry's source.
			owner, err := aliasOwner(ctx, tx, e)
			if err != nil {
				return err
			}
			if owner != "" {
				rowid, _, cur, err := lookupEntry(ctx, tx, "id", owner)
				if err != nil {
					return fmt.Errorf("store: look up entry %s, which %s is an alias of: %w", owner, e.ID, err)
				}
				return keepSource(ctx, tx, rowid, cur, e, st)
			}
		}
		if err := absorbAliases(ctx, tx, e); err != nil {
			return err
		}
		return insertEntry(ctx, tx, e, st)
	}
	if err != nil {
		return err
	}
	if old.Curated() && !e.Curated() {
		return keepSource(ctx, tx, rowid, old, e, st)
	}
	if e.Curated() && e.SourceText == "" {
		// A curated entry replacing an import, or its own older copy,
		// keeps the text its source was last imported with.
		e.SourceText = old.SourceText
		if !old.Curated() {
			e.SourceText = old.Body
		}
	}
	if err := absorbAliases(ctx, tx, e); err != nil {
		return err
	}
	hash, err := entryHash(e)
	if err != nil {
		return err
	}
	if hash == oldHash {
		st.Unchanged++
		return nil
	}
	return updateEntry(ctx, tx, rowid, e, st)
}

// lookupEntry reads the entry whose column col (id) is v.
func lookupEntry(ctx context.Context, tx *sql.Tx, col, v string) (rowid int64, hash string, e *knowledge.Entry, err error) {
	var data string
	err = tx.QueryRowContext(ctx, "SELECT rowid, hash, data FROM kb_entries WHERE "+col+" = ?", v).Scan(&rowid, &hash, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil, err
	}
	if err != nil {
		return 0, "", nil, fmt.Errorf("store: look up entry %s: %w", v, err)
	}
	if e, err = decodeEntry(data); err != nil {
		return 0, "", nil, fmt.Errorf("%w (%s)", err, v)
	}
	return rowid, hash, e, nil
}

// aliasOwner returns the curated entry whose alias e's id or URL is, or
// "" when there is none.
func aliasOwner(ctx context.Context, tx *sql.Tx, e *knowledge.Entry) (string, error) {
	var owner string
	err := tx.QueryRowContext(ctx, "SELECT entry_id FROM kb_aliases WHERE alias IN (?, ?)", e.ID, e.URL).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: look up aliases of %s: %w", e.ID, err)
	}
	return owner, nil
}

// keepSource applies an import that meets curated entry cur (stored at
// rowid): curated knowledge wins over bulk imports, and the source's own
// words are kept beside it for search.
func keepSource(ctx context.Context, tx *sql.Tx, rowid int64, cur, imported *knowledge.Entry, st *ImportStats) error {
	st.Kept++
	if cur.SourceText == imported.Body {
		return nil
	}
	cur.SourceText = imported.Body
	return updateEntry(ctx, tx, rowid, cur, nil)
}

// absorbAliases records curated entry e's aliases, and removes the
// imports stored at them, keeping the first one's text as e's source
// text when e has none.
func absorbAliases(ctx context.Context, tx *sql.Tx, e *knowledge.Entry) error {
	if !e.Curated() {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM kb_aliases WHERE entry_id = ?", e.ID); err != nil {
		return fmt.Errorf("store: aliases of %s: %w", e.ID, err)
	}
	for _, a := range e.Aliases {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO kb_aliases(alias, entry_id) VALUES(?, ?)", a, e.ID); err != nil {
			return fmt.Errorf("store: aliases of %s: %w", e.ID, err)
		}
		for _, col := range []string{"id", "url"} {
			rowid, _, imported, err := lookupEntry(ctx, tx, col, a)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			if imported.Curated() {
				return fmt.Errorf("store: %s names %s as an alias, which is a curated entry of its own", e.ID, a)
			}
			if e.SourceText == "" {
				e.SourceText = imported.Body
			}
			if err := deleteRow(ctx, tx, rowid); err != nil {
				return fmt.Errorf("store: replace %s by %s: %w", imported.ID, e.ID, err)
			}
		}
	}
	return nil
}

func deleteRow(ctx context.Context, tx *sql.Tx, rowid int64) error {
	if err := unindexEntry(ctx, tx, rowid); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM kb_entries WHERE rowid = ?", rowid)
	return err
}

// unindexEntry removes a row from the full-text index.
func unindexEntry(ctx context.Context, tx *sql.Tx, rowid int64) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM kb_fts WHERE rowid = ?", rowid)
	return err
}

// entryHash is what tells a changed entry from an unchanged one: the hash
// of its JSON without the time it was written.
func entryHash(e *knowledge.Entry) (string, error) {
	hashed := *e
	hashed.UpdatedAt = time.Time{}
	data, err := json.Marshal(hashed)
	if err != nil {
		return "", fmt.Errorf("store: encode entry %s: %w", e.ID, err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16]), nil
}

// encodeEntry returns an entry's stored JSON and its hash.
func encodeEntry(e *knowledge.Entry) (data, hash string, err error) {
	if hash, err = entryHash(e); err != nil {
		return "", "", err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return "", "", fmt.Errorf("store: encode entry %s: %w", e.ID, err)
	}
	return string(b), hash, nil
}

func insertEntry(ctx context.Context, tx *sql.Tx, e *knowledge.Entry, st *ImportStats) error {
	data, hash, err := encodeEntry(e)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO kb_entries(id, kind, url, title, state, source, curated, prior, data, hash, updated_at)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.Kind, e.URL, e.Title, e.State, e.Source, e.Curated(), e.Prior, data, hash, e.UpdatedAt.UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("store: insert entry %s: %w", e.ID, err)
	}
	rowid, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("store: insert entry %s: %w", e.ID, err)
	}
	st.Inserted++
	return indexEntry(ctx, tx, rowid, e)
}

// updateEntry rewrites the row and its full-text index; st, if not nil,
// counts it as updated.
func updateEntry(ctx context.Context, tx *sql.Tx, rowid int64, e *knowledge.Entry, st *ImportStats) error {
	data, hash, err := encodeEntry(e)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE kb_entries SET kind=?, url=?, title=?, state=?, source=?, curated=?, prior=?, data=?, hash=?, updated_at=? WHERE rowid=?`,
		e.Kind, e.URL, e.Title, e.State, e.Source, e.Curated(), e.Prior, data, hash, e.UpdatedAt.UTC().Format(time.RFC3339), rowid); err != nil {
		return fmt.Errorf("store: update entry %s: %w", e.ID, err)
	}
	if err := unindexEntry(ctx, tx, rowid); err != nil {
		return fmt.Errorf("store: reindex entry %s: %w", e.ID, err)
	}
	if st != nil {
		st.Updated++
	}
	return indexEntry(ctx, tx, rowid, e)
}

func indexEntry(ctx context.Context, tx *sql.Tx, rowid int64, e *knowledge.Entry) error {
	title, symptoms, flags, models, body := e.SearchText()
	if _, err := tx.ExecContext(ctx, "INSERT INTO kb_fts(rowid, title, symptoms, flags, models, body) VALUES(?, ?, ?, ?, ?, ?)",
		rowid, title, symptoms, flags, models, body); err != nil {
		return fmt.Errorf("store: index entry %s: %w", e.ID, err)
	}
	return nil
}

// SaveSchema records the program schemas and topic rules of a pack.
func (d *DB) SaveSchema(ctx context.Context, pack string, schema *knowledge.Schema) error {
	data, err := json.Marshal(schema)
	if err != nil {
		return fmt.Errorf("store: encode schema %s: %w", pack, err)
	}
	_, err = d.db.ExecContext(ctx, `INSERT INTO kb_schemas(pack, data, updated_at) VALUES(?, ?, ?)
		ON CONFLICT(pack) DO UPDATE SET data=excluded.data, updated_at=excluded.updated_at`,
		pack, string(data), d.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("store: save schema %s: %w", pack, err)
	}
	return nil
}

// PackSchema returns the schema stored for one pack, or ErrNotFound.
func (d *DB) PackSchema(ctx context.Context, pack string) (*knowledge.Schema, error) {
	var data string
	err := d.db.QueryRowContext(ctx, "SELECT data FROM kb_schemas WHERE pack = ?", pack).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: read schema %s: %w", pack, err)
	}
	var s knowledge.Schema
	if err := json.Unmarshal([]byte(data), &s); err != nil {
		return nil, fmt.Errorf("store: decode schema %s: %w", pack, err)
	}
	return &s, nil
}

// Schema merges the program schemas of every imported pack.
func (d *DB) Schema(ctx context.Context) (*knowledge.Schema, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT pack, data FROM kb_schemas ORDER BY pack")
	if err != nil {
		return nil, fmt.Errorf("store: read schemas: %w", err)
	}
	defer rows.Close()
	var schemas []*knowledge.Schema
	for rows.Next() {
		var name, data string
		if err := rows.Scan(&name, &data); err != nil {
			return nil, fmt.Errorf("store: read schemas: %w", err)
		}
		var s knowledge.Schema
		if err := json.Unmarshal([]byte(data), &s); err != nil {
			return nil, fmt.Errorf("store: decode schema %s: %w", name, err)
		}
		schemas = append(schemas, &s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read schemas: %w", err)
	}
	return knowledge.CombineSchemas(schemas...), nil
}

// Entry returns one entry by id, or ErrNotFound.
func (d *DB) Entry(ctx context.Context, id string) (*knowledge.Entry, error) {
	var data string
	err := d.db.QueryRowContext(ctx, "SELECT data FROM kb_entries WHERE id = ?", id).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: entry %q", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: read entry %s: %w", id, err)
	}
	return decodeEntry(data)
}

// EntryIDByURL returns the id of the entry published at url (compared
// without a trailing slash), or one of the addresses a curated entry
// names as its own (kb_aliases); "" when none is.
func (d *DB) EntryIDByURL(ctx context.Context, url string) (string, error) {
	bare := strings.TrimRight(url, "/")
	var id string
	err := d.db.QueryRowContext(ctx, `SELECT id FROM kb_entries WHERE url IN (?, ?)
		UNION ALL SELECT entry_id FROM kb_aliases WHERE alias IN (?, ?) LIMIT 1`, bare, bare+"/", bare, bare+"/").Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: entry at %s: %w", url, err)
	}
	return id, nil
}

func decodeEntry(data string) (*knowledge.Entry, error) {
	var e knowledge.Entry
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		return nil, fmt.Errorf("store: decode entry: %w", err)
	}
	return &e, nil
}

// EntryFilter selects entries for ListEntries.
type EntryFilter struct {
	Kind   string
	Source string // exact, or a prefix ending in ':' such as "pack:"
	Offset int
	Limit  int // 0 means 50
}

// ListEntries returns entries ordered by id.
func (d *DB) ListEntries(ctx context.Context, f EntryFilter) ([]knowledge.Entry, error) {
	var where []string
	var args []any
	if f.Kind != "" {
		where = append(where, "kind = ?")
		args = append(args, f.Kind)
	}
	if f.Source != "" {
		if strings.HasSuffix(f.Source, ":") {
			where = append(where, "source LIKE ? ESCAPE '\\'")
			args = append(args, strings.NewReplacer("%", `\%`, "_", `\_`).Replace(f.Source)+"%")
		} else {
			where = append(where, "source = ?")
			args = append(args, f.Source)
		}
	}
	q := "SELECT data FROM kb_entries"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q += " ORDER BY id LIMIT ? OFFSET ?"
	args = append(args, limit, f.Offset)
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list entries: %w", err)
	}
	defer rows.Close()
	var out []knowledge.Entry
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("store: list entries: %w", err)
		}
		e, err := decodeEntry(data)
		if err != nil {
			return nil, err
		}
		out = append(out, *e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list entries: %w", err)
	}
	return out, nil
}

// KBStats summarises the knowledge base.
type KBStats struct {
	Total    int            `json:"total"`
	ByKind   map[string]int `json:"by_kind"`
	BySource map[string]int `json:"by_source"`
	Packs    []string       `json:"packs"`
}

// Stats counts entries by kind and source.
func (d *DB) Stats(ctx context.Context) (KBStats, error) {
	var st KBStats
	var err error
	if st.ByKind, err = d.countBy(ctx, "SELECT kind, count(*) FROM kb_entries GROUP BY kind"); err != nil {
		return st, fmt.Errorf("store: stats: %w", err)
	}
	if st.BySource, err = d.countBy(ctx, "SELECT source, count(*) FROM kb_entries GROUP BY source"); err != nil {
		return st, fmt.Errorf("store: stats: %w", err)
	}
	for _, n := range st.ByKind {
		st.Total += n
	}
	rows, err := d.db.QueryContext(ctx, "SELECT pack FROM kb_schemas ORDER BY pack")
	if err != nil {
		return st, fmt.Errorf("store: stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return st, fmt.Errorf("store: stats: %w", err)
		}
		st.Packs = append(st.Packs, p)
	}
	return st, rows.Err()
}

// EachEntry calls fn for every entry with its row id, in row-id order,
// streaming so that memory stays flat in the size of the knowledge base.
func (d *DB) EachEntry(ctx context.Context, fn func(rowid int64, e *knowledge.Entry) error) error {
	rows, err := d.db.QueryContext(ctx, "SELECT rowid, data FROM kb_entries ORDER BY rowid")
	if err != nil {
		return fmt.Errorf("store: scan entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var data string
		if err := rows.Scan(&id, &data); err != nil {
			return fmt.Errorf("store: scan entries: %w", err)
		}
		e, err := decodeEntry(data)
		if err != nil {
			return err
		}
		if err := fn(id, e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: scan entries: %w", err)
	}
	return nil
}

// EntriesByRowID returns the entries with the given row ids, without
// their Body (free text for search, which ranking and replies do not
// read: leaving it in SQLite saves most of the decoding); ids that no
// longer exist are absent from the map.
func (d *DB) EntriesByRowID(ctx context.Context, ids []int64) (map[int64]knowledge.Entry, error) {
	out := make(map[int64]knowledge.Entry, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q := "SELECT rowid, json_remove(data, '$.body', '$.source_text') FROM kb_entries WHERE rowid IN (?" + strings.Repeat(",?", len(ids)-1) + ")"
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := d.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: read entries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var data string
		if err := rows.Scan(&id, &data); err != nil {
			return nil, fmt.Errorf("store: read entries: %w", err)
		}
		e, err := decodeEntry(data)
		if err != nil {
			return nil, err
		}
		out[id] = *e
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: read entries: %w", err)
	}
	return out, nil
}

// OlderReadings counts, by source, the entries of the given sources whose
// stored reading (knowledge.Entry.Reading) is below reading: entries an
// older Herald read from their source, which re-importing refreshes.
func (d *DB) OlderReadings(ctx context.Context, sources []string, reading int) (map[string]int, error) {
	if len(sources) == 0 {
		return map[string]int{}, nil
	}
	args := []any{reading}
	for _, s := range sources {
		args = append(args, s)
	}
	out, err := d.countBy(ctx, `SELECT source, count(*) FROM kb_entries
		WHERE coalesce(json_extract(data, '$.reading'), 0) < ? AND source IN (?`+strings.Repeat(",?", len(sources)-1)+`)
		GROUP BY source`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: older readings: %w", err)
	}
	return out, nil
}

// countBy runs a query of (key, count) rows into a map.
func (d *DB) countBy(ctx context.Context, query string, args ...any) (map[string]int, error) {
	rows, err := d.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}
