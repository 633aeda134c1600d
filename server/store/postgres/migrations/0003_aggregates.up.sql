-- Aggregates behind GET /api/assets/counts and GET /api/assets/geo-clusters:
-- the tables of SQLite's 0003 (same names and columns), kept by triggers on
-- assets in the same statement as every write, so that no write path (edits,
-- trash, restore, delete, stack changes) can forget them.
--
-- Only assets that collapsed lists show are counted (stack_cover = 1), so
-- counts and clusters agree with the list. A row whose count falls to 0 is
-- deleted.
--
-- Unlike SQLite's row triggers, these are statement triggers over transition
-- tables: PostgreSQL runs AFTER ROW triggers only once the whole statement
-- has changed every row, so a row trigger looking for a cell's new
-- representative could see a cell already emptied by rows whose own triggers
-- have not run yet (a stack's cover changing hands moves two rows in one
-- UPDATE). A statement trigger sees the finished table and applies the net
-- change of all rows at once.
--
-- Shared expressions (functions below; the Go code in aggregates*.go spells
-- them the same way, so the aggregate and fallback paths agree exactly):
--   asset_day(capture_wall)  floor(capture_wall / one day): the wall-clock
--                            date as days since 1970-01-01
--   asset_geo_x(longitude)   trunc((longitude + 180) * 10000000 + 0.5)
--   asset_geo_y(latitude)    trunc((latitude + 90) * 10000000 + 0.5)
--        the position in units of 1e-7 degree (about 1 cm) east of -180 and
--        north of -90; trunc, not a cast (a cast to bigint rounds half to
--        even), as SQLite's CAST AS INTEGER and Go's int64() truncate.

CREATE FUNCTION asset_day(wall bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT (wall - ((wall % 86400000000) + 86400000000) % 86400000000) / 86400000000 $$;

CREATE FUNCTION asset_geo_x(longitude double precision) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT trunc((longitude + 180) * 10000000 + 0.5)::bigint $$;

CREATE FUNCTION asset_geo_y(latitude double precision) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT trunc((latitude + 90) * 10000000 + 0.5)::bigint $$;

-- Assets per wall-clock day and per value of each filter that counts can
-- answer from here: state, media type, rating (-1 stands for none).
CREATE TABLE asset_day_counts (
    library_id text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    live       integer NOT NULL,
    day        bigint  NOT NULL,
    media_type text    NOT NULL,
    rating     integer NOT NULL,
    count      bigint  NOT NULL,
    PRIMARY KEY (library_id, live, day, media_type, rating)
);

-- The grid levels of geo_cells: a cell is units × 1e-7 degree wide and high
-- (1°, 0.1°, 0.01°), aligned on -180 and -90; each level splits a cell of
-- the next coarser one into 10 × 10.
CREATE TABLE geo_levels (units bigint PRIMARY KEY);
INSERT INTO geo_levels (units) VALUES (10000000), (1000000), (100000);
-- Statistics, so that plans joining it know it holds three rows (a table
-- this small is never analyzed by autovacuum).
ANALYZE geo_levels;

-- Assets with coordinates per cell of each level: the count, the sums of x
-- and y (integers, so the centroid never drifts), and the representative:
-- the greatest asset id in the cell.
CREATE TABLE geo_cells (
    library_id text COLLATE "C" NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    live       integer NOT NULL,
    units      bigint  NOT NULL,
    cx         bigint  NOT NULL,
    cy         bigint  NOT NULL,
    count      bigint  NOT NULL,
    sum_x      bigint  NOT NULL,
    sum_y      bigint  NOT NULL,
    rep_id     text COLLATE "C" NOT NULL,
    PRIMARY KEY (library_id, live, units, cx, cy)
);

-- A library's shown, located assets by their 0.01° cell, greatest id last:
-- a cell that loses its representative finds the next one here.
CREATE INDEX assets_fine_cell ON assets (library_id, live, (asset_geo_x(longitude) / 100000),
    (asset_geo_y(latitude) / 100000), id)
    WHERE stack_cover = 1 AND latitude IS NOT NULL AND longitude IS NOT NULL;

-- Existing assets.
INSERT INTO asset_day_counts (library_id, live, day, media_type, rating, count)
SELECT library_id, live, asset_day(capture_wall), media_type, coalesce(rating, -1), count(*)
FROM assets WHERE stack_cover = 1
GROUP BY 1, 2, 3, 4, 5;

INSERT INTO geo_cells (library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id)
SELECT library_id, live, units, x / units, y / units, count(*), sum(x), sum(y), max(id)
FROM (SELECT a.library_id, a.live, a.id, l.units, asset_geo_x(a.longitude) AS x, asset_geo_y(a.latitude) AS y
      FROM assets a CROSS JOIN geo_levels l
      WHERE a.stack_cover = 1 AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL) p
GROUP BY 1, 2, 3, 4, 5;

-- Changes. One asset_contribution adds (delta 1) or removes (delta -1) one
-- asset's share; asset_aggregates_apply applies a statement's worth of them,
-- so each rule is written once. x and y are NULL without coordinates.
CREATE TYPE asset_contribution AS (
    library_id text COLLATE "C",
    live       integer,
    day        bigint,
    media_type text,
    rating     integer,
    id         text COLLATE "C",
    x          bigint,
    y          bigint,
    delta      integer
);

-- asset_share is an asset row's contribution with the given delta.
CREATE FUNCTION asset_share(a assets, delta integer) RETURNS asset_contribution
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ROW(a.library_id, a.live, asset_day(a.capture_wall), a.media_type, coalesce(a.rating, -1), a.id,
    CASE WHEN a.latitude IS NOT NULL THEN asset_geo_x(a.longitude) END,
    CASE WHEN a.longitude IS NOT NULL THEN asset_geo_y(a.latitude) END, delta)::asset_contribution $$;

-- asset_aggregates_apply adds the net change of contributions to both
-- tables (a cell that only loses assets proposes '' as its representative,
-- which sorts before every id: NOT NULL is checked before ON CONFLICT),
-- deletes emptied rows, and gives each cell that lost its
-- representative a new one: the finest level's from its assets (through
-- assets_fine_cell, over the table as the statement left it), each coarser
-- level's as the greatest representative of its 10 × 10 children.
CREATE FUNCTION asset_aggregates_apply(changes asset_contribution[]) RETURNS void
LANGUAGE plpgsql
-- Every table here is reached through its key from the few changed rows;
-- the planner cannot know how few (an array's length is a guess in a
-- generic plan), and a scan of geo_cells or assets would cost a write to
-- a large library dearly.
SET enable_seqscan = off
AS $$
DECLARE
    removals boolean; -- some share is removed: rows may empty, representatives leave
    located  boolean; -- some share has coordinates
