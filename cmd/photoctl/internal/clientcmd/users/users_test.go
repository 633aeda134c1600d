package users

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/cmdtest"
	"github.com/photoctl/photoctl/server/api"
)

func TestUsersListParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdList, "", "--email", "@example.com", "--json")
	require.Equal(t, "@example.com", got.Email)
	require.True(t, got.JSON)
	require.NotNil(t, got.IO)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdList), map[string][]string{"an argument": {"extra"}})
}

func TestUsersCreateParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdCreate, "", "--email", " ada@example.com ", "--first-name", "Ada", "--last-name", "Lovelace",
		"--quota", "50GB", "--superuser", "--json")
	quota := int64(50_000_000_000)
	require.Equal(t, api.AdminUserCreate{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace",
		QuotaBytes: &quota, IsSuperuser: true}, got.Request)
	require.Nil(t, got.ReadPassword, "the server generates the password")
	require.True(t, got.JSON)

	got = cmdtest.Parse(t, NewCmdCreate, "", "--email", "bob@example.com", "--password-stdin", "--quota", "unlimited")
	require.NotNil(t, got.ReadPassword)
	require.Nil(t, got.Request.QuotaBytes)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdCreate), map[string][]string{
		"no e-mail":   {"--first-name", "Ada"},
		"blank":       {"--email", "  "},
		"bad quota":   {"--email", "ada@example.com", "--quota", "lots"},
		"an argument": {"--email", "ada@example.com", "extra"},
	})
}

func TestUsersUpdateParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdUpdate, "", "--first-name", "Ada", "--active=false", "--superuser", "--quota", "1.5kB",
		"--json", "intuser_1")
	require.Equal(t, "intuser_1", got.ID)
	require.Equal(t, "Updated", got.Done)
	require.Equal(t, "Ada", *got.Change.FirstName)
	require.Nil(t, got.Change.LastName, "only what the flags name changes")
	require.False(t, *got.Change.IsActive)
	require.True(t, *got.Change.IsSuperuser)
	require.True(t, got.Change.QuotaBytes.Set)
	require.Equal(t, int64(1500), *got.Change.QuotaBytes.Value)
	require.True(t, got.JSON)

	got = cmdtest.Parse(t, NewCmdUpdate, "", "--quota", "unlimited", "intuser_1")
	require.True(t, got.Change.QuotaBytes.Set)
	require.Nil(t, got.Change.QuotaBytes.Value, "unlimited clears the quota")
	require.Nil(t, got.Change.IsActive)

	got = cmdtest.Parse(t, NewCmdUpdate, "", "intuser_1")
	require.Equal(t, api.AdminUserUpdate{}, got.Change, "no flag, no change")

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdUpdate), map[string][]string{
		"no id":     {"--active"},
		"two ids":   {"a", "b"},
		"bad quota": {"--quota", "-5GB", "intuser_1"},
	})
}

func TestUsersDisableParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdDisable, "", "intuser_1")
	require.Equal(t, "intuser_1", got.ID)
	require.Equal(t, "Disabled", got.Done)
	require.Equal(t, api.AdminUserUpdate{IsActive: ptrTo(false)}, got.Change)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdDisable), map[string][]string{"no id": {}, "two ids": {"a", "b"}})
}

func TestUsersResetPasswordParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdResetPassword, "", "--json", "intuser_1")
	require.Equal(t, "intuser_1", got.ID)
	require.Nil(t, got.ReadPassword, "a password is generated")
	require.True(t, got.JSON)

	got = cmdtest.Parse(t, NewCmdResetPassword, "", "--password-stdin", "intuser_1")
	require.NotNil(t, got.ReadPassword)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdResetPassword), map[string][]string{"no id": {}, "two ids": {"a", "b"}})
}

func TestUsersDeleteParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdDelete, "", "-y", "intuser_1")
	require.Equal(t, "intuser_1", got.ID)
	require.True(t, got.Yes)
	require.False(t, got.JSON)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdDelete), map[string][]string{"no id": {"--yes"}, "two ids": {"a", "b"}})
}

func TestStorageParsesItsOptions(t *testing.T) {
	got := cmdtest.Parse(t, NewCmdStorage, "", "--json")
	require.True(t, got.JSON)
	require.NotNil(t, got.Conn)

	cmdtest.RequireUsageErrors(t, cmdtest.WithoutRun(NewCmdStorage), map[string][]string{"an argument": {"extra"}})
}
