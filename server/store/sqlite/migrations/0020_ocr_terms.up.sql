-- The parts of run-together words in the text OCR read ("NOPARKING" is
-- read as one token; its parts are no and parking), so that search finds
-- them: asset_text.ocr_terms holds them, space-separated, as
-- ingest/wordsplit's Terms returns them: '' when no token splits, NULL
-- when the text has not been split yet (texts read before this migration,
-- until the server's start-up pass splits them; app/ocr_terms.go). The
-- text shown (ocr_text) stays what OCR read.
ALTER TABLE asset_text ADD COLUMN ocr_terms TEXT;

-- The document's ocr column is the text and its terms (0013's view
-- otherwise).
DROP VIEW search_documents;
CREATE VIEW search_documents AS
SELECT a.seq,
    concat_ws(' ', a.description, coalesce(json_extract(a.meta_user, '$.Description'),
        json_extract(a.meta_geo, '$.Description'), json_extract(a.meta_file, '$.Description'))) AS description,
    (SELECT concat_ws(' ', t.ocr_text, t.ocr_terms) FROM asset_text t WHERE t.asset_id = a.id) AS ocr,
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

-- The document is written again when the text or its terms change.
DROP TRIGGER search_text_ocr_update;
CREATE TRIGGER search_text_ocr_update AFTER UPDATE OF ocr_text, ocr_terms ON asset_text
WHEN OLD.ocr_text IS NOT NEW.ocr_text OR OLD.ocr_terms IS NOT NEW.ocr_terms
BEGIN
    DELETE FROM search_text WHERE rowid = (SELECT seq FROM assets WHERE id = NEW.asset_id);
    INSERT INTO search_text (rowid, description, ocr, place, file, camera, time)
        SELECT d.seq, d.description, d.ocr, d.place, d.file, d.camera, d.time FROM assets a
        JOIN search_documents d ON d.seq = a.seq WHERE a.id = NEW.asset_id;
END;
