package sqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

// Content search (store.Search) is the dialects' where its SQL is the
// full-text index's: FTS5's MATCH and bm25 in SQLite, tsvector's @@ and
// ts_rank in PostgreSQL, each with the ranked query built around it and
// the plan tests that hold it. What they do alike is here: reading a
// page of hits and its cursor, the look-alike candidates, the names'
// and people's rows, and the terms' and capture window's shape.

// SearchPage runs a ranked search's page for p: cursor is the query of
// the score of the hit with an id (no row: the cursor names no hit of
// this search, a 422), page the query of up to limit hits after the
// cursor's score (nil: the first page) and p.AfterID, best first, each an
// asset row (AssetCols) followed by its score.
func SearchPage(ctx context.Context, q Q, p store.Page, cursor func(id string) (string, []any),
	page func(limit int, afterScore *float64) (string, []any),
) ([]store.ScoredAsset, bool, error) {
	var after *float64
	if p.AfterID != "" {
		query, args := cursor(p.AfterID)
		after = new(float64)
		err := q.queryRow(ctx, query, args...).Scan(after)
		if isNoRows(err) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this search", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve search cursor: %w", q.translate(err))
		}
	}
	query, args := page(p.Limit+1, after)
	rows, err := q.query(ctx, query, args...)
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", q.translate(err))
	}
	defer rows.Close()
	out := make([]store.ScoredAsset, 0, p.Limit+1)
	var sc assetScanner
	for rows.Next() {
		var hit store.ScoredAsset
		a, err := sc.scan(scoreScanner{rows, &hit.Score})
		if err != nil {
			return nil, false, fmt.Errorf("scan: %w", err)
		}
		hit.Asset = a
		out = append(out, hit)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("search: %w", q.translate(err))
	}
	if len(out) > p.Limit {
		return out[:p.Limit], true, nil
	}
	return out, false, nil
}

// scoreScanner scans an asset row followed by its score.
type scoreScanner struct {
	rows  Rows
	score *float64
}

func (s scoreScanner) Scan(dest ...any) error { return s.rows.Scan(append(dest, s.score)...) }

// SearchNames runs a query of name matches, rows of (kind, ref_id).
func SearchNames(ctx context.Context, q Q, query string, args ...any) ([]store.NameMatch, error) {
	return queryAll(ctx, q, func(r scanner) (store.NameMatch, error) {
		var m store.NameMatch
		var kind string
		err := r.Scan(&kind, &m.ID)
		m.Kind = store.NameKind(kind)
		return m, err
	}, query, args...)
}

// PersonVectors runs a query of people's vectors, rows of (person_id,
// embedding).
func PersonVectors(ctx context.Context, q Q, query string, args ...any) ([]store.PersonVector, error) {
	return queryAll(ctx, q, func(r scanner) (store.PersonVector, error) {
		var v store.PersonVector
		return v, r.Scan(&v.PersonID, &v.Embedding)
	}, query, args...)
}

// PHashCandidates finds the library's assets sharing a band of their
// perceptual hash (Dialect.PHashBand) with one of bands' values, each
// band through its own index.
func PHashCandidates(ctx context.Context, q Q, libraryID string, bands [4][]string, limit int) ([]store.PHashCandidate, error) {
	var ors []string
	var args []any
	for i, values := range bands {
		if len(values) == 0 {
			continue
		}
		in, inArgs := q.d.In(q.d.PHashBand(i), values)
		ors = append(ors, "(a.library_id = ? AND "+in+")")
		args = append(append(args, libraryID), inArgs...)
	}
	if len(ors) == 0 {
		return nil, nil
	}
	return queryAll(ctx, q, func(r scanner) (store.PHashCandidate, error) {
		var c store.PHashCandidate
		return c, r.Scan(&c.ID, &c.PHash, &c.Colors)
	}, `SELECT a.id, `+q.d.JSONText("a.metrics", "phash")+`, coalesce(`+q.d.JSONText("a.metrics", "colors")+
		`, '') FROM assets a WHERE `+strings.Join(ors, " OR ")+` LIMIT ?`, append(args, limit)...)
}

// SplitTerms splits q's terms into those that match no name and the
// indexes of those that do.
func SplitTerms(q store.SearchQuery) (plain []store.SearchTerm, named []int) {
	for i, t := range q.Terms {
		if i < len(q.Names) && len(q.Names[i]) > 0 {
			named = append(named, i)
		} else {
			plain = append(plain, t)
		}
	}
	return plain, named
}

// NameLinks calls fn for the people among names, then the albums, when
// there are any: the table linking them to their assets (links), its
// column of their ids (with), their ids, and the score an asset of
// theirs has for the term.
func NameLinks(names []store.NameMatch, fn func(links, with string, ids []string, score float64)) {
	var people, albums []string
	for _, m := range names {
		if m.Kind == store.NamePerson {
			people = append(people, m.ID)
		} else {
			albums = append(albums, m.ID)
		}
	}
	if len(people) > 0 {
		fn("person_assets", "person_id", people, store.PersonNameScore)
	}
	if len(albums) > 0 {
		fn("album_assets", "album_id", albums, store.AlbumNameScore)
	}
}

// maxTimeTokens bounds the capture-time tokens of a window: a longer list
// would cost more to merge than it saves.
const maxTimeTokens = 64

// TimeTokens returns the capture-time tokens the full-text index holds
// (y2024, m202406, d20240601) that cover r's window — whole years, whole
// months, then days — widened by a day on each side (an offset-aware
// bound compares instants, up to 14 hours from the wall clock the tokens
// hold), or nil when the window is open on a side or needs more than
// maxTimeTokens. The filter's own conditions still decide exactly; the
// tokens let the index leave out most matches outside the window.
func TimeTokens(r catalog.CaptureRange) []string {
	if r.After == nil || r.Before == nil {
		return nil
	}
	day := func(us int64) time.Time {
		t := time.UnixMicro(us).UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	lo, hi := day(r.After.Micros()).AddDate(0, 0, -1), day(r.Before.Micros()).AddDate(0, 0, 1)
	var tokens []string
	for d := lo; !d.After(hi); {
		switch {
		case d.YearDay() == 1 && !d.AddDate(1, 0, -1).After(hi):
			tokens, d = append(tokens, "y"+d.Format("2006")), d.AddDate(1, 0, 0)
		case d.Day() == 1 && !d.AddDate(0, 1, -1).After(hi):
			tokens, d = append(tokens, "m"+d.Format("200601")), d.AddDate(0, 1, 0)
		default:
			tokens, d = append(tokens, "d"+d.Format("20060102")), d.AddDate(0, 0, 1)
		}
		if len(tokens) > maxTimeTokens {
			return nil
		}
	}
	return tokens
}

// Args joins argument lists and single arguments into one list.
func Args(parts ...any) []any {
	var out []any
	for _, p := range parts {
		if list, ok := p.([]any); ok {
			out = append(out, list...)
		} else {
			out = append(out, p)
		}
	}
	return out
}
