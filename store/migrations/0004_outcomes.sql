-- What happened to each bot reply, as last checked on the forum.
CREATE TABLE reply_outcomes (
	action_id  INTEGER PRIMARY KEY REFERENCES actions(id),
	accepted   INTEGER NOT NULL DEFAULT 0,
	liked      INTEGER NOT NULL DEFAULT 0,
	negative   INTEGER NOT NULL DEFAULT 0,
	checked_at TEXT NOT NULL
);

-- Per knowledge entry: how its citations fared (summed from reply_outcomes).
CREATE TABLE entry_outcomes (
	entry_id TEXT PRIMARY KEY,
	cited    INTEGER NOT NULL DEFAULT 0,
	accepted INTEGER NOT NULL DEFAULT 0,
	liked    INTEGER NOT NULL DEFAULT 0,
	negative INTEGER NOT NULL DEFAULT 0
);
