package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Content search (store.Search) is written here around each dialect's
// full-text index, its Dialect.Text: FTS5's MATCH and bm25 in SQLite,
// tsvector's @@ and ts_rank in PostgreSQL. The dialect defines the
// criteria's hits and the queries of its index; the page of hits, its
// cursor, the look-alike candidates and the people's vectors are here.

// TextIndex is a dialect's full-text index as content search uses it.
type TextIndex interface {
	// Names is the query of the (kind, ref_id) of the library's people
	// and albums with a name holding a word that starts with one of
	// term's spellings, with its arguments.
	Names(libraryID string, term query.SearchTerm) (string, []any)
	// HasWord is the query of a row when the word (under the index's
	// tokenizer), or with prefix a word it begins, is in any asset's text
	// or any name, with its arguments.
	HasWord(word string, prefix bool) (string, []any)
	// HasLonger is the query of a row when an indexed word longer than
	// word begins with it, as given (not stemmed), with its arguments.
	HasLonger(word string) (string, []any)
	// HasPlace is the query of a row when words, in this order, are a
	// phrase of any asset's place fields, with its arguments.
	HasPlace(words []string) (string, []any)
	// Criteria are the common table expressions of q's criteria, reading
	// over c what chooses their plan: txt(K, score) of the assets its
	// terms match when it has terms, then img(K, score) of those like its
	// image when it has one (K the dialect's SearchKey), after any they
	// read. The scores are summed into each hit's (hits).
	Criteria(ctx context.Context, c Conn, q query.SearchQuery) ([]string, []any, error)
}

// search is store.Search over the dialect's TextIndex.
type search struct{ q Q }

var _ store.Search = search{}

// Search returns the content-search repository.
func (r Repos) Search() store.Search { return search{r.Q} }

func (s search) Names(ctx context.Context, libraryID string, term query.SearchTerm) ([]query.NameMatch, error) {
	stmt, args := s.q.d.Text.Names(libraryID, term)
	return queryAll(ctx, s.q, func(r scanner) (query.NameMatch, error) {
		var m query.NameMatch
		var kind string
		err := r.Scan(&kind, &m.ID)
		m.Kind = query.NameKind(kind)
		return m, err
	}, stmt, args...)
}

func (s search) HasWord(ctx context.Context, word string, prefix bool) (bool, error) {
	query, args := s.q.d.Text.HasWord(word, prefix)
	return s.exists(ctx, query, args)
}

func (s search) HasLonger(ctx context.Context, word string) (bool, error) {
	query, args := s.q.d.Text.HasLonger(word)
	return s.exists(ctx, query, args)
}

func (s search) HasPlace(ctx context.Context, words []string) (bool, error) {
	query, args := s.q.d.Text.HasPlace(words)
	return s.exists(ctx, query, args)
}

// exists reports whether query returns a row.
func (s search) exists(ctx context.Context, query string, args []any) (bool, error) {
	var one int
	err := s.q.queryRow(ctx, query, args...).Scan(&one)
	if isNoRows(err) {
		return false, nil
	}
	return err == nil, s.q.translate(err)
}

