CREATE TABLE kb_entries (
	rowid      INTEGER PRIMARY KEY,
	id         TEXT NOT NULL UNIQUE,
	kind       TEXT NOT NULL,
	url        TEXT NOT NULL,
	title      TEXT NOT NULL,
	state      TEXT NOT NULL DEFAULT '',
	source     TEXT NOT NULL,
	curated    INTEGER NOT NULL DEFAULT 0,
	prior      REAL NOT NULL DEFAULT 1,
	data       TEXT NOT NULL,
	hash       TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
CREATE INDEX kb_entries_source ON kb_entries(source);

-- Column order matters: store.bm25Weights gives each its weight.
CREATE VIRTUAL TABLE kb_fts USING fts5(
	title, symptoms, flags, models, body,
	tokenize = 'porter unicode61'
);

-- The program schemas of imported packs (which flags are boolean, ...).
CREATE TABLE kb_schemas (
	pack       TEXT PRIMARY KEY,
	data       TEXT NOT NULL,
	updated_at TEXT NOT NULL
);
