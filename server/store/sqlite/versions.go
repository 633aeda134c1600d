package sqlite

import (
	"context"
	"database/sql"

	"github.com/photoctl/photoctl/server/store"
)

type assetVersions struct{ q querier }

func (r repos) AssetVersions() store.AssetVersions { return assetVersions{r.q} }

var _ store.AssetVersions = assetVersions{}

const versionCols = `id, asset_id, contributor_id, mime_type, file_name, size, checksum, revision,
	created_at, updated_at`

func scanVersion(row interface{ Scan(...any) error }) (*store.AssetVersion, error) {
	var v store.AssetVersion
	var created, updated int64
	err := row.Scan(&v.ID, &v.AssetID, &v.ContributorID, &v.MIMEType, &v.FileName, &v.Size, &v.Checksum,
		&v.Revision, &created, &updated)
	if err != nil {
		return nil, err
	}
	v.CreatedAt, v.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &v, nil
}

func (s assetVersions) Create(ctx context.Context, v *store.AssetVersion) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO asset_versions (`+versionCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.ID, v.AssetID, v.ContributorID, v.MIMEType, v.FileName,
		v.Size, v.Checksum, v.Revision, micros(v.CreatedAt), micros(v.UpdatedAt))
	return one("create asset version", v.ID, err)
}

func (s assetVersions) Get(ctx context.Context, assetID, id string) (*store.AssetVersion, error) {
	v, err := scanVersion(s.q.QueryRowContext(ctx, `SELECT `+versionCols+` FROM asset_versions
		WHERE asset_id = ? AND id = ?`, assetID, id))
	return v, one("asset version", id, err)
}

func (s assetVersions) List(ctx context.Context, assetID string, p store.Page) ([]store.AssetVersion, bool, error) {
	q := listQuery{
		cols:  versionCols,
		from:  "asset_versions",
		where: []string{"asset_id = ?"},
		args:  []any{assetID},
		idCol: "id",
		desc:  true,
	}
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (store.AssetVersion, error) {
		v, err := scanVersion(rows)
		if err != nil {
			return store.AssetVersion{}, err
		}
		return *v, nil
	})
}

func (s assetVersions) All(ctx context.Context, assetID string) ([]store.AssetVersion, error) {
	rows, err := s.q.QueryContext(ctx, `SELECT `+versionCols+` FROM asset_versions
		WHERE asset_id = ? ORDER BY id`, assetID)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []store.AssetVersion
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *v)
	}
	return out, translate(rows.Err())
}

func (s assetVersions) Previous(ctx context.Context, assetID, beforeID string) (*store.AssetVersion, error) {
	v, err := scanVersion(s.q.QueryRowContext(ctx, `SELECT `+versionCols+` FROM asset_versions
		WHERE asset_id = ? AND id < ? ORDER BY id DESC LIMIT 1`, assetID, beforeID))
	return v, one("asset version before", beforeID, err)
}

func (s assetVersions) Update(ctx context.Context, v *store.AssetVersion) error {
	res, err := s.q.ExecContext(ctx, `UPDATE asset_versions SET contributor_id = ?, mime_type = ?, file_name = ?,
		size = ?, checksum = ?, revision = ?, updated_at = ? WHERE asset_id = ? AND id = ?`,
		v.ContributorID, v.MIMEType, v.FileName, v.Size, v.Checksum, v.Revision, micros(v.UpdatedAt),
		v.AssetID, v.ID)
	return affected("update asset version", v.ID, res, err)
}

func (s assetVersions) Delete(ctx context.Context, assetID, id string) error {
	res, err := s.q.ExecContext(ctx, `DELETE FROM asset_versions WHERE asset_id = ? AND id = ?`, assetID, id)
	return affected("delete asset version", id, res, err)
}
