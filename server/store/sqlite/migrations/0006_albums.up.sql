-- Albums and their links to assets.
--
-- An album's dates, count and automatic cover are derived from its live
-- members on every read (sqlite/albums.go). To make that cheap, each link
-- carries a copy of its asset's capture_wall and live, kept equal to the
-- asset's by a trigger in the same statement as every asset write: the
-- album's timeline, earliest and latest member are then one index seek
-- each, and an album's asset list pages through an index in capture order.

CREATE TABLE albums (
    id             TEXT PRIMARY KEY,
    library_id     TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    -- The cover the user chose (NULL: automatic); always a member, cleared
    -- when its link goes (trigger below).
    cover_asset_id TEXT,
    -- Live members, kept by the triggers below.
    asset_count    INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;
-- Album names are unique per library (named creates reuse them).
CREATE UNIQUE INDEX albums_library_name ON albums(library_id, name_key);
-- The album list: a library's albums newest first.
CREATE INDEX albums_library ON albums(library_id, id);

CREATE TABLE album_assets (
    id           TEXT PRIMARY KEY,
    album_id     TEXT NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    asset_id     TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    library_id   TEXT NOT NULL,
    -- Copies of assets.capture_wall and assets.live.
    capture_wall INTEGER NOT NULL,
    live         INTEGER NOT NULL,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX album_assets_pair ON album_assets(album_id, asset_id);
-- An album's timeline (GET /api/assets?album_id=), first and last member.
CREATE INDEX album_assets_timeline ON album_assets(album_id, live, capture_wall, asset_id);
-- Link lists (GET /api/album-assets), newest first, by album, by asset
-- (also the foreign-key cascade from assets), by library.
CREATE INDEX album_assets_album ON album_assets(album_id, live, id);
CREATE INDEX album_assets_asset ON album_assets(asset_id, live, id);
CREATE INDEX album_assets_library ON album_assets(library_id, live, id);

-- Links follow their asset's capture time and trash state.
CREATE TRIGGER album_assets_follow_asset
AFTER UPDATE OF capture_wall, live ON assets
WHEN OLD.capture_wall IS NOT NEW.capture_wall OR OLD.live IS NOT NEW.live
BEGIN
    UPDATE album_assets SET capture_wall = NEW.capture_wall, live = NEW.live WHERE asset_id = NEW.id;
END;

-- asset_count counts live links.
CREATE TRIGGER album_assets_count_insert AFTER INSERT ON album_assets
WHEN NEW.live = 1
BEGIN
    UPDATE albums SET asset_count = asset_count + 1 WHERE id = NEW.album_id;
END;

CREATE TRIGGER album_assets_count_delete AFTER DELETE ON album_assets
WHEN OLD.live = 1
BEGIN
    UPDATE albums SET asset_count = asset_count - 1 WHERE id = OLD.album_id;
END;

CREATE TRIGGER album_assets_count_update AFTER UPDATE OF live ON album_assets
WHEN OLD.live IS NOT NEW.live
BEGIN
    UPDATE albums SET asset_count = asset_count + NEW.live - OLD.live WHERE id = NEW.album_id;
END;

-- A chosen cover leaves with its link (removal, or the asset's deletion).
CREATE TRIGGER album_assets_cover_delete AFTER DELETE ON album_assets
BEGIN
    UPDATE albums SET cover_asset_id = NULL WHERE id = OLD.album_id AND cover_asset_id = OLD.asset_id;
END;
