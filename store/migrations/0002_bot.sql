-- Durable cursors: the last post / notification the bot has handled.
CREATE TABLE cursors (
	name       TEXT PRIMARY KEY,
	value      INTEGER NOT NULL,
	updated_at TEXT NOT NULL
);

-- The action log: every decision the bot makes, keyed for idempotency.
-- It doubles as the approval queue (state 'pending') and the audit trail.
CREATE TABLE actions (
	id          INTEGER PRIMARY KEY,
	kind        TEXT NOT NULL,
	key         TEXT NOT NULL UNIQUE,
	topic_id    INTEGER NOT NULL,
	post_id     INTEGER NOT NULL,
	payload     TEXT NOT NULL,
	confidence  REAL NOT NULL DEFAULT 0,
	state       TEXT NOT NULL,
	mode        TEXT NOT NULL,
	reason      TEXT NOT NULL DEFAULT '',
	decided_by  TEXT NOT NULL DEFAULT '',
	decided_at  TEXT,
	attempts    INTEGER NOT NULL DEFAULT 0,
	result      TEXT NOT NULL DEFAULT '',
	error       TEXT NOT NULL DEFAULT '',
	created_at  TEXT NOT NULL,
	done_at     TEXT
);
CREATE INDEX actions_state ON actions(state, id);
CREATE INDEX actions_topic ON actions(topic_id, state);
CREATE INDEX actions_done ON actions(done_at);

-- Switches staff can flip at run time (the kill switch).
CREATE TABLE settings (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
