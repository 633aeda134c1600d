-- Bytes charged to each library owner, and the journal of blob files to
-- remove (SQLite's 0002 without the assets, which a later stage adds).

-- Bytes charged to each library owner (uploads by any member, versions).
CREATE TABLE storage_usage (
    user_id    text COLLATE "C" PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    used_bytes bigint NOT NULL DEFAULT 0
);

-- Files to remove once the rows that pointed at them are gone. A hard delete
-- writes its blob keys here in the same transaction as the row deletion; the
-- files are removed afterwards and the journal entry with them. Replayed on
-- start, so a crash between the two loses nothing and leaves no orphan.
CREATE TABLE blob_journal (
    key        text COLLATE "C" PRIMARY KEY,
    created_at bigint NOT NULL
);
-- The replay reads the oldest entries first.
CREATE INDEX blob_journal_order ON blob_journal(created_at, key);
