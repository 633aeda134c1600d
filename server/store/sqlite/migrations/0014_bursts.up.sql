-- Burst detection. A shot's neighbours are the library's live assets whose
-- capture instant (the wall clock taken as UTC when the offset is unknown)
-- lies within the burst gap of its own: one range of this index, never a
-- walk of the timeline (which is ordered by wall clock, not instant).
CREATE INDEX assets_capture_instant ON assets(library_id, live, capture_instant);

-- Assets a user took out of an automatic stack (removed from it, or the
-- whole stack unstacked): burst detection never stacks them again. The
-- record goes with its asset.
CREATE TABLE burst_exclusions (
    asset_id   TEXT PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
) STRICT;
