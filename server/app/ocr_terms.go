package app

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/photoctl/photoctl/ingest/wordsplit"
	"github.com/photoctl/photoctl/server/pipeline"
	"github.com/photoctl/photoctl/server/store"
)

// splitOCRTexts starts, in the background, the pass that gives the OCR
// texts stored the terms of this splitter's data (pipeline.SplitOCRTexts:
// texts read before the terms existed, or split by an older dictionary);
// once a version's pass has finished, a start only reads one setting. The
// function returned stops the pass (the next start does it again) and
// waits for it.
func splitOCRTexts(st store.Store, log *slog.Logger, now func() time.Time) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		start := time.Now()
		version := wordsplit.DataVersion()
		n, err := pipeline.SplitOCRTexts(ctx, st, version, now())
		switch {
		case err != nil && !errors.Is(err, context.Canceled):
			log.Warn("split ocr texts", "component", "pipeline", "version", version, "written", n, "err", err)
		case n > 0:
			log.Info("ocr texts split again", "component", "pipeline", "version", version, "written", n,
				"took", time.Since(start).Round(time.Millisecond))
		}
	}()
	return func() {
		cancel()
		<-done
	}
}
