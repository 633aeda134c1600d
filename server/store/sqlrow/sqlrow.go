// Package sqlrow holds the column encodings and SQL text that both store
// dialects (server/store/sqlite, server/store/postgres) share: an API key's
// scope as two JSON columns, and column lists qualified for joins. The
// queries and the scanning stay in each dialect, whose drivers differ in
// their types; what a row means is decided here once.
package sqlrow

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
)

// Qualify prefixes each column of a comma-separated list with alias, for a
// join: Qualify("id, email", "u") is "u.id, u.email".
func Qualify(cols, alias string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		fields[i] = alias + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// EncodeScope is a scope as the api_keys columns actions and library_ids:
// JSON text; library_ids nil (NULL) for every library, "[]" for none.
func EncodeScope(s catalog.Scope) (actions string, libraryIDs *string, err error) {
	a, err := json.Marshal(s.Actions)
	if err != nil {
		return "", nil, err
	}
	if s.LibraryIDs == nil {
		return string(a), nil, nil
	}
	l, err := json.Marshal(s.LibraryIDs)
	text := string(l)
	return string(a), &text, err
}

// DecodeScope reads the scope of key keyID back from its columns.
func DecodeScope(keyID, actions string, libraryIDs *string) (catalog.Scope, error) {
	var s catalog.Scope
	if err := json.Unmarshal([]byte(actions), &s.Actions); err != nil {
		return s, fmt.Errorf("api key %s actions: %w", keyID, err)
	}
	if libraryIDs != nil {
		s.LibraryIDs = []string{}
		if err := json.Unmarshal([]byte(*libraryIDs), &s.LibraryIDs); err != nil {
			return s, fmt.Errorf("api key %s libraries: %w", keyID, err)
		}
	}
	return s, nil
}
