-- Tags of a library (the Immich layer's PUT /api/tags) and the assets
-- they label. A value is the whole label ("Travel/2024"), unique in its
-- library; links go with their tag or their asset.
CREATE TABLE tags (
    id         text COLLATE "C" PRIMARY KEY,
    library_id text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    value      text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);
CREATE UNIQUE INDEX tags_value ON tags(library_id, value);

CREATE TABLE tag_assets (
    tag_id     text COLLATE "C" NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    asset_id   text COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    PRIMARY KEY (tag_id, asset_id)
);
-- An asset's tags, and the cascade from assets.
CREATE INDEX tag_assets_asset ON tag_assets(asset_id);
