package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store/sqlstore"
)

// Text ranking. PostgreSQL has no bm25; a term's score is ts_rank over the
// asset's document (occurrences count, with diminishing returns), the
// fields weighed by the labels 0010 gives them: place and file name (A)
// count double the description, OCR text and camera (B), as in the SQLite
// store. textScale brings one occurrence in a B field to about 3, the
// scale of bm25 that query.PersonNameScore and AlbumNameScore are set on.
// Unlike bm25, a rare word scores no more than a common one.
const (
	textWeights = "'{0, 0, 0.5, 1}'::float4[]" // D, C, B, A
	textScale   = 10
)

// Criteria are the CTEs of q's criteria (sqlstore.TextIndex), each of
// (id, score): the GIN index of search_text finds the text matches,
// capture-time window included (timeTokens); sqlstore.Ranked then tests
// each hit's asset row against the filter.
func (tsearch) Criteria(_ context.Context, _ sqlstore.Conn, q query.SearchQuery) ([]string, []any, error) {
	var ctes []string
	var args []any
	if len(q.Terms) > 0 {
		cte, a := textCTE(q)
		ctes, args = append(ctes, cte), append(args, a...)
	}
	if q.Image != nil {
		cte, a := imageCTE(q.Image)
		ctes, args = append(ctes, cte), append(args, a...)
	}
	return ctes, args, nil
}

// roundScore rounds a hit's score to 1e-9 (the dialect's RoundScore).
func roundScore(expr string) string { return "round((" + expr + ")::numeric, 9)::float8" }

// textSource is the query of (asset_id, s): the assets whose text matches
// every one of terms (and the capture-time lexemes timeQuery, when not
// ""), each scored by the sum of its terms' ranks, plus query.ExactBonus
// per term that takes both its word and the words it begins and whose
// word it holds.
func textSource(terms []query.SearchTerm, timeQuery string) (string, []any) {
	var ranks, bonuses, matches []string
	var rankArgs, bonusArgs, matchArgs []any
	for _, t := range terms {
		for _, s := range t {
			q, a := wordQuery(s)
			ranks, rankArgs = append(ranks, "ts_rank("+textWeights+", t.document, "+q+")"), append(rankArgs, a...)
		}
		if ex := sqlstore.ExactSpellings(t); ex != nil {
			q, a := termQuery(ex)
			bonuses = append(bonuses, fmt.Sprintf(" + CASE WHEN t.document @@ %s THEN %g ELSE 0 END", q, query.ExactBonus))
			bonusArgs = append(bonusArgs, a...)
		}
		q, a := termQuery(t)
		matches, matchArgs = append(matches, q), append(matchArgs, a...)
	}
	if timeQuery != "" {
		matches, matchArgs = append(matches, "?::tsquery"), append(matchArgs, timeQuery)
	}
	return "SELECT t.asset_id, (" + strings.Join(ranks, " + ") + ")::float8 * " + strconv.Itoa(textScale) +
			strings.Join(bonuses, "") + " AS s FROM search_text t WHERE t.document @@ (" + strings.Join(matches, " && ") + ")",
		sqlstore.Args(rankArgs, bonusArgs, matchArgs)
}

// textCTE defines txt(id, score) for q's terms. Terms that match no
// name go into one text query; a term that matches people or albums is a
// group of its own, the union of its text matches and the assets of those
// people and albums, best score per asset; an asset must be in every
// group.
func textCTE(q query.SearchQuery) (string, []any) {
	plain, named := sqlstore.SplitTerms(q)
	timeQuery := timeTokens(q.Filter.Capture)
	if len(named) == 0 {
		src, args := textSource(plain, timeQuery)
		return "txt(id, score) AS (" + src + ")", args
	}
	var groups []string
	var args []any
	if len(plain) > 0 {
		src, a := textSource(plain, timeQuery)
		groups, args = append(groups, src), append(args, a...)
	}
	for _, i := range named {
		src, a := textSource(q.Terms[i:i+1], timeQuery)
		sources := []string{src}
		args = append(args, a...)
		sqlstore.NameLinks(q.Names[i], func(links, with string, ids []string, score float64) {
			src, a := linkSource(links, with, ids, score, q.Filter)
			sources, args = append(sources, src), append(args, a...)
		})
		groups = append(groups, "SELECT asset_id, max(s) AS s FROM ("+strings.Join(sources, " UNION ALL ")+") n GROUP BY asset_id")
	}
	return fmt.Sprintf("txt(id, score) AS (SELECT asset_id, sum(s) FROM (%s) g GROUP BY asset_id HAVING count(*) = %d)",
		strings.Join(groups, " UNION ALL "), len(groups)), args
}

// linkSource is the query of (asset_id, s) of the assets linked to the
// people or albums ids (links: person_assets or album_assets, with: its
// id column), each scored score. The links' copies of live and
// capture_wall narrow them to f's state and capture window through their
// timeline index; the filter's own conditions still decide exactly.
func linkSource(links, with string, ids []string, score float64, f query.AssetFilter) (string, []any) {
	where := []string{"l." + with + " = ANY(?::text[])", sqlstore.LiveCondition("l.live", f.State)}
	w, args := sqlstore.WallConditions("l.capture_wall", f.Capture)
	return fmt.Sprintf("SELECT l.asset_id, %g::float8 FROM %s l WHERE %s", score, links,
		strings.Join(append(where, w...), " AND ")), append([]any{ids}, args...)
}

// timeTokens returns the tsquery (text) of search_text's capture-time
// lexemes that cover r's window (sqlstore.TimeTokens), or "" when there
// are none.
func timeTokens(r catalog.CaptureRange) string {
	tokens := sqlstore.TimeTokens(r)
	if tokens == nil {
		return ""
	}
	return "'#" + strings.Join(tokens, "' | '#") + "'"
}

// imageCTE defines img(id, score) for an image's matches, passed as
// arrays: the look-alikes (id, score) and the people (person_id, face,
// score). An asset scores its look-alike score plus, per face of the
// image, the best score of its people like it.
func imageCTE(im *query.ImageCriteria) (string, []any) {
	ids, scores := make([]string, len(im.Visual)), make([]float64, len(im.Visual))
	for i, v := range im.Visual {
		ids[i], scores[i] = v.ID, v.Score
	}
	people, faces, likes := make([]string, len(im.People)), make([]int32, len(im.People)), make([]float64, len(im.People))
	for i, p := range im.People {
		people[i], faces[i], likes[i] = p.PersonID, int32(p.Face), p.Score
	}
	return `img(id, score) AS (SELECT asset_id, sum(s) FROM (
		SELECT v.id COLLATE "C" AS asset_id, v.score AS s FROM unnest(?::text[], ?::float8[]) AS v(id, score)
		UNION ALL
		SELECT asset_id, max(s) FROM (SELECT pa.asset_id, p.face, p.score AS s
			FROM unnest(?::text[], ?::int[], ?::float8[]) AS p(person_id, face, score)
			JOIN person_assets pa ON pa.person_id = p.person_id) pf
		GROUP BY asset_id, face) i GROUP BY asset_id)`, []any{ids, scores, people, faces, likes}
}
