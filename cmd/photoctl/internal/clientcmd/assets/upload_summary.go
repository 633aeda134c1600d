package assets

import (
	"fmt"
	"sort"
	"time"

	"github.com/photoctl/photoctl/client/importer"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// UploadJSON is the --json output of upload: the counts and every file.
type UploadJSON struct {
	DryRun      bool                   `json:"dry_run"`
	Interrupted bool                   `json:"interrupted"`
	New         int                    `json:"new"`
	Duplicate   int                    `json:"duplicate"`
	Skipped     int                    `json:"skipped"`
	Failed      int                    `json:"failed"`
	SentBytes   int64                  `json:"sent_bytes"`
	Hashed      int64                  `json:"hashed"`
	Seconds     float64                `json:"seconds"`
	Files       []importer.Result      `json:"files"`
	Albums      []importer.AlbumResult `json:"albums"`
}

// printUploadSummary prints what the import did: with --json every file
// and the counts; with -q only the failures; else skip reasons, failures,
// albums and a line of counts.
func printUploadSummary(opts *UploadOptions, sum *importer.Summary) error {
	w := opts.IO.Out
	if opts.JSON {
		files, albums := sum.Results, sum.Albums
		if files == nil {
			files = []importer.Result{}
		}
		if albums == nil {
			albums = []importer.AlbumResult{}
		}
		return cmdutil.PrintJSON(w, UploadJSON{DryRun: sum.DryRun, Interrupted: sum.Interrupted, New: sum.New,
			Duplicate: sum.Duplicate, Skipped: sum.Skipped, Failed: sum.Failed, SentBytes: sum.SentBytes,
			Hashed: sum.Hashed, Seconds: sum.Duration.Seconds(), Files: files, Albums: albums})
	}
	if opts.IO.Quiet {
		// Only the failures, as errors.
		for _, r := range sum.Results {
			if r.Status == importer.StatusFailed {
				fmt.Fprintf(opts.IO.Err, "%s: %s\n", r.Path, cmdutil.Sanitize(r.Reason))
			}
		}
		return nil
	}
	if opts.Verbose {
		for _, r := range sum.Results {
			line := fmt.Sprintf("%-9s  %s", r.Status, r.Path)
			if r.Reason != "" && r.Status != importer.StatusFailed {
				line += "  (" + r.Reason + ")"
			}
			if r.Status != importer.StatusFailed {
				fmt.Fprintln(w, line)
			}
		}
	}
	skipped := map[string]int{}
	for _, r := range sum.Results {
		if r.Status == importer.StatusSkipped {
			skipped[r.Reason]++
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w, "Skipped:")
		reasons := make([]string, 0, len(skipped))
		for reason := range skipped {
			reasons = append(reasons, reason)
		}
		sort.Strings(reasons)
		for _, reason := range reasons {
			fmt.Fprintf(w, "  %6d  %s\n", skipped[reason], reason)
		}
	}
	if sum.Failed > 0 {
		fmt.Fprintln(w, "Failed:")
		for _, r := range sum.Results {
			if r.Status == importer.StatusFailed {
				fmt.Fprintf(w, "  %s: %s\n", r.Path, r.Reason)
			}
		}
	}
	for _, a := range sum.Albums {
		fmt.Fprintf(w, "Album %q (%s): %d added.\n", a.Name, a.ID, a.Added)
	}
	verb := "Uploaded"
	if sum.DryRun {
		verb = "Dry run: would upload"
	}
	secs := max(sum.Duration.Seconds(), 0.001)
	_, err := fmt.Fprintf(w, "%s %d new (%s), %d duplicate, %d skipped, %d failed in %s (%.1f files/s, %s/s).\n",
		verb, sum.New, cmdutil.HumanBytes(sum.SentBytes), sum.Duplicate, sum.Skipped, sum.Failed,
		sum.Duration.Round(10*time.Millisecond), float64(sum.New+sum.Duplicate+sum.Failed)/secs,
		cmdutil.HumanBytes(int64(float64(sum.SentBytes)/secs)))
	return err
}
