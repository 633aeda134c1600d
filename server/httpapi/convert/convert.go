// Package convert holds every conversion between the server's values
// (server/catalog's domain types and the services' results) and the wire
// types of server/api, each in one place, so that the native REST
// handlers, the Immich layer and the MCP adapter answer the same fields
// the same way. It does no I/O and knows no HTTP framework: a function
// takes values and returns values.
//
// Functions that build a wire value are named after it (Asset, User,
// Page); those that read a request's value into a domain one start with
// From (FromScope, FromChange, FromBox).
package convert

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// Page wraps converted items in the list envelope; data is never null.
func Page[T, W any](items []T, more bool, conv func(*T) W) api.Page[W] {
	out := make([]W, len(items))
	for i := range items {
		out[i] = conv(&items[i])
	}
	return api.Page[W]{Data: out, HasMore: more}
}

// Patch reads a PATCH body's optional field: absent leaves the value as
// it is, null clears it, a value sets it.
func Patch[T any](o api.Optional[T]) catalog.Patch[T] {
	return catalog.Patch[T]{Set: o.Set, Value: o.Value}
}
