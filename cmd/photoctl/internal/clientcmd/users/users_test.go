package users

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdutil"
	"github.com/photoctl/photoctl/server/api"
)

// usage returns the NewCmd of a command for cmdtest.RequireUsageErrors.
func usage[O any](newCmd func(*cmdutil.Factory, func(O) error) *cli.Command) func(*cmdutil.Factory) *cli.Command {
	return func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }
}

func TestUsersListParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ListOptions
	require.NoError(t, cmdtest.Run(t, NewCmdList(f, func(o *ListOptions) error { got = o; return nil }),
		"--email", "@example.com", "--json"))
	require.NotNil(t, got)
	require.Equal(t, "@example.com", got.Email)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, usage(NewCmdList), map[string][]string{"an argument": {"extra"}})
}

func TestUsersCreateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *CreateOptions
	require.NoError(t, cmdtest.Run(t, NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }),
		"--email", " ada@example.com ", "--first-name", "Ada", "--last-name", "Lovelace", "--quota", "50GB",
		"--superuser", "--json"))
	require.NotNil(t, got)
	quota := int64(50_000_000_000)
	require.Equal(t, api.AdminUserCreate{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace",
		QuotaBytes: &quota, IsSuperuser: true}, got.Request)
	require.Nil(t, got.ReadPassword, "the server generates the password")
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, NewCmdCreate(f, func(o *CreateOptions) error { got = o; return nil }),
		"--email", "bob@example.com", "--password-stdin", "--quota", "unlimited"))
	require.NotNil(t, got.ReadPassword)
	require.Nil(t, got.Request.QuotaBytes)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdCreate), map[string][]string{
		"no e-mail":   {"--first-name", "Ada"},
		"blank":       {"--email", "  "},
		"bad quota":   {"--email", "ada@example.com", "--quota", "lots"},
		"an argument": {"--email", "ada@example.com", "extra"},
	})
}

func TestUsersUpdateParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *UpdateOptions
	cmd := NewCmdUpdate(f, func(o *UpdateOptions) error { got = o; return nil })
	require.NoError(t, cmdtest.Run(t, cmd, "--first-name", "Ada", "--active=false", "--superuser",
		"--quota", "1.5kB", "--json", "intuser_1"))
	require.NotNil(t, got)
	require.Equal(t, "intuser_1", got.ID)
	require.Equal(t, "Updated", got.Done)
	require.Equal(t, "Ada", *got.Change.FirstName)
	require.Nil(t, got.Change.LastName, "only what the flags name changes")
	require.False(t, *got.Change.IsActive)
	require.True(t, *got.Change.IsSuperuser)
	require.True(t, got.Change.QuotaBytes.Set)
	require.Equal(t, int64(1500), *got.Change.QuotaBytes.Value)
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, NewCmdUpdate(f, func(o *UpdateOptions) error { got = o; return nil }),
		"--quota", "unlimited", "intuser_1"))
	require.True(t, got.Change.QuotaBytes.Set)
	require.Nil(t, got.Change.QuotaBytes.Value, "unlimited clears the quota")
	require.Nil(t, got.Change.IsActive)

	cmdtest.RequireUsageErrors(t, usage(NewCmdUpdate), map[string][]string{
		"no id":     {"--active"},
		"two ids":   {"a", "b"},
		"bad quota": {"--quota", "-5GB", "intuser_1"},
	})
}

func TestUsersDisableParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *UpdateOptions
	require.NoError(t, cmdtest.Run(t, NewCmdDisable(f, func(o *UpdateOptions) error { got = o; return nil }), "intuser_1"))
	require.NotNil(t, got)
	require.Equal(t, "intuser_1", got.ID)
	require.Equal(t, "Disabled", got.Done)
	require.Equal(t, api.AdminUserUpdate{IsActive: ptrTo(false)}, got.Change)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdDisable), map[string][]string{"no id": {}, "two ids": {"a", "b"}})
}

func TestUsersResetPasswordParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *ResetPasswordOptions
	require.NoError(t, cmdtest.Run(t, NewCmdResetPassword(f, func(o *ResetPasswordOptions) error { got = o; return nil }),
		"--json", "intuser_1"))
	require.NotNil(t, got)
	require.Equal(t, "intuser_1", got.ID)
	require.Nil(t, got.ReadPassword, "a password is generated")
	require.True(t, got.JSON)

	require.NoError(t, cmdtest.Run(t, NewCmdResetPassword(f, func(o *ResetPasswordOptions) error { got = o; return nil }),
		"--password-stdin", "intuser_1"))
	require.NotNil(t, got.ReadPassword)

	cmdtest.RequireUsageErrors(t, usage(NewCmdResetPassword), map[string][]string{"no id": {}, "two ids": {"a", "b"}})
}

func TestUsersDeleteParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *DeleteOptions
	require.NoError(t, cmdtest.Run(t, NewCmdDelete(f, func(o *DeleteOptions) error { got = o; return nil }), "-y", "intuser_1"))
	require.NotNil(t, got)
	require.Equal(t, "intuser_1", got.ID)
	require.True(t, got.Yes)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, usage(NewCmdDelete), map[string][]string{"no id": {"--yes"}, "two ids": {"a", "b"}})
}

func TestStorageParsesItsOptions(t *testing.T) {
	f, _ := cmdtest.NewFactory(t, "")
	var got *StorageOptions
	require.NoError(t, cmdtest.Run(t, NewCmdStorage(f, func(o *StorageOptions) error { got = o; return nil }), "--json"))
	require.NotNil(t, got)
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, usage(NewCmdStorage), map[string][]string{"an argument": {"extra"}})
}
