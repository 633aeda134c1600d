package app

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/ingest/geocode"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
)

// Regeocode queues a regeocode task for every library holding an asset
// with a position, so that a running server or worker names their places
// again with the geocoder's data of today (`photoctl admin regeocode`;
// serve and worker queue it themselves once per data version). It returns
// how many libraries it queued.
func Regeocode(ctx context.Context, cfg Config) (int, error) {
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return pipeline.Regeocode(ctx, st, time.Now())
}

// MarkPlacesCurrent records that the places in st are those of the
// geocoder's data of today, so that serve and worker do not queue regeocode
// tasks at their next start (photoctl dev seed, whose places are synthetic).
func MarkPlacesCurrent(ctx context.Context, st store.Store) error {
	return pipeline.MarkGeocoded(ctx, st, geocode.DataVersion(), time.Now())
}
