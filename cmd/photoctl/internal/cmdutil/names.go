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
// or name, "" for the default library: ResolveLibrary), ignoring case.
// Albums commands and search's --album share it.
func ResolveAlbum(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	return resolveName(ctx, conn, library, value, "album", func(lib string) iter.Seq2[api.Album, error] {
		return conn.Albums(ctx, lib)
	}, func(a api.Album) (string, string) { return a.ID, a.Name })
}

// ResolvePerson turns a person id or name into an id: an id (person_…) is
// used as given; a name is looked up among the people of library (as in
// ResolveAlbum), ignoring case. People and faces commands and search's
// --person share it.
func ResolvePerson(ctx context.Context, conn *APIConn, library, value string) (string, error) {
	return resolveName(ctx, conn, library, value, "person", func(lib string) iter.Seq2[api.Person, error] {
		return conn.People(ctx, client.PersonQuery{LibraryID: lib, Name: strings.TrimSpace(value)})
	}, func(p api.Person) (string, string) { return p.ID, Deref(p.Name) })
}

// resolveName is value when it is an id (it starts with noun_), else the
// id of the first item of list(library) whose name is value, ignoring case
// and surrounding spaces.
func resolveName[T any](ctx context.Context, conn *APIConn, library, value, noun string,
	list func(lib string) iter.Seq2[T, error], idName func(T) (string, string)) (string, error) {
	if strings.HasPrefix(value, noun+"_") {
		return value, nil
	}
	lib, err := ResolveLibrary(ctx, conn, library)
	if err != nil {
		return "", err
	}
	for item, err := range list(lib) {
		if err != nil {
			return "", fmt.Errorf("look up %s %q: %w", noun, value, err)
		}
		if id, name := idName(item); strings.EqualFold(strings.TrimSpace(name), strings.TrimSpace(value)) {
			return id, nil
		}
	}
	return "", fmt.Errorf("no %s named %q: %w", noun, value, client.ErrNotFound)
}
