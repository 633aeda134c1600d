package catalog

import (
	"errors"
	"strings"
	"unicode"
)

// CleanName trims a resource name and rejects a blank one (spec "Named
// creates": blank names are rejected), one longer than 255 bytes, and one
// holding a control character (see CheckText). loc locates the field for
// the error.
func CleanName(name string, loc ...any) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" {
		return "", InvalidField("string_too_short", "name must not be blank", name, loc...)
	}
	if len(n) > 255 {
		return "", InvalidField("string_too_long", "name must be at most 255 bytes", name, loc...)
	}
	if err := CheckText(n, loc...); err != nil {
		return "", err
	}
	return n, nil
}

// CheckText rejects a one-line text that holds a control character: C0
// (tab and newline included), DEL or C1. Names are printed by other
// members' terminals, where ESC or CSI would start an escape sequence
// ("\x1b[2J" clears the screen), so none is stored. loc locates the field.
func CheckText(s string, loc ...any) error {
	for _, r := range s {
		if unicode.IsControl(r) {
			return InvalidField("string_pattern_mismatch",
				"must not contain control characters or terminal escape sequences", s, loc...)
		}
	}
	return nil
}

// MemberSummary is how a library's members see u: by their display name,
// else by the local part of their e-mail address (the part before @), so
// that a member who never gave a name is still told apart from the others.
func MemberSummary(u *User) UserSummary {
	s := u.Summary()
	if s.DisplayName == "" {
		local, _, _ := strings.Cut(u.Email, "@")
		s.DisplayName = local
	}
	return s
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
