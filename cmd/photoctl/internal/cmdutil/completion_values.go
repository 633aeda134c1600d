package cmdutil

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/client"
)

// Completion of names from the server: the values of --library, --album
// and --person, and the first argument of commands whose ArgsUsage starts
// with LIBRARY, ALBUM or PERSON. The names are cached briefly per server,
// profile, credential and library, so that pressing <TAB> repeatedly asks
// the server once; a slow or absent server yields nothing, never a wait.
const (
	completionTimeout  = time.Second
	CompletionCacheTTL = time.Minute
)

// nameKinds maps a value flag, or the first word of an ArgsUsage, to the
// kind of name that completes it.
var nameKinds = map[string]string{
	"--library": "libraries", "LIBRARY": "libraries",
	"--album": "albums", "ALBUM": "albums",
	"--person": "people", "PERSON": "people",
}

// WithNameCompletion gives every leaf command of cmds (and of their
// subcommands) without a completion of its own one that completes names
// (completeNames) and otherwise does what urfave does.
func WithNameCompletion(cmds []*cli.Command) []*cli.Command {
	for _, cmd := range cmds {
		WithNameCompletion(cmd.Subcommands)
		if cmd.BashComplete == nil && len(cmd.Subcommands) == 0 {
			cmd.BashComplete = completeNames(cmd)
		}
	}
	return cmds
}

// completeNames prints the names that may follow the words typed so far
// (the ones before --generate-bash-completion), one a line; urfave's flag
// suggestions when the last word is another flag.
func completeNames(cmd *cli.Command) cli.BashCompleteFunc {
	fallback := cli.DefaultCompleteWithFlags(cmd)
	return func(c *cli.Context) {
		kind := nameKindAt(cmd, c, os.Args)
		if kind == "" {
			fallback(c)
			return
		}
		for _, name := range cachedNames(c, kind) {
			fmt.Fprintln(c.App.Writer, name)
		}
	}
}

// nameKindAt is the kind of name to complete after args (the process's
// arguments, ending with --generate-bash-completion), "" for none.
func nameKindAt(cmd *cli.Command, c *cli.Context, args []string) string {
	if len(args) < 3 {
		return ""
	}
	last := args[len(args)-2]
	if strings.HasPrefix(last, "-") {
		if kind := nameKinds[last]; kind != "" && LookupFlag(cmd, last) != nil {
			return kind
		}
		return ""
	}
	// A positional argument: the first one, or any of NAME....
	words := strings.Fields(cmd.ArgsUsage)
	if len(words) == 0 {
		return ""
	}
	first := strings.Trim(words[0], "[]")
	if c.NArg() > 0 && !strings.HasSuffix(first, "...") {
		return ""
	}
	return nameKinds[strings.TrimSuffix(first, "...")]
}

// cachedNames returns the names of kind from the cache when it is fresh,
// else from the server (then cached); nil on any failure.
func cachedNames(c *cli.Context, kind string) []string {
	conn, err := Connect(c, true)
	if err != nil {
		return nil
	}
	dir := XDGDir("XDG_CACHE_HOME", ".cache")
	if dir == "" {
		return nil
	}
	// The library chosen on the line or in the environment decides which
	// albums and people; it is resolved only when the cache misses.
	library := c.String("library")
	path := nameCachePath(dir, conn, kind, library)
	if names, ok := readNameCache(path, time.Now()); ok {
		return names
	}
	ctx, cancel := context.WithTimeout(c.Context, completionTimeout)
	defer cancel()
	names, err := fetchNames(ctx, conn, kind, library)
	if err != nil {
		return nil
	}
	_ = writeNameCache(path, names) // a cache that cannot be written only costs time
	return names
}

// nameCachePath is where the names of kind are cached for the server,
// profile, credential (each API key apart) and library in use.
func nameCachePath(dir string, conn *APIConn, kind, library string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{conn.Server(), conn.Profile, conn.Credential,
		conn.keyDigest, kind, library, conn.Library}, "\x00")))
	return filepath.Join(dir, "photoctl", "completion", hex.EncodeToString(sum[:16]))
}

// fetchNames lists the names of kind: the caller's libraries, or the
// albums or named people of the library.
func fetchNames(ctx context.Context, conn *APIConn, kind, library string) ([]string, error) {
	var lib string
	if kind != "libraries" {
		var err error
		if lib, err = ResolveLibrary(ctx, conn, library); err != nil {
			return nil, err
		}
	}
	names := []string{}
	add := func(name string) {
		if name = strings.TrimSpace(client.Printable(name)); name != "" && !strings.Contains(name, "\n") {
			names = append(names, name)
		}
	}
	switch kind {
	case "libraries":
		for l, err := range conn.Libraries(ctx) {
			if err != nil {
				return nil, err
			}
			add(l.Name)
		}
	case "albums":
		for a, err := range conn.Albums(ctx, lib) {
			if err != nil {
				return nil, err
			}
			add(a.Name)
		}
	case "people":
		named := true
		for p, err := range conn.People(ctx, client.PersonQuery{LibraryID: lib, Named: &named}) {
			if err != nil {
				return nil, err
			}
			add(Deref(p.Name))
		}
	}
	return names, nil
}

// readNameCache reads the names cached at path when they were written less
// than CompletionCacheTTL before now.
func readNameCache(path string, now time.Time) ([]string, bool) {
	info, err := os.Stat(path)
	if err != nil || now.Sub(info.ModTime()) >= CompletionCacheTTL || info.ModTime().After(now.Add(time.Minute)) {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" {
		return []string{}, true
	}
	return strings.Split(text, "\n"), true
}

// writeNameCache writes names to path atomically, readable by the owner
// only: names are private.
func writeNameCache(path string, names []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	text := strings.Join(names, "\n")
	if len(names) > 0 {
		text += "\n"
	}
	return writePrivateFile(path, []byte(text))
}
