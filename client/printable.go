package client

import (
	"fmt"
	"strings"
	"unicode"
)

// Printable returns text from the server made safe to show on a terminal,
// on one line: every control character (C0 with tab and newline, DEL, C1)
// is written as an escape (\x1b, \n, \u009b) instead of being sent, so
// that a name or description holding "\x1b[2J" cannot clear the screen,
// retitle the window or forge output for whoever reads it. The CLI's
// tables and records and the TUI's views show server text through it.
func Printable(s string) string { return escapeControls(s, false) }

// PrintableLines is Printable for text of several lines: newlines stay.
func PrintableLines(s string) string { return escapeControls(s, true) }

func escapeControls(s string, keepNewlines bool) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) && (r != '\n' || !keepNewlines) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && keepNewlines:
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
