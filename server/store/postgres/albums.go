package postgres

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type albums struct{ q conn }

var _ store.Albums = albums{}

// Albums returns the album repository.
func (r repos) Albums() store.Albums { return albums{r.q} }

// albumCols reads an album with its derived fields (albumJoins binds
// them): the earliest (f) and latest (l) live members come from one seek
// each in album_assets_timeline, and the cover shown is the chosen one (c)
// while it is live, else the latest member. asset_count is kept by the
// triggers of migration 0008.
const albumCols = `al.id, al.library_id, al.name, al.description, al.cover_asset_id, al.asset_count,
	al.created_at, al.updated_at, f.capture_wall, f.capture_offset, l.capture_wall, l.capture_offset,
	coalesce(c.id, l.id), coalesce(c.media_type, l.media_type)`

const albumFrom = "albums al " + albumJoins

const albumJoins = `LEFT JOIN LATERAL (SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id AND x.live = 1
		ORDER BY x.capture_wall ASC, x.asset_id ASC LIMIT 1) fx ON true
	LEFT JOIN assets f ON f.id = fx.asset_id
	LEFT JOIN LATERAL (SELECT x.asset_id FROM album_assets x WHERE x.album_id = al.id AND x.live = 1
		ORDER BY x.capture_wall DESC, x.asset_id DESC LIMIT 1) lx ON true
	LEFT JOIN assets l ON l.id = lx.asset_id
	LEFT JOIN assets c ON c.id = al.cover_asset_id AND c.live = 1`

func scanAlbum(row scanner) (*catalog.Album, error) {
	var a catalog.Album
	var created, updated int64
	var firstWall, firstOffset, lastWall, lastOffset *int64
	var coverID, coverMedia *string
	err := row.Scan(&a.ID, &a.LibraryID, &a.Name, &a.Description, &a.CoverAssetID, &a.AssetCount, &created,
		&updated, &firstWall, &firstOffset, &lastWall, &lastOffset, &coverID, &coverMedia)
	if err != nil {
		return nil, err
	}
	a.CreatedAt, a.UpdatedAt = fromMicros(created), fromMicros(updated)
	a.StartDate, a.EndDate = albumCapture(firstWall, firstOffset), albumCapture(lastWall, lastOffset)
	if coverID != nil {
		a.Cover = &catalog.AlbumCover{AssetID: *coverID, MediaType: catalog.MediaType(*coverMedia)}
	}
	return &a, nil
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

func (s albums) Create(ctx context.Context, a *catalog.Album) error {
	tag, err := s.q.exec(ctx, `INSERT INTO albums (id, library_id, name, name_key, description,
		cover_asset_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		a.ID, a.LibraryID, a.Name, catalog.NameKey(a.Name), a.Description, a.CoverAssetID,
		micros(a.CreatedAt), micros(a.UpdatedAt))
	return inserted("create album", a.Name, tag, err)
}

func (s albums) Get(ctx context.Context, id string) (*catalog.Album, error) {
	a, err := scanAlbum(s.q.queryRow(ctx, `SELECT `+albumCols+` FROM `+albumFrom+` WHERE al.id = ?`, id))
	return a, one("album", id, err)
}

func (s albums) FindByName(ctx context.Context, libraryID, nameKey string) (*catalog.Album, error) {
	a, err := scanAlbum(s.q.queryRow(ctx, `SELECT `+albumCols+` FROM `+albumFrom+`
		WHERE al.library_id = ? AND al.name_key = ?`, libraryID, nameKey))
	return a, one("album named", nameKey, err)
}

func (s albums) List(ctx context.Context, f store.AlbumFilter, p store.Page) ([]catalog.Album, bool, error) {
	q := listQuery{cols: albumCols, from: albumFrom, where: []string{"al.library_id = ?"},
		args: []any{f.LibraryID}, idCol: "al.id", desc: true}
	if f.AssetID != "" {
		// The albums of one asset: its few live links drive.
		q.from = "album_assets m JOIN albums al ON al.id = m.album_id " + albumJoins
		q.where = append(q.where, "m.asset_id = ?", "m.live = 1")
		q.args = append(q.args, f.AssetID)
	}
	return page(ctx, s.q, q, p, func(rows scanner) (catalog.Album, error) {
		a, err := scanAlbum(rows)
		if err != nil {
			return catalog.Album{}, err
		}
		return *a, nil
	})
}

func (s albums) Update(ctx context.Context, a *catalog.Album) error {
	// A rename onto another album's name is a conflict; checked first so
	// that the unique index does not abort the transaction.
	var taken bool
	err := s.q.queryRow(ctx, `SELECT EXISTS (SELECT 1 FROM albums WHERE library_id =
		(SELECT library_id FROM albums WHERE id = ?) AND name_key = ? AND id <> ?)`,
		a.ID, catalog.NameKey(a.Name), a.ID).Scan(&taken)
	if err != nil {
		return one("album", a.ID, err)
	}
	if taken {
		return one("rename album", a.Name, catalog.ErrConflict)
	}
	tag, err := s.q.exec(ctx, `UPDATE albums SET name = ?, name_key = ?, description = ?,
		cover_asset_id = ?, updated_at = ? WHERE id = ?`, a.Name, catalog.NameKey(a.Name), a.Description,
		a.CoverAssetID, micros(a.UpdatedAt), a.ID)
	return affected("update album", a.ID, tag, err)
}

func (s albums) Delete(ctx context.Context, id string) error {
	tag, err := s.q.exec(ctx, `DELETE FROM albums WHERE id = ?`, id)
	return affected("delete album", id, tag, err)
}
