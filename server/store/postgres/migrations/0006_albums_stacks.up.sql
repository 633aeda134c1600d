-- Albums and their links to assets, stacks, burst exclusions: the schema of
-- SQLite's 0006_albums, 0007_stacks and 0014_bursts (later SQLite
-- migrations change none of these tables).
--
-- An album's dates, count and automatic cover are derived from its live
-- members on every read (postgres/albums.go). To make that cheap, each link
-- carries a copy of its asset's capture_wall and live, kept equal to the
-- asset's by a trigger in the same statement as every asset write: the
-- album's timeline, earliest and latest member are then one index seek
-- each, and an album's asset list pages through an index in capture order.

CREATE TABLE albums (
    id             text COLLATE "C" PRIMARY KEY,
    library_id     text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    name           text NOT NULL,
    name_key       text COLLATE "C" NOT NULL,
    description    text NOT NULL DEFAULT '',
    -- The cover the user chose (NULL: automatic); always a member, cleared
    -- when its link goes (trigger below).
    cover_asset_id text COLLATE "C",
    -- Live members, kept by the triggers below.
    asset_count    integer NOT NULL DEFAULT 0,
    created_at     bigint NOT NULL,
    updated_at     bigint NOT NULL
);
-- Album names are unique per library (named creates reuse them).
CREATE UNIQUE INDEX albums_library_name ON albums(library_id, name_key);
-- The album list: a library's albums newest first.
CREATE INDEX albums_library ON albums(library_id, id);

CREATE TABLE album_assets (
    id           text COLLATE "C" PRIMARY KEY,
    album_id     text COLLATE "C" NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    asset_id     text COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    library_id   text COLLATE "C" NOT NULL,
    -- Copies of assets.capture_wall and assets.live (0/1 like assets.live).
    capture_wall bigint NOT NULL,
    live         integer NOT NULL CHECK (live IN (0, 1)),
    created_at   bigint NOT NULL,
    updated_at   bigint NOT NULL
);
CREATE UNIQUE INDEX album_assets_pair ON album_assets(album_id, asset_id);
-- An album's timeline (GET /api/assets?album_id=), first and last member.
CREATE INDEX album_assets_timeline ON album_assets(album_id, live, capture_wall, asset_id);
-- Link lists (GET /api/album-assets), newest first, by album, by asset
-- (also the foreign-key cascade from assets and the trigger that follows
-- an asset), by library.
CREATE INDEX album_assets_album ON album_assets(album_id, live, id);
CREATE INDEX album_assets_asset ON album_assets(asset_id, live, id);
CREATE INDEX album_assets_library ON album_assets(library_id, live, id);

-- Links follow their asset's capture time and trash state.
CREATE FUNCTION album_assets_follow_asset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE album_assets SET capture_wall = NEW.capture_wall, live = NEW.live WHERE asset_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER album_assets_follow_asset
AFTER UPDATE OF capture_wall, live ON assets
FOR EACH ROW
WHEN (OLD.capture_wall IS DISTINCT FROM NEW.capture_wall OR OLD.live IS DISTINCT FROM NEW.live)
EXECUTE FUNCTION album_assets_follow_asset();

-- asset_count counts live links; a chosen cover leaves with its link
-- (removal, or the asset's deletion). When the album itself is being
-- deleted, the cascade's updates find no row.
CREATE FUNCTION album_assets_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE albums SET asset_count = asset_count + 1 WHERE id = NEW.album_id;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE albums SET asset_count = asset_count - OLD.live,
            cover_asset_id = CASE WHEN cover_asset_id = OLD.asset_id THEN NULL ELSE cover_asset_id END
        WHERE id = OLD.album_id AND (OLD.live = 1 OR cover_asset_id = OLD.asset_id);
    ELSE
        UPDATE albums SET asset_count = asset_count + NEW.live - OLD.live WHERE id = NEW.album_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER album_assets_count_insert AFTER INSERT ON album_assets
FOR EACH ROW WHEN (NEW.live = 1) EXECUTE FUNCTION album_assets_count();
CREATE TRIGGER album_assets_count_delete AFTER DELETE ON album_assets
FOR EACH ROW EXECUTE FUNCTION album_assets_count();
CREATE TRIGGER album_assets_count_update AFTER UPDATE OF live ON album_assets
FOR EACH ROW WHEN (OLD.live IS DISTINCT FROM NEW.live) EXECUTE FUNCTION album_assets_count();

-- Stacks. Members are the assets whose stack_id names the stack (the column
-- and its index came with 0005, so an asset is in at most one stack);
-- assets.stack_cover is 1 for the rows collapsed lists show: unstacked
-- assets, a stack's cover, and trashed members (the trash lists each one).
-- Only postgres/stacks.go writes stack_id and stack_cover; it derives
-- stack_cover on every stack write, and the service writes the stack again
-- after members are trashed or restored (stacks.Resettle). The aggregate
-- triggers of 0003_aggregates follow stack_cover.
CREATE TABLE stacks (
    id             text COLLATE "C" PRIMARY KEY,
    library_id     text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    cover_asset_id text COLLATE "C" NOT NULL,
    source         text NOT NULL CHECK (source IN ('auto', 'manual')),
    created_at     bigint NOT NULL,
    updated_at     bigint NOT NULL
);
-- The stack list: a library's stacks newest first.
CREATE INDEX stacks_library ON stacks(library_id, id);

-- Burst detection reads a shot's neighbours through assets_capture_instant
-- (created with the assets table in 0005).

-- Assets a user took out of an automatic stack (removed from it, or the
-- whole stack unstacked): burst detection never stacks them again. The
-- record goes with its asset.
CREATE TABLE burst_exclusions (
    asset_id   text COLLATE "C" PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
    created_at bigint NOT NULL
);
