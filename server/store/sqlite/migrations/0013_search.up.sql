-- Content search (GET and POST /api/search).
--
-- search_text is the full-text index of the assets' own text: one document
-- per asset, rowid = assets.seq, with five text columns that bm25 weighs
-- separately (sqlite/search_query.go), and a sixth, time, that no query
-- word reads: the capture day, month and year as tokens (d20240615
-- m202406 y2024), so a capture-time window is a handful of tokens the
-- full-text query intersects with the words (cheap where reading every
-- match of a common word and testing its row is not). It is contentless (it keeps the index,
-- not a copy of the text) and contentless-delete, so triggers can replace a
-- document. search_documents says what each column holds; the triggers
-- below rewrite an asset's document whenever one of its sources changes, in
-- the same statement as the change.
--
-- People and album names are not copied into the asset documents: renaming
-- a person would rewrite every document of their assets. They have their
-- own small index, search_names, whose matches reach assets through
-- person_assets and album_assets at query time.
--
-- The tokenizer folds case and diacritics ("Zürich" matches "zurich"),
-- splits on anything that is not a letter or digit ("IMG_0042.JPG" is img,
-- 0042, jpg) and reduces English words to their stem (Porter: "sunsets"
-- and "sunset" are one word). Queries match every word as a prefix, which
-- the prefix indexes of two and three characters keep cheap.
CREATE VIRTUAL TABLE search_text USING fts5(
    description, ocr, place, file, camera, time,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '2 3'
);

-- What an asset's document holds. Metadata fields are the merged view the
-- API shows: the user's edit, else reverse geocoding, else the file.
--   description: the AI description and the caption (metadata.description)
--   ocr:         the text the OCR step read in the picture (asset_text, 0011)
--   place:       city, state, country, sublocation, place name, display label
--   file:        the original file name
--   camera:      make, model and lens
--   time:        the capture day, month and year of the wall clock
CREATE VIEW search_documents AS
SELECT a.seq,
    concat_ws(' ', a.description, coalesce(json_extract(a.meta_user, '$.Description'),
        json_extract(a.meta_geo, '$.Description'), json_extract(a.meta_file, '$.Description'))) AS description,
    (SELECT t.ocr_text FROM asset_text t WHERE t.asset_id = a.id) AS ocr,
    concat_ws(' ',
        coalesce(json_extract(a.meta_user, '$.City'), json_extract(a.meta_geo, '$.City'), json_extract(a.meta_file, '$.City')),
        coalesce(json_extract(a.meta_user, '$.State'), json_extract(a.meta_geo, '$.State'), json_extract(a.meta_file, '$.State')),
        coalesce(json_extract(a.meta_user, '$.Country'), json_extract(a.meta_geo, '$.Country'), json_extract(a.meta_file, '$.Country')),
        coalesce(json_extract(a.meta_user, '$.Sublocation'), json_extract(a.meta_geo, '$.Sublocation'), json_extract(a.meta_file, '$.Sublocation')),
        coalesce(json_extract(a.meta_user, '$.PlaceName'), json_extract(a.meta_geo, '$.PlaceName'), json_extract(a.meta_file, '$.PlaceName')),
        coalesce(json_extract(a.meta_user, '$.DisplayLabel'), json_extract(a.meta_geo, '$.DisplayLabel'), json_extract(a.meta_file, '$.DisplayLabel'))
    ) AS place,
    a.original_file_name AS file,
    concat_ws(' ',
        coalesce(json_extract(a.meta_user, '$.Make'), json_extract(a.meta_geo, '$.Make'), json_extract(a.meta_file, '$.Make')),
        coalesce(json_extract(a.meta_user, '$.Model'), json_extract(a.meta_geo, '$.Model'), json_extract(a.meta_file, '$.Model')),
        coalesce(json_extract(a.meta_user, '$.LensModel'), json_extract(a.meta_geo, '$.LensModel'), json_extract(a.meta_file, '$.LensModel'))
    ) AS camera,
    strftime('d%Y%m%d m%Y%m y%Y', a.capture_wall / 1000000, 'unixepoch') AS time
