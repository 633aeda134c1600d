package sqlite

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/store"
)

// The asset list's person_ids filter (assets_list.go); the people
// repository itself is sqlstore's.

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

// rarestPerson returns the one of the people with the fewest faces (an
// unknown id counts none), whose timeline the asset list walks: a person's
// face count bounds its asset count, so the other people, tested row by
// row, reject the fewest rows.
func rarestPerson(ctx context.Context, db querier, personIDs []string) (string, error) {
	if len(personIDs) == 1 {
		return personIDs[0], nil
	}
	rows, err := db.QueryContext(ctx, `SELECT id, face_count FROM people WHERE id IN (`+
		placeholders(len(personIDs))+`)`, anySlice(personIDs)...)
	if err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	defer rows.Close()
	faces := make(map[string]int, len(personIDs))
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return "", err
		}
		faces[id] = n
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("count the faces of people: %w", translate(err))
	}
	rarest := personIDs[0]
	for _, id := range personIDs[1:] {
		if faces[id] < faces[rarest] {
			rarest = id
		}
	}
	return rarest, nil
}

// personTimeline makes an asset list read one person's assets through
// person_assets_timeline (person_id, live, capture_wall, asset_id), as
// albumTimeline does for an album: the links drive, in page order, and
// each asset is found by id; q's conditions test the rest of the filter.
func personTimeline(q *listQuery, personID string, f store.AssetFilter) {
	q.from = "person_assets pt CROSS JOIN assets a ON a.id = pt.asset_id"
	q.sort, q.idCol = "pt.capture_wall", "pt.asset_id"
	q.where = append([]string{"pt.person_id = ?", liveCondition("pt.live", f.State)}, q.where...)
	q.args = append([]any{personID}, q.args...)
	w, a := wallConditions("pt.capture_wall", f.Capture)
	q.where, q.args = append(q.where, w...), append(q.args, a...)
}

// without returns ids less every copy of id.
func without(ids []string, id string) []string {
	out := make([]string, 0, len(ids))
	for _, v := range ids {
		if v != id {
			out = append(out, v)
		}
	}
	return out
}
