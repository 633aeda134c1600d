-- Stacks. Members are the assets whose stack_id names the stack (the column
-- and its index came with 0002, so an asset is in at most one stack);
-- assets.stack_cover is 1 for the rows collapsed lists show: unstacked
-- assets, a stack's cover, and trashed members (the trash lists each one).
-- Only sqlite/stacks.go writes stack_id and stack_cover; it derives
-- stack_cover on every stack write, and the service writes the stack again
-- after members are trashed or restored (stacks.Resettle). The aggregate
-- triggers of 0003 follow stack_cover.
--
-- Not a trigger on assets.live: SQLite fires the newest trigger first, so
-- one here would change stack_cover before the 0003 triggers have counted
-- the live change, and a decrement of a count row that does not exist yet
-- would be lost.

CREATE TABLE stacks (
    id             TEXT PRIMARY KEY,
    library_id     TEXT NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    cover_asset_id TEXT NOT NULL,
    source         TEXT NOT NULL CHECK (source IN ('auto', 'manual')),
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
) STRICT;
-- The stack list: a library's stacks newest first.
CREATE INDEX stacks_library ON stacks(library_id, id);
