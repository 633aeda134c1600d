package immich

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
)

// MaxCheckItems bounds a bulk upload check (the CLI sends 5000 at once).
const MaxCheckItems = 10000

// Check answers, for each file a client may upload, whether the library
// already holds its content (by SHA-1, trashed assets included): accept,
// or reject as a duplicate naming the asset. A checksum that is not a
// SHA-1 is a validation error at its position; nothing is answered then.
func (s *Service) Check(ctx context.Context, p *catalog.Principal, items []CheckItem) ([]CheckResult, error) {
	if len(items) > MaxCheckItems {
		return nil, catalog.InvalidField("too_long", fmt.Sprintf("check at most %d assets at once", MaxCheckItems),
			nil, "body", "assets")
	}
	sums := make([][]byte, len(items))
	for i, it := range items {
		sum, err := ParseChecksum(it.Checksum)
		if err != nil {
			return nil, catalog.InvalidField("value_error", err.Error(), it.Checksum, "body", "assets", i, "checksum")
		}
		sums[i] = sum
	}
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	found, err := s.store.Read().Assets().FindBySHA1(ctx, m.Library.ID, sums)
	if err != nil {
		return nil, err
	}
	bySum := make(map[string]*catalog.Asset, len(found))
	for i := range found {
		bySum[string(found[i].ChecksumSHA1)] = &found[i]
	}
	out := make([]CheckResult, len(items))
	for i, it := range items {
		out[i] = CheckResult{ID: it.ID, Action: "accept"}
		if a := bySum[string(sums[i])]; a != nil {
			reason, id, trashed := "duplicate", a.ID, a.TrashedAt != nil
			out[i] = CheckResult{ID: it.ID, Action: "reject", Reason: &reason, AssetID: &id, IsTrashed: &trashed}
		}
	}
	return out, nil
}

// FindBySHA1 returns the asset of the library m with content sum, or nil
// (the x-immich-checksum short-circuit of uploads).
func (s *Service) FindBySHA1(ctx context.Context, m *catalog.Membership, sum []byte) (*catalog.Asset, error) {
	found, err := s.store.Read().Assets().FindBySHA1(ctx, m.Library.ID, [][]byte{sum})
	if err != nil || len(found) == 0 {
		return nil, err
	}
	return &found[0], nil
}
