package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/users"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// adminEnv makes a superuser on the server and returns the variables that
// let photoctl act as it with an API key granting every action.
func (cs *cliServer) adminEnv(t *testing.T) []string {
	t.Helper()
	admin := servertest.User{Email: "root@example.com", Password: "correct horse battery"}
	_, err := cs.App().CreateUser(context.Background(), app.NewUser{Email: admin.Email, Password: admin.Password, Superuser: true})
	require.NoError(t, err)
	key := cs.CreateKey(cs.Login(admin).AccessToken, []string{"all"}, nil)
	return []string{"PHOTOCTL_SERVER=" + cs.URL, "PHOTOCTL_API_KEY=" + key}
}

func TestCLIUsersAdministration(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	admin := cs.adminEnv(t)

	r := cs.ok(t, "", admin, "users", "create", "--email", "ada@example.com", "--first-name", "Ada", "--quota", "2MB")
	password := strings.TrimSpace(r.stdout)
	require.GreaterOrEqual(t, len(password), 16, "the generated password alone on stdout")
	require.Contains(t, r.stderr, "shown once")
	ada := cs.Login(servertest.User{Email: "ada@example.com", Password: password})

	created := decode[api.AdminUserCreated](t, cs.run(t, "the chosen password\n", admin, "users", "create",
		"--email", "bob@example.com", "--password-stdin", "--json"))
	require.Nil(t, created.Password)
	cs.Login(servertest.User{Email: "bob@example.com", Password: "the chosen password"})

	list := decode[[]api.AdminUser](t, cs.run(t, "", admin, "users", "list", "--email", "ada@", "--json"))
	require.Len(t, list, 1)
	require.Equal(t, int64(2_000_000), *list[0].QuotaBytes)
	r = cs.ok(t, "", admin, "users", "list")
	require.Contains(t, r.stdout, "2.0 MB")
	require.Contains(t, r.stdout, "root@example.com")

	id := list[0].ID
	upd := decode[api.AdminUser](t, cs.run(t, "", admin, "users", "update", "--last-name", "Lovelace",
		"--quota", "unlimited", "--superuser", "--json", id))
	require.Equal(t, "Lovelace", upd.LastName)
	require.Nil(t, upd.QuotaBytes)
	require.True(t, upd.IsSuperuser)

	r = cs.ok(t, "", admin, "users", "disable", id)
	require.Contains(t, r.stdout, "active false")
	require.Equal(t, 401, cs.Do("GET", "/api/users/me", ada.AccessToken, nil).Status)
	r = cs.ok(t, "", admin, "users", "update", "--active", id)

	r = cs.ok(t, "", admin, "users", "reset-password", "--json", id)
	reset := decode[map[string]any](t, r)
	cs.Login(servertest.User{Email: "ada@example.com", Password: reset["password"].(string)})

	r = cs.run(t, "n\n", admin, "users", "delete", created.ID)
	require.NotEqual(t, exitOK, r.code, "not confirmed")
	r = cs.ok(t, "", admin, "users", "delete", "--yes", "--json", created.ID)
	require.Equal(t, created.ID, decode[map[string]string](t, r)["deleted"])

	// An ordinary user is refused, whatever the key grants.
	r = cs.run(t, "", cs.keyEnv(t), "users", "list")
	require.NotEqual(t, exitOK, r.code)
	require.Contains(t, r.stderr, "superuser")
}

func TestCLIStorage(t *testing.T) {
	t.Parallel()
	cs := newCLIServer(t)
	env := cs.keyEnv(t)
	token := cs.Login(cs.user).AccessToken
	photo := servertest.JPEG(t, 64, 64, 1)
	cs.UploadAsset(token, "a.jpg", photo, nil)
	cs.SetQuota(cs.user.ID, 1_000_000)

	got := decode[users.StorageJSON](t, cs.run(t, "", env, "storage", "--json"))
	require.Equal(t, int64(len(photo)), got.UsedBytes)
	require.Equal(t, int64(1_000_000), *got.QuotaBytes)
	r := cs.ok(t, "", env, "storage")
	require.Contains(t, r.stdout, "used of 1.0 MB")
}
