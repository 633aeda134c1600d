package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// reorderFlags returns args (os.Args: the program name first) with the
// flags written after a command's arguments moved in front of them, so
// that `photoctl get ID --json` means `photoctl get --json ID`. urfave/cli
// v2 stops reading flags at the first argument; gh, git and restic do not,
// and neither do our users.
//
// It walks the global flags and the command names down to the command that
// runs (the leaf), then sorts the leaf's tokens:
//   - a flag the leaf declares, or does not know at all, goes in front of
//     the leaf's arguments with its value token when it takes one (so
//     urfave reports an unknown flag by name);
//   - a flag only an ancestor declares (--config on a command that does not
//     repeat it) goes among that ancestor's flags, where urfave reads it;
//   - "--" ends the flags: it and everything after it stay arguments, even
//     "-name"; a bare "-" (standard input) is an argument.
//
// Tokens before the leaf's name are left as they are. A shell-completion
// request (last token --generate-bash-completion) is left untouched: the
// completion looks at the words as the user typed them. So is a group
// given an argument, which is an unknown command (or help).
//
// The error is a usage error: a flag that takes a value was written last,
// after arguments, without it (Go's flag package would take the next token
// for its value once the flag is moved).
func reorderFlags(a *cli.App, args []string) ([]string, error) {
	if len(args) < 2 || args[len(args)-1] == "--generate-bash-completion" {
		return args, nil
	}
	root := &cli.Command{Name: a.Name, Flags: a.Flags, Subcommands: a.Commands, HideHelp: a.HideHelp}
	levels, i := walkToLeaf(root, args)
	if levels[len(levels)-1].cmd.SkipFlagParsing {
		return args, nil
	}
	leaf, err := sortLeafTokens(levels, args[i:])
	if err != nil {
		return nil, &cmdutil.UsageError{Err: err, Help: helpName(levels)}
	}
	if len(levels[len(levels)-1].cmd.Subcommands) > 0 && len(leaf.positionals) > 0 {
		// A group's argument is a command it does not have ("albums
		// bogus", or "help"): urfave and cmdutil.GroupAction say so best.
		return args, nil
	}
	// Each ancestor's moved flags go after its own, just before the next
	// command's name; the leaf's after the flags it already had in front.
	out := make([]string, 0, len(args)+1)
	prev := 0
	for n := 0; n < len(levels)-1; n++ {
		name := levels[n+1].after - 1
		out = append(append(out, args[prev:name]...), leaf.moved[n]...)
		prev = name
	}
	out = append(append(out, args[prev:i]...), leaf.moved[len(levels)-1]...)
	if asksHelp(levels[len(levels)-1].cmd, out[prev:]) {
		// urfave would take the first argument for a help topic.
		return out, nil
	}
	if leaf.dashdash {
		out = append(out, "--")
	}
	out = append(out, leaf.positionals...)
	return append(out, leaf.tail...), nil
}

// walkToLeaf follows the global flags and command names of args down to
// the command that runs. It returns the commands on the way, the root
// first, and the index of the first token that belongs to the leaf and is
// not one of its flags written before its arguments.
func walkToLeaf(root *cli.Command, args []string) ([]flagLevel, int) {
	levels := []flagLevel{{cmd: root, after: 1}}
	i := 1
	for i < len(args) {
		cur := levels[len(levels)-1].cmd
		tok := args[i]
		if isFlagToken(tok) {
			f := cmdutil.LookupFlag(cur, tok)
			if f == nil {
				break // unknown here: urfave reports it, or it belongs to the leaf
			}
			i++
			if needsValueToken(f, tok) && i < len(args) {
				i++
			}
			continue
		}
		sub := findSubcommand(cur, tok)
		if sub == nil {
			break
		}
		i++
		levels = append(levels, flagLevel{cmd: sub, after: i})
	}
	return levels, i
}

// leafTokens are the leaf's tokens from its first argument on, sorted:
// the flags moved to each level (indexed as levels), the arguments before
// "--", whether there was a "--", and what followed it.
type leafTokens struct {
	moved       [][]string
	positionals []string
	dashdash    bool
	tail        []string
}

// sortLeafTokens sorts rest, the leaf's tokens from its first argument on.
func sortLeafTokens(levels []flagLevel, rest []string) (leafTokens, error) {
	t := leafTokens{moved: make([][]string, len(levels))}
	for j := 0; j < len(rest); j++ {
		tok := rest[j]
		if tok == "--" {
			t.dashdash, t.tail = true, rest[j+1:]
			break
		}
		if !isFlagToken(tok) {
			t.positionals = append(t.positionals, tok)
			continue
		}
		owner, f := flagOwner(levels, tok)
		toks := []string{tok}
		if f != nil && needsValueToken(f, tok) {
			if j+1 == len(rest) {
				if owner < len(levels)-1 || len(t.positionals) > 0 {
					return leafTokens{}, fmt.Errorf("flag needs an argument: %s", tok)
				}
			} else {
				j++
				toks = append(toks, rest[j])
			}
		}
		t.moved[owner] = append(t.moved[owner], toks...)
	}
	return t, nil
}

// asksHelp says whether the flag tokens toks of cmd hold -h or --help.
func asksHelp(cmd *cli.Command, toks []string) bool {
	for j := 0; j < len(toks); j++ {
		if !isFlagToken(toks[j]) {
			continue
		}
		f := cmdutil.LookupFlag(cmd, toks[j])
		if f != nil && f == cli.HelpFlag {
			return true
		}
		if f != nil && needsValueToken(f, toks[j]) {
			j++
		}
	}
	return false
}

// helpName is the command line naming the leaf, for "Run '... --help'".
func helpName(levels []flagLevel) string {
	names := []string{levels[0].cmd.Name}
	for _, lv := range levels[1:] {
		names = append(names, lv.cmd.Name)
	}
	return strings.Join(names, " ")
}

// flagLevel is a command on the way to the leaf and the index in args
// just after its name.
type flagLevel struct {
	cmd   *cli.Command
	after int
}

// isFlagToken says whether tok is a flag for Go's flag package: "-x",
// "--x", "--x=v"; "-" and "--" are not.
func isFlagToken(tok string) bool {
	return len(tok) > 1 && tok[0] == '-' && tok != "--"
}

// flagOwner returns the index of the level that reads the flag tok: the
// leaf when it declares it (or when nobody does: urfave then reports it),
// else the nearest ancestor that declares it.
func flagOwner(levels []flagLevel, tok string) (int, cli.Flag) {
	leaf := len(levels) - 1
	if f := cmdutil.LookupFlag(levels[leaf].cmd, tok); f != nil {
		return leaf, f
	}
	for n := leaf - 1; n >= 0; n-- {
		if f := cmdutil.LookupFlag(levels[n].cmd, tok); f != nil {
			return n, f
		}
	}
	return leaf, nil
}

// needsValueToken says whether the flag f, written as tok, reads the next
// token as its value: every flag but a boolean one, unless tok holds the
// value ("--limit=5").
func needsValueToken(f cli.Flag, tok string) bool {
	if strings.Contains(tok, "=") {
		return false
	}
	if v, ok := f.(interface{ TakesValue() bool }); ok {
		return v.TakesValue()
	}
	return true
}

// findSubcommand returns the subcommand of cmd named or aliased name.
func findSubcommand(cmd *cli.Command, name string) *cli.Command {
	for _, sub := range cmd.Subcommands {
		if sub.HasName(name) {
			return sub
		}
	}
	return nil
}
