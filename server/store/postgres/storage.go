package postgres

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/store"
)

type storage struct{ q conn }

func (r repos) Storage() store.Storage { return storage{r.q} }

var _ store.Storage = storage{}

func (s storage) Add(ctx context.Context, userID string, delta int64) error {
	_, err := s.q.exec(ctx, `INSERT INTO storage_usage (user_id, used_bytes) VALUES (?, greatest(?::bigint, 0))
		ON CONFLICT (user_id) DO UPDATE SET used_bytes = greatest(storage_usage.used_bytes + ?::bigint, 0)`,
		userID, delta, delta)
	return translate(err)
}

func (s storage) Used(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := s.q.queryRow(ctx, `SELECT used_bytes FROM storage_usage WHERE user_id = ?`, userID).Scan(&n)
	if errNoRows(err) {
		return 0, nil
	}
	return n, translate(err)
}

type blobJournal struct{ q conn }

func (r repos) BlobJournal() store.BlobJournal { return blobJournal{r.q} }

var _ store.BlobJournal = blobJournal{}

func (j blobJournal) Add(ctx context.Context, keys []string, now time.Time) error {
	if len(keys) == 0 {
		return nil
	}
	_, err := j.q.exec(ctx, `INSERT INTO blob_journal (key, created_at)
		SELECT k, ? FROM unnest(?::text[]) AS k ON CONFLICT (key) DO NOTHING`, micros(now), keys)
	return translate(err)
}

func (j blobJournal) List(ctx context.Context, limit int) ([]string, error) {
	return queryStrings(ctx, j.q, `SELECT key FROM blob_journal ORDER BY created_at, key LIMIT ?`, limit)
}

func (j blobJournal) Remove(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	_, err := j.q.exec(ctx, `DELETE FROM blob_journal WHERE key = ANY(?::text[])`, keys)
	return translate(err)
}
