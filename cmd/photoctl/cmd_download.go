package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// DownloadOptions is what `photoctl download` needs once its flags are
// parsed.
type DownloadOptions struct {
	IDs    []string          // explicit assets, else Query
	Query  client.AssetQuery // used when IDs is empty
	Dir    string
	ByDate bool
	Jobs   int
	JSON   bool
	IO     *cmdutil.Streams
}

// downloadResult is one asset's outcome, in --json.
type downloadResult struct {
	ID     string `json:"id"`
	Path   string `json:"path,omitempty"`
	Status string `json:"status"` // downloaded, exists, failed
	Bytes  int64  `json:"bytes"`
	Reason string `json:"reason,omitempty"`
}

// newDownloadCommand returns `photoctl download`, or under another name
// the hidden synonym `photoctl export`.
func newDownloadCommand(name string) *cli.Command {
	return &cli.Command{
		Name:      name,
		Hidden:    name != "download",
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
		Flags: append(append(cmdutil.ClientFlags(), cmdutil.AssetFilterFlags()...),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: ".", Usage: "write into `DIR`"},
			&cli.BoolFlag{Name: "by-date", Usage: "put files into YYYY/MM/DD folders by capture date"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 4, Usage: "download `N` files at once"},
			cmdutil.QuietFlag(), cmdutil.JSONFlag()),
		Action: func(c *cli.Context) error {
			ids := c.Args().Slice()
			if c.Int("jobs") < 1 {
				return cmdutil.UsageErrorf(c, "--jobs must be at least 1")
			}
			conn, err := cmdutil.Connect(c, true)
			if err != nil {
				return err
			}
			opts := &DownloadOptions{IDs: ids, Dir: c.String("output"), ByDate: c.Bool("by-date"),
				Jobs: c.Int("jobs"), JSON: c.Bool("json"), IO: cmdutil.NewStreams(c)}
			if len(opts.IDs) > 0 && cmdutil.HasAssetFilter(c) {
				return cmdutil.UsageErrorf(c, "give asset ids or filters, not both")
			}
			if opts.Query, err = cmdutil.AssetQuery(c, conn); err != nil {
				return err
			}
			return runDownload(c.Context, conn, opts)
		},
	}
}

// runDownload downloads every selected asset with opts.Jobs workers.
func runDownload(ctx context.Context, conn *cmdutil.APIConn, opts *DownloadOptions) error {
	assets := make(chan *api.Asset)
	results := make(chan downloadResult)
	var listErr error
	matched := 0 // written before assets is closed, read after results is
	go func() {
		defer close(assets)
		if len(opts.IDs) > 0 {
			matched = len(opts.IDs)
			for _, id := range opts.IDs {
				a, err := conn.Asset(ctx, id)
				if err != nil {
					results <- downloadResult{ID: id, Status: "failed", Reason: err.Error()}
					continue
				}
				assets <- a
			}
			return
		}
		for a, err := range conn.Assets(ctx, opts.Query, 0) {
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

	var all []downloadResult
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
			all = []downloadResult{}
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
