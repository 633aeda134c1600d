package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type tags struct{ q Q }

var _ store.Tags = tags{}

func (r Repos) Tags() store.Tags { return tags{r.Q} }

const tagCols = `id, library_id, value, created_at, updated_at`

func (s tags) scan(row scanner) (catalog.Tag, error) {
	var t catalog.Tag
	var created, updated int64
	if err := row.Scan(&t.ID, &t.LibraryID, &t.Value, &created, &updated); err != nil {
		return t, s.q.translate(err)
	}
	t.CreatedAt, t.UpdatedAt = fromMicros(created), fromMicros(updated)
	return t, nil
}

func (s tags) Upsert(ctx context.Context, t *catalog.Tag) (*catalog.Tag, error) {
	_, err := s.q.exec(ctx, `INSERT INTO tags (`+tagCols+`) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (library_id, value) DO NOTHING`, t.ID, t.LibraryID, t.Value, micros(t.CreatedAt), micros(t.UpdatedAt))
	if err != nil {
		return nil, fmt.Errorf("upsert tag %s: %w", t.Value, s.q.translate(err))
	}
	got, err := s.scan(s.q.queryRow(ctx, `SELECT `+tagCols+` FROM tags WHERE library_id = ? AND value = ?`,
		t.LibraryID, t.Value))
	if err != nil {
		return nil, s.q.one("tag", t.Value, err)
	}
	return &got, nil
}

func (s tags) Get(ctx context.Context, id string) (*catalog.Tag, error) {
	t, err := s.scan(s.q.queryRow(ctx, `SELECT `+tagCols+` FROM tags WHERE id = ?`, id))
	if err != nil {
		return nil, s.q.one("tag", id, err)
	}
	return &t, nil
}

func (s tags) List(ctx context.Context, libraryID string) ([]catalog.Tag, error) {
	return queryAll(ctx, s.q, s.scan, `SELECT `+tagCols+` FROM tags WHERE library_id = ? ORDER BY value, id`, libraryID)
}

func (s tags) Link(ctx context.Context, tagID string, assetIDs []string, at time.Time) ([]string, error) {
	var linked []string
	for _, id := range assetIDs {
		res, err := s.q.exec(ctx, `INSERT INTO tag_assets (tag_id, asset_id, created_at) VALUES (?, ?, ?)
			ON CONFLICT (tag_id, asset_id) DO NOTHING`, tagID, id, micros(at))
		if err != nil {
			return nil, fmt.Errorf("tag asset %s: %w", id, s.q.translate(err))
		}
		if res.RowsAffected() > 0 {
			linked = append(linked, id)
		}
	}
	return linked, nil
}

func (s tags) ForAsset(ctx context.Context, assetID string) ([]catalog.Tag, error) {
	return queryAll(ctx, s.q, s.scan, `SELECT t.id, t.library_id, t.value, t.created_at, t.updated_at FROM tag_assets ta
		JOIN tags t ON t.id = ta.tag_id WHERE ta.asset_id = ? ORDER BY t.value, t.id`, assetID)
}
