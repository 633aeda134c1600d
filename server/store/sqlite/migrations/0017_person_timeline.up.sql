-- A person's timeline. Each person-asset link now carries a copy of its
-- asset's capture_wall, kept equal by the triggers below in the same
-- statement as every asset write (as album_assets does), so the asset
-- list's person_ids filter walks one person's links in capture order
-- through person_assets_timeline: a page costs a page of index entries
-- however many or few photos the person is in.

ALTER TABLE person_assets ADD COLUMN capture_wall INTEGER NOT NULL DEFAULT 0;
UPDATE person_assets SET capture_wall = (SELECT capture_wall FROM assets WHERE id = person_assets.asset_id);
CREATE INDEX person_assets_timeline ON person_assets(person_id, live, capture_wall, asset_id);

DROP TRIGGER faces_join_on_insert;
CREATE TRIGGER faces_join_on_insert AFTER INSERT ON faces
WHEN NEW.person_id IS NOT NULL
BEGIN
    INSERT INTO person_assets (person_id, asset_id, faces, live, capture_wall)
        SELECT NEW.person_id, NEW.asset_id, 1, live, capture_wall FROM assets WHERE id = NEW.asset_id
        ON CONFLICT (person_id, asset_id) DO UPDATE SET faces = faces + 1;
    UPDATE people SET face_count = face_count + 1,
        thumbnail_face_id = coalesce(thumbnail_face_id, NEW.id)
        WHERE id = NEW.person_id;
END;

DROP TRIGGER faces_join_on_update;
CREATE TRIGGER faces_join_on_update AFTER UPDATE OF person_id ON faces
WHEN NEW.person_id IS NOT NULL AND OLD.person_id IS NOT NEW.person_id
BEGIN
    INSERT INTO person_assets (person_id, asset_id, faces, live, capture_wall)
        SELECT NEW.person_id, NEW.asset_id, 1, live, capture_wall FROM assets WHERE id = NEW.asset_id
        ON CONFLICT (person_id, asset_id) DO UPDATE SET faces = faces + 1;
    UPDATE people SET face_count = face_count + 1,
        thumbnail_face_id = coalesce(thumbnail_face_id, NEW.id)
        WHERE id = NEW.person_id;
END;

-- Links follow their asset's capture time and trash state.
DROP TRIGGER assets_live_people;
CREATE TRIGGER assets_follow_people AFTER UPDATE OF capture_wall, live ON assets
WHEN OLD.capture_wall IS NOT NEW.capture_wall OR OLD.live IS NOT NEW.live
BEGIN
    UPDATE person_assets SET capture_wall = NEW.capture_wall, live = NEW.live WHERE asset_id = NEW.id;
END;
