package keys

import (
	"context"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
)

// DeleteOptions are what `photoctl keys delete` was asked for: the ids of
// the keys to revoke.
type DeleteOptions struct{ cmdutil.EachOptions }

// NewCmdDelete returns `photoctl keys delete`; runF, when not nil, gets the
// parsed options instead of runDelete (tests).
var NewCmdDelete = cmdutil.Constructor(cmdutil.Command[DeleteOptions]{
	Name:      "delete",
	Usage:     "Revoke API keys",
	ArgsUsage: "ID...",
	Description: `Revokes keys at once: programs using them get 401 from then on.

Example:
   photoctl keys delete key_01hx...`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one key id"),
	Run:  runDelete,
})

func runDelete(ctx context.Context, conn *cmdutil.APIConn, opts *DeleteOptions) error {
	return opts.ForEach("Revoked", "deleted", "key", func(id string) (string, error) {
		return id, conn.DeleteAPIKey(ctx, id)
	})
}

// OAuthRevokeOptions are what `photoctl admin oauth-clients revoke` was
// asked for: the ids of the clients to revoke.
type OAuthRevokeOptions struct{ cmdutil.EachOptions }

// NewCmdOAuthRevoke returns `photoctl admin oauth-clients revoke`; runF,
// when not nil, gets the parsed options instead of runOAuthRevoke (tests).
var NewCmdOAuthRevoke = cmdutil.Constructor(cmdutil.Command[OAuthRevokeOptions]{
	Name:      "revoke",
	Usage:     "Revoke OAuth clients and every token issued to them",
	ArgsUsage: "ID...",
	Description: `Revokes clients at once: their access tokens get 401 from then on, and
they can no longer authorize or refresh.

Example:
   photoctl admin oauth-clients revoke oauthclient_01hx...`,
	JSON: true,
	Args: cmdutil.AtLeastOne("give at least one client id"),
	Run:  runOAuthRevoke,
})

func runOAuthRevoke(ctx context.Context, conn *cmdutil.APIConn, opts *OAuthRevokeOptions) error {
	return opts.ForEach("Revoked", "revoked", "client", func(id string) (string, error) {
		return id, conn.RevokeOAuthClient(ctx, id)
	})
}
