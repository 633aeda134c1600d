package sqlite

import (
	"context"
	"database/sql"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/store/sqlrow"
)

type users struct{ q querier }

func (r repos) Users() store.Users { return users{r.q} }

var _ store.Users = users{}

const userCols = `id, email, first_name, last_name, password_hash, is_active, is_superuser,
	is_verified, quota_bytes, created_at, updated_at`

// ownerCols are userCols of the users table joined as u.
var ownerCols = sqlrow.Qualify(userCols, "u")

// userRow is a users row being scanned: dests are the destinations of
// userCols, user the record they hold.
type userRow struct {
	u                catalog.User
	quota            sql.NullInt64
	created, updated int64
}

func (r *userRow) dests() []any {
	return []any{&r.u.ID, &r.u.Email, &r.u.FirstName, &r.u.LastName, &r.u.PasswordHash, &r.u.IsActive,
		&r.u.IsSuperuser, &r.u.IsVerified, &r.quota, &r.created, &r.updated}
}

func (r *userRow) user() *catalog.User {
	if r.quota.Valid {
		q := r.quota.Int64
		r.u.QuotaBytes = &q
	}
	r.u.CreatedAt, r.u.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	return &r.u
}

func scanUser(row interface{ Scan(...any) error }) (*catalog.User, error) {
	var r userRow
	if err := row.Scan(r.dests()...); err != nil {
		return nil, err
	}
	return r.user(), nil
}

func (s users) Create(ctx context.Context, u *catalog.User) error {
	_, err := s.q.ExecContext(ctx, `INSERT INTO users (`+userCols+`, email_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Email, u.FirstName, u.LastName, u.PasswordHash, u.IsActive, u.IsSuperuser,
		u.IsVerified, u.QuotaBytes, micros(u.CreatedAt), micros(u.UpdatedAt), catalog.NameKey(u.Email))
	return one("create user", u.Email, err)
}

func (s users) Get(ctx context.Context, id string) (*catalog.User, error) {
	u, err := scanUser(s.q.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, one("user", id, err)
}

func (s users) GetByEmail(ctx context.Context, email string) (*catalog.User, error) {
	u, err := scanUser(s.q.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE email_key = ?`,
		catalog.NameKey(email)))
	return u, one("user", email, err)
}

func (s users) Update(ctx context.Context, u *catalog.User) error {
	res, err := s.q.ExecContext(ctx, `UPDATE users SET email = ?, email_key = ?, first_name = ?,
		last_name = ?, password_hash = ?, is_active = ?, is_superuser = ?, is_verified = ?,
		quota_bytes = ?, updated_at = ? WHERE id = ?`,
		u.Email, catalog.NameKey(u.Email), u.FirstName, u.LastName, u.PasswordHash, u.IsActive,
		u.IsSuperuser, u.IsVerified, u.QuotaBytes, micros(u.UpdatedAt), u.ID)
	return affected("user", u.ID, res, err)
}

func (s users) Preferences(ctx context.Context, userID string) (catalog.Preferences, error) {
	var p catalog.Preferences
	var immich, def sql.NullString
	err := s.q.QueryRowContext(ctx, `SELECT immich_library_id, default_library_id FROM users WHERE id = ?`,
		userID).Scan(&immich, &def)
	if err != nil {
		return p, one("user", userID, err)
	}
	if immich.Valid {
		p.ImmichLibraryID = &immich.String
	}
	if def.Valid {
		p.DefaultLibraryID = &def.String
	}
	return p, nil
}

func (s users) SetPreferences(ctx context.Context, userID string, p catalog.Preferences) error {
	res, err := s.q.ExecContext(ctx, `UPDATE users SET immich_library_id = ?, default_library_id = ?
		WHERE id = ?`, p.ImmichLibraryID, p.DefaultLibraryID, userID)
	return affected("user", userID, res, err)
}

// affected turns an UPDATE or DELETE that matched no row into ErrNotFound.
func affected(what, id string, res sql.Result, err error) error {
	if err != nil {
		return one(what, id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return one(what, id, err)
	}
	if n == 0 {
		return one(what, id, sql.ErrNoRows)
	}
	return nil
}
