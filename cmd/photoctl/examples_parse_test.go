package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// An example is one line of a help text's "Example:" section, or of a
// README code block, that runs photoctl.
type example struct {
	source string // "photoctl albums create" (its help) or "README.md:148"
	line   string // as written
}

// helpExamples returns the example lines of every command's Description
// and UsageText, the root's first: the indented lines after "Example:" or
// "Examples:" up to the next blank line.
func helpExamples(a *cli.App) []example {
	var out []example
	add := func(source string, texts ...string) {
		for _, text := range texts {
			for _, line := range exampleSection(text) {
				out = append(out, example{source: source, line: line})
			}
		}
	}
	add(a.Name, a.Description, a.UsageText)
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := path + " " + c.Name
			add(name, c.Description, c.UsageText)
			walk(name, c.Subcommands)
		}
	}
	walk(a.Name, a.Commands)
	return out
}

// exampleSection returns the lines of text's example sections that run
// photoctl, trimmed.
func exampleSection(text string) []string {
	var out []string
	in := false
	for line := range strings.Lines(text) {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "Example:" || trimmed == "Examples:":
			in = true
		case trimmed == "":
			in = false
		case in && runsPhotoctl(trimmed):
			out = append(out, trimmed)
		}
	}
	return out
}

// runsPhotoctl says whether a shell line runs photoctl: it starts with it
// (or bin/photoctl) or substitutes its output ($(photoctl ...)).
func runsPhotoctl(line string) bool {
	for _, p := range []string{"photoctl ", "bin/photoctl ", "./bin/photoctl "} {
		if strings.HasPrefix(line, p) || strings.Contains(line, "$("+p) {
			return true
		}
	}
	return line == "photoctl"
}

// readmeExamples returns the lines of README.md's code blocks that run
// photoctl.
func readmeExamples(t *testing.T) []example {
	t.Helper()
	f, err := os.Open("../../README.md")
	require.NoError(t, err)
	defer f.Close()
	var out []example
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "```"):
			in = !in
		case in && runsPhotoctl(line):
			out = append(out, example{source: "README.md:" + strconv.Itoa(n), line: line})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// shellCommand is one photoctl command of an example line: its words after
// the program name, and whether a pipe feeds its standard input.
type shellCommand struct {
	args  []string
	piped bool
}

// photoctlCommands splits an example line the way a shell would (quotes,
// comments, |, &&, ;, > and $(...)) and returns the photoctl commands in
// it. expand replaces a word's $VAR and leading ~.
func photoctlCommands(line string, expand func(string) string) []shellCommand {
	if i := strings.Index(line, "$("); i >= 0 {
		if j := strings.LastIndex(line, ")"); j > i {
			// TOKEN=$(photoctl ... | jq -r .token): what runs is inside.
			return photoctlCommands(line[i+2:j], expand)
		}
	}
	var out []shellCommand
	piped := false
	for _, words := range splitPipeline(shellWords(line, expand)) {
		if len(words.words) > 0 && isPhotoctl(words.words[0]) {
			out = append(out, shellCommand{args: words.words[1:], piped: piped})
		}
		piped = words.pipeTo
	}
	return out
}

func isPhotoctl(word string) bool {
	return word == "photoctl" || strings.HasSuffix(word, "bin/photoctl")
}

// shellWord is a word of a shell line; op says it is an unquoted operator.
type shellWord struct {
	text string
	op   bool
}

// shellWords splits line into words and operators. Enough of sh for our
// examples: '...' and "..." quoting, backslash escapes, # comments.
func shellWords(line string, expand func(string) string) []shellWord {
	var (
		out     []shellWord
		cur     strings.Builder
		inWord  bool
		quoted  bool // the word had quotes: "" is a word
		literal bool // the word had single quotes: no expansion
	)
	flush := func() {
		if inWord {
			w := cur.String()
			if !literal {
				w = expand(w)
			}
			if w != "" || quoted {
				out = append(out, shellWord{text: w})
			}
		}
		cur.Reset()
		inWord, quoted, literal = false, false, false
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t':
			flush()
		case ch == '#' && !inWord:
			flush()
			return out
		case ch == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, quoted, literal = true, true, true
			i += j + 1
		case ch == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				j = len(line) - i - 1
			}
			cur.WriteString(line[i+1 : i+1+j])
			inWord, quoted = true, true
			i += j + 1
		case ch == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case ch == '|' || ch == ';' || ch == '>' || (ch == '&' && i+1 < len(line) && line[i+1] == '&'):
			flush()
			op := string(ch)
			if ch == '&' {
				op, i = "&&", i+1
			}
			out = append(out, shellWord{text: op, op: true})
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	flush()
	return out
}

// pipelineStage is the words of one command of a line and whether its
// output goes into the next command.
type pipelineStage struct {
	words  []string
	pipeTo bool
}

// splitPipeline cuts words at |, && and ;, and drops > and its file.
func splitPipeline(words []shellWord) []pipelineStage {
	var out []pipelineStage
	var cur pipelineStage
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case !w.op:
			cur.words = append(cur.words, w.text)
		case w.text == ">":
			i++ // the file the output goes to
		default:
			cur.pipeTo = w.text == "|"
			out = append(out, cur)
			cur = pipelineStage{}
		}
	}
	return append(out, cur)
}
