package app

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/pipeline"
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
