package app

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
	"github.com/photoctl/photoctl/server/tasks"
)

// remeasurePage is how many assets one transaction of RemeasureCrops
// queues.
const remeasurePage = 500

// RemeasureCrops queues a metrics task for every measured asset without
// its crops' hashes (measured before image search hashed crops, migration
// 0019), and returns how many it queued. The task measures the stored
// preview again and writes the crops' hashes with the metrics, after which
// image search finds the asset's crops; until then it finds the asset, its
// mirror image and scaled copies as before. A metrics task already queued
// for an asset is not doubled. The server's workers run the tasks.
func RemeasureCrops(ctx context.Context, cfg Config) (int, error) {
	st, err := OpenStore(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	return remeasureCrops(ctx, st, time.Now)
}

func remeasureCrops(ctx context.Context, st store.Store, now func() time.Time) (int, error) {
	n, after := 0, ""
	for {
		page, err := st.Read().Search().UnhashedCrops(ctx, after, remeasurePage)
		if err != nil || len(page) == 0 {
			return n, err
		}
		err = st.InTx(ctx, func(r store.Repos) error {
			for _, a := range page {
				if err := tasks.Enqueue(ctx, r, pipeline.KindMetrics, a.ID, a.LibraryID, now()); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return n, err
		}
		n += len(page)
		after = page[len(page)-1].ID
	}
}
