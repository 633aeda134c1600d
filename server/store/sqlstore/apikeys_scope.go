package sqlstore

import (
	"encoding/json"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
)

// encodeScope is a scope as the api_keys columns actions and library_ids:
// JSON text; library_ids nil (NULL) for every library, "[]" for none.
func encodeScope(s catalog.Scope) (actions string, libraryIDs *string, err error) {
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

// decodeScope reads the scope of key keyID back from its columns.
func decodeScope(keyID, actions string, libraryIDs *string) (catalog.Scope, error) {
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
