package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type albums struct{ q querier }

func (r repos) Albums() store.Albums { return albums{r.q} }

var _ store.Albums = albums{}

// albumCols reads an album with its derived fields (albumFrom binds them):
// the earliest (f) and latest (l) live members come from one seek each in
// album_assets_timeline, and the cover shown is the chosen one (c) while it
// is live, else the latest member.
const albumCols = `al.id, al.library_id, al.name, al.description, al.cover_asset_id, al.asset_count,
	al.created_at, al.updated_at, f.capture_wall, f.capture_offset, l.capture_wall, l.capture_offset,
	coalesce(c.id, l.id), coalesce(c.media_type, l.media_type)`

const albumFrom = "albums al " + albumJoins

const albumJoins = `LEFT JOIN assets f ON f.id = (SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id AND x.live = 1
		ORDER BY x.capture_wall ASC, x.asset_id ASC LIMIT 1)
	LEFT JOIN assets l ON l.id = (SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id AND x.live = 1
		ORDER BY x.capture_wall DESC, x.asset_id DESC LIMIT 1)
	LEFT JOIN assets c ON c.id = al.cover_asset_id AND c.live = 1`

func scanAlbum(row interface{ Scan(...any) error }) (*catalog.Album, error) {
	var a catalog.Album
	var created, updated int64
	var firstWall, firstOffset, lastWall, lastOffset sql.NullInt64
	var coverID, coverMedia sql.NullString
	err := row.Scan(&a.ID, &a.LibraryID, &a.Name, &a.Description, &a.CoverAssetID, &a.AssetCount, &created,
		&updated, &firstWall, &firstOffset, &lastWall, &lastOffset, &coverID, &coverMedia)
	if err != nil {
		return nil, err
	}
	a.CreatedAt, a.UpdatedAt = fromMicros(created), fromMicros(updated)
	a.StartDate, a.EndDate = captureOf(firstWall, firstOffset), captureOf(lastWall, lastOffset)
	if coverID.Valid {
		a.Cover = &catalog.AlbumCover{AssetID: coverID.String, MediaType: catalog.MediaType(coverMedia.String)}
	}
	return &a, nil
}

// captureOf reads a nullable capture time (wall microseconds and offset).
func captureOf(wall, offset sql.NullInt64) *catalog.CaptureTime {
	if !wall.Valid {
		return nil
	}
	c := catalog.CaptureTime{Wall: fromMicros(wall.Int64)}
	if offset.Valid {
		o := int(offset.Int64)
		c.Offset = &o
	}
	return &c
}

func (s albums) Create(ctx context.Context, a *catalog.Album) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO albums (id, library_id, name, name_key, description,
		cover_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.LibraryID, a.Name, catalog.NameKey(a.Name), a.Description, a.CoverAssetID,
		micros(a.CreatedAt), micros(a.UpdatedAt))
	return one("create album", a.Name, err)
}

func (s albums) Get(ctx context.Context, id string) (*catalog.Album, error) {
	a, err := scanAlbum(s.q.QueryRowContext(ctx, `SELECT `+albumCols+` FROM `+albumFrom+` WHERE al.id = ?`, id))
	return a, one("album", id, err)
}

func (s albums) FindByName(ctx context.Context, libraryID, nameKey string) (*catalog.Album, error) {
	a, err := scanAlbum(s.q.QueryRowContext(ctx, `SELECT `+albumCols+` FROM `+albumFrom+`
		WHERE al.library_id = ? AND al.name_key = ?`, libraryID, nameKey))
	return a, one("album named", nameKey, err)
}

func (s albums) List(ctx context.Context, f store.AlbumFilter, p store.Page) ([]catalog.Album, bool, error) {
	q := listQuery{cols: albumCols, from: albumFrom, where: []string{"al.library_id = ?"},
		args: []any{f.LibraryID}, idCol: "al.id", desc: true}
	if f.AssetID != "" {
		// The albums of one asset: its few live links drive.
		q.from = "album_assets m CROSS JOIN albums al ON al.id = m.album_id " + albumJoins
		q.where = append(q.where, "m.asset_id = ?", "m.live = 1")
		q.args = append(q.args, f.AssetID)
	}
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.Album, error) {
		a, err := scanAlbum(rows)
		if err != nil {
			return catalog.Album{}, err
		}
		return *a, nil
	})
}

