package sqlstore

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/store"
)

type storage struct{ q Q }

func (r Repos) Storage() store.Storage { return storage{r.Q} }

var _ store.Storage = storage{}

// Add keeps the total at zero or above. The casts make PostgreSQL bind
// delta as a bigint.
func (s storage) Add(ctx context.Context, userID string, delta int64) error {
	g := s.q.d.Greatest
	_, err := s.q.exec(ctx, `INSERT INTO storage_usage (user_id, used_bytes) VALUES (?, `+g+`(CAST(? AS BIGINT), 0))
		ON CONFLICT (user_id) DO UPDATE SET used_bytes = `+g+`(storage_usage.used_bytes + CAST(? AS BIGINT), 0)`,
		userID, delta, delta)
	return s.q.translate(err)
}

func (s storage) Used(ctx context.Context, userID string) (int64, error) {
	var n int64
	err := s.q.queryRow(ctx, `SELECT used_bytes FROM storage_usage WHERE user_id = ?`, userID).Scan(&n)
	if isNoRows(err) {
		return 0, nil
	}
	return n, s.q.translate(err)
}

type blobJournal struct{ q Q }

func (r Repos) BlobJournal() store.BlobJournal { return blobJournal{r.Q} }

var _ store.BlobJournal = blobJournal{}

// Add inserts every key in one statement; a key journaled already keeps its
// first time. WHERE true tells SQLite's parser that ON starts the upsert,
// not a join constraint.
func (j blobJournal) Add(ctx context.Context, keys []string, now time.Time) error {
	if len(keys) == 0 {
		return nil
	}
	from, arg := j.q.d.StringRows(keys)
	_, err := j.q.exec(ctx, `INSERT INTO blob_journal (key, created_at) SELECT value, ? FROM `+from+`
		WHERE true ON CONFLICT (key) DO NOTHING`, micros(now), arg)
	return j.q.translate(err)
}

func (j blobJournal) List(ctx context.Context, limit int) ([]string, error) {
	return queryStrings(ctx, j.q, `SELECT key FROM blob_journal ORDER BY created_at, key LIMIT ?`, limit)
}

func (j blobJournal) Remove(ctx context.Context, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	cond, arg := j.q.d.InStrings("key", keys)
	_, err := j.q.exec(ctx, `DELETE FROM blob_journal WHERE `+cond, arg)
	return j.q.translate(err)
}
