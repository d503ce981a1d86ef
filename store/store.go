package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open Herald database. It is safe for concurrent use.
type DB struct {
	db   *sql.DB
	path string
	// Now returns the current time; tests replace it.
	Now func() time.Time
}

// ErrNotFound is returned when a requested row does not exist.
var ErrNotFound = errors.New("store: not found")

// Open opens (creating if needed) the database at path and brings its
// schema up to date. Connections use WAL, a busy timeout, foreign keys and
// immediate write transactions, so concurrent writers queue rather than
// fail with SQLITE_BUSY on lock upgrade.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" {
		return nil, errors.New("store: empty database path")
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: create directory: %w", err)
		}
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_foreign_keys", "on")
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	dsn := "file:" + path + "?" + q.Encode()
	sqldb, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	d := &DB{db: sqldb, path: path, Now: time.Now}
	if err := d.init(ctx); err != nil {
		sqldb.Close()
		return nil, err
	}
	return d, nil
}

func (d *DB) init(ctx context.Context) error {
	var mode string
	if err := d.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return fmt.Errorf("store: read journal mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("store: journal mode is %q, want wal", mode)
	}
	if _, err := d.db.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts5_probe USING fts5(x)"); err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) || strings.Contains(err.Error(), "fts5") {
			return fmt.Errorf("store: SQLite lacks FTS5; build with -tags sqlite_fts5 (make does): %w", err)
		}
		return fmt.Errorf("store: probe fts5: %w", err)
	}
	return d.migrate(ctx)
}

func (d *DB) migrate(ctx context.Context) error {
	if _, err := d.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("store: create schema_migrations: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("store: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := d.migrateOne(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (d *DB) migrateOne(ctx context.Context, name string) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE name = ?", name).Scan(&n); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if n > 0 {
		return nil
	}
	body, err := migrations.ReadFile(name)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations(name, applied_at) VALUES(?, ?)",
		name, d.Now().UTC().Format(time.RFC3339)); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	return nil
}

// Path returns the database file's path.
func (d *DB) Path() string { return d.path }

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }
