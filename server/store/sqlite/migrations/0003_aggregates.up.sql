-- Aggregates behind GET /api/assets/counts and GET /api/assets/geo-clusters,
-- kept by triggers in the same statement as every write to assets, so that no
-- write path (edits, trash, restore, delete, later stack changes) can forget
-- them.
--
-- Only assets that collapsed lists show are counted (stack_cover = 1), so
-- counts and clusters agree with the list. A row whose count falls to 0 is
-- deleted.
--
-- Shared expressions; the Go code (sqlite/aggregates.go, sqlstore/aggregates*.go)
-- spells them the same way, so the aggregate and fallback paths agree exactly:
--   day  (capture_wall - ((capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000
--        floor(capture_wall / one day): the wall-clock date as days since 1970-01-01
--   x    CAST((longitude + 180) * 10000000 + 0.5 AS INTEGER)
--   y    CAST((latitude + 90) * 10000000 + 0.5 AS INTEGER)
--        the position in units of 1e-7 degree (about 1 cm) east of -180 and north of -90

-- Assets per wall-clock day and per value of each filter that counts can
-- answer from here: state, media type, rating (-1 stands for none).
CREATE TABLE asset_day_counts (
    library_id TEXT    NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    live       INTEGER NOT NULL,
    day        INTEGER NOT NULL,
    media_type TEXT    NOT NULL,
    rating     INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    PRIMARY KEY (library_id, live, day, media_type, rating)
) WITHOUT ROWID;

-- The grid levels of geo_cells: a cell is units × 1e-7 degree wide and high
-- (1°, 0.1°, 0.01°), aligned on -180 and -90; each level splits a cell of
-- the next coarser one into 10 × 10.
CREATE TABLE geo_levels (units INTEGER PRIMARY KEY);
INSERT INTO geo_levels (units) VALUES (10000000), (1000000), (100000);

-- Assets with coordinates per cell of each level: the count, the sums of x
-- and y (integers, so the centroid never drifts), and the representative:
-- the greatest asset id in the cell.
CREATE TABLE geo_cells (
    library_id TEXT    NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    live       INTEGER NOT NULL,
    units      INTEGER NOT NULL,
    cx         INTEGER NOT NULL,
    cy         INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    sum_x      INTEGER NOT NULL,
    sum_y      INTEGER NOT NULL,
    rep_id     TEXT    NOT NULL,
    PRIMARY KEY (library_id, live, units, cx, cy)
) WITHOUT ROWID;

-- Existing assets.
INSERT INTO asset_day_counts (library_id, live, day, media_type, rating, count)
SELECT library_id, live,
       (capture_wall - ((capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000,
       media_type, coalesce(rating, -1), count(*)
FROM assets WHERE stack_cover = 1
GROUP BY 1, 2, 3, 4, 5;

INSERT INTO geo_cells (library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id)
SELECT library_id, live, units, x / units, y / units, count(*), sum(x), sum(y), max(id)
FROM (SELECT a.library_id, a.live, a.id, l.units,
             CAST((a.longitude + 180) * 10000000 + 0.5 AS INTEGER) AS x,
             CAST((a.latitude + 90) * 10000000 + 0.5 AS INTEGER) AS y
      FROM assets a, geo_levels l
      WHERE a.stack_cover = 1 AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL)
GROUP BY 1, 2, 3, 4, 5;

-- Changes. Inserting a row into one of these views adds (delta 1) or removes
-- (delta -1) one asset's contribution; the asset triggers below do nothing
-- else, so each rule is written once.

CREATE VIEW asset_day_count_changes AS
SELECT NULL AS library_id, NULL AS live, NULL AS day, NULL AS media_type, NULL AS rating, NULL AS delta
WHERE 0;

CREATE TRIGGER asset_day_count_add INSTEAD OF INSERT ON asset_day_count_changes
WHEN NEW.delta = 1
BEGIN
    INSERT INTO asset_day_counts (library_id, live, day, media_type, rating, count)
    VALUES (NEW.library_id, NEW.live, NEW.day, NEW.media_type, NEW.rating, 1)
    ON CONFLICT DO UPDATE SET count = count + 1;
END;

CREATE TRIGGER asset_day_count_remove INSTEAD OF INSERT ON asset_day_count_changes
WHEN NEW.delta = -1
BEGIN
    UPDATE asset_day_counts SET count = count - 1
    WHERE library_id = NEW.library_id AND live = NEW.live AND day = NEW.day
      AND media_type = NEW.media_type AND rating = NEW.rating;
    DELETE FROM asset_day_counts
    WHERE library_id = NEW.library_id AND live = NEW.live AND day = NEW.day
      AND media_type = NEW.media_type AND rating = NEW.rating AND count = 0;
END;

CREATE VIEW geo_cell_changes AS
SELECT NULL AS library_id, NULL AS live, NULL AS id, NULL AS x, NULL AS y, NULL AS delta
WHERE 0;

-- Adding raises the asset's cell at every level and makes the asset the
-- representative when its id is greater.
CREATE TRIGGER geo_cell_add INSTEAD OF INSERT ON geo_cell_changes
WHEN NEW.delta = 1
BEGIN
    INSERT INTO geo_cells (library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id)
    SELECT NEW.library_id, NEW.live, units, NEW.x / units, NEW.y / units, 1, NEW.x, NEW.y, NEW.id
    FROM geo_levels WHERE true
    ON CONFLICT DO UPDATE SET count = count + 1, sum_x = sum_x + excluded.sum_x,
        sum_y = sum_y + excluded.sum_y, rep_id = max(rep_id, excluded.rep_id);
END;

-- Removing lowers the asset's cells. When the asset was a cell's
-- representative, the finest cell's new one is looked up among its assets
-- through the R*Tree (bounded by the cell, padded by 1e-4 degree for the
-- R*Tree's 32-bit floats, then matched exactly on x and y; CROSS JOIN makes
-- the R*Tree drive), and each coarser cell takes the greatest representative
-- of its 10 × 10 children.
--
-- During an UPDATE or DELETE of assets the R*Tree may still hold the changing
-- asset at its old position (assets.go syncs assets_geo around the
-- statement); the exact match on the asset's current row keeps it out of a
-- cell it has left, and a deleted row no longer joins.
CREATE TRIGGER geo_cell_remove INSTEAD OF INSERT ON geo_cell_changes
WHEN NEW.delta = -1
BEGIN
    UPDATE geo_cells SET count = count - 1, sum_x = sum_x - NEW.x, sum_y = sum_y - NEW.y
    WHERE library_id = NEW.library_id AND live = NEW.live
      AND (units, cx, cy) IN (SELECT units, NEW.x / units, NEW.y / units FROM geo_levels);
    DELETE FROM geo_cells
    WHERE library_id = NEW.library_id AND live = NEW.live AND count = 0
      AND (units, cx, cy) IN (SELECT units, NEW.x / units, NEW.y / units FROM geo_levels);
    UPDATE geo_cells SET rep_id = (
        SELECT max(a.id) FROM assets_geo g CROSS JOIN assets a ON a.seq = g.seq
        WHERE g.max_lon >= geo_cells.cx * 0.01 - 180.0001 AND g.min_lon <= geo_cells.cx * 0.01 - 179.9899
          AND g.max_lat >= geo_cells.cy * 0.01 - 90.0001 AND g.min_lat <= geo_cells.cy * 0.01 - 89.9899
          AND a.library_id = geo_cells.library_id AND a.live = geo_cells.live AND a.stack_cover = 1
          AND CAST((a.longitude + 180) * 10000000 + 0.5 AS INTEGER) / 100000 = geo_cells.cx
          AND CAST((a.latitude + 90) * 10000000 + 0.5 AS INTEGER) / 100000 = geo_cells.cy)
    WHERE library_id = NEW.library_id AND live = NEW.live AND units = 100000
      AND cx = NEW.x / 100000 AND cy = NEW.y / 100000 AND rep_id = NEW.id;
    UPDATE geo_cells SET rep_id = (
        SELECT max(c.rep_id) FROM geo_cells c
        WHERE c.library_id = geo_cells.library_id AND c.live = geo_cells.live AND c.units = 100000
          AND c.cx BETWEEN geo_cells.cx * 10 AND geo_cells.cx * 10 + 9
          AND c.cy BETWEEN geo_cells.cy * 10 AND geo_cells.cy * 10 + 9)
    WHERE library_id = NEW.library_id AND live = NEW.live AND units = 1000000
      AND cx = NEW.x / 1000000 AND cy = NEW.y / 1000000 AND rep_id = NEW.id;
    UPDATE geo_cells SET rep_id = (
        SELECT max(c.rep_id) FROM geo_cells c
        WHERE c.library_id = geo_cells.library_id AND c.live = geo_cells.live AND c.units = 1000000
          AND c.cx BETWEEN geo_cells.cx * 10 AND geo_cells.cx * 10 + 9
          AND c.cy BETWEEN geo_cells.cy * 10 AND geo_cells.cy * 10 + 9)
    WHERE library_id = NEW.library_id AND live = NEW.live AND units = 10000000
      AND cx = NEW.x / 10000000 AND cy = NEW.y / 10000000 AND rep_id = NEW.id;
END;

-- Asset writes ------------------------------------------------------------

CREATE TRIGGER assets_aggregates_insert AFTER INSERT ON assets
WHEN NEW.stack_cover = 1
BEGIN
    INSERT INTO asset_day_count_changes
    VALUES (NEW.library_id, NEW.live,
            (NEW.capture_wall - ((NEW.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000,
            NEW.media_type, coalesce(NEW.rating, -1), 1);
    INSERT INTO geo_cell_changes
    SELECT NEW.library_id, NEW.live, NEW.id,
           CAST((NEW.longitude + 180) * 10000000 + 0.5 AS INTEGER),
           CAST((NEW.latitude + 90) * 10000000 + 0.5 AS INTEGER), 1
    WHERE NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL;
END;

CREATE TRIGGER assets_aggregates_delete AFTER DELETE ON assets
WHEN OLD.stack_cover = 1
BEGIN
    INSERT INTO asset_day_count_changes
    VALUES (OLD.library_id, OLD.live,
            (OLD.capture_wall - ((OLD.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000,
            OLD.media_type, coalesce(OLD.rating, -1), -1);
    INSERT INTO geo_cell_changes
    SELECT OLD.library_id, OLD.live, OLD.id,
           CAST((OLD.longitude + 180) * 10000000 + 0.5 AS INTEGER),
           CAST((OLD.latitude + 90) * 10000000 + 0.5 AS INTEGER), -1
    WHERE OLD.latitude IS NOT NULL AND OLD.longitude IS NOT NULL;
END;

-- An update moves the asset's contribution only when a column it depends on
-- changed (assets.go rewrites every column on each edit).
CREATE TRIGGER assets_day_counts_update
AFTER UPDATE OF library_id, live, capture_wall, media_type, rating, stack_cover ON assets
WHEN (OLD.stack_cover = 1 OR NEW.stack_cover = 1)
 AND (OLD.library_id IS NOT NEW.library_id OR OLD.live IS NOT NEW.live
      OR OLD.media_type IS NOT NEW.media_type OR OLD.rating IS NOT NEW.rating
      OR OLD.stack_cover IS NOT NEW.stack_cover
      OR (OLD.capture_wall - ((OLD.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000
         IS NOT (NEW.capture_wall - ((NEW.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000)
BEGIN
    INSERT INTO asset_day_count_changes
    SELECT OLD.library_id, OLD.live,
           (OLD.capture_wall - ((OLD.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000,
           OLD.media_type, coalesce(OLD.rating, -1), -1
    WHERE OLD.stack_cover = 1;
    INSERT INTO asset_day_count_changes
    SELECT NEW.library_id, NEW.live,
           (NEW.capture_wall - ((NEW.capture_wall % 86400000000) + 86400000000) % 86400000000) / 86400000000,
           NEW.media_type, coalesce(NEW.rating, -1), 1
    WHERE NEW.stack_cover = 1;
END;

CREATE TRIGGER assets_geo_cells_update
AFTER UPDATE OF library_id, live, latitude, longitude, stack_cover ON assets
WHEN ((OLD.stack_cover = 1 AND OLD.latitude IS NOT NULL AND OLD.longitude IS NOT NULL)
      OR (NEW.stack_cover = 1 AND NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL))
 AND (OLD.library_id IS NOT NEW.library_id OR OLD.live IS NOT NEW.live OR OLD.stack_cover IS NOT NEW.stack_cover
      OR CAST((OLD.longitude + 180) * 10000000 + 0.5 AS INTEGER) IS NOT CAST((NEW.longitude + 180) * 10000000 + 0.5 AS INTEGER)
      OR CAST((OLD.latitude + 90) * 10000000 + 0.5 AS INTEGER) IS NOT CAST((NEW.latitude + 90) * 10000000 + 0.5 AS INTEGER))
BEGIN
    INSERT INTO geo_cell_changes
    SELECT OLD.library_id, OLD.live, OLD.id,
           CAST((OLD.longitude + 180) * 10000000 + 0.5 AS INTEGER),
           CAST((OLD.latitude + 90) * 10000000 + 0.5 AS INTEGER), -1
    WHERE OLD.stack_cover = 1 AND OLD.latitude IS NOT NULL AND OLD.longitude IS NOT NULL;
    INSERT INTO geo_cell_changes
    SELECT NEW.library_id, NEW.live, NEW.id,
           CAST((NEW.longitude + 180) * 10000000 + 0.5 AS INTEGER),
           CAST((NEW.latitude + 90) * 10000000 + 0.5 AS INTEGER), 1
    WHERE NEW.stack_cover = 1 AND NEW.latitude IS NOT NULL AND NEW.longitude IS NOT NULL;
END;
