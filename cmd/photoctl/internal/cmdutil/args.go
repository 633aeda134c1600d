package cmdutil

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// NeedArgs returns the positional arguments when there are from least to
// most of them (most < 0: no limit), else a usage error with msg.
func NeedArgs(c *cli.Context, least, most int, msg string) ([]string, error) {
	args := c.Args().Slice()
	if len(args) < least || (most >= 0 && len(args) > most) {
		return nil, UsageErrorf(c, "%s", msg)
	}
	return args, nil
}

// EachID runs fn for every id in order and stops at the first failure,
// which is a partial failure (exit 3) once some ids succeeded. what names
// the ids in the error ("album", "disable invitation").
func EachID(ids []string, what string, fn func(id string) error) error {
	for i, id := range ids {
		if err := fn(id); err != nil {
			if i > 0 {
				return fmt.Errorf("%s %s: %w (%w)", what, id, err, ErrPartialFailure)
			}
			return fmt.Errorf("%s %s: %w", what, id, err)
		}
	}
	return nil
}

// ActOnEach runs fn for every argument in order (fn returns the id it
// acted on) and reports `{key: [ids...]}` with --json, else "Done N
// noun(s)." with done the past participle ("Deleted"); a failure after some
// successes is a partial failure.
func ActOnEach(io *Streams, asJSON bool, args []string, done, key, noun string, fn func(arg string) (string, error)) error {
	ids := []string{}
	if err := EachID(args, noun, func(arg string) error {
		id, err := fn(arg)
		if err == nil {
			ids = append(ids, id)
		}
		return err
	}); err != nil {
		return err
	}
	return PrintDone(io, asJSON, map[string][]string{key: ids}, "%s %d %s(s).", done, len(ids), noun)
}

// FetchEach reads the record of every argument in order (`get ID...`),
// stopping at the first failure.
func FetchEach[T any](args []string, get func(arg string) (T, error)) ([]T, error) {
	out := make([]T, 0, len(args))
	for _, arg := range args {
		v, err := get(arg)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Args returns the positional arguments when there are from least to most
// of them (none when both are 0: NoArgs), else a usage error with msg.
func Args(c *cli.Context, least, most int, msg string) ([]string, error) {
	if least == 0 && most == 0 {
		return nil, NoArgs(c)
	}
	return NeedArgs(c, least, most, msg)
}

// SplitList flattens repeated and comma-separated values.
func SplitList(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// Deref is *s, "" for nil: optional fields in tables.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// LookupFlag returns the flag of cmd that tok ("-n", "--limit",
// "--limit=5") names, or nil. --help and -h are every command's unless it
// hides its help.
func LookupFlag(cmd *cli.Command, tok string) cli.Flag {
	name, _, _ := strings.Cut(strings.TrimPrefix(tok[1:], "-"), "=")
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	if !cmd.HideHelp && cli.HelpFlag != nil {
		for _, n := range cli.HelpFlag.Names() {
			if n == name {
				return cli.HelpFlag
			}
		}
	}
	return nil
}
