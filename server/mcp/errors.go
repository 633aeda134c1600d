package mcp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/photoctl/photoctl/server/catalog"
)

// describe turns a backend error into a tool error's text: the kind first
// (what an assistant can act on), then the service's own words. Errors of
// the client backend carry the server's detail already.
func describe(err error) error {
	var ve *catalog.ValidationError
	if errors.As(err, &ve) {
		if ve.Message != "" || len(ve.Fields) == 0 {
			return fmt.Errorf("invalid arguments: %s", ve.Error())
		}
		msgs := make([]string, len(ve.Fields))
		for i, f := range ve.Fields {
			msgs[i] = f.Msg
			if n := len(f.Loc); n > 1 {
				msgs[i] = fmt.Sprintf("%s (at %v)", f.Msg, f.Loc[1:])
			}
		}
		return fmt.Errorf("invalid arguments: %s", strings.Join(msgs, "; "))
	}
	for _, kind := range []error{catalog.ErrNotFound, catalog.ErrForbidden, catalog.ErrConflict,
		catalog.ErrTooLarge, catalog.ErrUnavailable} {
		if errors.Is(err, kind) && !strings.Contains(err.Error(), kind.Error()) {
			return fmt.Errorf("%s: %w", kind, err)
		}
	}
	return err
}
