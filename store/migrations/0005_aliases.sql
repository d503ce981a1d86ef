-- The other addresses of curated entries (knowledge.Entry.Aliases): an
-- import at one of them is that entry's source, not an entry of its own.
CREATE TABLE kb_aliases (
	alias    TEXT PRIMARY KEY,
	entry_id TEXT NOT NULL
);
CREATE INDEX kb_aliases_entry ON kb_aliases(entry_id);
