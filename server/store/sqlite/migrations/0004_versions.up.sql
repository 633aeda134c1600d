-- Asset versions: edited renderings appended to an asset. The original is
-- not a row here: it is the asset's own file (see assets/versions.go).
-- assets.current_version_id names the current rendering (NULL = the
-- original). The file of a version is versions/<asset_id>/<id>, with
-- ".<revision>" appended once its bytes have been replaced, so a
-- replacement never overwrites the file a committed row points at.
-- Deleting an asset deletes its version rows; the service journals their
-- files first.
CREATE TABLE asset_versions (
    id             TEXT PRIMARY KEY,
    asset_id       TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    contributor_id TEXT NOT NULL REFERENCES users(id),
    mime_type      TEXT NOT NULL,
    file_name      TEXT NOT NULL,
    size           INTEGER NOT NULL,
    checksum       BLOB NOT NULL,
    revision       INTEGER NOT NULL DEFAULT 0,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;
-- An asset's versions in id (creation) order, for lists and the fallback
-- when the current version is deleted; also serves the cascade.
CREATE INDEX asset_versions_asset ON asset_versions(asset_id, id);
