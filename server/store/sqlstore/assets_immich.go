package sqlstore

import (
	"context"
	"fmt"
	"strconv"

	"github.com/photoctl/photoctl/server/catalog"
)

// sha1Batch bounds the SHA-1 sums of one query (the Immich CLI checks 5000
// files at once; SQLite's bound-variable limit is far above it).
const sha1Batch = 500

func (s assets) FindBySHA1(ctx context.Context, libraryID string, sums [][]byte) ([]catalog.Asset, error) {
	var out []catalog.Asset
	for start := 0; start < len(sums); start += sha1Batch {
		in, args := s.q.d.InBytes("a.checksum_sha1", sums[start:min(start+sha1Batch, len(sums))])
		found, err := s.queryAssets(ctx, `SELECT `+s.cols()+` FROM assets a
			WHERE a.library_id = ? AND `+in, append([]any{libraryID}, args...)...)
		if err != nil {
			return nil, fmt.Errorf("find sha1 checksums: %w", err)
		}
		out = append(out, found...)
	}
	return out, nil
}

func (s assets) Seq(ctx context.Context, id string) (int64, error) {
	var seq int64
	err := s.q.queryRow(ctx, `SELECT seq FROM assets WHERE id = ?`, id).Scan(&seq)
	return seq, s.q.one("asset", id, err)
}

func (s assets) IDBySeq(ctx context.Context, seq int64) (string, error) {
	var id string
	err := s.q.queryRow(ctx, `SELECT id FROM assets WHERE seq = ?`, seq).Scan(&id)
	return id, s.q.one("asset number", strconv.FormatInt(seq, 10), err)
}
