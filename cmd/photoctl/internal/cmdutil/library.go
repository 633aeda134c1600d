package cmdutil

import (
	"context"
	"fmt"
	"strings"
)

// ResolveLibrary turns --library into an id for a command that follows
// the library selection rule. The first of these that names a library
// wins: --library, $PHOTOCTL_LIBRARY, the profile's default (photoctl
// libraries switch), the config file's library key, and without a
// profile (an API key from --api-key or $PHOTOCTL_API_KEY) the account's
// default_library_id on the server, which switch sets. Names are looked up
// (LookupLibrary). None of them: "", and the server applies its rule
// (fine with one library, a 422 with several, which execute turns into a
// hint).
func ResolveLibrary(ctx context.Context, conn *APIConn, value string) (string, error) {
	if strings.TrimSpace(value) != "" {
		return LookupLibrary(ctx, conn, value, "")
	}
	if conn.LibraryFromEnv {
		return LookupLibrary(ctx, conn, conn.Library, "")
	}
	if id := ProfileLibrary(conn); id != "" {
		return id, nil
	}
	if strings.TrimSpace(conn.Library) != "" {
		return LookupLibrary(ctx, conn, conn.Library, "")
	}
	if conn.Profile == "" && conn.Credential == "api_key" {
		// A key without the user.read action cannot tell; the server's
		// rule then decides, as without a default.
		if prefs, err := conn.Preferences(ctx); err == nil && prefs.DefaultLibraryID != nil {
			return *prefs.DefaultLibraryID, nil
		}
	}
	return "", nil
}

// LookupLibrary turns a library id or name into an id: an id (lib_…) is
// used as given, a name is looked up among the caller's libraries in state
// ("" is live; ignoring case and surrounding spaces). "" stays "".
func LookupLibrary(ctx context.Context, conn *APIConn, value, state string) (string, error) {
	value = strings.TrimSpace(value)
	if value == "" || strings.HasPrefix(value, "lib_") {
		return value, nil
	}
	var names []string
	for l, err := range conn.LibrariesIn(ctx, state) {
		if err != nil {
			return "", fmt.Errorf("look up library %q: %w", value, err)
		}
		if strings.EqualFold(strings.TrimSpace(l.Name), value) {
			return l.ID, nil
		}
		names = append(names, l.Name)
	}
	return "", &UsageError{Err: fmt.Errorf("no library named %q (yours: %s)", value, strings.Join(names, ", "))}
}

// ProfileLibrary is the default library of the profile conn uses, "" when
// none is set or the credential came from --api-key/$PHOTOCTL_API_KEY.
func ProfileLibrary(conn *APIConn) string {
	if conn.Profile == "" {
		return ""
	}
	store, err := NewCredentialsStore()
	if err != nil {
		return ""
	}
	file, err := store.Load()
	if err != nil || file.Profiles[conn.Profile] == nil {
		return "" // connect read the same file a moment ago
	}
	return file.Profiles[conn.Profile].Library
}

// SaveProfileLibrary sets the default library of conn's profile to
// next(current); nothing happens without a profile.
func SaveProfileLibrary(conn *APIConn, next func(current string) string) error {
	if conn.Profile == "" {
		return nil
	}
	store, err := NewCredentialsStore()
	if err != nil {
		return err
	}
	return store.Update(func(p *CredentialsFile) error {
		prof := p.Profiles[conn.Profile]
		if prof == nil || next(prof.Library) == prof.Library {
			return errSkipSave
		}
		prof.Library = next(prof.Library)
		return nil
	})
}
