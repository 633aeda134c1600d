package blob

import (
	"path/filepath"
	"regexp"
	"strings"
)

// absPath finds absolute file paths in a message: a slash at the start or
// after a space, quote, bracket or =, then path characters. A colon or a
// comma ends a path, as in "render /srv/…/asset_x: bad data".
var absPath = regexp.MustCompile(`(^|[\s"'(\[=])(/[^\s"'()\[\]:,;]+)`)

// Redact rewrites the file paths in msg, an error text about to be shown
// to users (a task's error), so that it names what the file is and not
// where the server keeps it: a blob's file under root becomes its key
// ("originals/asset_x", which names the asset), another path under root
// becomes relative to it, and any other absolute path (a temp file, a
// tool) its last element.
func Redact(root, msg string) string {
	if !strings.Contains(msg, "/") {
		return msg
	}
	clean := filepath.Clean(root)
	return absPath.ReplaceAllStringFunc(msg, func(m string) string {
		sub := absPath.FindStringSubmatch(m)
		lead, p := sub[1], strings.TrimRight(sub[2], ".")
		tail := sub[2][len(p):]
		if root != "" {
			if key, ok := KeyOf(clean, p); ok {
				return lead + key + tail
			}
			if r, err := filepath.Rel(clean, p); err == nil && filepath.IsLocal(r) {
				return lead + filepath.ToSlash(r) + tail
			}
		}
		return lead + filepath.Base(p) + tail
	})
}
