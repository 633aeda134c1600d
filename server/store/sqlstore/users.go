package sqlstore

import (
	"context"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type users struct{ q Q }

func (r Repos) Users() store.Users { return users{r.Q} }

var _ store.Users = users{}

const userCols = `id, email, first_name, last_name, password_hash, is_active, is_superuser,
	is_verified, quota_bytes, created_at, updated_at`

// ownerCols are userCols of the users table joined as u.
var ownerCols = qualify(userCols, "u")

// qualify prefixes each column of a comma-separated list with alias, for a
// join: qualify("id, email", "u") is "u.id, u.email".
func qualify(cols, alias string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		fields[i] = alias + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// userRow is a users row being scanned: dests are the destinations of
// userCols, user the record they hold.
type userRow struct {
	u                catalog.User
	created, updated int64
}

func (r *userRow) dests() []any {
	return []any{&r.u.ID, &r.u.Email, &r.u.FirstName, &r.u.LastName, &r.u.PasswordHash, &r.u.IsActive,
		&r.u.IsSuperuser, &r.u.IsVerified, &r.u.QuotaBytes, &r.created, &r.updated}
}

func (r *userRow) user() *catalog.User {
	r.u.CreatedAt, r.u.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	return &r.u
}

func scanUser(row scanner) (*catalog.User, error) {
	var r userRow
	if err := row.Scan(r.dests()...); err != nil {
		return nil, err
	}
	return r.user(), nil
}

func (s users) Create(ctx context.Context, u *catalog.User) error {
	res, err := s.q.exec(ctx, `INSERT INTO users (`+userCols+`, email_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		u.ID, u.Email, u.FirstName, u.LastName, u.PasswordHash, u.IsActive, u.IsSuperuser,
		u.IsVerified, u.QuotaBytes, micros(u.CreatedAt), micros(u.UpdatedAt), catalog.NameKey(u.Email))
	return s.q.inserted("create user", u.Email, res, err)
}

func (s users) Get(ctx context.Context, id string) (*catalog.User, error) {
	u, err := scanUser(s.q.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, s.q.one("user", id, err)
}

func (s users) GetByEmail(ctx context.Context, email string) (*catalog.User, error) {
	u, err := scanUser(s.q.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE email_key = ?`,
		catalog.NameKey(email)))
	return u, s.q.one("user", email, err)
}

func (s users) Update(ctx context.Context, u *catalog.User) error {
	res, err := s.q.exec(ctx, `UPDATE users SET email = ?, email_key = ?, first_name = ?,
		last_name = ?, password_hash = ?, is_active = ?, is_superuser = ?, is_verified = ?,
		quota_bytes = ?, updated_at = ? WHERE id = ?`,
		u.Email, catalog.NameKey(u.Email), u.FirstName, u.LastName, u.PasswordHash, u.IsActive,
		u.IsSuperuser, u.IsVerified, u.QuotaBytes, micros(u.UpdatedAt), u.ID)
	return s.q.affected("user", u.ID, res, err)
}

func (s users) Preferences(ctx context.Context, userID string) (catalog.Preferences, error) {
	var p catalog.Preferences
	err := s.q.queryRow(ctx, `SELECT immich_library_id, default_library_id FROM users WHERE id = ?`,
		userID).Scan(&p.ImmichLibraryID, &p.DefaultLibraryID)
	if err != nil {
		return catalog.Preferences{}, s.q.one("user", userID, err)
	}
	return p, nil
}

func (s users) SetPreferences(ctx context.Context, userID string, p catalog.Preferences) error {
	res, err := s.q.exec(ctx, `UPDATE users SET immich_library_id = ?, default_library_id = ?
		WHERE id = ?`, p.ImmichLibraryID, p.DefaultLibraryID, userID)
	return s.q.affected("user", userID, res, err)
}
