package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/cmd/photoctl/internal/clientcmd/auth"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
	"github.com/photoctl/photoctl/server/servertest/oidcprovider"
)

// TestCLILoginOIDCNoBrowser signs in with `photoctl login --oidc
// --no-browser` against a real provider: the test plays the user by
// following the printed address, whose last redirect lands on the CLI's
// loopback listener.
func TestCLILoginOIDCNoBrowser(t *testing.T) {
	t.Parallel()
	bin := photoctlBinary(t)
	p := oidcprovider.Start(t)
	p.AddUser(oidcprovider.User{Subject: "cli-sub", Email: "cli@example.com", EmailVerified: true})
	p.SignInAs("cli-sub")
	s := servertest.Start(t, func(c *app.Config) {
		c.OIDC.Issuer, c.OIDC.ClientID, c.OIDC.ClientSecret = p.Issuer, oidcprovider.ClientID, oidcprovider.ClientSecret
	})
	env := binaryEnv(t, "XDG_CACHE_HOME="+t.TempDir(), "NO_COLOR=1", "DISPLAY=", "WAYLAND_DISPLAY=")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "login", "--server", s.URL, "--oidc", "--no-browser", "--json")
	cmd.Env = env
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())

	var printed strings.Builder
	sc := bufio.NewScanner(stderr)
	var authorizeURL string
	for authorizeURL == "" && sc.Scan() {
		printed.WriteString(sc.Text() + "\n")
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "http") {
			authorizeURL = line
		}
	}
	require.NotEmpty(t, authorizeURL, "login prints the address to open: %s", printed.String())
	go func() { _, _ = io.Copy(io.Discard, stderr) }()

	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(authorizeURL)
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the CLI's redirect page: %s", page)
	require.Contains(t, string(page), "Signed in to photoctl")

	require.NoError(t, cmd.Wait(), "stderr: %s", printed.String())
	out := decode[auth.LoginJSON](t, cliResult{stdout: stdout.String()})
	require.Equal(t, "cli@example.com", out.User.Email)
	require.Equal(t, "session", out.Credential)

	r := runBinary(t, env, "", "whoami", "--json")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Equal(t, "cli@example.com", decode[auth.LoginJSON](t, r).User.Email, "the session was saved in the profile")
}
