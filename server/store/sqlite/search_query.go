package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// textRank is an asset's text score: bm25 over search_text, negated so
// that higher is better, with the fields weighed (description, ocr, place,
// file, camera, time). Places and file names weigh double: they are what
// people type exactly, and their words are few. The time tokens weigh
// nothing: they select, they do not rank.
const textRank = "-bm25(search_text, 1.0, 1.0, 2.0, 2.0, 1.0, 0.0)"

// Criteria are the CTEs of q's criteria (sqlstore.TextIndex), read as
// its searchPlan says: the full-text index finds the text's matches, the
// names' links and the image's look-alikes and people the rest, each a
// CTE of (seq, score); sqlstore.Ranked then reads each hit's asset row by
// seq and tests it against the filter.
func (fts) Criteria(ctx context.Context, c sqlstore.Conn, q query.SearchQuery) ([]string, []any, error) {
	p, err := choosePlan(ctx, c, q)
	if err != nil {
		return nil, nil, err
	}
	return criteria(q, p)
}

// searchPlan says how a search reads its text matches (all optional):
// pre is the prefilter of the full-text matches (search_prefilter.go);
// timeExpr the capture-time tokens they must have (timeTokens); window,
// the capture window's conditions over "assets a" that the assets of
// matched people and albums are found through (the timeline), instead of
// through those people and albums (all their assets).
type searchPlan struct {
	pre      *prefilterSQL
	timeExpr string
	window   *prefilterSQL
}

// choosePlan chooses q's searchPlan, reading the sizes of its sets over c.
func choosePlan(ctx context.Context, c sqlstore.Conn, q query.SearchQuery) (searchPlan, error) {
	var p searchPlan
	if len(q.Terms) == 0 {
		return p, nil
	}
	f := q.Filter
	if useTimeTokens {
		p.timeExpr = timeTokens(f.Capture)
	}
	var err error
	if p.pre, err = prefilter(ctx, c, f, plainExpr(q, p.timeExpr), p.timeExpr != ""); err != nil {
		return p, err
	}
	if _, named := sqlstore.SplitTerms(q); len(named) > 0 && prefilterMode != prefilterNever && !f.Capture.IsZero() {
		n, err := windowSize(ctx, c, f)
		if err != nil {
			return p, err
		}
		if n <= prefilterMax || prefilterMode == prefilterAlways {
			p.window = windowSet(f)
		}
	}
	return p, nil
}

// criteria are the CTEs of q's criteria: pre(seq), the prefilter's set,
// when plan has one, then txt(seq, score) and img(seq, score).
func criteria(q query.SearchQuery, plan searchPlan) ([]string, []any, error) {
	var ctes []string
	var args []any
	if plan.pre != nil {
		ctes, args = append(ctes, "pre(seq) AS MATERIALIZED ("+plan.pre.query+")"), append(args, plan.pre.args...)
	}
	if len(q.Terms) > 0 {
		cte, a := textCTE(q, plan)
		ctes, args = append(ctes, cte), append(args, a...)
	}
	if q.Image != nil {
		cte, a, err := imageCTE(q.Image)
		if err != nil {
			return nil, nil, err
		}
		ctes, args = append(ctes, cte), append(args, a...)
	}
	return ctes, args, nil
}

