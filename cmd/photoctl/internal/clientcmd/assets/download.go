package assets

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// DownloadOptions are what `photoctl download` was asked for.
type DownloadOptions struct {
	cmdutil.ClientOptions

	IDs    []string            // explicit assets, else Filter
	Filter cmdutil.AssetFilter // used when IDs is empty
	Dir    string
	ByDate bool
	Jobs   int
}

// DownloadResult is one asset's outcome, in --json.
type DownloadResult struct {
	ID     string `json:"id"`
	Path   string `json:"path,omitempty"`
	Status string `json:"status"` // downloaded, exists, failed
	Bytes  int64  `json:"bytes"`
	Reason string `json:"reason,omitempty"`
}

var downloadCmd = cmdutil.Command[DownloadOptions]{
	Name:      "download",
	Usage:     "Download originals, resumably and checksum-verified (also: photoctl export)",
	ArgsUsage: "[ID...]",
	Description: `Downloads the original files of the given assets, or of every asset the
filter flags select (all live assets without any), into --output. With
--by-date they go into YYYY/MM/DD folders by capture date.

Every member of a stack (a burst, say) is downloaded, not only the cover the
app shows; --covers-only downloads one file per stack, its cover. The last
line says how many assets matched and what became of them; when some
matched asset is not in --output afterwards the exit status is 3 (1 when
none is). With -q (--quiet) only the failures are printed, on standard
error.

Each file is written to a hidden .part file, checked against the asset's
SHA-256 and then renamed into place, so an interrupted export resumes where
it stopped when run again: finished files are verified and skipped, partial
ones continue with an HTTP range. Two assets with the same name get the
asset id added to the second one's name.

Example:
   photoctl download asset_01hx... -o ~/Pictures
   photoctl export --by-date -o /backup/photos
   photoctl export --after 2024-01-01 --media-type video -o videos -j 8 -q
   photoctl export --covers-only --after 2024-05-01 --before 2024-06-01 -o picks`,
	Flags: append(cmdutil.AssetFilterFlags(),
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: ".", Usage: "write into `DIR`"},
		&cli.BoolFlag{Name: "by-date", Usage: "put files into YYYY/MM/DD folders by capture date"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 4, Usage: "download `N` files at once"},
		cmdutil.QuietFlag()),
	JSON: true,
	Args: cmdutil.Between(0, -1, ""),
	Parse: func(c *cli.Context, ids []string, opts *DownloadOptions) error {
		if c.Int("jobs") < 1 {
			return cmdutil.UsageErrorf(c, "--jobs must be at least 1")
		}
		opts.IDs, opts.Filter = ids, cmdutil.ParseAssetFilter(c)
		opts.Dir, opts.ByDate, opts.Jobs = c.String("output"), c.Bool("by-date"), c.Int("jobs")
		if len(opts.IDs) > 0 && opts.Filter.Set {
			return cmdutil.UsageErrorf(c, "give asset ids or filters, not both")
		}
		return nil
	},
	Run: runDownload,
}

// NewCmdDownload returns `photoctl download`, or under another name the
// hidden synonym `photoctl export`; runF, when not nil, gets the parsed
// options instead of runDownload (tests).
func NewCmdDownload(f *cmdutil.Factory, name string, runF func(*DownloadOptions) error) *cli.Command {
	return cmdutil.New(f, synonym(downloadCmd, name), runF)
}

// runDownload downloads every selected asset with opts.Jobs workers.
func runDownload(ctx context.Context, conn *cmdutil.APIConn, opts *DownloadOptions) error {
	q, err := opts.Filter.Resolve(ctx, conn)
	if err != nil {
		return err
	}
	assets := make(chan *api.Asset)
	results := make(chan DownloadResult)
	var listErr error
	matched := 0 // written before assets is closed, read after results is
	go func() {
		defer close(assets)
		if len(opts.IDs) > 0 {
			matched = len(opts.IDs)
			for _, id := range opts.IDs {
				a, err := conn.Asset(ctx, id)
				if err != nil {
					results <- DownloadResult{ID: id, Status: "failed", Reason: err.Error()}
					continue
				}
				assets <- a
			}
			return
		}
		for a, err := range conn.Assets(ctx, q, 0) {
			if err != nil {
				listErr = err
				return
			}
			matched++
			assets <- &a
		}
	}()
	d := &downloader{conn: conn, dir: opts.Dir, byDate: opts.ByDate, claimed: map[string]string{}}
	var wg sync.WaitGroup
	for range opts.Jobs {
		wg.Go(func() {
			for a := range assets {
				results <- d.download(ctx, a)
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var all []DownloadResult
	counts := map[string]int{}
	var bytes int64
	for r := range results {
		all = append(all, r)
		counts[r.Status]++
		bytes += r.Bytes
		if !opts.JSON && r.Status == "failed" {
			fmt.Fprintf(opts.IO.Err, "%s: %s\n", r.ID, r.Reason)
		}
	}
	if opts.JSON {
		if all == nil {
			all = []DownloadResult{}
		}
		if err := cmdutil.PrintJSON(opts.IO.Out, all); err != nil {
			return err
		}
	} else if !opts.IO.Quiet {
		fmt.Fprintf(opts.IO.Out, "Matched %d asset(s); downloaded %d file(s) (%s), %d already there, %d failed, into %s.\n",
			matched, counts["downloaded"], cmdutil.HumanBytes(bytes), counts["exists"], counts["failed"], opts.Dir)
	}
	// Success is every matched asset in place, whatever went wrong on the way.
	done := counts["downloaded"] + counts["exists"]
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted; run the same command again to resume: %w", ctx.Err())
	case listErr != nil:
		return fmt.Errorf("list assets: %w", listErr)
	case done == matched:
		return nil
	case done > 0:
		return fmt.Errorf("%d of %d matched assets not downloaded: %w", matched-done, matched, cmdutil.ErrPartialFailure)
	default:
		return fmt.Errorf("none of %d matched assets downloaded", matched)
	}
}

// targetDir is where an asset goes: dir, or dir/YYYY/MM/DD by capture date.
func targetDir(dir string, byDate bool, a *api.Asset) string {
	if !byDate {
		return dir
	}
	d := a.LocalDatetime
	if len(d) < 10 {
		return filepath.Join(dir, "unknown-date")
	}
	return filepath.Join(dir, d[0:4], d[5:7], d[8:10])
}
