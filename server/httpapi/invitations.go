package httpapi

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/libraries"
)

// invitationRoutes are the invitation operations: first-party sessions
// only, errors with sharing codes.
func (s *Server) invitationRoutes() []route {
	sharing := access{kinds: sessionOnly, sharing: true}
	return []route{
		{"POST", "/api/libraries/:id/invitations", sharing, s.createInvitation,
			openapi.Doc{Summary: "Invite people to a library with a role (owner only); the token is returned once",
				Tag: "invitations", Body: api.InvitationCreateRequest{}, Status: 201, Resp: api.InvitationCreated{}}},
		{"GET", "/api/libraries/:id/invitations", sharing, s.listInvitations,
			openapi.Doc{Summary: "A library's invitations, newest first (owner only)", Tag: "invitations", Paged: true,
				Status: 200, Resp: api.Page[api.Invitation]{}}},
		{"POST", "/api/libraries/invitations/preview", sharing, s.previewInvitation,
			openapi.Doc{Summary: "What an invitation token offers: library, owner, role, state and places left", Tag: "invitations",
				Body: api.InvitationTokenRequest{}, Status: 200, Resp: api.InvitationPreview{}, Errs: []int{404}}},
		{"POST", "/api/libraries/invitations/join", sharing, s.joinInvitation,
			openapi.Doc{Summary: "Join a library with an invitation token", Tag: "invitations",
				Body: api.InvitationTokenRequest{}, Status: 200, Resp: api.Library{}, Errs: []int{404, 409}}},
		{"POST", "/api/libraries/invitations/:invitation_id/disable", sharing, s.disableInvitation,
			openapi.Doc{Summary: "Disable an invitation (owner only); members stay; repeating returns the same record",
				Tag: "invitations", Status: 200, Resp: api.Invitation{}, Errs: []int{422}}},
	}
}

func (s *Server) createInvitation(c *fiber.Ctx) error {
	var req api.InvitationCreateRequest
	if err := decodeRequest(c, &req); err != nil {
		return err
	}
	in, err := newInvitation(req)
	if err != nil {
		return err
	}
	inv, token, err := s.libs.CreateInvitation(c.UserContext(), Principal(c), c.Params("id"), in)
	if err != nil {
		return err
	}
	return sendSecret(c.Status(fiber.StatusCreated), api.InvitationCreated{Invitation: convert.Invitation(inv, s.now()), Token: token})
}

// newInvitation checks that every field is present and well-formed; the
// service checks their values.
func newInvitation(req api.InvitationCreateRequest) (libraries.NewInvitation, error) {
	var in libraries.NewInvitation
	var fields []catalog.FieldError
	missing := func(name string) {
		fields = append(fields, catalog.FieldError{Loc: []any{"body", name}, Msg: "field required", Type: "missing"})
	}
	if req.Role == nil {
		missing("role")
	} else {
		in.Role = catalog.Role(*req.Role)
	}
	switch {
	case req.ExpiresAt == nil:
		missing("expires_at")
	default:
		t, err := time.Parse(time.RFC3339Nano, *req.ExpiresAt)
		if err != nil {
			fields = append(fields, catalog.FieldError{Loc: []any{"body", "expires_at"}, Type: "datetime_parsing",
				Msg: "expires_at must be an RFC 3339 date-time with an offset", Input: *req.ExpiresAt})
		}
		in.ExpiresAt = t
	}
	if req.MaxJoiners == nil {
		missing("max_joiners")
	} else {
		in.MaxJoiners = *req.MaxJoiners
	}
	if len(fields) > 0 {
		return in, &catalog.ValidationError{Fields: fields}
	}
	return in, nil
}

func (s *Server) listInvitations(c *fiber.Ctx) error {
	if err := allowQuery(c, pageParams...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	list, more, err := s.libs.Invitations(c.UserContext(), Principal(c), c.Params("id"), pg)
	if err != nil {
		return err
	}
	now := s.now()
	return SendJSON(c, convert.Page(list, more, func(inv *catalog.Invitation) api.Invitation { return convert.Invitation(inv, now) }))
}

func (s *Server) previewInvitation(c *fiber.Ctx) error {
	token, err := invitationToken(c)
	if err != nil {
		return err
	}
	pv, err := s.libs.PreviewInvitation(c.UserContext(), token)
	if err != nil {
		return err
	}
	return SendJSON(c, api.InvitationPreview{Invitation: convert.Invitation(&pv.Invitation, s.now()),
		Library: api.LibraryRef{ID: pv.Library.ID, Name: pv.Library.Name}, Owner: convert.UserSummary(pv.Owner)})
}

func (s *Server) joinInvitation(c *fiber.Ctx) error {
	token, err := invitationToken(c)
	if err != nil {
		return err
	}
	m, err := s.libs.Join(c.UserContext(), Principal(c), token)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Library(m))
}

func (s *Server) disableInvitation(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	id := c.Params("invitation_id")
	if !catalog.HasPrefix(id, catalog.PrefixInvitation) {
		return catalog.InvalidField("value_error", "not an invitation id (inv_…)", id, "path", "invitation_id")
	}
	inv, err := s.libs.DisableInvitation(c.UserContext(), Principal(c), id)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Invitation(inv, s.now()))
}

// invitationToken decodes the body of preview and join.
func invitationToken(c *fiber.Ctx) (string, error) {
	var req api.InvitationTokenRequest
	if err := decodeRequest(c, &req); err != nil {
		return "", err
	}
	if req.Token == "" {
		return "", catalog.InvalidField("missing", "token is required", nil, "body", "token")
	}
	return req.Token, nil
}
