-- Image search finds crops: the perceptual hashes of an asset's likeliest
-- crops (ingest/metrics crops.go: kind c90, c85, c80 for the centre at 90,
-- 85 and 80% of each side, tl80, tr80, bl80, br80 for the corners at 80%),
-- beside the hash of the whole picture in assets.metrics (0013). A crop of
-- 90% or less of the photo is often as far from the photo's hash as an
-- unrelated photo, but within a few bits of one of these. The metrics
-- step writes an asset's rows with its metrics (the variants step as it
-- renders, a metrics task when measuring again); an asset measured before
-- this migration has none until measured again (`photoctl admin
-- remeasure` queues its metrics task).
--
-- Each hash is stored as its four 16-bit bands (four hex digits), indexed
-- with the library as the asset's own hash is (0013): a search probes each
-- band's value and its one-bit neighbours. library_id is the asset's (an
-- asset never changes library); the rows go with their asset.
CREATE TABLE asset_phashes (
    asset_id   TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    library_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    b0         TEXT NOT NULL,
    b1         TEXT NOT NULL,
    b2         TEXT NOT NULL,
    b3         TEXT NOT NULL,
    PRIMARY KEY (asset_id, kind)
) STRICT, WITHOUT ROWID;
CREATE INDEX asset_phashes_b0 ON asset_phashes(library_id, b0);
CREATE INDEX asset_phashes_b1 ON asset_phashes(library_id, b1);
CREATE INDEX asset_phashes_b2 ON asset_phashes(library_id, b2);
CREATE INDEX asset_phashes_b3 ON asset_phashes(library_id, b3);
