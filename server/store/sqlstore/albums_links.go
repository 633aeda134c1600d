package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

const linkCols = `id, album_id, asset_id, library_id, created_at, updated_at`

func scanLink(row scanner) (catalog.AlbumAsset, error) {
	var l catalog.AlbumAsset
	var created, updated int64
	err := row.Scan(&l.ID, &l.AlbumID, &l.AssetID, &l.LibraryID, &created, &updated)
	l.CreatedAt, l.UpdatedAt = fromMicros(created), fromMicros(updated)
	return l, err
}

func (s albums) AddLink(ctx context.Context, l *catalog.AlbumAsset) error {
	// The pair is checked first: a unique violation would abort a
	// PostgreSQL transaction, and callers may carry on after a conflict.
	var linked bool
	err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM album_assets WHERE album_id = ? AND asset_id = ?)`,
		l.AlbumID, l.AssetID).Scan(&linked)
	if err != nil {
		return s.q.one("link asset", l.AssetID, err)
	}
	if linked {
		return fmt.Errorf("link asset %s: %w", l.AssetID, catalog.ErrConflict)
	}
	res, err := s.q.exec(ctx, `INSERT INTO album_assets (id, album_id, asset_id, library_id,
		capture_wall, live, created_at, updated_at)
		SELECT ?, ?, a.id, ?, a.capture_wall, a.live, ?, ? FROM assets a WHERE a.id = ?
		ON CONFLICT DO NOTHING`,
		l.ID, l.AlbumID, l.LibraryID, micros(l.CreatedAt), micros(l.UpdatedAt), l.AssetID)
	if err != nil {
		return s.q.one("link asset", l.AssetID, err)
	}
	if res.RowsAffected() == 0 {
		// No asset (not found), or a link id or pair inserted meanwhile.
		var exists bool
		if err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM assets WHERE id = ?)`, l.AssetID).
			Scan(&exists); err != nil {
			return s.q.one("link asset", l.AssetID, err)
		}
		if exists {
			return fmt.Errorf("link asset %s: %w", l.AssetID, catalog.ErrConflict)
		}
		return fmt.Errorf("link asset %s: %w", l.AssetID, catalog.ErrNotFound)
	}
	return nil
}

func (s albums) Links(ctx context.Context, albumID string, assetIDs []string) ([]catalog.AlbumAsset, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("asset_id", assetIDs)
	return queryAll(ctx, s.q, scanLink, `SELECT `+linkCols+` FROM album_assets WHERE album_id = ? AND `+in+`
		ORDER BY id`, append([]any{albumID}, args...)...)
}

func (s albums) AlbumLinks(ctx context.Context, albumID string) ([]catalog.AlbumAsset, error) {
	return queryAll(ctx, s.q, scanLink, `SELECT `+linkCols+` FROM album_assets WHERE album_id = ? ORDER BY id`,
		albumID)
}

func (s albums) LinksOfAssets(ctx context.Context, assetIDs []string) ([]catalog.AlbumAsset, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	in, args := s.q.d.In("asset_id", assetIDs)
	return queryAll(ctx, s.q, scanLink, `SELECT `+linkCols+` FROM album_assets WHERE `+in+` ORDER BY id`, args...)
}

func (s albums) RemoveLinks(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	in, args := s.q.d.In("id", ids)
	_, err := s.q.exec(ctx, `DELETE FROM album_assets WHERE `+in, args...)
	return s.q.translate(err)
}

func (s albums) ListLinks(ctx context.Context, f query.AlbumAssetFilter, p query.Page) ([]catalog.AlbumAsset, bool, error) {
	if f.LibraryID == "" {
		return nil, false, errors.New("list album assets: no library")
	}
	// The library's own index serves the unfiltered list only: with a
	// narrower filter, SQLite's planner would walk every link of the
	// library in id order, testing each.
	lib := "library_id"
	if f.AlbumID != "" || f.AssetID != "" || len(f.IDs) > 0 {
		lib = s.q.d.Unindexed(lib)
	}
	q := listQuery{cols: linkCols, from: "album_assets", where: []string{lib + " = ?", "live = 1"},
		args: []any{f.LibraryID}, idCol: "id", desc: true}
	if f.AlbumID != "" {
		q.where, q.args = append(q.where, "album_id = ?"), append(q.args, f.AlbumID)
	}
	if f.AssetID != "" {
		q.where, q.args = append(q.where, "asset_id = ?"), append(q.args, f.AssetID)
	}
	if len(f.IDs) > 0 {
		in, args := s.q.d.In("id", f.IDs)
		q.where, q.args = append(q.where, in), append(q.args, args...)
	}
	return page(ctx, s.q, q, p, scanLink)
}
