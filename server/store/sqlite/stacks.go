package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type stacks struct{ q querier }

func (r repos) Stacks() store.Stacks { return stacks{r.q} }

var _ store.Stacks = stacks{}

const stackCols = `s.id, s.library_id, s.cover_asset_id, s.source, s.created_at, s.updated_at`

func scanStack(row interface{ Scan(...any) error }) (catalog.Stack, error) {
	var s catalog.Stack
	var source string
	var created, updated int64
	err := row.Scan(&s.ID, &s.LibraryID, &s.CoverAssetID, &source, &created, &updated)
	s.Source, s.CreatedAt, s.UpdatedAt = catalog.StackSource(source), fromMicros(created), fromMicros(updated)
	return s, err
}

func (r stacks) Create(ctx context.Context, s *catalog.Stack) error {
	_, err := r.q.ExecContext(ctx, `INSERT INTO stacks (id, library_id, cover_asset_id, source, created_at,
		updated_at) VALUES (?, ?, ?, ?, ?, ?)`, s.ID, s.LibraryID, s.CoverAssetID, string(s.Source),
		micros(s.CreatedAt), micros(s.UpdatedAt))
	if err != nil {
		return one("create stack", s.ID, err)
	}
	if err := r.join(ctx, s); err != nil {
		return err
	}
	return r.setCovers(ctx, s)
}

// join makes s.AssetIDs members of s, refusing assets of another stack.
func (r stacks) join(ctx context.Context, s *catalog.Stack) error {
	if len(s.AssetIDs) == 0 {
		return nil
	}
	if _, err := r.q.ExecContext(ctx, `UPDATE assets SET stack_id = ? WHERE id IN (`+placeholders(len(s.AssetIDs))+
		`) AND stack_id IS NULL`, append([]any{s.ID}, anySlice(s.AssetIDs)...)...); err != nil {
		return translate(err)
	}
	others, err := queryStrings(ctx, r.q, `SELECT id FROM assets WHERE id IN (`+placeholders(len(s.AssetIDs))+
		`) AND stack_id IS NOT ?`, append(anySlice(s.AssetIDs), s.ID)...)
	if err != nil {
		return err
	}
	if len(others) > 0 {
		return fmt.Errorf("asset %s is in another stack: %w", others[0], catalog.ErrConflict)
	}
	return nil
}

// setCovers marks what collapsed lists show of the stack: the cover and
// the trashed members.
func (r stacks) setCovers(ctx context.Context, s *catalog.Stack) error {
	_, err := r.q.ExecContext(ctx, `UPDATE assets SET stack_cover = (live = 0 OR id = ?)
		WHERE stack_id = ? AND stack_cover IS NOT (live = 0 OR id = ?)`, s.CoverAssetID, s.ID, s.CoverAssetID)
	return translate(err)
}

func (r stacks) Get(ctx context.Context, id string) (*catalog.Stack, error) {
	s, err := scanStack(r.q.QueryRowContext(ctx, `SELECT `+stackCols+` FROM stacks s WHERE s.id = ?`, id))
	if err != nil {
		return nil, one("stack", id, err)
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
	rows, err := r.q.QueryContext(ctx, `SELECT `+stackCols+` FROM stacks s WHERE s.id IN (`+
		placeholders(len(ids))+`)`, anySlice(ids)...)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	var out []catalog.Stack
	for rows.Next() {
		s, err := scanStack(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, translate(err)
	}
	return out, r.members(ctx, out)
}

func (r stacks) List(ctx context.Context, f store.StackFilter, p store.Page) ([]catalog.Stack, bool, error) {
	q := listQuery{cols: stackCols, from: "stacks s", where: []string{"s.library_id = ?"},
		args: []any{f.LibraryID}, idCol: "s.id", desc: true}
	list, more, err := page(ctx, r.q, q, p, func(rows *sql.Rows) (catalog.Stack, error) { return scanStack(rows) })
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
	ids := make([]any, len(list))
	for i := range list {
		byID[list[i].ID], ids[i] = &list[i], list[i].ID
		list[i].AssetIDs = []string{}
	}
	rows, err := r.q.QueryContext(ctx, `SELECT stack_id, id FROM assets WHERE stack_id IN (`+
		placeholders(len(ids))+`) ORDER BY stack_id, capture_wall, id`, ids...)
	if err != nil {
		return translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var stackID, assetID string
		if err := rows.Scan(&stackID, &assetID); err != nil {
			return err
		}
		byID[stackID].AssetIDs = append(byID[stackID].AssetIDs, assetID)
	}
	return translate(rows.Err())
}

func (r stacks) Update(ctx context.Context, s *catalog.Stack) error {
	res, err := r.q.ExecContext(ctx, `UPDATE stacks SET cover_asset_id = ?, updated_at = ? WHERE id = ?`,
		s.CoverAssetID, micros(s.UpdatedAt), s.ID)
	if err := affected("update stack", s.ID, res, err); err != nil {
		return err
	}
	if _, err := r.q.ExecContext(ctx, `UPDATE assets SET stack_id = NULL, stack_cover = 1
		WHERE stack_id = ? AND id NOT IN (`+placeholders(len(s.AssetIDs))+`)`,
		append([]any{s.ID}, anySlice(s.AssetIDs)...)...); err != nil {
		return translate(err)
	}
	if err := r.join(ctx, s); err != nil {
		return err
	}
	return r.setCovers(ctx, s)
}

func (r stacks) Delete(ctx context.Context, id string) error {
	if _, err := r.q.ExecContext(ctx, `UPDATE assets SET stack_id = NULL, stack_cover = 1 WHERE stack_id = ?`,
		id); err != nil {
		return translate(err)
	}
	res, err := r.q.ExecContext(ctx, `DELETE FROM stacks WHERE id = ?`, id)
	return affected("delete stack", id, res, err)
}
