-- Admin page sessions: random ids, idle and absolute expiry.
CREATE TABLE sessions (
	id          TEXT PRIMARY KEY,       -- sha256 of the cookie value
	username    TEXT NOT NULL,
	user_id     TEXT NOT NULL,
	staff       INTEGER NOT NULL,
	csrf        TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	last_seen   TEXT NOT NULL,
	expires_at  TEXT NOT NULL
);

-- DiscourseConnect nonces and one-time login links: single use, expiring.
CREATE TABLE nonces (
	nonce      TEXT PRIMARY KEY,        -- sha256 for login tokens
	username   TEXT NOT NULL DEFAULT '',
	expires_at TEXT NOT NULL
);

-- Every staff decision, with what changed.
CREATE TABLE audit (
	id         INTEGER PRIMARY KEY,
	action_id  INTEGER NOT NULL REFERENCES actions(id),
	actor      TEXT NOT NULL,
	verb       TEXT NOT NULL,
	detail     TEXT NOT NULL DEFAULT '',
	at         TEXT NOT NULL
);
CREATE INDEX audit_action ON audit(action_id);
CREATE INDEX actions_created ON actions(created_at);
