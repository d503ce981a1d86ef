// Package store is Herald's one SQLite file: schema migrations, the
// knowledge base with its FTS5 index (the BM25 baseline and `kb search`),
// the pack schemas, settings and cursors, the action log that is also
// the approval queue, and the outcomes of posted replies.
//
// Invariants:
//   - Every write happens in a transaction that also updates any index or
//     bookkeeping row it affects, so a crash leaves either all of a change
//     or none of it; kb_fts always mirrors kb_entries.
//   - Curated knowledge wins over bulk imports: an import never replaces a
//     curated entry of the same id or at one of its aliases (kb_aliases
//     holds them); its text is kept on the curated entry for search, and
//     no imported entry is stored at a curated entry's alias.
//   - Migrations run in order, each in its own transaction with its record
//     in schema_migrations, so one is never half applied.
//   - The store knows nothing of Discourse or of ranking rules; it stores
//     knowledge.Entry values, action payloads it does not read, and
//     outcome counts, and returns full-text candidates.
//
// It needs mattn/go-sqlite3 built with the sqlite_fts5 tag (make does this).
package store
