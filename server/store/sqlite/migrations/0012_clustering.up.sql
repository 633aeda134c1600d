-- People clustering (server/people/cluster*.go): what a user decided, which
-- the machine never undoes, and a centroid per person that the incremental
-- step searches instead of every face.

-- Who gave a face its person: 'machine' (the clustering; the re-cluster
-- job may move it again) or 'user' (a reassignment, a merge, a manual
-- face). 'user' with no person is a face a user took away from one: the
-- clustering leaves it alone too. NULL: nobody has placed it yet.
ALTER TABLE faces ADD COLUMN assigned_by TEXT CHECK (assigned_by IN ('machine', 'user'));
-- Every assignment so far was a user's: the clustering did not exist.
UPDATE faces SET assigned_by = 'user' WHERE person_id IS NOT NULL;

-- A face placed by a user or a manual face drawn onto a person is the
-- user's, whoever inserted it.
CREATE TRIGGER faces_assigned_on_insert AFTER INSERT ON faces
WHEN NEW.person_id IS NOT NULL AND NEW.assigned_by IS NULL
BEGIN
    UPDATE faces SET assigned_by = 'user' WHERE id = NEW.id;
END;

-- 'machine' for a cluster the clustering made and no user has acted on
-- (named, edited, hidden, merged into, reassigned to, given a face): the
-- re-cluster job may merge, split or delete it. Everything else is 'user'.
ALTER TABLE people ADD COLUMN source TEXT NOT NULL DEFAULT 'user' CHECK (source IN ('machine', 'user'));
-- The featured face a user chose (PATCH thumbnail_face_id). While
-- thumbnail_face_id is still that face the clustering keeps it; once the
-- triggers of 0008 replace it (the face left), the best face takes over.
ALTER TABLE people ADD COLUMN user_thumbnail_face_id TEXT;

-- Per library: generation grows with every change of a centroid row (its
-- version takes the new value), so a process holding centroids in memory
-- reads only rows with a higher version; epoch grows when a row goes (a
-- person deleted), which those processes cannot see that way and answer
-- by reloading. new_faces counts faces clustered since the last re-cluster.
CREATE TABLE clustering_state (
    library_id     TEXT PRIMARY KEY REFERENCES libraries(id),
    generation     INTEGER NOT NULL DEFAULT 0,
    epoch          INTEGER NOT NULL DEFAULT 0,
    new_faces      INTEGER NOT NULL DEFAULT 0,
    reclustered_at INTEGER
) STRICT;

-- The sum of the unit embeddings (float32, little-endian) of a person's n
-- faces that have one; the centroid is its direction. The clustering keeps
-- it exact for its own moves; any other change of the person's faces
-- (users, deleted assets) marks it stale, and the clustering sums it anew
-- from the faces before using it.
CREATE TABLE person_centroids (
    person_id  TEXT PRIMARY KEY REFERENCES people(id) ON DELETE CASCADE,
    library_id TEXT NOT NULL,
    sum        BLOB,
    n          INTEGER NOT NULL DEFAULT 0,
    stale      INTEGER NOT NULL DEFAULT 0,
    version    INTEGER NOT NULL
) STRICT;
-- Refreshing a library's index: rows changed since a generation.
CREATE INDEX person_centroids_version ON person_centroids(library_id, version);
CREATE INDEX person_centroids_stale ON person_centroids(library_id) WHERE stale = 1;

-- A face with an embedding joins or leaves a person, or its embedding
-- changes: both people's centroids are stale (a person gaining its first
-- such face gets a row). The clustering's own moves fire these too and
-- then write the exact sums.
CREATE TRIGGER faces_centroid_on_insert AFTER INSERT ON faces
WHEN NEW.person_id IS NOT NULL AND NEW.embedding IS NOT NULL
BEGIN
    INSERT INTO clustering_state (library_id, generation) VALUES (NEW.library_id, 1)
        ON CONFLICT (library_id) DO UPDATE SET generation = generation + 1;
    INSERT INTO person_centroids (person_id, library_id, stale, version)
        SELECT NEW.person_id, NEW.library_id, 1, generation FROM clustering_state WHERE library_id = NEW.library_id
        ON CONFLICT (person_id) DO UPDATE SET stale = 1, version = excluded.version;
END;

CREATE TRIGGER faces_centroid_on_update AFTER UPDATE OF person_id, embedding ON faces
WHEN (OLD.person_id IS NOT NEW.person_id OR OLD.embedding IS NOT NEW.embedding)
    AND (OLD.embedding IS NOT NULL OR NEW.embedding IS NOT NULL)
    AND (OLD.person_id IS NOT NULL OR NEW.person_id IS NOT NULL)
BEGIN
    INSERT INTO clustering_state (library_id, generation) VALUES (NEW.library_id, 1)
        ON CONFLICT (library_id) DO UPDATE SET generation = generation + 1;
    UPDATE person_centroids SET stale = 1,
        version = (SELECT generation FROM clustering_state WHERE library_id = NEW.library_id)
        WHERE person_id = OLD.person_id;
    INSERT INTO person_centroids (person_id, library_id, stale, version)
        SELECT NEW.person_id, NEW.library_id, 1, generation FROM clustering_state
        WHERE library_id = NEW.library_id AND NEW.person_id IS NOT NULL AND NEW.embedding IS NOT NULL
        ON CONFLICT (person_id) DO UPDATE SET stale = 1, version = excluded.version;
END;

CREATE TRIGGER faces_centroid_on_delete AFTER DELETE ON faces
WHEN OLD.person_id IS NOT NULL AND OLD.embedding IS NOT NULL
BEGIN
    INSERT INTO clustering_state (library_id, generation) VALUES (OLD.library_id, 1)
        ON CONFLICT (library_id) DO UPDATE SET generation = generation + 1;
    UPDATE person_centroids SET stale = 1,
        version = (SELECT generation FROM clustering_state WHERE library_id = OLD.library_id)
        WHERE person_id = OLD.person_id;
END;

CREATE TRIGGER person_centroids_gone AFTER DELETE ON person_centroids
BEGIN
    UPDATE clustering_state SET epoch = epoch + 1, generation = generation + 1 WHERE library_id = OLD.library_id;
END;

-- The re-cluster job reads a library's faces that are the machine's to
-- place; unplaced ones are few, so it finds them through this index.
CREATE INDEX faces_unplaced ON faces(library_id, id) WHERE person_id IS NULL AND source = 'machine';
