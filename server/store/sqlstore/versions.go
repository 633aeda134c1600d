package sqlstore

import (
	"context"

	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type assetVersions struct{ q Q }

var _ store.AssetVersions = assetVersions{}

// AssetVersions returns the asset version repository.
func (r Repos) AssetVersions() store.AssetVersions { return assetVersions{r.Q} }

const versionCols = `id, asset_id, contributor_id, mime_type, file_name, size, checksum, revision,
	created_at, updated_at`

func scanVersion(row scanner) (store.AssetVersion, error) {
	var v store.AssetVersion
	var revision int32 // PostgreSQL's integer
	var created, updated int64
	err := row.Scan(&v.ID, &v.AssetID, &v.ContributorID, &v.MIMEType, &v.FileName, &v.Size, &v.Checksum,
		&revision, &created, &updated)
	v.Revision = int(revision)
	v.CreatedAt, v.UpdatedAt = fromMicros(created), fromMicros(updated)
	return v, err
}

// Create inserts v; an existing id is an ErrConflict that leaves the
// transaction usable.
func (s assetVersions) Create(ctx context.Context, v *store.AssetVersion) error {
	res, err := s.q.exec(ctx, `INSERT INTO asset_versions (`+versionCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, v.ID, v.AssetID, v.ContributorID,
		v.MIMEType, v.FileName, v.Size, v.Checksum, v.Revision, micros(v.CreatedAt), micros(v.UpdatedAt))
	return s.q.inserted("create asset version", v.ID, res, err)
}

// one reads the single version a query over versionCols finds.
func (s assetVersions) one(ctx context.Context, what, id, query string, args ...any) (*store.AssetVersion, error) {
	v, err := scanVersion(s.q.queryRow(ctx, `SELECT `+versionCols+` FROM asset_versions `+query, args...))
	if err != nil {
		return nil, s.q.one(what, id, err)
	}
	return &v, nil
}

func (s assetVersions) Get(ctx context.Context, assetID, id string) (*store.AssetVersion, error) {
	return s.one(ctx, "asset version", id, `WHERE asset_id = ? AND id = ?`, assetID, id)
}

func (s assetVersions) List(ctx context.Context, assetID string, p query.Page) ([]store.AssetVersion, bool, error) {
	q := listQuery{cols: versionCols, from: "asset_versions", where: []string{"asset_id = ?"},
		args: []any{assetID}, idCol: "id", desc: true}
	return page(ctx, s.q, q, p, scanVersion)
}

func (s assetVersions) All(ctx context.Context, assetID string) ([]store.AssetVersion, error) {
	return queryAll(ctx, s.q, scanVersion, `SELECT `+versionCols+` FROM asset_versions WHERE asset_id = ?
		ORDER BY id`, assetID)
}

func (s assetVersions) Previous(ctx context.Context, assetID, beforeID string) (*store.AssetVersion, error) {
	return s.one(ctx, "asset version before", beforeID, `WHERE asset_id = ? AND id < ? ORDER BY id DESC LIMIT 1`,
		assetID, beforeID)
}

func (s assetVersions) Update(ctx context.Context, v *store.AssetVersion) error {
	res, err := s.q.exec(ctx, `UPDATE asset_versions SET contributor_id = ?, mime_type = ?, file_name = ?,
		size = ?, checksum = ?, revision = ?, updated_at = ? WHERE asset_id = ? AND id = ?`,
		v.ContributorID, v.MIMEType, v.FileName, v.Size, v.Checksum, v.Revision, micros(v.UpdatedAt),
		v.AssetID, v.ID)
	return s.q.affected("update asset version", v.ID, res, err)
}

func (s assetVersions) Delete(ctx context.Context, assetID, id string) error {
	res, err := s.q.exec(ctx, `DELETE FROM asset_versions WHERE asset_id = ? AND id = ?`, assetID, id)
	return s.q.affected("delete asset version", id, res, err)
}
