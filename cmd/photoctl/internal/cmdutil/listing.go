package cmdutil

import (
	"fmt"
	"iter"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// LimitFlags are --limit (default 50) and --all, for listings that may be
// long; noun names the items in the help.
func LimitFlags(noun string) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 50, Usage: "show at most `N` " + noun},
		&cli.BoolFlag{Name: "all", Usage: "show every matching one (pages through them all)"},
	}
}

// ListLimit reads LimitFlags: the most items to show, 0 for all.
func ListLimit(c *cli.Context) (int, error) {
	switch limit := c.Int("limit"); {
	case c.Bool("all"):
		return 0, nil
	case limit <= 0:
		return 0, UsageErrorf(c, "--limit must be at least 1 (or use --all)")
	default:
		return limit, nil
	}
}

// Take collects the first limit items of seq (every item for 0), stopping
// at the first error; more says whether seq held another after them.
func Take[T any](seq iter.Seq2[T, error], limit int) (items []T, more bool, err error) {
	for item, err := range seq {
		if err != nil {
			return nil, false, err
		}
		if limit > 0 && len(items) == limit {
			return items, true, nil
		}
		items = append(items, item)
	}
	return items, false, nil
}

// PrintMoreHint says on the error stream, after a table cut at its
// --limit, that more match and how to see them; nothing with --json.
func PrintMoreHint(s *Streams, asJSON, more bool, n int, noun string) error {
	if asJSON || !more {
		return nil
	}
	_, err := fmt.Fprintf(s.Err, "Showing the first %d %s; more match (--all lists them all, --limit N the first N).\n", n, noun)
	return err
}

// PageSizeFor is the page to ask for when showing limit items (0: all):
// one more than limit, which tells whether more match.
func PageSizeFor(limit int) int {
	if limit <= 0 {
		return client.MaxPageSize
	}
	return min(limit+1, client.MaxPageSize)
}
