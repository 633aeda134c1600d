-- What the ML steps found in an asset, beside its row: the text OCR read
-- (the `ocr` task) and which describer wrote assets.description (the
-- `describe` task; the description itself is assets.description: NULL =
-- not run, '' = the model refused). One row per asset once either step
-- has run; it goes with its asset.
--
-- For search (read it, do not write it): ocr_text is the text read from
-- the asset's preview (a video's poster), its lines joined by "\n" in
-- reading order; '' when OCR ran and found none; NULL when OCR has not
-- run or was skipped (ML off or not installed). Join assets on asset_id
-- for the library and state. The table keeps its rowid, so an FTS5 index
-- may use it as external content.
CREATE TABLE asset_text (
    asset_id   TEXT PRIMARY KEY REFERENCES assets(id) ON DELETE CASCADE,
    ocr_text   TEXT,
    -- The lines as JSON, in reading order: [{"text": "…", "box": {"x", "y",
    -- "width", "height"} (fractions of the upright image), "score": 0..1}];
    -- NULL with ocr_text.
    ocr_lines  TEXT,
    -- "builtin" or "openai:<model>"; NULL until the describe task ran.
    describer  TEXT,
    -- What the faces and ocr steps last read, as a JSON object: step name →
    -- SHA-256 (hex) of the rendering. A step run again on the same
    -- rendering has nothing to do (a position edit re-runs the chain after
    -- geocode), and so never brings back a face a user deleted.
    ran        TEXT NOT NULL DEFAULT '{}',
    updated_at INTEGER NOT NULL
) STRICT;