// Assets ranks the hits of q's criteria (Ranked), and reads the page of p:
// the hits tested against the filter, best first. Only the page's asset
// rows are read whole.
func (s search) Assets(ctx context.Context, q query.SearchQuery, p query.Page) ([]store.ScoredAsset, bool, error) {
	ctes, args, err := s.q.d.Text.Criteria(ctx, s.q.c, q)
	if err != nil {
		return nil, false, err
	}
	r, err := NewRanked(s.q.d, q, ctes, args)
	if err != nil {
		return nil, false, err
	}
	var after *ScoreCursor
	if p.AfterID != "" {
		query, args := r.Cursor(p.AfterID)
		after = &ScoreCursor{ID: p.AfterID}
		err := s.q.queryRow(ctx, query, args...).Scan(&after.Score)
		if isNoRows(err) {
			return nil, false, catalog.InvalidField("value_error",
				"starting_after_id does not name an item of this search", p.AfterID, "query", "starting_after_id")
		}
		if err != nil {
			return nil, false, fmt.Errorf("resolve search cursor: %w", s.q.translate(err))
		}
	}
	query, args := r.Page(p.Limit+1, after)
	rows, err := s.q.query(ctx, query, args...)
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", s.q.translate(err))
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
		return nil, false, fmt.Errorf("search: %w", s.q.translate(err))
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

// Ranked is a ranked search's SQL: the WITH clause defining the criteria
// and hits(K, score), the assets matching every criterion scored by the
// sum of their scores, and the filter's conditions over "assets a" tested
// on each hit's row, with their arguments.
type Ranked struct {
	d         *Dialect
	with      string
	withArgs  []any
	where     []string
	whereArgs []any
}

// ScoreCursor is the last hit of the previous page.
type ScoreCursor struct {
	Score float64
	ID    string
}

// NewRanked builds q's ranked search over its criteria's CTEs (TextIndex).
func NewRanked(d *Dialect, q query.SearchQuery, ctes []string, args []any) (*Ranked, error) {
	k := d.SearchKey
	score := func(e string) string { return e }
	if d.RoundScore != nil {
		score = d.RoundScore
	}
	switch {
	case len(q.Terms) > 0 && q.Image != nil:
		ctes = append(ctes, "hits("+k+", score) AS (SELECT txt."+k+", "+score("txt.score + img.score")+
			" FROM txt "+d.CrossJoin+" img ON img."+k+" = txt."+k+")")
	case len(q.Terms) > 0 || q.Image != nil:
		part := "txt"
		if q.Image != nil {
			part = "img"
		}
		ctes = append(ctes, "hits("+k+", score) AS (SELECT "+k+", "+score("score")+" FROM "+part+")")
	default:
		return nil, errors.New("search: a ranked search needs a text or an image")
	}
	where, whereArgs := FilterConditions(d.In, d.Location, q.Filter, true)
	where, whereArgs = InAlbum(where, whereArgs, q.Filter.AlbumID)
	return &Ranked{d: d, with: "WITH " + strings.Join(ctes, ", "), withArgs: args, where: where, whereArgs: whereArgs}, nil
}

// hits is the join of the hits to their assets' rows.
func (r *Ranked) hits() string {
	return "hits h " + r.d.CrossJoin + " assets a ON a." + r.d.SearchKey + " = h." + r.d.SearchKey
}

// Cursor is the query of the score of the hit with this id (no row: the
// cursor names no hit of this search).
func (r *Ranked) Cursor(id string) (string, []any) {
	return r.with + ` SELECT h.score FROM ` + r.hits() + ` WHERE ` + strings.Join(r.where, " AND ") + ` AND a.id = ?`,
		Args(r.withArgs, r.whereArgs, id)
}

// Page is the query of up to limit hits after the cursor (nil: the
// first), best first, each an asset row (AssetCols) and its score. With
// the dialect's NarrowPage the page is chosen on the hits' keys and the
// filter's columns, then its rows are read whole.
func (r *Ranked) Page(limit int, after *ScoreCursor) (string, []any) {
	where, args := r.where, r.whereArgs
	if after != nil {
		where = append(slices.Clone(where), "(h.score, a.id) < ("+r.d.FloatArg+", ?)")
		args = Args(args, after.Score, after.ID)
	}
	best := ` FROM ` + r.hits() + ` WHERE ` + strings.Join(where, " AND ") + ` ORDER BY h.score DESC, a.id DESC LIMIT ?`
	args = Args(r.withArgs, args, limit)
	if !r.d.NarrowPage {
		return r.with + ` SELECT ` + AssetCols(r.d) + `, h.score` + best, args
	}
	k := r.d.SearchKey
	return r.with + ` SELECT ` + AssetCols(r.d) + `, p.score FROM (SELECT a.` + k + ` AS ` + k + `, a.id AS id, h.score AS score` +
		best + `) p ` + r.d.CrossJoin + ` assets a ON a.` + k + ` = p.` + k + ` ORDER BY p.score DESC, p.id DESC`, args
}

func (s search) PersonVectors(ctx context.Context, libraryID string, limit int) ([]store.PersonVector, error) {
	return queryAll(ctx, s.q, func(r scanner) (store.PersonVector, error) {
		var v store.PersonVector
		return v, r.Scan(&v.PersonID, &v.Embedding)
	}, PersonVectorsSQL(s.q.d), libraryID, limit)
}

// PersonVectorsSQL is the query of the vectors of a library's people
// (arguments: the library, the limit): the clustering's centroid sum when
// it is up to date, else the featured face's embedding.
func PersonVectorsSQL(d *Dialect) string {
	return `SELECT id, v FROM (
		SELECT p.id, p.face_count, CASE WHEN c.stale = ` + d.False + ` AND c.n > 0 THEN c.sum ELSE f.embedding END AS v
		FROM people p LEFT JOIN person_centroids c ON c.person_id = p.id LEFT JOIN faces f ON f.id = p.thumbnail_face_id
		WHERE p.library_id = ? AND p.face_count > 0) x
		WHERE v IS NOT NULL ORDER BY face_count DESC, id LIMIT ?`
}
