//go:build !client

package main

import (
	"encoding/json"
	"fmt"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/app"
)

// newCopyBlobsCommand returns `photoctl admin copy-blobs`.
func newCopyBlobsCommand() *cli.Command {
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
		Flags: []cli.Flag{dataDirFlag(),
			&cli.IntFlag{Name: "parallel", Value: 8, Usage: "copy `N` files at once"},
			&cli.BoolFlag{Name: "json", Usage: "print what was done as JSON"}, cmdutil.QuietFlag()},
		Action: func(c *cli.Context) error {
			cfg, err := loadConfig(c)
			if err != nil {
				return err
			}
			io := cmdutil.NewStreams(c)
			var bar *progressbar.ProgressBar
			if io.Progress {
				// Reading a large bucket's listing and counting the files
				// take minutes before the total is known: a spinner till then.
				bar = cmdutil.NewBar(io.Err, -1, "reading the bucket's listing, counting files",
					progressbar.OptionSetElapsedTime(true),
					progressbar.OptionSetRenderBlankState(true)) // starts its spinner's clock
			}
			st, err := app.CopyBlobsToBucket(c.Context, cfg, c.Int("parallel"), func(total app.BlobCopy, key string, size int64) {
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
			if c.Bool("json") {
				return json.NewEncoder(io.Out).Encode(st)
			}
			if io.Quiet {
				return nil
			}
			_, err = fmt.Fprintf(io.Out, "%d files (%d bytes) in the data directory: %d copied (%d bytes), %d already in the bucket\n",
				st.Blobs, st.Bytes, st.Copied, st.CopiedBytes, st.Present)
			return err
		},
	}
}
