package sqlite

import "github.com/photoctl/photoctl/server/store"

// albumTimeline makes an asset list read an album's members through its
// timeline index (album_id, live, capture_wall, asset_id): the links drive,
// in page order, and each asset is found by id. The asset conditions stay
// as they are (library, state and the other filters).
func albumTimeline(q *listQuery, f store.AssetFilter) {
	q.from = "album_assets aa CROSS JOIN assets a ON a.id = aa.asset_id"
	q.sort, q.idCol = "aa.capture_wall", "aa.asset_id"
	q.where = append([]string{"aa.album_id = ?", liveCondition("aa.live", f.State)}, q.where...)
	q.args = append([]any{f.AlbumID}, q.args...)
	w, a := wallConditions("aa.capture_wall", f.Capture)
	q.where, q.args = append(q.where, w...), append(q.args, a...)
}
