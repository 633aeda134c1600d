package sqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

type apiKeys struct{ q Q }

func (r Repos) APIKeys() store.APIKeys { return apiKeys{r.Q} }

var _ store.APIKeys = apiKeys{}

// apiKeyCols reads the JSON columns as text (jsonb in PostgreSQL).
const apiKeyCols = `k.id, k.user_id, k.name, k.secret_hash, CAST(k.actions AS TEXT), CAST(k.library_ids AS TEXT),
	k.last_used_at, k.created_at, k.updated_at`

// apiKeyRow is an api_keys row being scanned: dests are the destinations
// of apiKeyCols, key the record they hold.
type apiKeyRow struct {
	k                catalog.APIKey
	actions          string
	libs             *string
	used             *int64
	created, updated int64
}

func (r *apiKeyRow) dests() []any {
	return []any{&r.k.ID, &r.k.UserID, &r.k.Name, &r.k.SecretHash, &r.actions, &r.libs, &r.used, &r.created, &r.updated}
}

func (r *apiKeyRow) key() (*catalog.APIKey, error) {
	k := &r.k
	scope, err := decodeScope(k.ID, r.actions, r.libs)
	if err != nil {
		return nil, err
	}
	k.Scope = scope
	k.LastUsedAt = fromNullMicros(r.used)
	k.CreatedAt, k.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	return k, nil
}

func scanAPIKey(row scanner) (*catalog.APIKey, error) {
	var r apiKeyRow
	if err := row.Scan(r.dests()...); err != nil {
		return nil, err
	}
	return r.key()
}

func (s apiKeys) Create(ctx context.Context, k *catalog.APIKey) error {
	actions, libs, err := encodeScope(k.Scope)
	if err != nil {
		return err
	}
	cols, marks := "", ""
	args := []any{k.ID, k.UserID, k.Name, k.SecretHash, actions, libs, nullMicros(k.LastUsedAt),
		micros(k.CreatedAt), micros(k.UpdatedAt)}
	if s.q.d.NameFold {
		cols, marks, args = ", name_fold", ", ?", append(args, strings.ToLower(k.Name))
	}
	j := s.q.d.JSONArg
	res, err := s.q.exec(ctx, `INSERT INTO api_keys (id, user_id, name, secret_hash, actions,
		library_ids, last_used_at, created_at, updated_at`+cols+`)
		VALUES (?, ?, ?, ?, `+j+`, `+j+`, ?, ?, ?`+marks+`) ON CONFLICT DO NOTHING`, args...)
	return s.q.inserted("create api key", k.Name, res, err)
}

func (s apiKeys) Get(ctx context.Context, userID, id string) (*catalog.APIKey, error) {
	k, err := scanAPIKey(s.q.queryRow(ctx, `SELECT `+apiKeyCols+` FROM api_keys k
		WHERE k.id = ? AND k.user_id = ?`, id, userID))
	return k, s.q.one("api key", id, err)
}

func (s apiKeys) GetByHash(ctx context.Context, hash []byte) (*catalog.APIKey, *catalog.User, error) {
	var kr apiKeyRow
	var ur userRow
	err := s.q.queryRow(ctx, `SELECT `+apiKeyCols+`, `+ownerCols+` FROM api_keys k
		JOIN users u ON u.id = k.user_id WHERE k.secret_hash = ?`, hash).Scan(append(kr.dests(), ur.dests()...)...)
	if err != nil {
		return nil, nil, s.q.one("api key", "by secret", err)
	}
	k, err := kr.key()
	if err != nil {
		return nil, nil, err
	}
	return k, ur.user(), nil
}

// apiKeySorts maps the public order_by values to sort expressions; a NULL
// last_used_at sorts as never used (before every real use). lower() folds
// ASCII only in both dialects (a "C" column in PostgreSQL), as SQLite's
// NOCASE does.
var apiKeySorts = map[string]string{
	"created_at":   "k.created_at",
	"last_used_at": "COALESCE(k.last_used_at, 0)",
	"name":         "lower(k.name)",
}

func (s apiKeys) List(ctx context.Context, f query.APIKeyFilter, p query.Page) ([]catalog.APIKey, bool, error) {
	sort, ok := apiKeySorts[f.OrderBy]
	if !ok {
		sort = apiKeySorts["created_at"]
	}
	lq := listQuery{
		cols: apiKeyCols, from: "api_keys k", where: []string{"k.user_id = ?"}, args: []any{f.UserID},
		sort: sort, idCol: "k.id", desc: f.Desc,
	}
	if f.Name != "" {
		folded := "casefold(k.name)"
		if s.q.d.NameFold {
			folded = "k.name_fold"
		}
		lq.where = append(lq.where, s.q.d.Instr+"("+folded+", ?) > 0")
		lq.args = append(lq.args, strings.ToLower(f.Name))
	}
	if f.LibraryID != "" {
		lq.where = append(lq.where, "(k.library_ids IS NULL OR "+s.q.d.JSONHas("k.library_ids")+")")
		lq.args = append(lq.args, f.LibraryID)
	}
	return page(ctx, s.q, lq, p, func(rows scanner) (catalog.APIKey, error) {
		k, err := scanAPIKey(rows)
		if err != nil {
			return catalog.APIKey{}, err
		}
		return *k, nil
	})
}

func (s apiKeys) Update(ctx context.Context, k *catalog.APIKey) error {
	actions, libs, err := encodeScope(k.Scope)
	if err != nil {
		return err
	}
	set, args := "", []any{k.Name, actions, libs, micros(k.UpdatedAt)}
	if s.q.d.NameFold {
		set, args = ", name_fold = ?", append(args, strings.ToLower(k.Name))
	}
	j := s.q.d.JSONArg
	res, err := s.q.exec(ctx, `UPDATE api_keys SET name = ?, actions = `+j+`, library_ids = `+j+`,
		updated_at = ?`+set+` WHERE id = ? AND user_id = ?`, append(args, k.ID, k.UserID)...)
	return s.q.affected("api key", k.ID, res, err)
}

func (s apiKeys) Delete(ctx context.Context, userID, id string) error {
	res, err := s.q.exec(ctx, `DELETE FROM api_keys WHERE id = ? AND user_id = ?`, id, userID)
	return s.q.affected("api key", id, res, err)
}

func (s apiKeys) Touch(ctx context.Context, id string, t time.Time, minGap time.Duration) error {
	_, err := s.q.exec(ctx, `UPDATE api_keys SET last_used_at = ? WHERE id = ?
		AND (last_used_at IS NULL OR last_used_at <= ?)`, micros(t), id, micros(t.Add(-minGap)))
	return s.q.translate(err)
}
