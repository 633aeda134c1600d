-- People and faces. A face sits in one asset (it never moves to another)
-- and belongs to at most one person. The triggers below keep, per person,
-- face_count, asset_count (live assets with at least one of its faces) and
-- a featured face, so lists never count anything; person_assets is the
-- person-asset relation they maintain (it serves the asset list's
-- person_ids filter and each asset's people).

CREATE TABLE people (
    id                TEXT PRIMARY KEY,
    library_id        TEXT NOT NULL REFERENCES libraries(id),
    name              TEXT NOT NULL DEFAULT '',
    -- catalog.NameKey(name); NULL for an unnamed person.
    name_key          TEXT,
    birth_date        TEXT,
    is_hidden         INTEGER NOT NULL DEFAULT 0,
    is_favorite       INTEGER NOT NULL DEFAULT 0,
    -- A face of this person, kept so by the triggers (no foreign key: the
    -- triggers re-point it before the face is gone).
    thumbnail_face_id TEXT,
    -- 0 for a machine cluster below the clustering minimum (hidden from
    -- lists unless include_unverified).
    verified          INTEGER NOT NULL DEFAULT 1,
    face_count        INTEGER NOT NULL DEFAULT 0,
    asset_count       INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
) STRICT;
-- Named creates reuse a name; renames to a taken one conflict.
CREATE UNIQUE INDEX people_library_name ON people(library_id, name_key) WHERE name_key IS NOT NULL;
-- Lists, newest first: every person, or the verified ones only.
CREATE INDEX people_library ON people(library_id, id);
CREATE INDEX people_library_verified ON people(library_id, id) WHERE verified = 1;

CREATE TABLE faces (
    id           TEXT PRIMARY KEY,
    asset_id     TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    library_id   TEXT NOT NULL REFERENCES libraries(id),
    person_id    TEXT REFERENCES people(id) ON DELETE SET NULL,
    -- The box as fractions of the upright image, as the API gives it.
    x            REAL NOT NULL,
    y            REAL NOT NULL,
    width        REAL NOT NULL,
    height       REAL NOT NULL,
    source       TEXT NOT NULL CHECK (source IN ('machine', 'manual')),
    confidence   REAL,
    timestamp_ms INTEGER,
    embedding    BLOB,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
) STRICT;
-- Lists newest first: of a library, of an asset, of a person. The asset
-- and person indexes also serve the foreign keys' cascades.
CREATE INDEX faces_library ON faces(library_id, id);
CREATE INDEX faces_asset ON faces(asset_id, id);
CREATE INDEX faces_person ON faces(person_id, id);

-- One row per person and asset holding at least one of its faces; live
-- copies assets.live so that asset_count follows trash and restore.
CREATE TABLE person_assets (
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    asset_id  TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    faces     INTEGER NOT NULL,
    live      INTEGER NOT NULL,
    PRIMARY KEY (person_id, asset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX person_assets_asset ON person_assets(asset_id, person_id);

CREATE TRIGGER faces_asset_fixed BEFORE UPDATE OF asset_id ON faces
WHEN OLD.asset_id IS NOT NEW.asset_id
BEGIN
    SELECT RAISE(ABORT, 'a face cannot move to another asset');
END;

-- A face joins a person: on insert, or when assigned.
CREATE TRIGGER faces_join_on_insert AFTER INSERT ON faces
WHEN NEW.person_id IS NOT NULL
BEGIN
    INSERT INTO person_assets (person_id, asset_id, faces, live)
        VALUES (NEW.person_id, NEW.asset_id, 1, (SELECT live FROM assets WHERE id = NEW.asset_id))
        ON CONFLICT (person_id, asset_id) DO UPDATE SET faces = faces + 1;
    UPDATE people SET face_count = face_count + 1,
        thumbnail_face_id = coalesce(thumbnail_face_id, NEW.id)
        WHERE id = NEW.person_id;
END;

CREATE TRIGGER faces_join_on_update AFTER UPDATE OF person_id ON faces
WHEN NEW.person_id IS NOT NULL AND OLD.person_id IS NOT NEW.person_id
BEGIN
    INSERT INTO person_assets (person_id, asset_id, faces, live)
        VALUES (NEW.person_id, NEW.asset_id, 1, (SELECT live FROM assets WHERE id = NEW.asset_id))
        ON CONFLICT (person_id, asset_id) DO UPDATE SET faces = faces + 1;
    UPDATE people SET face_count = face_count + 1,
        thumbnail_face_id = coalesce(thumbnail_face_id, NEW.id)
        WHERE id = NEW.person_id;
END;

-- A face leaves a person: deleted (also by an asset's cascade), or
-- assigned elsewhere. A featured face that leaves is replaced by the
-- person's newest remaining face.
CREATE TRIGGER faces_leave_on_delete AFTER DELETE ON faces
WHEN OLD.person_id IS NOT NULL
BEGIN
    UPDATE person_assets SET faces = faces - 1 WHERE person_id = OLD.person_id AND asset_id = OLD.asset_id;
    DELETE FROM person_assets WHERE person_id = OLD.person_id AND asset_id = OLD.asset_id AND faces <= 0;
    UPDATE people SET face_count = face_count - 1,
        thumbnail_face_id = CASE WHEN thumbnail_face_id IS NOT OLD.id THEN thumbnail_face_id
            ELSE (SELECT id FROM faces WHERE person_id = OLD.person_id ORDER BY id DESC LIMIT 1) END
        WHERE id = OLD.person_id;
END;

CREATE TRIGGER faces_leave_on_update AFTER UPDATE OF person_id ON faces
WHEN OLD.person_id IS NOT NULL AND OLD.person_id IS NOT NEW.person_id
BEGIN
    UPDATE person_assets SET faces = faces - 1 WHERE person_id = OLD.person_id AND asset_id = OLD.asset_id;
    DELETE FROM person_assets WHERE person_id = OLD.person_id AND asset_id = OLD.asset_id AND faces <= 0;
    UPDATE people SET face_count = face_count - 1,
        thumbnail_face_id = CASE WHEN thumbnail_face_id IS NOT OLD.id THEN thumbnail_face_id
            ELSE (SELECT id FROM faces WHERE person_id = OLD.person_id ORDER BY id DESC LIMIT 1) END
        WHERE id = OLD.person_id;
END;

-- asset_count counts live assets: it follows person_assets rows and their
-- live copy, which follows trash and restore.
CREATE TRIGGER person_assets_added AFTER INSERT ON person_assets
BEGIN
    UPDATE people SET asset_count = asset_count + NEW.live WHERE id = NEW.person_id;
END;

CREATE TRIGGER person_assets_removed AFTER DELETE ON person_assets
BEGIN
    UPDATE people SET asset_count = asset_count - OLD.live WHERE id = OLD.person_id;
END;

CREATE TRIGGER person_assets_live AFTER UPDATE OF live ON person_assets
WHEN OLD.live IS NOT NEW.live
BEGIN
    UPDATE people SET asset_count = asset_count + NEW.live - OLD.live WHERE id = NEW.person_id;
END;

CREATE TRIGGER assets_live_people AFTER UPDATE OF live ON assets
WHEN OLD.live IS NOT NEW.live
BEGIN
    UPDATE person_assets SET live = NEW.live WHERE asset_id = NEW.id;
END;
