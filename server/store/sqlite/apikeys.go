package sqlite

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlrow"
)

type apiKeys struct{ q querier }

func (r repos) APIKeys() store.APIKeys { return apiKeys{r.q} }

var _ store.APIKeys = apiKeys{}

const apiKeyCols = `k.id, k.user_id, k.name, k.secret_hash, k.actions, k.library_ids, k.last_used_at,
	k.created_at, k.updated_at`

// apiKeyRow is an api_keys row being scanned: dests are the destinations
// of apiKeyCols, key the record they hold.
type apiKeyRow struct {
	k                catalog.APIKey
	actions          string
	libs             *string
	used             sql.NullInt64
	created, updated int64
}

func (r *apiKeyRow) dests() []any {
	return []any{&r.k.ID, &r.k.UserID, &r.k.Name, &r.k.SecretHash, &r.actions, &r.libs, &r.used, &r.created, &r.updated}
}

func (r *apiKeyRow) key() (*catalog.APIKey, error) {
	k := &r.k
	scope, err := sqlrow.DecodeScope(k.ID, r.actions, r.libs)
	if err != nil {
		return nil, err
	}
	k.Scope = scope
	k.LastUsedAt = fromNullMicros(r.used)
	k.CreatedAt, k.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	return k, nil
}

func scanAPIKey(row interface{ Scan(...any) error }) (*catalog.APIKey, error) {
	var r apiKeyRow
	if err := row.Scan(r.dests()...); err != nil {
		return nil, err
	}
	return r.key()
}

func (s apiKeys) Create(ctx context.Context, k *catalog.APIKey) error {
	actions, libs, err := sqlrow.EncodeScope(k.Scope)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, `INSERT INTO api_keys (id, user_id, name, secret_hash, actions,
		library_ids, last_used_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.UserID, k.Name, k.SecretHash, actions, libs, nullMicros(k.LastUsedAt),
		micros(k.CreatedAt), micros(k.UpdatedAt))
	return one("create api key", k.Name, err)
}

func (s apiKeys) Get(ctx context.Context, userID, id string) (*catalog.APIKey, error) {
	k, err := scanAPIKey(s.q.QueryRowContext(ctx, `SELECT `+apiKeyCols+` FROM api_keys k
		WHERE k.id = ? AND k.user_id = ?`, id, userID))
	return k, one("api key", id, err)
}

func (s apiKeys) GetByHash(ctx context.Context, hash []byte) (*catalog.APIKey, *catalog.User, error) {
	var kr apiKeyRow
	var ur userRow
	err := s.q.QueryRowContext(ctx, `SELECT `+apiKeyCols+`, `+ownerCols+` FROM api_keys k
		JOIN users u ON u.id = k.user_id WHERE k.secret_hash = ?`, hash).Scan(append(kr.dests(), ur.dests()...)...)
	if err != nil {
		return nil, nil, one("api key", "by secret", err)
	}
	k, err := kr.key()
	if err != nil {
		return nil, nil, err
	}
	return k, ur.user(), nil
}

// apiKeySorts maps the public order_by values to sort expressions; a NULL
// last_used_at sorts as never used (before every real use).
var apiKeySorts = map[string]string{
	"created_at":   "k.created_at",
	"last_used_at": "COALESCE(k.last_used_at, 0)",
	"name":         "k.name COLLATE NOCASE",
}

func (s apiKeys) List(ctx context.Context, f store.APIKeyFilter, p store.Page) ([]catalog.APIKey, bool, error) {
	sort, ok := apiKeySorts[f.OrderBy]
	if !ok {
		sort = apiKeySorts["created_at"]
	}
	q := listQuery{
		cols: apiKeyCols, from: "api_keys k", where: []string{"k.user_id = ?"}, args: []any{f.UserID},
		sort: sort, idCol: "k.id", desc: f.Desc,
	}
	if f.Name != "" {
		q.where = append(q.where, "instr(casefold(k.name), ?) > 0")
		q.args = append(q.args, strings.ToLower(f.Name))
	}
	if f.LibraryID != "" {
		q.where = append(q.where, "(k.library_ids IS NULL OR EXISTS (SELECT 1 FROM json_each(k.library_ids) WHERE value = ?))")
		q.args = append(q.args, f.LibraryID)
	}
	return page(ctx, s.q, q, p, func(rows *sql.Rows) (catalog.APIKey, error) {
		k, err := scanAPIKey(rows)
		if err != nil {
			return catalog.APIKey{}, err
		}
		return *k, nil
	})
}

func (s apiKeys) Update(ctx context.Context, k *catalog.APIKey) error {
	actions, libs, err := sqlrow.EncodeScope(k.Scope)
	if err != nil {
		return err
	}
	res, err := s.q.ExecContext(ctx, `UPDATE api_keys SET name = ?, actions = ?, library_ids = ?,
		updated_at = ? WHERE id = ? AND user_id = ?`, k.Name, actions, libs, micros(k.UpdatedAt), k.ID, k.UserID)
	return affected("api key", k.ID, res, err)
}

func (s apiKeys) Delete(ctx context.Context, userID, id string) error {
	res, err := s.q.ExecContext(ctx, `DELETE FROM api_keys WHERE id = ? AND user_id = ?`, id, userID)
	return affected("api key", id, res, err)
}

func (s apiKeys) Touch(ctx context.Context, id string, t time.Time, minGap time.Duration) error {
	_, err := s.q.ExecContext(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?
		AND (last_used_at IS NULL OR last_used_at <= ?)`, micros(t), id, micros(t.Add(-minGap)))
	return translate(err)
}
