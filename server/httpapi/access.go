package httpapi

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/ratelimit"
)

// access is what a route requires of its caller. Every route declares one in
// the route table, and authorize enforces it before the handler runs.
type access struct {
	// public routes need no credential.
	public bool
	// kinds lists the credential kinds accepted; nil accepts all of them
	// (the spec's default rule: API key or OAuth token, and the first-party
	// session that the photoctl clients use).
	kinds []catalog.CredentialKind
	// action is what an API key or OAuth token must grant; "" needs none.
	action catalog.Action
	// sharing routes answer errors with SharingErrorResponse codes.
	sharing bool
	// cost is the rate-limit weight; 0 means 1.
	cost Cost
	// perAddress limits an unauthenticated route by client address
	// (sign-in and refresh, against password guessing).
	perAddress bool
}

// Cost names a configurable rate-limit weight.
type Cost int

const (
	CostDefault Cost = iota
	CostUpload
	CostSearch
)

var sessionOnly = []catalog.CredentialKind{catalog.CredSession}

// localPrincipal is the fiber Locals key of the authenticated principal.
const localPrincipal = "photoctl.principal"

// Principal returns the caller of an authenticated route.
func Principal(c *fiber.Ctx) *catalog.Principal {
	p, _ := c.Locals(localPrincipal).(*catalog.Principal)
	return p
}

// authorize returns the middleware that enforces a: authenticate (401),
// rate-limit (429), then check credential kind and action (403).
func (s *Server) authorize(a access) fiber.Handler {
	return func(c *fiber.Ctx) error {
		if a.public {
			if a.perAddress && s.loginLimiter != nil {
				if ok, wait := s.loginLimiter.Allow("addr:"+c.IP(), 1); !ok {
					return &catalog.RateLimitedError{RetryAfter: wait}
				}
			}
			return c.Next()
		}
		header, fromCookie := s.credential(c)
		if wait := s.owners.wait(s.limiter, header, s.costs[a.cost]); wait > s.maxWait {
			return &catalog.RateLimitedError{RetryAfter: wait - s.maxWait}
		}
		p, err := s.auth.Authenticate(c.UserContext(), header)
		if err != nil {
			return err
		}
		if fromCookie {
			if err := s.checkCookieRequest(c, p); err != nil {
				if _, coded := isSharingError(err); !coded && a.sharing {
					return catalog.Coded(catalog.ErrForbidden, "csrf_token_invalid", err.Error())
				}
				return err
			}
		}
		if s.limiter != nil {
			s.owners.add(header, p.User.ID)
		}
		if err := s.Charge(c, p, a.cost); err != nil {
			return err
		}
		if a.kinds != nil && !slices.Contains(a.kinds, p.Kind) {
			err := fmt.Errorf("this operation needs a first-party session (sign in with photoctl login); %s credentials cannot perform it: %w",
				kindName(p.Kind), catalog.ErrForbidden)
			if !slices.Contains(a.kinds, catalog.CredSession) { // /api/mcp: for delegated credentials only
				err = fmt.Errorf("this operation needs an API key or an OAuth access token; %s credentials cannot perform it: %w",
					kindName(p.Kind), catalog.ErrForbidden)
			}
			if a.sharing {
				return catalog.Coded(catalog.ErrForbidden, "first_party_session_required", err.Error())
			}
			return err
		}
		if a.action != "" && !p.Allows(a.action) {
			return fmt.Errorf("this credential's scope does not grant %q: %w", a.action, catalog.ErrForbidden)
		}
		SetPrincipal(c, p)
		leave, err := s.EnterGate(c, p, a.cost)
		if err != nil {
			return err
		}
		defer leave()
		return c.Next()
	}
}

// Charge takes the request's tokens from p's bucket. When the bucket will
// hold them within maxWait the request waits for them (a client a little
// over the rate is slowed down, not refused); later than that it is
// refused with 429, charged nothing.
func (s *Server) Charge(c *fiber.Ctx, p *catalog.Principal, cost Cost) error {
	if s.limiter == nil {
		return nil
	}
	delay, ok := s.limiter.Reserve("user:"+p.User.ID, s.costs[cost], s.maxWait)
	if !ok {
		return &catalog.RateLimitedError{RetryAfter: delay}
	}
	if delay <= 0 {
		return nil
	}
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-c.UserContext().Done():
		return c.UserContext().Err()
	}
}

// EnterGate takes one of p's places in the gate, waiting behind p's
// earlier requests while they all run, and returns the function that gives
// it back. Uploads stream for as long as the client sends and wait on the
// disk, not the cores: they take a place in the upload gate instead, and
// one that finds its queue full is refused (429, retry in a second).
func (s *Server) EnterGate(c *fiber.Ctx, p *catalog.Principal, cost Cost) (func(), error) {
	g := s.gate
	if cost == CostUpload {
		g = s.uploads
	}
	if g == nil {
		return func() {}, nil
	}
	leave, err := g.Enter(c.UserContext(), p.User.ID)
	if errors.Is(err, ratelimit.ErrQueueFull) {
		return nil, fmt.Errorf("too many uploads of this user are already waiting: %w",
			&catalog.RateLimitedError{RetryAfter: time.Second})
	}
	return leave, err
}

func kindName(k catalog.CredentialKind) string {
	switch k {
	case catalog.CredAPIKey:
		return "API key"
	case catalog.CredOAuth:
		return "OAuth token"
	case catalog.CredSession:
		return "first-party session"
	default:
		return string(k)
	}
}

// isSharingError reports whether err should carry a sharing code.
func isSharingError(err error) (*catalog.CodedError, bool) {
	var ce *catalog.CodedError
	return ce, errors.As(err, &ce)
}

// Limiters groups the rate limiters; nil ones disable limiting.
type Limiters struct {
	PerUser    *ratelimit.Limiter
	PerAddress *ratelimit.Limiter
	// Gate bounds the requests of one user handled at once; nil for no
	// bound.
	Gate *ratelimit.Gate
	// Uploads bounds the uploads of one user handled at once, and how many
	// wait (a bounded gate); nil for no bound.
	Uploads *ratelimit.Gate
	// Costs are the weights of upload and search requests.
	UploadCost, SearchCost float64
	// MaxWait is how long a request over PerUser waits for its tokens
	// before it is refused instead.
	MaxWait time.Duration
}
