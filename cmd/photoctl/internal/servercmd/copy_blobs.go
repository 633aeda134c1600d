//go:build !client

package servercmd

import (
	"context"
	"fmt"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// CopyBlobsOptions is what `photoctl admin copy-blobs` needs once its
// flags are parsed.
type CopyBlobsOptions struct {
	Config   app.Config
	Parallel int
	Report
}

// NewCmdCopyBlobs returns `photoctl admin copy-blobs`.
func NewCmdCopyBlobs(f *Factory, runF func(*CopyBlobsOptions) error) *cli.Command {
	return &cli.Command{
		Name:  "copy-blobs",
		Usage: "Copy the data directory's files into the S3-compatible bucket storage.s3 names",
		Description: `Copies every original, version, XMP sidecar and rendering kept in the data
directory into the bucket that storage.s3 names, under the same keys, so an
existing library can move to the bucket. A file the bucket already holds
with the same size is not sent again, so the command can be run while the
server runs and once more after stopping it; each copy is checked by its
size. What the bucket holds is read from its listing first, into a scratch
file in the data directory's tmp/ (some 100 bytes a file, deleted at the
end), so memory stays flat however large the library. The data directory
is not changed otherwise: remove its blobs/ folder once 'photoctl serve'
runs with storage.s3 set.

Example:
   PHOTOCTL_STORAGE_S3_ENDPOINT=minio.lan:9000 PHOTOCTL_STORAGE_S3_BUCKET=photos \
   photoctl admin copy-blobs --data-dir /srv/photoctl`,
		Flags: append([]cli.Flag{dataDirFlag(), &cli.IntFlag{Name: "parallel", Value: 8, Usage: "copy `N` files at once"}},
			reportFlags()...),
		Action: func(c *cli.Context) error {
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			opts := &CopyBlobsOptions{Config: cfg, Parallel: c.Int("parallel"), Report: newReport(f, c)}
			return cmdutil.Run(c.Context, opts, runF, runCopyBlobs)
		},
	}
}

// runCopyBlobs copies the blobs, with a spinner and then a bar on a
// terminal, and prints what was done.
func runCopyBlobs(ctx context.Context, opts *CopyBlobsOptions) error {
	io := opts.IO
	var bar *progressbar.ProgressBar
	if io.Progress {
		// Reading a large bucket's listing and counting the files
		// take minutes before the total is known: a spinner till then.
		bar = cmdutil.NewBar(io.Err, -1, "reading the bucket's listing, counting files",
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetRenderBlankState(true)) // starts its spinner's clock
	}
	st, err := app.CopyBlobsToBucket(ctx, opts.Config, opts.Parallel, func(total app.BlobCopy, key string, size int64) {
		switch {
		case !io.Progress:
		case key == "": // the total
			_ = bar.Finish()
			bar = cmdutil.NewBar(io.Err, total.Bytes, "copying",
				progressbar.OptionShowBytes(true), progressbar.OptionSetPredictTime(true))
		default:
			_ = bar.Add64(size)
		}
	})
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("copy blobs: %w", err)
	}
	return opts.done(st, "%d files (%d bytes) in the data directory: %d copied (%d bytes), %d already in the bucket\n",
		st.Blobs, st.Bytes, st.Copied, st.CopiedBytes, st.Present)
}
