-- The parts of run-together words in the text OCR read ("NOPARKING" is
-- read as one token; its parts are no and parking), so that search finds
-- them (SQLite's 0020): asset_text.ocr_terms holds them, space-separated,
-- as ingest/wordsplit's Terms returns them: '' when no token splits, NULL
-- when the text has not been split yet (texts read before this migration,
-- until the server's start-up pass splits them; app/ocr_terms.go). The
-- text shown (ocr_text) stays what OCR read. The document's OCR words
-- become the text's and its terms'; no document changes here (every
-- ocr_terms is NULL).
ALTER TABLE asset_text ADD COLUMN ocr_terms text;

CREATE OR REPLACE FUNCTION search_text_asset_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_text SET document = search_document(NEW.description,
        (SELECT concat_ws(' ', t.ocr_text, t.ocr_terms) FROM asset_text t WHERE t.asset_id = NEW.id),
        NEW.original_file_name, NEW.capture_wall, NEW.meta_user, NEW.meta_geo, NEW.meta_file)
    WHERE asset_id = NEW.id;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION search_text_ocr() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE search_text s SET document = search_document(a.description, concat_ws(' ', NEW.ocr_text, NEW.ocr_terms),
        a.original_file_name, a.capture_wall, a.meta_user, a.meta_geo, a.meta_file)
    FROM assets a WHERE a.id = NEW.asset_id AND s.asset_id = a.id;
    RETURN NULL;
END $$;

-- The document is written again when the text or its terms change. (IF
-- EXISTS: the renumbering test drops the column, and with it this
-- trigger, to apply this file again.)
DROP TRIGGER IF EXISTS search_text_ocr_update ON asset_text;
CREATE TRIGGER search_text_ocr_update AFTER UPDATE OF ocr_text, ocr_terms ON asset_text
    FOR EACH ROW WHEN (OLD.ocr_text IS DISTINCT FROM NEW.ocr_text OR OLD.ocr_terms IS DISTINCT FROM NEW.ocr_terms)
    EXECUTE FUNCTION search_text_ocr();
