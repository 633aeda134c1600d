package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/users"
)

func (s *Server) me(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	return SendJSON(c, convert.User(Principal(c).User))
}

func (s *Server) getPreferences(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	p, err := s.users.Preferences(c.UserContext(), Principal(c))
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Preferences(p))
}

func (s *Server) patchPreferences(c *fiber.Ctx) error {
	var req api.PreferencesUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p, err := s.users.UpdatePreferences(c.UserContext(), Principal(c), users.PreferencesChange{
		ImmichLibraryID:  optionalString(req.ImmichLibraryID),
		DefaultLibraryID: optionalString(req.DefaultLibraryID),
	})
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Preferences(p))
}

// optionalString maps absent → nil, null → "", value → value.
func optionalString(o api.Optional[string]) *string {
	if !o.Set {
		return nil
	}
	if o.Value == nil {
		empty := ""
		return &empty
	}
	return o.Value
}

func (s *Server) patchMe(c *fiber.Ctx) error {
	var req api.UserUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	u, err := s.users.UpdateMe(c.UserContext(), Principal(c), users.ProfileChange{
		FirstName: req.FirstName, LastName: req.LastName, CurrentPassword: req.CurrentPassword, Password: req.Password,
	})
	if err != nil {
		return err
	}
	return SendJSON(c, convert.User(u))
}

func (s *Server) myStorage(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	u, err := s.users.Storage(c.UserContext(), Principal(c))
	if err != nil {
		return err
	}
	return SendJSON(c, api.StorageUsage{QuotaBytes: u.QuotaBytes, UsedBytes: u.UsedBytes})
}