FROM assets a;

INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
    SELECT seq, description, ocr, place, file, camera, time FROM search_documents;

CREATE TRIGGER search_text_asset_insert AFTER INSERT ON assets
BEGIN
    INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
        SELECT seq, description, ocr, place, file, camera, time FROM search_documents WHERE seq = NEW.seq;
END;

-- Asset writes rewrite every column; only a change of a source rewrites
-- the document.
CREATE TRIGGER search_text_asset_update
AFTER UPDATE OF description, original_file_name, meta_file, meta_geo, meta_user, capture_wall ON assets
WHEN OLD.description IS NOT NEW.description OR OLD.original_file_name IS NOT NEW.original_file_name
    OR OLD.meta_file IS NOT NEW.meta_file OR OLD.meta_geo IS NOT NEW.meta_geo OR OLD.meta_user IS NOT NEW.meta_user
    OR OLD.capture_wall IS NOT NEW.capture_wall
BEGIN
    DELETE FROM search_text WHERE rowid = OLD.seq;
    INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
        SELECT seq, description, ocr, place, file, camera, time FROM search_documents WHERE seq = NEW.seq;
END;

CREATE TRIGGER search_text_asset_delete AFTER DELETE ON assets
BEGIN
    DELETE FROM search_text WHERE rowid = OLD.seq;
END;

-- OCR text arrives (or is read again) after the asset.
CREATE TRIGGER search_text_ocr_insert AFTER INSERT ON asset_text
WHEN NEW.ocr_text IS NOT NULL
BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT seq FROM assets WHERE id = NEW.asset_id);
    INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
        SELECT d.seq, d.description, d.ocr, d.place, d.file, d.camera, d.time FROM assets a
        JOIN search_documents d ON d.seq = a.seq WHERE a.id = NEW.asset_id;
END;

CREATE TRIGGER search_text_ocr_update AFTER UPDATE OF ocr_text ON asset_text
WHEN OLD.ocr_text IS NOT NEW.ocr_text
BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT seq FROM assets WHERE id = NEW.asset_id);
    INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
        SELECT d.seq, d.description, d.ocr, d.place, d.file, d.camera, d.time FROM assets a
        JOIN search_documents d ON d.seq = a.seq WHERE a.id = NEW.asset_id;
END;

-- Names of people and albums, one document each; search_name_refs maps a
-- document to its person or album and library. Unnamed people have no
-- document.
CREATE VIRTUAL TABLE search_names USING fts5(
    name,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2',
    prefix = '2 3'
);

CREATE TABLE search_name_refs (
    doc        INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('person', 'album')),
    ref_id     TEXT NOT NULL UNIQUE,
    library_id TEXT NOT NULL
) STRICT;

INSERT INTO search_name_refs (kind, ref_id, library_id) SELECT 'person', id, library_id FROM people WHERE name <> '';
INSERT INTO search_name_refs (kind, ref_id, library_id) SELECT 'album', id, library_id FROM albums WHERE name <> '';
INSERT INTO search_names (rowid, name)
    SELECT r.doc, p.name FROM search_name_refs r JOIN people p ON p.id = r.ref_id;
INSERT INTO search_names (rowid, name)
    SELECT r.doc, a.name FROM search_name_refs r JOIN albums a ON a.id = r.ref_id;

CREATE TRIGGER search_names_person_insert AFTER INSERT ON people
WHEN NEW.name <> ''
BEGIN
    INSERT INTO search_name_refs (kind, ref_id, library_id) VALUES ('person', NEW.id, NEW.library_id);
    INSERT INTO search_names (rowid, name) SELECT doc, NEW.name FROM search_name_refs WHERE ref_id = NEW.id;
END;

