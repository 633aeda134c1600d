package sqlstore

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type stacks struct{ q Q }

var _ store.Stacks = stacks{}

// Stacks returns the stack repository.
func (r Repos) Stacks() store.Stacks { return stacks{r.Q} }

const stackCols = `s.id, s.library_id, s.cover_asset_id, s.source, s.created_at, s.updated_at`

func scanStack(row scanner) (catalog.Stack, error) {
	var s catalog.Stack
	var source string
	var created, updated int64
	err := row.Scan(&s.ID, &s.LibraryID, &s.CoverAssetID, &source, &created, &updated)
	s.Source, s.CreatedAt, s.UpdatedAt = catalog.StackSource(source), fromMicros(created), fromMicros(updated)
	return s, err
}

func (r stacks) Create(ctx context.Context, s *catalog.Stack) error {
	res, err := r.q.exec(ctx, `INSERT INTO stacks (id, library_id, cover_asset_id, source, created_at,
		updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, s.ID, s.LibraryID, s.CoverAssetID,
		string(s.Source), micros(s.CreatedAt), micros(s.UpdatedAt))
	if err := r.q.inserted("create stack", s.ID, res, err); err != nil {
		return err
	}
	if err := r.join(ctx, s); err != nil {
		return err
	}
	return r.setCovers(ctx, s)
}

// join makes s.AssetIDs members of s, refusing assets of another stack.
// The caller's transaction is rolled back on the conflict, so nothing of
// the write stays.
func (r stacks) join(ctx context.Context, s *catalog.Stack) error {
	if len(s.AssetIDs) == 0 {
		return nil
	}
	in, args := r.q.d.In("id", s.AssetIDs)
	if _, err := r.q.exec(ctx, `UPDATE assets SET stack_id = ? WHERE `+in+` AND stack_id IS NULL`,
		append([]any{s.ID}, args...)...); err != nil {
		return r.q.translate(err)
	}
	others, err := queryStrings(ctx, r.q, `SELECT id FROM assets WHERE `+in+`
		AND stack_id IS DISTINCT FROM ? ORDER BY id`, append(args, s.ID)...)
	if err != nil {
		return err
	}
	if len(others) > 0 {
		return fmt.Errorf("asset %s is in another stack: %w", others[0], catalog.ErrConflict)
	}
	return nil
}

// setCovers marks what collapsed lists show of the stack: the cover and
// the trashed members. stack_cover is an integer 0 or 1 in both dialects.
func (r stacks) setCovers(ctx context.Context, s *catalog.Stack) error {
	const cover = `CASE WHEN live = 0 OR id = ? THEN 1 ELSE 0 END`
	_, err := r.q.exec(ctx, `UPDATE assets SET stack_cover = `+cover+`
		WHERE stack_id = ? AND stack_cover <> `+cover, s.CoverAssetID, s.ID, s.CoverAssetID)
	return r.q.translate(err)
}

func (r stacks) Get(ctx context.Context, id string) (*catalog.Stack, error) {
	s, err := scanStack(r.q.queryRow(ctx, `SELECT `+stackCols+` FROM stacks s WHERE s.id = ?`, id))
	if err != nil {
		return nil, r.q.one("stack", id, err)
	}
	list := []catalog.Stack{s}
	if err := r.members(ctx, list); err != nil {
		return nil, err
	}
	return &list[0], nil
}

func (r stacks) GetMany(ctx context.Context, ids []string) ([]catalog.Stack, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	in, args := r.q.d.In("s.id", ids)
	out, err := queryAll(ctx, r.q, scanStack, `SELECT `+stackCols+` FROM stacks s WHERE `+in, args...)
	if err != nil {
		return nil, err
	}
	return out, r.members(ctx, out)
}

func (r stacks) List(ctx context.Context, f query.StackFilter, p query.Page) ([]catalog.Stack, bool, error) {
	q := listQuery{cols: stackCols, from: "stacks s", where: []string{"s.library_id = ?"},
		args: []any{f.LibraryID}, idCol: "s.id", desc: true}
	list, more, err := page(ctx, r.q, q, p, scanStack)
	if err != nil {
		return nil, false, err
	}
	return list, more, r.members(ctx, list)
}

// members fills AssetIDs of the stacks, earliest capture first.
func (r stacks) members(ctx context.Context, list []catalog.Stack) error {
	if len(list) == 0 {
		return nil
	}
	byID := make(map[string]*catalog.Stack, len(list))
	ids := make([]string, len(list))
	for i := range list {
		byID[list[i].ID], ids[i] = &list[i], list[i].ID
		list[i].AssetIDs = []string{}
	}
	in, args := r.q.d.In("stack_id", ids)
	rows, err := r.q.query(ctx, `SELECT stack_id, id FROM assets WHERE `+in+`
		ORDER BY stack_id, capture_wall, id`, args...)
	if err != nil {
		return r.q.translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var stackID, assetID string
		if err := rows.Scan(&stackID, &assetID); err != nil {
			return err
		}
		byID[stackID].AssetIDs = append(byID[stackID].AssetIDs, assetID)
	}
	return r.q.translate(rows.Err())
}

func (r stacks) Update(ctx context.Context, s *catalog.Stack) error {
	res, err := r.q.exec(ctx, `UPDATE stacks SET cover_asset_id = ?, updated_at = ? WHERE id = ?`,
		s.CoverAssetID, micros(s.UpdatedAt), s.ID)
	if err := r.q.affected("update stack", s.ID, res, err); err != nil {
		return err
	}
	in, args := r.q.d.In("id", s.AssetIDs)
	if _, err := r.q.exec(ctx, `UPDATE assets SET stack_id = NULL, stack_cover = 1
		WHERE stack_id = ? AND NOT (`+in+`)`, append([]any{s.ID}, args...)...); err != nil {
		return r.q.translate(err)
	}
	if err := r.join(ctx, s); err != nil {
		return err
	}
	return r.setCovers(ctx, s)
}

func (r stacks) Delete(ctx context.Context, id string) error {
	if _, err := r.q.exec(ctx, `UPDATE assets SET stack_id = NULL, stack_cover = 1 WHERE stack_id = ?`,
		id); err != nil {
		return r.q.translate(err)
	}
	res, err := r.q.exec(ctx, `DELETE FROM stacks WHERE id = ?`, id)
	return r.q.affected("delete stack", id, res, err)
}