func (s albums) Update(ctx context.Context, a *catalog.Album) error {
	res, err := s.q.ExecContext(ctx, `UPDATE albums SET name = ?, name_key = ?, description = ?,
		cover_asset_id = ?, updated_at = ? WHERE id = ?`, a.Name, catalog.NameKey(a.Name), a.Description,
		a.CoverAssetID, micros(a.UpdatedAt), a.ID)
	return affected("update album", a.ID, res, err)
}

func (s albums) Delete(ctx context.Context, id string) error {
	res, err := s.q.ExecContext(ctx, `DELETE FROM albums WHERE id = ?`, id)
	return affected("delete album", id, res, err)
}

const linkCols = `id, album_id, asset_id, library_id, created_at, updated_at`

func scanLink(row interface{ Scan(...any) error }) (catalog.AlbumAsset, error) {
	var l catalog.AlbumAsset
	var created, updated int64
	err := row.Scan(&l.ID, &l.AlbumID, &l.AssetID, &l.LibraryID, &created, &updated)
	l.CreatedAt, l.UpdatedAt = fromMicros(created), fromMicros(updated)
	return l, err
}

func (s albums) AddLink(ctx context.Context, l *catalog.AlbumAsset) error {
	res, err := s.q.ExecContext(ctx, `INSERT INTO album_assets (id, album_id, asset_id, library_id,
		capture_wall, live, created_at, updated_at)
		SELECT ?, ?, a.id, ?, a.capture_wall, a.live, ?, ? FROM assets a WHERE a.id = ?`,
		l.ID, l.AlbumID, l.LibraryID, micros(l.CreatedAt), micros(l.UpdatedAt), l.AssetID)
	return affected("link asset", l.AssetID, res, err)
}

func (s albums) Links(ctx context.Context, albumID string, assetIDs []string) ([]catalog.AlbumAsset, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	return s.links(ctx, `SELECT `+linkCols+` FROM album_assets WHERE album_id = ? AND asset_id IN (`+
		placeholders(len(assetIDs))+`) ORDER BY id`, append([]any{albumID}, anySlice(assetIDs)...)...)
}

func (s albums) AlbumLinks(ctx context.Context, albumID string) ([]catalog.AlbumAsset, error) {
	return s.links(ctx, `SELECT `+linkCols+` FROM album_assets WHERE album_id = ? ORDER BY id`, albumID)
}

func (s albums) LinksOfAssets(ctx context.Context, assetIDs []string) ([]catalog.AlbumAsset, error) {
	if len(assetIDs) == 0 {
		return nil, nil
	}
	return s.links(ctx, `SELECT `+linkCols+` FROM album_assets WHERE asset_id IN (`+
		placeholders(len(assetIDs))+`) ORDER BY id`, anySlice(assetIDs)...)
}

func (s albums) links(ctx context.Context, query string, args ...any) ([]catalog.AlbumAsset, error) {
	return queryAll(ctx, s.q, scanLinkRows, query, args...)
}

func (s albums) RemoveLinks(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := s.q.ExecContext(ctx, `DELETE FROM album_assets WHERE id IN (`+placeholders(len(ids))+`)`,
		anySlice(ids)...)
	return translate(err)
}

func (s albums) ListLinks(ctx context.Context, f store.AlbumAssetFilter, p store.Page) ([]catalog.AlbumAsset, bool, error) {
	if f.LibraryID == "" {
		return nil, false, errors.New("list album assets: no library")
	}
	// The library's own index serves the unfiltered list only: with a
	// narrower filter, "+" keeps the planner off it (it would walk every
	// link of the library in id order, testing each).
	lib := "library_id = ?"
	if f.AlbumID != "" || f.AssetID != "" || len(f.IDs) > 0 {
		lib = "+library_id = ?"
	}
	q := listQuery{cols: linkCols, from: "album_assets", where: []string{lib, "live = 1"},
		args: []any{f.LibraryID}, idCol: "id", desc: true}
	if f.AlbumID != "" {
		q.where, q.args = append(q.where, "album_id = ?"), append(q.args, f.AlbumID)
	}
	if f.AssetID != "" {
		q.where, q.args = append(q.where, "asset_id = ?"), append(q.args, f.AssetID)
	}
	if len(f.IDs) > 0 {
		q.where = append(q.where, "id IN ("+placeholders(len(f.IDs))+")")
		q.args = append(q.args, anySlice(f.IDs)...)
	}
	return page(ctx, s.q, q, p, scanLinkRows)
}

func scanLinkRows(rows *sql.Rows) (catalog.AlbumAsset, error) { return scanLink(rows) }

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