CREATE TRIGGER search_names_person_rename AFTER UPDATE OF name ON people
WHEN OLD.name IS NOT NEW.name
BEGIN
    DELETE FROM search_names WHERE rowid = (SELECT doc FROM search_name_refs WHERE ref_id = OLD.id);
    DELETE FROM search_name_refs WHERE ref_id = OLD.id;
    INSERT INTO search_name_refs (kind, ref_id, library_id) SELECT 'person', NEW.id, NEW.library_id WHERE NEW.name <> '';
    INSERT INTO search_names (rowid, name) SELECT doc, NEW.name FROM search_name_refs WHERE ref_id = NEW.id;
END;

CREATE TRIGGER search_names_person_delete AFTER DELETE ON people
BEGIN
    DELETE FROM search_names WHERE rowid = (SELECT doc FROM search_name_refs WHERE ref_id = OLD.id);
    DELETE FROM search_name_refs WHERE ref_id = OLD.id;
END;

CREATE TRIGGER search_names_album_insert AFTER INSERT ON albums
WHEN NEW.name <> ''
BEGIN
    INSERT INTO search_name_refs (kind, ref_id, library_id) VALUES ('album', NEW.id, NEW.library_id);
    INSERT INTO search_names (rowid, name) SELECT doc, NEW.name FROM search_name_refs WHERE ref_id = NEW.id;
END;

CREATE TRIGGER search_names_album_rename AFTER UPDATE OF name ON albums
WHEN OLD.name IS NOT NEW.name
BEGIN
    DELETE FROM search_names WHERE rowid = (SELECT doc FROM search_name_refs WHERE ref_id = OLD.id);
    DELETE FROM search_name_refs WHERE ref_id = OLD.id;
    INSERT INTO search_name_refs (kind, ref_id, library_id) SELECT 'album', NEW.id, NEW.library_id WHERE NEW.name <> '';
    INSERT INTO search_names (rowid, name) SELECT doc, NEW.name FROM search_name_refs WHERE ref_id = NEW.id;
END;

CREATE TRIGGER search_names_album_delete AFTER DELETE ON albums
BEGIN
    DELETE FROM search_names WHERE rowid = (SELECT doc FROM search_name_refs WHERE ref_id = OLD.id);
    DELETE FROM search_name_refs WHERE ref_id = OLD.id;
END;

-- Image search: the 64-bit perceptual hash (metrics.phash, 16 hex digits)
-- in four 16-bit bands of four hex digits. Two hashes within Hamming
-- distance 3 share a band exactly (pigeonhole); the search also probes
-- each band's 16 one-bit neighbours, which finds every hash within 7 bits
-- through these indexes. Virtual columns: computed from metrics, stored
-- only in the indexes.
ALTER TABLE assets ADD COLUMN phash_b0 TEXT GENERATED ALWAYS AS (nullif(substr(json_extract(metrics, '$.phash'), 1, 4), '')) VIRTUAL;
ALTER TABLE assets ADD COLUMN phash_b1 TEXT GENERATED ALWAYS AS (nullif(substr(json_extract(metrics, '$.phash'), 5, 4), '')) VIRTUAL;
ALTER TABLE assets ADD COLUMN phash_b2 TEXT GENERATED ALWAYS AS (nullif(substr(json_extract(metrics, '$.phash'), 9, 4), '')) VIRTUAL;
ALTER TABLE assets ADD COLUMN phash_b3 TEXT GENERATED ALWAYS AS (nullif(substr(json_extract(metrics, '$.phash'), 13, 4), '')) VIRTUAL;
CREATE INDEX assets_phash_b0 ON assets(library_id, phash_b0) WHERE phash_b0 IS NOT NULL;
CREATE INDEX assets_phash_b1 ON assets(library_id, phash_b1) WHERE phash_b1 IS NOT NULL;
CREATE INDEX assets_phash_b2 ON assets(library_id, phash_b2) WHERE phash_b2 IS NOT NULL;
CREATE INDEX assets_phash_b3 ON assets(library_id, phash_b3) WHERE phash_b3 IS NOT NULL;
