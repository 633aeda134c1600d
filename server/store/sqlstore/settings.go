package sqlstore

import (
	"context"

	"github.com/photoctl/photoctl/server/store"
)

type settings struct{ q Q }

var _ store.Settings = settings{}

func (r Repos) Settings() store.Settings { return settings{r.Q} }

func (s settings) Get(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.q.queryRow(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	return v, s.q.one("setting", key, err)
}

func (s settings) PutIfAbsent(ctx context.Context, key string, value []byte) ([]byte, error) {
	if _, err := s.q.exec(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO NOTHING`, key, value); err != nil {
		return nil, s.q.one("store setting", key, err)
	}
	return s.Get(ctx, key)
}
