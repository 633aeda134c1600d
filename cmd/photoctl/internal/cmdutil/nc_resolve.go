package cmdutil

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// ResolveAlbum turns an album id or name into an id: an id (album_…) is
// used as given; a name is looked up among the albums of library (an id
// or a name; "" for the default library), ignoring case. albums, people
// and search name albums this way.
func ResolveAlbum(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	return resolveByName(ctx, conn, library, value, "album",
		func(lib string) iter.Seq2[api.Album, error] { return conn.Albums(ctx, lib) },
		func(a api.Album) (string, string) { return a.ID, a.Name })
}

// ResolvePerson turns a person id or name into an id: an id (person_…) is
// used as given; a name is looked up among the people of library (an id or
// a name; "" for the default library), ignoring case. people, faces and
// search name people this way.
func ResolvePerson(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	return resolveByName(ctx, conn, library, value, "person",
		func(lib string) iter.Seq2[api.Person, error] {
			return conn.People(ctx, client.PersonQuery{LibraryID: lib, Name: strings.TrimSpace(value)})
		},
		func(p api.Person) (string, string) { return p.ID, Deref(p.Name) })
}

// resolveByName is value when it is an id (kind_…), else the id of the
// first item of list (in library) whose name is value, ignoring case and
// surrounding space.
func resolveByName[T any](ctx context.Context, conn *APIConn, library, value, kind string,
	list func(lib string) iter.Seq2[T, error], idName func(T) (string, string)) (string, error) {
	if strings.HasPrefix(value, kind+"_") {
		return value, nil
	}
	lib, err := ResolveLibrary(ctx, conn, library)
	if err != nil {
		return "", err
	}
	for item, err := range list(lib) {
		if err != nil {
			return "", fmt.Errorf("look up %s %q: %w", kind, value, err)
		}
		if id, name := idName(item); strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(value)) {
			return id, nil
		}
	}
	return "", fmt.Errorf("no %s named %q: %w", kind, value, client.ErrNotFound)
}
