package postgres

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/store"
)

type users struct{ q conn }

var _ store.Users = users{}

const userCols = `id, email, first_name, last_name, password_hash, is_active, is_superuser,
	is_verified, quota_bytes, created_at, updated_at`

func scanUser(row scanner) (*catalog.User, error) {
	var u catalog.User
	var created, updated int64
	err := row.Scan(&u.ID, &u.Email, &u.FirstName, &u.LastName, &u.PasswordHash, &u.IsActive,
		&u.IsSuperuser, &u.IsVerified, &u.QuotaBytes, &created, &updated)
	if err != nil {
		return nil, err
	}
	u.CreatedAt, u.UpdatedAt = fromMicros(created), fromMicros(updated)
	return &u, nil
}

func (s users) Create(ctx context.Context, u *catalog.User) error {
	tag, err := s.q.exec(ctx, `INSERT INTO users (`+userCols+`, email_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		u.ID, u.Email, u.FirstName, u.LastName, u.PasswordHash, u.IsActive, u.IsSuperuser,
		u.IsVerified, u.QuotaBytes, micros(u.CreatedAt), micros(u.UpdatedAt), catalog.NameKey(u.Email))
	return inserted("create user", u.Email, tag, err)
}

func (s users) Get(ctx context.Context, id string) (*catalog.User, error) {
	u, err := scanUser(s.q.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, one("user", id, err)
}

func (s users) GetByEmail(ctx context.Context, email string) (*catalog.User, error) {
	u, err := scanUser(s.q.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE email_key = ?`,
		catalog.NameKey(email)))
	return u, one("user", email, err)
}

func (s users) Update(ctx context.Context, u *catalog.User) error {
	tag, err := s.q.exec(ctx, `UPDATE users SET email = ?, email_key = ?, first_name = ?,
		last_name = ?, password_hash = ?, is_active = ?, is_superuser = ?, is_verified = ?,
		quota_bytes = ?, updated_at = ? WHERE id = ?`,
		u.Email, catalog.NameKey(u.Email), u.FirstName, u.LastName, u.PasswordHash, u.IsActive,
		u.IsSuperuser, u.IsVerified, u.QuotaBytes, micros(u.UpdatedAt), u.ID)
	return affected("user", u.ID, tag, err)
}

func (s users) Preferences(ctx context.Context, userID string) (catalog.Preferences, error) {
	var p catalog.Preferences
	err := s.q.queryRow(ctx, `SELECT immich_library_id, default_library_id FROM users WHERE id = ?`,
		userID).Scan(&p.ImmichLibraryID, &p.DefaultLibraryID)
	if err != nil {
		return catalog.Preferences{}, one("user", userID, err)
	}
	return p, nil
}

func (s users) SetPreferences(ctx context.Context, userID string, p catalog.Preferences) error {
	tag, err := s.q.exec(ctx, `UPDATE users SET immich_library_id = ?, default_library_id = ?
		WHERE id = ?`, p.ImmichLibraryID, p.DefaultLibraryID, userID)
	return affected("user", userID, tag, err)
}