BEGIN
    IF cardinality(changes) = 0 THEN
        RETURN;
    END IF;
    SELECT bool_or(ch.delta < 0), bool_or(ch.x IS NOT NULL AND ch.y IS NOT NULL)
    INTO removals, located FROM unnest(changes) ch;

    INSERT INTO asset_day_counts AS c (library_id, live, day, media_type, rating, count)
    SELECT ch.library_id, ch.live, ch.day, ch.media_type, ch.rating, sum(ch.delta)
    FROM unnest(changes) ch
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(ch.delta) <> 0
    ON CONFLICT (library_id, live, day, media_type, rating) DO UPDATE SET count = c.count + excluded.count;
    IF removals THEN
        DELETE FROM asset_day_counts c USING unnest(changes) ch
        WHERE ch.delta < 0 AND c.count = 0
          AND c.library_id = ch.library_id AND c.live = ch.live AND c.day = ch.day
          AND c.media_type = ch.media_type AND c.rating = ch.rating;
    END IF;
    IF NOT located THEN
        RETURN;
    END IF;

    INSERT INTO geo_cells AS c (library_id, live, units, cx, cy, count, sum_x, sum_y, rep_id)
    SELECT ch.library_id, ch.live, l.units, ch.x / l.units, ch.y / l.units,
           sum(ch.delta), sum(ch.x * ch.delta), sum(ch.y * ch.delta),
           coalesce(max(ch.id) FILTER (WHERE ch.delta > 0), '')
    FROM unnest(changes) ch CROSS JOIN geo_levels l
    WHERE ch.x IS NOT NULL AND ch.y IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(ch.delta) <> 0 OR sum(ch.x * ch.delta) <> 0 OR sum(ch.y * ch.delta) <> 0
        OR max(ch.id) FILTER (WHERE ch.delta > 0) IS NOT NULL
    ON CONFLICT (library_id, live, units, cx, cy) DO UPDATE SET count = c.count + excluded.count,
        sum_x = c.sum_x + excluded.sum_x, sum_y = c.sum_y + excluded.sum_y,
        rep_id = greatest(c.rep_id, excluded.rep_id);
    IF NOT removals THEN
        RETURN;
    END IF;
    DELETE FROM geo_cells c USING unnest(changes) ch, geo_levels l
    WHERE ch.delta < 0 AND ch.x IS NOT NULL AND ch.y IS NOT NULL AND c.count = 0
      AND c.library_id = ch.library_id AND c.live = ch.live AND c.units = l.units
      AND c.cx = ch.x / l.units AND c.cy = ch.y / l.units;

    UPDATE geo_cells c SET rep_id = (
        SELECT max(a.id) FROM assets a
        WHERE a.library_id = c.library_id AND a.live = c.live
          AND a.stack_cover = 1 AND a.latitude IS NOT NULL AND a.longitude IS NOT NULL
          AND asset_geo_x(a.longitude) / 100000 = c.cx AND asset_geo_y(a.latitude) / 100000 = c.cy)
    FROM unnest(changes) ch
    WHERE ch.delta < 0 AND ch.x IS NOT NULL AND ch.y IS NOT NULL
      AND c.library_id = ch.library_id AND c.live = ch.live AND c.units = 100000
      AND c.cx = ch.x / 100000 AND c.cy = ch.y / 100000 AND c.rep_id = ch.id;
    UPDATE geo_cells c SET rep_id = (
        SELECT max(f.rep_id) FROM geo_cells f
        WHERE f.library_id = c.library_id AND f.live = c.live AND f.units = 100000
          AND f.cx BETWEEN c.cx * 10 AND c.cx * 10 + 9 AND f.cy BETWEEN c.cy * 10 AND c.cy * 10 + 9)
    FROM unnest(changes) ch
    WHERE ch.delta < 0 AND ch.x IS NOT NULL AND ch.y IS NOT NULL
      AND c.library_id = ch.library_id AND c.live = ch.live AND c.units = 1000000
      AND c.cx = ch.x / 1000000 AND c.cy = ch.y / 1000000 AND c.rep_id = ch.id;
    UPDATE geo_cells c SET rep_id = (
        SELECT max(f.rep_id) FROM geo_cells f
        WHERE f.library_id = c.library_id AND f.live = c.live AND f.units = 1000000
          AND f.cx BETWEEN c.cx * 10 AND c.cx * 10 + 9 AND f.cy BETWEEN c.cy * 10 AND c.cy * 10 + 9)
    FROM unnest(changes) ch
    WHERE ch.delta < 0 AND ch.x IS NOT NULL AND ch.y IS NOT NULL
      AND c.library_id = ch.library_id AND c.live = ch.live AND c.units = 10000000
      AND c.cx = ch.x / 10000000 AND c.cy = ch.y / 10000000 AND c.rep_id = ch.id;
