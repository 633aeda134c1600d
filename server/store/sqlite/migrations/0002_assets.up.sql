-- Assets. seq is the rowid that the spatial index (R*Tree) refers to; id is
-- the public identifier.
CREATE TABLE assets (
    seq                INTEGER PRIMARY KEY,
    id                 TEXT NOT NULL UNIQUE,
    library_id         TEXT NOT NULL REFERENCES libraries(id),
    contributor_id     TEXT NOT NULL REFERENCES users(id),
    device_asset_id    TEXT NOT NULL DEFAULT '',
    device_id          TEXT NOT NULL DEFAULT '',
    media_type         TEXT NOT NULL CHECK (media_type IN ('image', 'video')),
    mime_type          TEXT NOT NULL,
    original_file_name TEXT NOT NULL,
    file_created_at    INTEGER NOT NULL,
    file_modified_at   INTEGER NOT NULL,
    -- Capture time: the local wall-clock reading encoded as if UTC, the
    -- offset in seconds when known, and the instant (wall - offset, or wall
    -- when the offset is unknown). All microseconds but the offset.
    capture_wall       INTEGER NOT NULL,
    capture_offset     INTEGER,
    capture_instant    INTEGER NOT NULL,
    checksum           BLOB NOT NULL,
    checksum_sha1      BLOB,
    width              INTEGER,
    height             INTEGER,
    original_size      INTEGER NOT NULL,
    file_size_bytes    INTEGER NOT NULL,
    current_version_id TEXT,
    -- Filter columns, kept equal to the merged metadata view.
    latitude           REAL,
    longitude          REAL,
    rating             INTEGER,
    meta_file          TEXT NOT NULL DEFAULT '{}',
    meta_geo           TEXT NOT NULL DEFAULT '{}',
    meta_user          TEXT NOT NULL DEFAULT '{}',
    metrics            TEXT NOT NULL DEFAULT '{}',
    description        TEXT,
    stack_id           TEXT,
    -- 1 when the asset shows in collapsed lists: not stacked, or the cover.
    stack_cover        INTEGER NOT NULL DEFAULT 1,
    -- 1 while not trashed; indexed beside the timeline.
    live               INTEGER NOT NULL DEFAULT 1,
    trashed_at         INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL
);
-- Exact-content duplicates are per library; the unique index settles races.
CREATE UNIQUE INDEX assets_library_checksum ON assets(library_id, checksum);
CREATE INDEX assets_library_sha1 ON assets(library_id, checksum_sha1);
-- The timeline: lists order by capture time within a library and state.
CREATE INDEX assets_timeline ON assets(library_id, live, capture_wall, id);
CREATE INDEX assets_trashed ON assets(trashed_at) WHERE trashed_at IS NOT NULL;
CREATE INDEX assets_stack ON assets(stack_id) WHERE stack_id IS NOT NULL;

-- Spatial index over assets with coordinates (points: min = max).
CREATE VIRTUAL TABLE assets_geo USING rtree(seq, min_lon, max_lon, min_lat, max_lat);

-- Bytes charged to each library owner (uploads by any member, versions).
CREATE TABLE storage_usage (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    used_bytes INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Files to remove once the rows that pointed at them are gone. A hard delete
-- writes its blob keys here in the same transaction as the row deletion; the
-- files are removed afterwards and the journal entry with them. Replayed on
-- start, so a crash between the two loses nothing and leaves no orphan.
CREATE TABLE blob_journal (
    key        TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
) STRICT;
