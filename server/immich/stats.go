package immich

import (
	"context"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// maxYears bounds the year buckets read for statistics: all of them.
const maxYears = 100000

// StatisticsQuery selects what statistics count.
type StatisticsQuery struct {
	Trashed bool
	// None counts nothing (isFavorite:true, a visibility other than timeline).
	None bool
}

// Statistics counts the library's images and videos, live or trashed, as
// the native counts do (from the maintained per-day aggregates, stacks
// counted once), never scanning assets.
func (s *Service) Statistics(ctx context.Context, p *catalog.Principal, q StatisticsQuery) (Statistics, error) {
	m, err := s.Library(ctx, p)
	if err != nil || q.None {
		return Statistics{}, err
	}
	state := query.StateLive
	if q.Trashed {
		state = query.StateTrashed
	}
	count := func(t catalog.MediaType) (int64, error) {
		buckets, _, err := s.store.Read().AssetAggregates().Counts(ctx, query.CountsQuery{
			Filter: query.AssetFilter{LibraryID: m.Library.ID, State: state, MediaType: t},
			Bucket: query.BucketYear, Limit: maxYears})
		var n int64
		for _, b := range buckets {
			n += b.Count
		}
		return n, err
	}
	var st Statistics
	if st.Images, err = count(catalog.MediaImage); err != nil {
		return Statistics{}, err
	}
	if st.Videos, err = count(catalog.MediaVideo); err != nil {
		return Statistics{}, err
	}
	st.Total = st.Images + st.Videos
	return st, nil
}