// textCTE defines txt(seq, score) for q's terms. Terms that match no name
// go into one full-text query (FTS5 intersects them and bm25 scores them
// together); a term that matches people or albums is a group of its own,
// the union of its text matches and the assets of those people and
// albums, best score per asset; an asset must be in every group. A term
// that takes both its word and the words it begins adds a CTE of the
// assets with its word (exN), whose hits gain query.ExactBonus.
func textCTE(q query.SearchQuery, plan searchPlan) (string, []any) {
	plain, named := sqlstore.SplitTerms(q)
	var exact []string
	var exactArgs []any
	fts := func(terms []query.SearchTerm) (string, []any) {
		score := textRank
		for _, t := range terms {
			if ex := sqlstore.ExactSpellings(t); ex != nil {
				name := fmt.Sprintf("ex%d", len(exact))
				exact = append(exact, name+"(seq) AS (SELECT rowid FROM search_text WHERE search_text MATCH ?)")
				exactArgs = append(exactArgs, ftsAll([]query.SearchTerm{ex}, plan.timeExpr))
				score += fmt.Sprintf(" + (CASE WHEN rowid IN (SELECT seq FROM %s) THEN %g ELSE 0 END)", name, query.ExactBonus)
			}
		}
		query := "SELECT rowid AS seq, " + score + " AS s FROM search_text WHERE search_text MATCH ?"
		if plan.pre != nil {
			// "+": tested on each match, never handed to FTS5 as rowids to seek.
			query += " AND +rowid IN (SELECT seq FROM pre)"
		}
		return query, []any{ftsAll(terms, plan.timeExpr)}
	}
	withExact := func(txt string, args []any) (string, []any) {
		return strings.Join(append(exact, txt), ", "), append(exactArgs, args...)
	}
	if len(named) == 0 {
		src, args := fts(plain)
		return withExact("txt(seq, score) AS ("+src+")", args)
	}
	var groups []string
	var args []any
	if len(plain) > 0 {
		src, a := fts(plain)
		groups, args = append(groups, src), append(args, a...)
	}
	for _, i := range named {
		src, a := fts(q.Terms[i : i+1])
		sources := []string{src}
		args = append(args, a...)
		sqlstore.NameLinks(q.Names[i], func(links, with string, ids []string, score float64) {
			if plan.window == nil { // every asset of theirs
				sources = append(sources, fmt.Sprintf(`SELECT a.seq, %g FROM %s l CROSS JOIN assets a
					ON a.id = l.asset_id WHERE l.%s IN (%s)`, score, links, with, placeholders(len(ids))))
				args = append(args, anySlice(ids)...)
				return
			}
			// The window's assets through the timeline, each looked up in the links.
			sources = append(sources, fmt.Sprintf(`SELECT seq, %g FROM (%s AND EXISTS (SELECT 1 FROM %s l
				WHERE l.%s IN (%s) AND l.asset_id = a.id))`, score, plan.window.query, links, with, placeholders(len(ids))))
			args = append(append(args, plan.window.args...), anySlice(ids)...)
		})
		groups = append(groups, "SELECT seq, max(s) AS s FROM ("+strings.Join(sources, " UNION ALL ")+") GROUP BY seq")
	}
	return withExact(fmt.Sprintf("txt(seq, score) AS (SELECT seq, sum(s) FROM (%s) GROUP BY seq HAVING count(*) = %d)",
		strings.Join(groups, " UNION ALL "), len(groups)), args)
}

// plainExpr is the full-text expression of q's terms that match no name,
// "" when every term matches one.
func plainExpr(q query.SearchQuery, timeExpr string) string {
	plain, _ := sqlstore.SplitTerms(q)
	if len(plain) == 0 {
		return ""
	}
	return ftsAll(plain, timeExpr)
}

// useTimeTokens is false in tests comparing searches without the tokens.
var useTimeTokens = true

// timeTokens returns the expression of search_text's time tokens that
// cover r's window (sqlstore.TimeTokens), or "" when there are none.
func timeTokens(r catalog.CaptureRange) string {
	tokens := sqlstore.TimeTokens(r)
	if tokens == nil {
		return ""
	}
	return "time : (\"" + strings.Join(tokens, "\" OR \"") + "\")"
}

// imageCTE defines img(seq, score) for an image's matches, passed as JSON
// arrays: the look-alikes [[id, score], ...] and the people
// [[person_id, face, score], ...]. An asset scores its look-alike score
// plus, per face of the image, the best score of its people like it.
func imageCTE(im *query.ImageCriteria) (string, []any, error) {
	visual := make([][2]any, len(im.Visual))
	for i, v := range im.Visual {
		visual[i] = [2]any{v.ID, v.Score}
	}
	people := make([][3]any, len(im.People))
	for i, p := range im.People {
		people[i] = [3]any{p.PersonID, p.Face, p.Score}
	}
	vj, err := json.Marshal(visual)
	if err != nil {
		return "", nil, err
	}
	pj, err := json.Marshal(people)
	if err != nil {
		return "", nil, err
	}
	return `img(seq, score) AS (SELECT seq, sum(s) FROM (
		SELECT a.seq AS seq, j.value ->> 1 AS s FROM json_each(?) j CROSS JOIN assets a ON a.id = j.value ->> 0
		UNION ALL
		SELECT seq, max(s) FROM (SELECT a.seq AS seq, j.value ->> 1 AS face, j.value ->> 2 AS s FROM json_each(?) j
			CROSS JOIN person_assets pa ON pa.person_id = j.value ->> 0 CROSS JOIN assets a ON a.id = pa.asset_id)
		GROUP BY seq, face) GROUP BY seq)`, []any{string(vj), string(pj)}, nil
}
