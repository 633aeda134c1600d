package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// oidcWait bounds how long `login --oidc` waits for the browser; the
// server forgets a started sign-in after ten minutes.
const oidcWait = 5 * time.Minute

// oidcRedirect is what the provider sent to the loopback redirect.
type oidcRedirect struct {
	code, state string
	err         error
}

// loginOIDC signs in through the server's identity provider: it listens on
// a loopback port, has the server start the sign-in with that redirect,
// opens the browser (or prints the URL), receives the code and finishes
// the sign-in.
func loginOIDC(ctx context.Context, anon *client.Client, opts *LoginOptions) (client.Tokens, *api.User, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return client.Tokens{}, nil, fmt.Errorf("listen for the sign-in redirect: %w", err)
	}
	redirect := "http://" + ln.Addr().String() + "/callback"
	start, err := anon.OIDCStart(ctx, redirect)
	if err != nil {
		ln.Close()
		return client.Tokens{}, nil, fmt.Errorf("start the sign-in at %s: %w", opts.Server, err)
	}
	got := make(chan oidcRedirect, 1)
	srv := &http.Server{Handler: redirectHandler(start.State, got), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	fmt.Fprintf(opts.IO.Err, "Open this address in a browser to sign in:\n\n    %s\n\n", start.AuthorizeURL)
	if !opts.NoBrowser && canOpenBrowser() {
		if err := openBrowser(ctx, start.AuthorizeURL); err != nil {
			fmt.Fprintf(opts.IO.Err, "Could not open a browser (%v); open the address yourself.\n", err)
		}
	}
	fmt.Fprintln(opts.IO.Err, "Waiting for the identity provider...")

	var r oidcRedirect
	select {
	case r = <-got:
	case <-ctx.Done():
		return client.Tokens{}, nil, ctx.Err()
	case <-time.After(oidcWait):
		return client.Tokens{}, nil, fmt.Errorf("no sign-in arrived within %s; run photoctl login --oidc again", oidcWait)
	}
	if r.err != nil {
		return client.Tokens{}, nil, r.err
	}
	tokens, u, err := anon.OIDCCallback(ctx, r.code, r.state, redirect)
	if err != nil {
		return client.Tokens{}, nil, fmt.Errorf("sign in to %s: %w", opts.Server, err)
	}
	return tokens, u, nil
}

// redirectHandler answers the browser on the loopback redirect and hands
// the first redirect carrying this sign-in's state to got.
func redirectHandler(state string, got chan<- oidcRedirect) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/callback" {
			http.NotFound(w, req)
			return
		}
		q := req.URL.Query()
		if q.Get("state") != state {
			http.Error(w, "This sign-in is not the one photoctl is waiting for.", http.StatusBadRequest)
			return
		}
		r := oidcRedirect{code: q.Get("code"), state: q.Get("state")}
		if e := q.Get("error"); e != "" || r.code == "" {
			r.err = fmt.Errorf("the identity provider refused the sign-in: %s %s", e, q.Get("error_description"))
			http.Error(w, "The sign-in failed; see the terminal.", http.StatusBadRequest)
		} else {
			_, _ = fmt.Fprintln(w, "Signed in to photoctl. You can close this window and return to the terminal.")
		}
		select {
		case got <- r:
		default: // a repeated redirect: the first one counts
		}
	})
}

// canOpenBrowser reports whether there is a desktop to open a browser on.
func canOpenBrowser() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	default:
		return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
}

// browserCommand builds the command that opens url in the user's browser.
func browserCommand(ctx context.Context, url string) (*exec.Cmd, error) {
	switch runtime.GOOS {
	case "darwin":
		return exec.CommandContext(ctx, "open", url), nil
	case "windows":
		return exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", url), nil
	default:
		if _, err := exec.LookPath("xdg-open"); err != nil {
			return nil, errors.New("xdg-open is not installed")
		}
		return exec.CommandContext(ctx, "xdg-open", url), nil
	}
}

func openBrowser(ctx context.Context, url string) error {
	cmd, err := browserCommand(ctx, url)
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { _ = cmd.Wait() }() // reap it; the browser outlives nothing of ours
	return nil
}
