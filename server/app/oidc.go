package app

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/oidc"
)

// OIDCConfig connects the server to an OpenID provider for sign-in. An
// empty issuer turns sign-in through a provider off (its routes answer 404).
type OIDCConfig struct {
	// Issuer is the provider's issuer URL; discovery reads
	// Issuer/.well-known/openid-configuration.
	Issuer       string   `koanf:"issuer"`
	ClientID     string   `koanf:"client_id"`
	ClientSecret Secret   `koanf:"client_secret"`
	Scopes       []string `koanf:"scopes"` // PHOTOCTL_OIDC_SCOPES=openid,email,profile
	// CreateAccounts makes an account for a provider identity whose e-mail
	// matches none.
	CreateAccounts bool `koanf:"create_accounts"`
	// Timeout bounds each call to the provider.
	Timeout time.Duration `koanf:"timeout"`
}

func oidcDefaults() OIDCConfig {
	return OIDCConfig{Scopes: slices.Clone(oidc.DefaultScopes), CreateAccounts: true, Timeout: 10 * time.Second}
}

// Validate checks a configured provider's settings.
func (c OIDCConfig) Validate() error {
	if c.Issuer == "" {
		return nil
	}
	var errs []error
	if u, err := url.Parse(c.Issuer); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		errs = append(errs, fmt.Errorf("oidc.issuer %q: want an absolute https URL", c.Issuer))
	}
	if c.ClientID == "" {
		errs = append(errs, errors.New("oidc.client_id must be set with oidc.issuer"))
	}
	if !slices.Contains(c.Scopes, "openid") {
		errs = append(errs, errors.New("oidc.scopes must contain openid"))
	}
	if c.Timeout <= 0 {
		errs = append(errs, errors.New("oidc.timeout must be positive"))
	}
	return errors.Join(errs...)
}

func (c OIDCConfig) service() oidc.Config {
	return oidc.Config{Issuer: c.Issuer, ClientID: c.ClientID, ClientSecret: string(c.ClientSecret),
		Scopes: c.Scopes, CreateAccounts: c.CreateAccounts, Timeout: c.Timeout}
}
