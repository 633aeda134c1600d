package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// List pages the assets of f by capture wall time, then id. An album or a
// person drives the query through its own timeline (the rarest of several
// people: the others are tested row by row); a stack's members are few.
// Without one of those, the timeline index serves the page. A location is
// the dialect's plan (GeoPlan, through AssetGeo). With MergeStates, live
// and trashed assets together are a merge of both states' pages
// (listBothStates).
func (s assets) List(ctx context.Context, f query.AssetFilter, p query.Page) ([]catalog.Asset, bool, error) {
	q := listQuery{cols: s.cols(), from: "assets a", sort: "a.capture_wall", idCol: "a.id", desc: !f.Asc}
	cond := f
	cond.Location = nil // the GeoPlan tests it
	driver := ""
	if f.AlbumID == "" && len(f.PersonIDs) > 0 {
		var err error
		if driver, err = s.rarestPerson(ctx, f.PersonIDs); err != nil {
			return nil, false, err
		}
		cond.PersonIDs = without(f.PersonIDs, driver) // its timeline tests it
	}
	var geo GeoPlan
	if f.Location != nil {
		var err error
		driven := f.StackID != "" || f.AlbumID != "" || driver != ""
		if geo, err = s.q.d.AssetGeo(ctx, s.q.c, f, driven); err != nil {
			return nil, false, err
		}
	}
	q.where, q.args = AssetConditions(s.q.d.In, cond)
	if !geo.Last {
		q.where, q.args = append(q.where, geo.Where...), append(q.args, geo.Args...)
	}
	switch {
	case f.AlbumID != "":
		linkTimeline(s.q.d, &q, "album_assets", "aa", "album_id", f.AlbumID, f)
	case driver != "":
		linkTimeline(s.q.d, &q, "person_assets", "pt", "person_id", driver, f)
	case s.q.d.MergeStates && f.State == query.StateAll && f.StackID == "" && (f.Location == nil || geo.Dense):
		return s.listBothStates(ctx, q, cond, geo, p)
	}
	if geo.Last {
		q.where, q.args = append(q.where, geo.Where...), append(q.args, geo.Args...)
	}
	if geo.LateKey != "" {
		q.late, q.lateKey, q.lateFrom = true, geo.LateKey, q.from
	}
	if geo.From != nil {
		q.from, q.args = geo.From(q.from), append(append([]any(nil), geo.FromArgs...), q.args...)
	}
	if len(geo.Branches) > 0 {
		q.late, q.branches, q.branchCond = true, geo.Branches, geo.BranchCond
	}
	var sc assetScanner
	return page(ctx, s.q, q, p, sc.scan)
}

// listBothStates pages the timeline of live and trashed assets together
// (q is the list with f's conditions for both): a page of each state read
// in index order from the cursor, merged. The timeline index leads with
// the state, so one walk over both states cannot come in page order, and
// PostgreSQL would sort the library's whole timeline for every page.
func (s assets) listBothStates(ctx context.Context, q listQuery, f query.AssetFilter, geo GeoPlan, p query.Page) ([]catalog.Asset, bool, error) {
	var wall int64
	if p.AfterID != "" {
		err := s.q.queryRow(ctx, "SELECT a.capture_wall FROM "+q.from+" WHERE "+strings.Join(q.where, " AND ")+
			" AND a.id = ?", append(append([]any(nil), q.args...), p.AfterID)...).Scan(&wall)
		if isNoRows(err) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this list", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve cursor: %w", s.q.translate(err))
		}
	}
	var out []catalog.Asset
	more := false
	var sc assetScanner
	for _, state := range []query.AssetState{query.StateLive, query.StateTrashed} {
		one := f
		one.State = state
		sq := q
		sq.where, sq.args = AssetConditions(s.q.d.In, one)
		sq.where, sq.args = append(sq.where, geo.Where...), append(sq.args, geo.Args...)
		if p.AfterID != "" {
			op := ">"
			if q.desc {
				op = "<"
			}
			sq.where = append(sq.where, "(a.capture_wall, a.id) "+op+" (?, ?)")
			sq.args = append(sq.args, wall, p.AfterID)
		}
		items, m, err := page(ctx, s.q, sq, query.Page{Limit: p.Limit}, sc.scan)
		if err != nil {
			return nil, false, err
		}
		out, more = append(out, items...), more || m
	}
	slices.SortFunc(out, func(a, b catalog.Asset) int {
		c := cmp.Or(cmp.Compare(a.Capture.Wall.UnixMicro(), b.Capture.Wall.UnixMicro()), strings.Compare(a.ID, b.ID))
		if q.desc {
			return -c
		}
		return c
	})
	if len(out) > p.Limit {
		out, more = out[:p.Limit], true
	}
	return out, more, nil
}

// rarestPerson returns the one of the people with the fewest faces (an
// unknown id counts none), whose timeline the asset list walks: a person's
// face count bounds its asset count, so the other people, tested row by
// row, reject the fewest rows.
func (s assets) rarestPerson(ctx context.Context, personIDs []string) (string, error) {
	if len(personIDs) == 1 {
		return personIDs[0], nil
	}
	in, args := s.q.d.In("id", personIDs)
	rows, err := s.q.query(ctx, `SELECT id, face_count FROM people WHERE `+in, args...)
	if err != nil {
		return "", fmt.Errorf("count the faces of people: %w", s.q.translate(err))
	}
	defer rows.Close()
	faces := make(map[string]int64, len(personIDs))
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return "", err
		}
		faces[id] = n
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("count the faces of people: %w", s.q.translate(err))
	}
	rarest := personIDs[0]
	for _, id := range personIDs[1:] {
		if faces[id] < faces[rarest] {
			rarest = id
		}
	}
	return rarest, nil
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
