package sqlstore

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type albums struct{ q Q }

var _ store.Albums = albums{}

// Albums returns the album repository.
func (r Repos) Albums() store.Albums { return albums{r.Q} }

// albumCols reads an album with its derived fields (albumJoins binds
// them): the earliest (f) and latest (l) live members come from one seek
// each in album_assets_timeline, and the cover shown is the chosen one (c)
// while it is live, else the latest member. asset_count is kept by
// triggers.
const albumCols = `al.id, al.library_id, al.name, al.description, al.cover_asset_id, al.asset_count,
	al.created_at, al.updated_at, f.capture_wall, f.capture_offset, l.capture_wall, l.capture_offset,
	coalesce(c.id, l.id), coalesce(c.media_type, l.media_type)`

// albumJoins binds albumCols' f, l and c to an album al.
func (s albums) albumJoins() string {
	d := s.q.d
	return d.LeftJoinFirst("assets", "f", `SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id
		AND x.live = 1 ORDER BY x.capture_wall ASC, x.asset_id ASC LIMIT 1`, "asset_id") + `
	` + d.LeftJoinFirst("assets", "l", `SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id
		AND x.live = 1 ORDER BY x.capture_wall DESC, x.asset_id DESC LIMIT 1`, "asset_id") + `
	LEFT JOIN assets c ON c.id = al.cover_asset_id AND c.live = 1`
}

func (s albums) scan(row scanner) (catalog.Album, error) {
	var a catalog.Album
	var created, updated int64
	var firstWall, firstOffset, lastWall, lastOffset *int64
	var coverID, coverMedia *string
	err := row.Scan(&a.ID, &a.LibraryID, &a.Name, &a.Description, &a.CoverAssetID, &a.AssetCount, &created,
		&updated, &firstWall, &firstOffset, &lastWall, &lastOffset, &coverID, &coverMedia)
	if err != nil {
		return a, err
	}
	a.CreatedAt, a.UpdatedAt = fromMicros(created), fromMicros(updated)
	a.StartDate, a.EndDate = albumCapture(firstWall, firstOffset), albumCapture(lastWall, lastOffset)
	if coverID != nil {
		a.Cover = &catalog.AlbumCover{AssetID: *coverID, MediaType: catalog.MediaType(*coverMedia)}
	}
	return a, nil
}

// albumCapture reads a nullable capture time (wall microseconds and offset
// in seconds).
func albumCapture(wall, offset *int64) *catalog.CaptureTime {
	if wall == nil {
		return nil
	}
	c := catalog.CaptureTime{Wall: fromMicros(*wall)}
	if offset != nil {
		o := int(*offset)
		c.Offset = &o
	}
	return &c
}

// one reads the single album a query over albumCols finds.
func (s albums) one(ctx context.Context, what, id, where string, args ...any) (*catalog.Album, error) {
	a, err := s.scan(s.q.queryRow(ctx, `SELECT `+albumCols+` FROM albums al `+s.albumJoins()+` WHERE `+where,
		args...))
	if err != nil {
		return nil, s.q.one(what, id, err)
	}
	return &a, nil
}

func (s albums) Create(ctx context.Context, a *catalog.Album) error {
	res, err := s.q.exec(ctx, `INSERT INTO albums (id, library_id, name, name_key, description,
		cover_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		a.ID, a.LibraryID, a.Name, catalog.NameKey(a.Name), a.Description, a.CoverAssetID,
		micros(a.CreatedAt), micros(a.UpdatedAt))
	return s.q.inserted("create album", a.Name, res, err)
}

func (s albums) Get(ctx context.Context, id string) (*catalog.Album, error) {
	return s.one(ctx, "album", id, `al.id = ?`, id)
}

func (s albums) FindByName(ctx context.Context, libraryID, nameKey string) (*catalog.Album, error) {
	return s.one(ctx, "album named", nameKey, `al.library_id = ? AND al.name_key = ?`, libraryID, nameKey)
}

func (s albums) List(ctx context.Context, f query.AlbumFilter, p query.Page) ([]catalog.Album, bool, error) {
	q := listQuery{cols: albumCols, from: "albums al " + s.albumJoins(), where: []string{"al.library_id = ?"},
		args: []any{f.LibraryID}, idCol: "al.id", desc: true}
	if f.AssetID != "" {
		// The albums of one asset: its few live links drive.
		q.from = "album_assets m " + s.q.d.CrossJoin + " albums al ON al.id = m.album_id " + s.albumJoins()
		q.where = append(q.where, "m.asset_id = ?", "m.live = 1")
		q.args = append(q.args, f.AssetID)
	}
	return page(ctx, s.q, q, p, s.scan)
}

func (s albums) Update(ctx context.Context, a *catalog.Album) error {
	// A rename onto another album's name is a conflict; checked first so
	// that the unique index does not abort a PostgreSQL transaction.
	var taken bool
	err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM albums WHERE library_id =
		(SELECT library_id FROM albums WHERE id = ?) AND name_key = ? AND id <> ?)`,
		a.ID, catalog.NameKey(a.Name), a.ID).Scan(&taken)
	if err != nil {
		return s.q.one("album", a.ID, err)
	}
	if taken {
		return fmt.Errorf("rename album %s: %w", a.Name, catalog.ErrConflict)
	}
	res, err := s.q.exec(ctx, `UPDATE albums SET name = ?, name_key = ?, description = ?,
		cover_asset_id = ?, updated_at = ? WHERE id = ?`, a.Name, catalog.NameKey(a.Name), a.Description,
		a.CoverAssetID, micros(a.UpdatedAt), a.ID)
	return s.q.affected("update album", a.ID, res, err)
}

func (s albums) Delete(ctx context.Context, id string) error {
	res, err := s.q.exec(ctx, `DELETE FROM albums WHERE id = ?`, id)
	return s.q.affected("delete album", id, res, err)
}
