package app_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

func TestShutdownDrainsInFlightRequests(t *testing.T) {
	s := servertest.Start(t)
	u := s.CreateUser()
	addr := strings.TrimPrefix(s.URL, "http://")

	// Start a sign-in and send only half of its body: the request is in
	// flight when shutdown begins.
	body := fmt.Sprintf(`{"email": %q, "password": %q}`, u.Email, u.Password)
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Content-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2])
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)

	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		done <- s.App().Shutdown(ctx)
	}()

	// New connections are refused once the listener is closed.
	require.Eventually(t, func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return true
		}
		c.Close()
		return false
	}, 5*time.Second, 20*time.Millisecond)
	select {
	case err := <-done:
		t.Fatalf("shutdown returned before the in-flight request finished: %v", err)
	default:
	}

	// The in-flight request completes normally.
	_, err = io.WriteString(conn, body[len(body)/2:])
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", data)
	require.Contains(t, string(data), "access_token")

	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("shutdown did not finish after the in-flight request completed")
	}
}
