-- People, faces and the people clustering: the schema of SQLite's 0008,
-- 0012 and 0017 in one step (SQLite's 0011 is asset_text: 0013_search here).
-- A face sits in one asset (it never moves to another) and belongs to at
-- most one person. The triggers below keep, per person, face_count,
-- asset_count (live assets with at least one of its faces) and a featured
-- face, so lists never count anything; person_assets is the person-asset
-- relation they maintain, with copies of its asset's live and capture_wall
-- (the asset list's person_ids filter walks person_assets_timeline).
-- Flags are boolean where SQLite has 0/1 integers; names are SQLite's.

CREATE TABLE people (
    id                text COLLATE "C" PRIMARY KEY,
    library_id        text COLLATE "C" NOT NULL REFERENCES libraries(id),
    name              text NOT NULL DEFAULT '',
    -- catalog.NameKey(name); NULL for an unnamed person.
    name_key          text COLLATE "C",
    birth_date        text,
    is_hidden         boolean NOT NULL DEFAULT false,
    is_favorite       boolean NOT NULL DEFAULT false,
    -- A face of this person, kept so by the triggers (no foreign key: the
    -- triggers re-point it before the face is gone).
    thumbnail_face_id text COLLATE "C",
    -- false for a machine cluster below the clustering minimum (hidden
    -- from lists unless include_unverified).
    verified          boolean NOT NULL DEFAULT true,
    face_count        integer NOT NULL DEFAULT 0,
    asset_count       integer NOT NULL DEFAULT 0,
    created_at        bigint NOT NULL,
    updated_at        bigint NOT NULL,
    -- 'machine' for a cluster the clustering made and no user has acted
    -- on: the re-cluster job may merge, split or delete it.
    source            text NOT NULL DEFAULT 'user' CHECK (source IN ('machine', 'user')),
    -- The featured face a user chose; kept while thumbnail_face_id is it.
    user_thumbnail_face_id text COLLATE "C"
);
-- Named creates reuse a name; renames to a taken one conflict.
CREATE UNIQUE INDEX people_library_name ON people(library_id, name_key) WHERE name_key IS NOT NULL;
-- Lists, newest first: every person, or the verified ones only.
CREATE INDEX people_library ON people(library_id, id);
CREATE INDEX people_library_verified ON people(library_id, id) WHERE verified;

CREATE TABLE faces (
    id           text COLLATE "C" PRIMARY KEY,
    asset_id     text COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    library_id   text COLLATE "C" NOT NULL REFERENCES libraries(id),
    person_id    text COLLATE "C" REFERENCES people(id) ON DELETE SET NULL,
    -- The box as fractions of the upright image, as the API gives it.
    x            double precision NOT NULL,
    y            double precision NOT NULL,
    width        double precision NOT NULL,
    height       double precision NOT NULL,
    source       text NOT NULL CHECK (source IN ('machine', 'manual')),
    confidence   double precision,
    timestamp_ms bigint,
    -- The recognition model's unit vector, float32 little-endian.
    embedding    bytea,
    created_at   bigint NOT NULL,
    updated_at   bigint NOT NULL,
    -- Who gave the face its person: 'machine' (the clustering may move it
    -- again) or 'user' (with no person: a face a user took away from one).
    -- NULL: nobody has placed it yet.
    assigned_by  text CHECK (assigned_by IN ('machine', 'user'))
);
-- Lists newest first: of a library, of an asset, of a person. The asset
-- and person indexes also serve the foreign keys' cascades.
CREATE INDEX faces_library ON faces(library_id, id);
CREATE INDEX faces_asset ON faces(asset_id, id);
CREATE INDEX faces_person ON faces(person_id, id);
-- The re-cluster job's unplaced machine faces (few).
CREATE INDEX faces_unplaced ON faces(library_id, id) WHERE person_id IS NULL AND source = 'machine';

-- One row per person and asset holding at least one of its faces; live and
-- capture_wall copy the asset's, so that asset_count follows trash and
-- restore and a person's timeline is one index range.
CREATE TABLE person_assets (
    person_id    text COLLATE "C" NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    asset_id     text COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    faces        integer NOT NULL,
    -- Copies of assets.live (0/1, as there) and assets.capture_wall.
    live         integer NOT NULL CHECK (live IN (0, 1)),
    capture_wall bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (person_id, asset_id)
);
CREATE INDEX person_assets_asset ON person_assets(asset_id, person_id);
CREATE INDEX person_assets_timeline ON person_assets(person_id, live, capture_wall, asset_id);

-- Per library: generation grows with every change of a centroid row (its
-- version takes the new value); epoch grows when a row goes. new_faces
-- counts faces clustered since the last re-cluster.
CREATE TABLE clustering_state (
    library_id     text COLLATE "C" PRIMARY KEY REFERENCES libraries(id),
    generation     bigint NOT NULL DEFAULT 0,
    epoch          bigint NOT NULL DEFAULT 0,
    new_faces      integer NOT NULL DEFAULT 0,
    reclustered_at bigint
);

-- The sum of the unit embeddings of a person's n faces that have one. The
-- clustering keeps it exact for its own moves; any other change of the
-- person's faces marks it stale.
CREATE TABLE person_centroids (
    person_id  text COLLATE "C" PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
    library_id text COLLATE "C" NOT NULL,
    sum        bytea,
    n          integer NOT NULL DEFAULT 0,
    stale      boolean NOT NULL DEFAULT false,
    version    bigint NOT NULL
);
CREATE INDEX person_centroids_version ON person_centroids(library_id, version);
CREATE INDEX person_centroids_stale ON person_centroids(library_id) WHERE stale;

-- A face joins a person: the person-asset link counts it, the person
-- counts it and features it when it has no featured face.
CREATE FUNCTION people_face_join(p text, a text, f text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO person_assets (person_id, asset_id, faces, live, capture_wall)
        SELECT p, a, 1, assets.live, assets.capture_wall FROM assets WHERE assets.id = a
        ON CONFLICT (person_id, asset_id) DO UPDATE SET faces = person_assets.faces + 1;
    UPDATE people SET face_count = face_count + 1, thumbnail_face_id = coalesce(thumbnail_face_id, f)
        WHERE id = p;
END $$;

-- A face leaves a person: deleted (also by an asset's cascade) or assigned
-- elsewhere. A featured face that leaves is replaced by the person's newest
-- remaining face.
CREATE FUNCTION people_face_leave(p text, a text, f text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE person_assets SET faces = faces - 1 WHERE person_id = p AND asset_id = a;
    DELETE FROM person_assets WHERE person_id = p AND asset_id = a AND faces <= 0;
    UPDATE people SET face_count = face_count - 1,
        thumbnail_face_id = CASE WHEN thumbnail_face_id IS DISTINCT FROM f THEN thumbnail_face_id
            ELSE (SELECT faces.id FROM faces WHERE faces.person_id = p ORDER BY faces.id DESC LIMIT 1) END
        WHERE id = p;
END $$;

-- Moves a library's clustering generation on and returns it.
CREATE FUNCTION clustering_bump(lib text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    gen bigint;
BEGIN
    INSERT INTO clustering_state (library_id, generation) VALUES (lib, 1)
        ON CONFLICT (library_id) DO UPDATE SET generation = clustering_state.generation + 1
        RETURNING generation INTO gen;
    RETURN gen;
END $$;

-- A person's centroid is stale under a new generation (a person gaining
-- its first face with an embedding gets a row when add is set).
CREATE FUNCTION people_centroid_stale(p text, lib text, gen bigint, add boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF add THEN
        INSERT INTO person_centroids (person_id, library_id, stale, version) VALUES (p, lib, true, gen)
            ON CONFLICT (person_id) DO UPDATE SET stale = true, version = excluded.version;
    ELSE
        UPDATE person_centroids SET stale = true, version = gen WHERE person_id = p;
    END IF;
END $$;

-- A face never moves to another asset; a face placed on a person without
-- saying by whom (a user's reassignment, a manual face) is the user's.
CREATE FUNCTION faces_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.asset_id IS DISTINCT FROM NEW.asset_id THEN
        RAISE EXCEPTION 'a face cannot move to another asset';
    END IF;
    IF TG_OP = 'INSERT' AND NEW.person_id IS NOT NULL AND NEW.assigned_by IS NULL THEN
        NEW.assigned_by := 'user';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER faces_before_insert BEFORE INSERT ON faces FOR EACH ROW EXECUTE FUNCTION faces_before();
CREATE TRIGGER faces_asset_fixed BEFORE UPDATE OF asset_id ON faces FOR EACH ROW EXECUTE FUNCTION faces_before();

-- Faces joining and leaving people keep the counts, links, featured faces
-- and centroids (a face with an embedding joining or leaving a person, or
-- its embedding changing, makes both people's centroids stale).
CREATE FUNCTION faces_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.person_id IS NOT NULL THEN
            PERFORM people_face_join(NEW.person_id, NEW.asset_id, NEW.id);
            IF NEW.embedding IS NOT NULL THEN
                PERFORM people_centroid_stale(NEW.person_id, NEW.library_id, clustering_bump(NEW.library_id), true);
            END IF;
        END IF;
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        IF OLD.person_id IS NOT NULL THEN
            PERFORM people_face_leave(OLD.person_id, OLD.asset_id, OLD.id);
            IF OLD.embedding IS NOT NULL THEN
                PERFORM people_centroid_stale(OLD.person_id, OLD.library_id, clustering_bump(OLD.library_id), false);
            END IF;
        END IF;
        RETURN NULL;
    END IF;
    -- UPDATE OF person_id, embedding.
    IF OLD.person_id IS DISTINCT FROM NEW.person_id THEN
        IF OLD.person_id IS NOT NULL THEN
            PERFORM people_face_leave(OLD.person_id, OLD.asset_id, OLD.id);
        END IF;
        IF NEW.person_id IS NOT NULL THEN
            PERFORM people_face_join(NEW.person_id, NEW.asset_id, NEW.id);
        END IF;
    END IF;
    IF (OLD.person_id IS DISTINCT FROM NEW.person_id OR OLD.embedding IS DISTINCT FROM NEW.embedding)
        AND (OLD.embedding IS NOT NULL OR NEW.embedding IS NOT NULL)
        AND (OLD.person_id IS NOT NULL OR NEW.person_id IS NOT NULL) THEN
        DECLARE
            gen bigint := clustering_bump(NEW.library_id);
        BEGIN
            IF OLD.person_id IS NOT NULL THEN
                PERFORM people_centroid_stale(OLD.person_id, NEW.library_id, gen, false);
            END IF;
            IF NEW.person_id IS NOT NULL AND NEW.embedding IS NOT NULL THEN
                PERFORM people_centroid_stale(NEW.person_id, NEW.library_id, gen, true);
            END IF;
        END;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER faces_after_insert AFTER INSERT ON faces FOR EACH ROW
    WHEN (NEW.person_id IS NOT NULL) EXECUTE FUNCTION faces_after();
CREATE TRIGGER faces_after_delete AFTER DELETE ON faces FOR EACH ROW
    WHEN (OLD.person_id IS NOT NULL) EXECUTE FUNCTION faces_after();
CREATE TRIGGER faces_after_update AFTER UPDATE OF person_id, embedding ON faces FOR EACH ROW
    WHEN (OLD.person_id IS DISTINCT FROM NEW.person_id OR OLD.embedding IS DISTINCT FROM NEW.embedding)
    EXECUTE FUNCTION faces_after();

-- asset_count counts live assets: it follows person_assets rows and their
-- live copy, which follows trash and restore.
CREATE FUNCTION person_assets_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE people SET asset_count = asset_count + NEW.live WHERE id = NEW.person_id;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE people SET asset_count = asset_count - OLD.live WHERE id = OLD.person_id;
    ELSE
        UPDATE people SET asset_count = asset_count + NEW.live - OLD.live WHERE id = NEW.person_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER person_assets_added AFTER INSERT ON person_assets FOR EACH ROW
    WHEN (NEW.live = 1) EXECUTE FUNCTION person_assets_count();
CREATE TRIGGER person_assets_removed AFTER DELETE ON person_assets FOR EACH ROW
    WHEN (OLD.live = 1) EXECUTE FUNCTION person_assets_count();
CREATE TRIGGER person_assets_live AFTER UPDATE OF live ON person_assets FOR EACH ROW
    WHEN (OLD.live IS DISTINCT FROM NEW.live) EXECUTE FUNCTION person_assets_count();

-- Links follow their asset's capture time and trash state.
CREATE FUNCTION assets_follow_people() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE person_assets SET capture_wall = NEW.capture_wall, live = NEW.live WHERE asset_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER assets_follow_people AFTER UPDATE OF capture_wall, live ON assets FOR EACH ROW
    WHEN (OLD.capture_wall IS DISTINCT FROM NEW.capture_wall OR OLD.live IS DISTINCT FROM NEW.live)
    EXECUTE FUNCTION assets_follow_people();

-- A centroid row that goes (its person deleted) moves the epoch: processes
-- holding centroids in memory reload.
CREATE FUNCTION person_centroids_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE clustering_state SET epoch = epoch + 1, generation = generation + 1 WHERE library_id = OLD.library_id;
    RETURN NULL;
END $$;
CREATE TRIGGER person_centroids_gone AFTER DELETE ON person_centroids FOR EACH ROW
    EXECUTE FUNCTION person_centroids_gone();
