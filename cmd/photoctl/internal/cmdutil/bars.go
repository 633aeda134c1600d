package cmdutil

import (
	"io"

	"github.com/schollz/progressbar/v3"
)

// NewBar is a progress bar drawn on w the way every command draws one: 24
// cells wide, redrawn in place with ANSI codes and cleared when finished.
// max -1 is a spinner for work whose total is not known yet; opts add to
// or override these.
func NewBar(w io.Writer, max int64, description string, opts ...progressbar.Option) *progressbar.ProgressBar {
	return progressbar.NewOptions64(max, append([]progressbar.Option{progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(24), progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true), progressbar.OptionSetDescription(description)}, opts...)...)
}
