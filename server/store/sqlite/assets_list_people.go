package sqlite

import "github.com/photoctl/photoctl/server/store"

// The person_ids filter of the counts and the search (assetConditions);
// the asset list's and the people repository are sqlstore's.

// personAssetConditions keeps the assets of "assets a" holding a face of
// every one of the people (decisions.md: person_ids means all of them).
func personAssetConditions(personIDs []string) ([]string, []any) {
	where := make([]string, len(personIDs))
	args := make([]any, len(personIDs))
	for i, id := range personIDs {
		where[i] = "EXISTS (SELECT 1 FROM person_assets pa WHERE pa.person_id = ? AND pa.asset_id = a.id)"
		args[i] = id
	}
	return where, args
}

// personTimeline is sqlstore's person timeline of the asset list
// (linkTimeline) in SQLite, for the people plan test (people_plan_test.go),
// which builds that list's query here: person_assets_timeline (person_id,
// live, capture_wall, asset_id) drives, as albumTimeline does for an
// album, and each asset is found by id.
func personTimeline(q *listQuery, personID string, f store.AssetFilter) {
	q.from = "person_assets pt CROSS JOIN assets a ON a.id = pt.asset_id"
	q.sort, q.idCol = "pt.capture_wall", "pt.asset_id"
	q.where = append([]string{"pt.person_id = ?", liveCondition("pt.live", f.State)}, q.where...)
	q.args = append([]any{personID}, q.args...)
	w, a := wallConditions("pt.capture_wall", f.Capture)
	q.where, q.args = append(q.where, w...), append(q.args, a...)
}
