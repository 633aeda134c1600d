package catalog

import (
	"errors"
	"strings"
)

// CleanName trims a resource name and rejects a blank one (spec "Named
// creates": blank names are rejected). loc locates the field for the error.
func CleanName(name string, loc ...any) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" {
		return "", InvalidField("string_too_short", "name must not be blank", name, loc...)
	}
	if len(n) > 255 {
		return "", InvalidField("string_too_long", "name must be at most 255 bytes", name, loc...)
	}
	return n, nil
}

// NameKey is the form under which names are compared for uniqueness:
// case-insensitive, surrounding space ignored.
func NameKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// NamedCreate applies the spec's named-create rule. find looks up an
// existing resource by name key (returning ErrNotFound when there is none);
// conflicts reports why the supplied fields disagree with an existing one
// (nil when they agree); create makes a new one. It returns the resource and
// whether it was created (201) rather than matched (200). A conflict is an
// ErrConflict (409).
func NamedCreate[T any](find func() (*T, error), conflicts func(*T) error, create func() (*T, error)) (*T, bool, error) {
	existing, err := find()
	switch {
	case err == nil:
		if err := conflicts(existing); err != nil {
			return nil, false, err
		}
		return existing, false, nil
	case !errors.Is(err, ErrNotFound):
		return nil, false, err
	}
	created, err := create()
	return created, err == nil, err
}

// Patch is one field of a partial update: Set when the field was sent,
// Value nil when it was sent as null (clear).
type Patch[T any] struct {
	Set   bool
	Value *T
}
