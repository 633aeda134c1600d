-- Location filters (sqlite/assets_geo_plan.go). geo_cell numbers the 1°
-- cell of an asset's position exactly as geo_cells does at units 10000000
-- (cy * 361 + cx); NULL without coordinates. A virtual column: computed on
-- read, stored only in the index below.
ALTER TABLE assets ADD COLUMN geo_cell INTEGER GENERATED ALWAYS AS (
    (CAST((latitude + 90) * 10000000 + 0.5 AS INTEGER) / 10000000) * 361
    + CAST((longitude + 180) * 10000000 + 0.5 AS INTEGER) / 10000000) VIRTUAL;

-- A library's located assets by cell, then in timeline order. A box with a
-- moderate number of matches reads the entries of its non-empty cells, tests
-- the exact position and stack_cover from the entry, sorts, and looks up
-- only the rows of the page.
CREATE INDEX assets_geo_timeline
    ON assets(library_id, live, geo_cell, capture_wall, id, stack_cover, longitude, latitude)
    WHERE geo_cell IS NOT NULL;

-- The timeline also carries stack_cover and the position, so a walk that
-- filters on them (collapsed lists, dense location filters) tests each entry
-- before it reads the row.
DROP INDEX assets_timeline;
CREATE INDEX assets_timeline ON assets(library_id, live, capture_wall, id, stack_cover, longitude, latitude);