END $$;

-- Asset writes ------------------------------------------------------------

CREATE FUNCTION assets_aggregates_insert() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM asset_aggregates_apply(ARRAY(SELECT asset_share(n, 1) FROM new_rows n WHERE n.stack_cover = 1));
    RETURN NULL;
END $$;

CREATE FUNCTION assets_aggregates_delete() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM asset_aggregates_apply(ARRAY(SELECT asset_share(o, -1) FROM old_rows o WHERE o.stack_cover = 1));
    RETURN NULL;
END $$;

-- An update moves the contribution of the rows where a column it depends
-- on changed (the asset store rewrites every column on each edit); a row
-- whose share stays the same cancels out.
CREATE FUNCTION assets_aggregates_update() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM asset_aggregates_apply(ARRAY(
        SELECT s FROM old_rows o JOIN new_rows n ON n.id = o.id,
            LATERAL (SELECT asset_share(o, -1) WHERE o.stack_cover = 1
                     UNION ALL SELECT asset_share(n, 1) WHERE n.stack_cover = 1) AS x(s)
        WHERE (o.stack_cover = 1 OR n.stack_cover = 1)
          AND (o.library_id, o.live, o.stack_cover, asset_day(o.capture_wall), o.media_type, o.rating,
               o.latitude, o.longitude)
              IS DISTINCT FROM (n.library_id, n.live, n.stack_cover, asset_day(n.capture_wall), n.media_type,
               n.rating, n.latitude, n.longitude)));
    RETURN NULL;
END $$;

CREATE TRIGGER assets_aggregates_insert AFTER INSERT ON assets
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION assets_aggregates_insert();

CREATE TRIGGER assets_aggregates_delete AFTER DELETE ON assets
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION assets_aggregates_delete();

CREATE TRIGGER assets_aggregates_update AFTER UPDATE ON assets
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION assets_aggregates_update();
