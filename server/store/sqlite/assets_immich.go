package sqlite

import (
	"context"
	"fmt"
	"strconv"

	"github.com/photoctl/photoctl/server/catalog"
)

// sha1Batch bounds the SHA-1 sums of one query (SQLite's bound-variable
// limit is far above it; the Immich CLI checks 5000 files at once).
const sha1Batch = 500

func (s assets) FindBySHA1(ctx context.Context, libraryID string, sums [][]byte) ([]catalog.Asset, error) {
	var out []catalog.Asset
	var sc assetScanner
	for start := 0; start < len(sums); start += sha1Batch {
		batch := sums[start:min(start+sha1Batch, len(sums))]
		args := make([]any, 0, len(batch)+1)
		args = append(args, libraryID)
		for _, sum := range batch {
			args = append(args, sum)
		}
		rows, err := s.q.QueryContext(ctx, `SELECT `+assetCols+` FROM assets a
			WHERE a.library_id = ? AND a.checksum_sha1 IN (`+placeholders(len(batch))+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("find sha1 checksums: %w", translate(err))
		}
		for rows.Next() {
			a, err := sc.scan(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, a)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("find sha1 checksums: %w", translate(err))
		}
	}
	return out, nil
}

func (s assets) Seq(ctx context.Context, id string) (int64, error) {
	var seq int64
	err := s.q.QueryRowContext(ctx, `SELECT seq FROM assets WHERE id = ?`, id).Scan(&seq)
	return seq, one("asset", id, err)
}

func (s assets) IDBySeq(ctx context.Context, seq int64) (string, error) {
	var id string
	err := s.q.QueryRowContext(ctx, `SELECT id FROM assets WHERE seq = ?`, seq).Scan(&id)
	return id, one("asset number", strconv.FormatInt(seq, 10), err)
}
