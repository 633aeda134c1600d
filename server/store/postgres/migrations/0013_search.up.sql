-- What the ML steps found in an asset, and content search (SQLite's 0011
-- asset_text and 0013 search, in PostgreSQL's terms).
--
-- asset_text: the text OCR read and which describer wrote
-- assets.description, one row per asset once either step has run; it goes
-- with its asset. ocr_text is the lines joined by "\n" in reading order,
-- '' when OCR found none, NULL when it has not run. ocr_lines holds the
-- lines ([{"text", "box": {"x", "y", "width", "height"}, "score"}]), NULL
-- with ocr_text; ran maps a step name to the SHA-256 (hex) of the rendering
-- it last read. SQLite keeps both as JSON text; here they are jsonb.
CREATE TABLE asset_text (
    asset_id   text COLLATE "C" PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
    ocr_text   text,
    ocr_lines  jsonb,
    describer  text,
    ran        jsonb NOT NULL DEFAULT '{}',
    updated_at bigint NOT NULL
);

-- Words are found as SQLite's FTS5 tokenizer (porter unicode61
-- remove_diacritics 2) finds them: search_fold lowers the case, drops
-- diacritics (NFD, then the combining marks) and turns anything that is not
-- a letter or digit into a space ("IMG_0042.JPG" is img 0042 jpg; the ICU
-- collation makes letters of every script letters, where the database's "C"
-- collation knows ASCII only); the photoctl_search configuration then
-- stems English words with Snowball ("sunsets" and "sunset" are one word),
-- without a stop-word list (every word typed can be found), and keeps
-- numbers and mixed words ("xf16") as they are.
CREATE FUNCTION search_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT
RETURN regexp_replace(
    lower(regexp_replace(normalize(t, NFD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+', '', 'g')
        COLLATE "und-x-icu"),
    '[^[:alnum:]]+', ' ', 'g');

CREATE TEXT SEARCH DICTIONARY photoctl_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION photoctl_search (COPY = simple);
ALTER TEXT SEARCH CONFIGURATION photoctl_search
    ALTER MAPPING FOR asciiword, word, asciihword, hword, hword_asciipart, hword_part WITH photoctl_stem;

-- search_words is the text's words, weighed.
CREATE FUNCTION search_words(t text, weight "char") RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE
RETURN setweight(to_tsvector('photoctl_search'::regconfig, coalesce(search_fold(t), '')), weight);

-- search_word_query is the query of one word as typed (folded and stemmed
-- like the text), or with prefix of any word it begins; NULL (matching
-- nothing) when nothing is left of it.
CREATE FUNCTION search_word_query(word text, prefix boolean) RETURNS tsquery
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN btrim(search_fold(word)) = '' THEN NULL
    ELSE to_tsquery('photoctl_search'::regconfig,
        quote_literal(btrim(search_fold(word))) || CASE WHEN prefix THEN ':*' ELSE '' END) END;

-- search_text holds one document per asset: its words from five sources,
-- weighed for ranking (ts_rank with the weights of search_query.go: A counts
-- double B), and its capture day, month and year as lexemes no query word
-- can spell ('#d20240615', '#m202406', '#y2024'), so a capture-time window
-- is a handful of lexemes the GIN index intersects with the words, as the
-- time tokens do in SQLite's FTS5 index. Metadata fields are the merged
-- view the API shows: the user's edit, else reverse geocoding, else the file.
--   description (B): the AI description and the caption (Description)
--   ocr (B):         the text the OCR step read (asset_text)
--   place (A):       city, state, country, sublocation, place name, label
--   file (A):        the original file name
--   camera (B):      make, model and lens
-- Person and album names are not copied in (renaming a person would
-- rewrite every document of theirs): they are in search_names.
CREATE TABLE search_text (
    asset_id text COLLATE "C" PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
    document tsvector NOT NULL
);
CREATE INDEX search_text_document ON search_text USING gin (document);

-- search_document is the document of an asset from its sources: its
-- row's description, file name, capture time and metadata layers (user,
-- geocoding, file), and its OCR text.
CREATE FUNCTION search_document(description text, ocr text, file_name text, capture_wall bigint,
                                u jsonb, g jsonb, f jsonb) RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE
RETURN search_words(concat_ws(' ', description, coalesce(u ->> 'Description', g ->> 'Description', f ->> 'Description')), 'B')
    || search_words(ocr, 'B')
    || search_words(concat_ws(' ',
        coalesce(u ->> 'City', g ->> 'City', f ->> 'City'),
        coalesce(u ->> 'State', g ->> 'State', f ->> 'State'),
        coalesce(u ->> 'Country', g ->> 'Country', f ->> 'Country'),
        coalesce(u ->> 'Sublocation', g ->> 'Sublocation', f ->> 'Sublocation'),
        coalesce(u ->> 'PlaceName', g ->> 'PlaceName', f ->> 'PlaceName'),
        coalesce(u ->> 'DisplayLabel', g ->> 'DisplayLabel', f ->> 'DisplayLabel')), 'A')
    || search_words(file_name, 'A')
    || search_words(concat_ws(' ',
        coalesce(u ->> 'Make', g ->> 'Make', f ->> 'Make'),
        coalesce(u ->> 'Model', g ->> 'Model', f ->> 'Model'),
        coalesce(u ->> 'LensModel', g ->> 'LensModel', f ->> 'LensModel')), 'B')
    || array_to_tsvector(ARRAY[
        to_char(to_timestamp(capture_wall / 1000000.0) AT TIME ZONE 'UTC', '"#d"YYYYMMDD'),
        to_char(to_timestamp(capture_wall / 1000000.0) AT TIME ZONE 'UTC', '"#m"YYYYMM'),
        to_char(to_timestamp(capture_wall / 1000000.0) AT TIME ZONE 'UTC', '"#y"YYYY')]);

INSERT INTO search_text (asset_id, document)
    SELECT a.id, search_document(a.description, t.ocr_text, a.original_file_name, a.capture_wall,
        a.meta_user, a.meta_geo, a.meta_file)
    FROM assets a LEFT JOIN asset_text t ON t.asset_id = a.id;

-- The triggers below rewrite an asset's document whenever one of its
-- sources changes, in the statement of the change.
CREATE FUNCTION search_text_asset_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- A new asset has no asset_text row yet (it references the asset).
    INSERT INTO search_text (asset_id, document) VALUES (NEW.id, search_document(NEW.description, NULL,
        NEW.original_file_name, NEW.capture_wall, NEW.meta_user, NEW.meta_geo, NEW.meta_file));
    RETURN NULL;
END $$;
CREATE TRIGGER search_text_asset_insert AFTER INSERT ON assets
    FOR EACH ROW EXECUTE FUNCTION search_text_asset_insert();

-- Asset writes rewrite every column; only a change of a source rewrites
-- the document.
CREATE FUNCTION search_text_asset_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_text SET document = search_document(NEW.description,
        (SELECT t.ocr_text FROM asset_text t WHERE t.asset_id = NEW.id),
        NEW.original_file_name, NEW.capture_wall, NEW.meta_user, NEW.meta_geo, NEW.meta_file)
    WHERE asset_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER search_text_asset_update
    AFTER UPDATE OF description, original_file_name, meta_file, meta_geo, meta_user, capture_wall ON assets
    FOR EACH ROW WHEN (OLD.description IS DISTINCT FROM NEW.description
        OR OLD.original_file_name IS DISTINCT FROM NEW.original_file_name
        OR OLD.meta_file IS DISTINCT FROM NEW.meta_file
        OR OLD.meta_geo IS DISTINCT FROM NEW.meta_geo
        OR OLD.meta_user IS DISTINCT FROM NEW.meta_user
        OR OLD.capture_wall IS DISTINCT FROM NEW.capture_wall)
    EXECUTE FUNCTION search_text_asset_update();

-- OCR text arrives (or is read again) after the asset.
CREATE FUNCTION search_text_ocr() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_text s SET document = search_document(a.description, NEW.ocr_text, a.original_file_name,
        a.capture_wall, a.meta_user, a.meta_geo, a.meta_file)
    FROM assets a WHERE a.id = NEW.asset_id AND s.asset_id = a.id;
    RETURN NULL;
END $$;
CREATE TRIGGER search_text_ocr_insert AFTER INSERT ON asset_text
    FOR EACH ROW WHEN (NEW.ocr_text IS NOT NULL) EXECUTE FUNCTION search_text_ocr();
CREATE TRIGGER search_text_ocr_update AFTER UPDATE OF ocr_text ON asset_text
    FOR EACH ROW WHEN (OLD.ocr_text IS DISTINCT FROM NEW.ocr_text) EXECUTE FUNCTION search_text_ocr();

-- Names of people and albums, one row each (SQLite's search_names and
-- search_name_refs in one table). Unnamed people have none.
CREATE TABLE search_names (
    ref_id     text COLLATE "C" PRIMARY KEY,
    kind       text NOT NULL CHECK (kind IN ('person', 'album')),
    library_id text COLLATE "C" NOT NULL,
    document   tsvector NOT NULL
);
CREATE INDEX search_names_document ON search_names USING gin (document);
CREATE INDEX search_names_library ON search_names (library_id);

INSERT INTO search_names (ref_id, kind, library_id, document)
    SELECT id, 'person', library_id, search_words(name, 'A') FROM people WHERE name <> '';
INSERT INTO search_names (ref_id, kind, library_id, document)
    SELECT id, 'album', library_id, search_words(name, 'A') FROM albums WHERE name <> '';

-- search_names_keep follows a person's or an album's name (TG_ARGV[0] is
-- the kind).
CREATE FUNCTION search_names_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' OR NEW.name = '' THEN
        DELETE FROM search_names WHERE ref_id = OLD.id;
    ELSE
        INSERT INTO search_names (ref_id, kind, library_id, document)
            VALUES (NEW.id, TG_ARGV[0], NEW.library_id, search_words(NEW.name, 'A'))
            ON CONFLICT (ref_id) DO UPDATE SET library_id = excluded.library_id, document = excluded.document;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER search_names_person_insert AFTER INSERT ON people
    FOR EACH ROW WHEN (NEW.name <> '') EXECUTE FUNCTION search_names_keep('person');
CREATE TRIGGER search_names_person_rename AFTER UPDATE OF name ON people
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION search_names_keep('person');
CREATE TRIGGER search_names_person_delete AFTER DELETE ON people
    FOR EACH ROW EXECUTE FUNCTION search_names_keep('person');
CREATE TRIGGER search_names_album_insert AFTER INSERT ON albums
    FOR EACH ROW WHEN (NEW.name <> '') EXECUTE FUNCTION search_names_keep('album');
CREATE TRIGGER search_names_album_rename AFTER UPDATE OF name ON albums
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION search_names_keep('album');
CREATE TRIGGER search_names_album_delete AFTER DELETE ON albums
    FOR EACH ROW EXECUTE FUNCTION search_names_keep('album');

-- Image search: the 64-bit perceptual hash (metrics' phash, 16 hex digits)
-- in four 16-bit bands of four hex digits; two hashes within Hamming
-- distance 3 share a band exactly. One expression index per band.
CREATE INDEX assets_phash_b0 ON assets (library_id, substr(metrics ->> 'phash', 1, 4));
CREATE INDEX assets_phash_b1 ON assets (library_id, substr(metrics ->> 'phash', 5, 4));
CREATE INDEX assets_phash_b2 ON assets (library_id, substr(metrics ->> 'phash', 9, 4));
CREATE INDEX assets_phash_b3 ON assets (library_id, substr(metrics ->> 'phash', 13, 4));
