package assets

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/photoctl/photoctl/client/importer"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// uploadBar draws the progress of an import on a terminal: bytes done of
// bytes found with MB/s and ETA (progressbar's), and files done of files
// found with files/s in the description.
type uploadBar struct {
	bar  *progressbar.ProgressBar
	done chan struct{}
	quit chan struct{}
}

func startUploadBar(im *importer.Importer, w io.Writer) *uploadBar {
	bar := cmdutil.NewBar(w, -1, "scanning",
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
	b := &uploadBar{bar: bar, done: make(chan struct{}), quit: make(chan struct{})}
	start := time.Now()
	go func() {
		defer close(b.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-b.quit:
				return
			case <-t.C:
			}
			p := im.Progress()
			if p.FoundBytes > 0 && bar.GetMax64() != p.FoundBytes {
				bar.ChangeMax64(p.FoundBytes)
			}
			found := fmt.Sprint(p.Found)
			if !p.WalkDone {
				found += "+"
			}
			rate := float64(p.Done) / max(time.Since(start).Seconds(), 0.001)
			bar.Describe(fmt.Sprintf("%d/%s files %5.1f files/s", p.Done, found, rate))
			_ = bar.Set64(p.DoneBytes)
		}
	}()
	return b
}

// finish stops the updates and clears the bar.
func (b *uploadBar) finish() {
	close(b.quit)
	<-b.done
	_ = b.bar.Finish()
	_ = b.bar.Clear()
}
