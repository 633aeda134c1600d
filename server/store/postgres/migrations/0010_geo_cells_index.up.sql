-- Location filters with many matches (postgres/assets_list.go, geoCells):
-- asset_geo_cell numbers the 1° cell of a position exactly as geo_cells
-- does at units 10000000 (cy * 361 + cx), and as SQLite's geo_cell column.
CREATE FUNCTION asset_geo_cell(longitude double precision, latitude double precision) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (asset_geo_y(latitude) / 10000000) * 361 + asset_geo_x(longitude) / 10000000 $$;

-- A library's located assets by cell, then in timeline order, carrying
-- what a collapsed list tests (stack_cover, the position): a box's page
-- reads the entries of its non-empty cells without their rows, sorts them
-- and reads only the rows of the page. The timeline walk instead tested
-- each row of the library newer than the box's photos, a second and more
-- at 1M assets when those photos were a trip years ago.
CREATE INDEX assets_geo_timeline
    ON assets (library_id, live, asset_geo_cell(longitude, latitude), capture_wall, id)
    INCLUDE (stack_cover, longitude, latitude)
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
