package cmdutil

import "context"

// EachOptions are the options of a command that acts on every id it is
// given, in order (`keys delete ID...`, `admin oauth-clients revoke
// ID...`). Commands embed it in their own Options type.
type EachOptions struct {
	ClientOptions

	IDs []string
}

// ForEach runs fn for every id (ActOnEach: fn returns the id it acted on;
// done, key and noun word the report).
func (o *EachOptions) ForEach(done, key, noun string, fn func(id string) (string, error)) error {
	return ActOnEach(o.IO, o.JSON, o.IDs, done, key, noun, fn)
}

// ShowEach reads the record of every id in order with fetch (FetchEach;
// Fetch or FetchNamed make one) and prints them with fields
// (PrintRecords): the run of a `get ID...` command.
func ShowEach[T any](o EachOptions, fetch func(id string) (T, error), fields func(T) [][]string) error {
	items, err := FetchEach(o.IDs, fetch)
	if err != nil {
		return err
	}
	return PrintRecords(o.IO, o.JSON, items, fields)
}

// Fetch is ShowEach's fetch for arguments that are ids: get reads each.
func Fetch[T any](ctx context.Context, get func(ctx context.Context, id string) (T, error)) func(id string) (T, error) {
	return func(id string) (T, error) { return get(ctx, id) }
}

// FetchNamed is ShowEach's fetch for arguments that are ids or names in
// library: resolve (ResolveAlbum, ResolvePerson) turns each into an id,
// then get reads it.
func FetchNamed[T any](ctx context.Context, conn *APIConn, library string,
	resolve func(ctx context.Context, conn *APIConn, library, value string) (string, error),
	get func(ctx context.Context, id string) (T, error)) func(arg string) (T, error) {
	return func(arg string) (T, error) {
		id, err := resolve(ctx, conn, library, arg)
		if err != nil {
			var none T
			return none, err
		}
		return get(ctx, id)
	}
}
