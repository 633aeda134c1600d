package cmdutil

import (
	"context"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/client"
)

// ResolveAlbum turns an album id or name into an id: an id (album_…) is
// used as given; a name is looked up among the albums of library (an id
// or a name; "" for the default library), ignoring case. albums, people
// and search name albums this way.
func ResolveAlbum(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	if strings.HasPrefix(value, "album_") {
		return value, nil
	}
	lib, err := ResolveLibrary(ctx, conn, library)
	if err != nil {
		return "", err
	}
	for a, err := range conn.Albums(ctx, lib) {
		if err != nil {
			return "", fmt.Errorf("look up album %q: %w", value, err)
		}
		if strings.EqualFold(strings.TrimSpace(a.Name), strings.TrimSpace(value)) {
			return a.ID, nil
		}
	}
	return "", fmt.Errorf("no album named %q: %w", value, client.ErrNotFound)
}

// ResolvePerson turns a person id or name into an id: an id (person_…) is
// used as given; a name is looked up among the people of library (an id or
// a name; "" for the default library), ignoring case. people, faces and
// search name people this way.
func ResolvePerson(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	if strings.HasPrefix(value, "person_") {
		return value, nil
	}
	lib, err := ResolveLibrary(ctx, conn, library)
	if err != nil {
		return "", err
	}
	for p, err := range conn.People(ctx, client.PersonQuery{LibraryID: lib, Name: strings.TrimSpace(value)}) {
		if err != nil {
			return "", fmt.Errorf("look up person %q: %w", value, err)
		}
		if strings.EqualFold(strings.TrimSpace(Deref(p.Name)), strings.TrimSpace(value)) {
			return p.ID, nil
		}
	}
	return "", fmt.Errorf("no person named %q: %w", value, client.ErrNotFound)
}
