package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/store"
)

// Image search's look-alike candidates: the assets' own perceptual hashes,
// indexed per band in each dialect's way (Dialect.PHashBand: SQLite's
// virtual columns, PostgreSQL's expression indexes, migration 0013), and
// their crops' hashes, in asset_phashes (0019) as four plain band columns
// indexed alike in both.

// PHashCandidates finds the library's hashes, whole pictures' and crops',
// sharing a band with one of bands' values, each band through its own
// index.
func (s search) PHashCandidates(ctx context.Context, libraryID string, bands [4][]string, limit int) ([]store.PHashCandidate, error) {
	q := s.q
	var own, crops []string
	var ownArgs, cropArgs []any
	for i, values := range bands {
		if len(values) == 0 {
			continue
		}
		in, inArgs := q.d.In(q.d.PHashBand(i), values)
		own = append(own, "(a.library_id = ? AND "+in+")")
		ownArgs = append(append(ownArgs, libraryID), inArgs...)
		in, inArgs = q.d.In(fmt.Sprintf("p.b%d", i), values)
		crops = append(crops, "(p.library_id = ? AND "+in+")")
		cropArgs = append(append(cropArgs, libraryID), inArgs...)
	}
	if len(own) == 0 {
		return nil, nil
	}
	colors := `coalesce(` + q.d.JSONText("a.metrics", "colors") + `, '')`
	return queryAll(ctx, q, func(r scanner) (store.PHashCandidate, error) {
		var c store.PHashCandidate
		return c, r.Scan(&c.ID, &c.Kind, &c.PHash, &c.Colors)
	}, `SELECT a.id, '', `+q.d.JSONText("a.metrics", "phash")+`, `+colors+` FROM assets a WHERE `+strings.Join(own, " OR ")+`
		UNION ALL
		SELECT a.id, p.kind, p.b0 || p.b1 || p.b2 || p.b3, `+colors+` FROM asset_phashes p
		`+q.d.CrossJoin+` assets a ON a.id = p.asset_id WHERE `+strings.Join(crops, " OR ")+` LIMIT ?`,
		Args(ownArgs, cropArgs, limit)...)
}

// PutPHashes replaces the asset's crops' hashes: each stored as its four
// bands, with the asset's library.
func (s search) PutPHashes(ctx context.Context, assetID string, hashes []store.KindPHash) error {
	var libraryID string
	err := s.q.queryRow(ctx, `SELECT library_id FROM assets WHERE id = ?`, assetID).Scan(&libraryID)
	if err != nil {
		return s.q.one("put crop hashes of asset", assetID, err)
	}
	if _, err := s.q.exec(ctx, `DELETE FROM asset_phashes WHERE asset_id = ?`, assetID); err != nil {
		return s.q.one("put crop hashes of asset", assetID, err)
	}
	if len(hashes) == 0 {
		return nil
	}
	values := make([]string, len(hashes))
	args := make([]any, 0, 7*len(hashes))
	for i, h := range hashes {
		if len(h.PHash) != 16 || h.Kind == "" {
			return fmt.Errorf("put crop hashes of asset %s: hash %q of kind %q: want a kind and 16 hex digits", assetID, h.PHash, h.Kind)
		}
		values[i] = "(?, ?, ?, ?, ?, ?, ?)"
		args = append(args, assetID, libraryID, h.Kind, h.PHash[0:4], h.PHash[4:8], h.PHash[8:12], h.PHash[12:16])
	}
	_, err = s.q.exec(ctx, `INSERT INTO asset_phashes (asset_id, library_id, kind, b0, b1, b2, b3) VALUES `+
		strings.Join(values, ", "), args...)
	return s.q.one("put crop hashes of asset", assetID, err)
}

// UnhashedCrops pages the measured assets without crop hashes by id.
func (s search) UnhashedCrops(ctx context.Context, afterID string, limit int) ([]store.AssetRef, error) {
	return queryAll(ctx, s.q, func(r scanner) (store.AssetRef, error) {
		var a store.AssetRef
		return a, r.Scan(&a.ID, &a.LibraryID)
	}, `SELECT a.id, a.library_id FROM assets a WHERE a.id > ? AND `+s.q.d.JSONText("a.metrics", "phash")+` IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM asset_phashes p WHERE p.asset_id = a.id) ORDER BY a.id LIMIT ?`, afterID, limit)
}
