package httpapi_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// rawConn is one kept-alive connection written to and read from by hand,
// as a client library would reuse it.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	return &rawConn{t: t, conn: conn, r: bufio.NewReader(conn)}
}

// send writes a request with body (sized with Content-Length, or chunked)
// and extra header lines, and reads the answer whole. The body is written
// while the answer is read, as a client still sending would.
func (c *rawConn) send(method, path string, body []byte, chunked bool, headers ...string) *http.Response {
	c.t.Helper()
	var head strings.Builder
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: photoctl.test\r\n", method, path)
	for _, h := range headers {
		head.WriteString(h + "\r\n")
	}
	switch {
	case chunked:
		head.WriteString("Transfer-Encoding: chunked\r\n")
	case body != nil:
		fmt.Fprintf(&head, "Content-Length: %d\r\n", len(body))
	}
	head.WriteString("\r\n")
	var payload bytes.Buffer
	payload.WriteString(head.String())
	if chunked {
		for chunk := range slicesChunk(body, 16<<10) {
			fmt.Fprintf(&payload, "%x\r\n%s\r\n", len(chunk), chunk)
		}
		payload.WriteString("0\r\n\r\n")
	} else {
		payload.Write(body)
	}
	written := make(chan error, 1)
	go func() {
		_, err := c.conn.Write(payload.Bytes())
		written <- err
	}()
	resp, err := http.ReadResponse(c.r, nil)
	require.NoError(c.t, err, "%s %s", method, path)
	_, err = io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	resp.Body.Close()
	if !resp.Close {
		require.NoError(c.t, <-written, "the server read the whole request")
	}
	return resp
}

func slicesChunk(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			k := min(n, len(b))
			if !yield(b[:k]) {
				return
			}
			b = b[k:]
		}
	}
}

// jpegish is a body that would not parse as a request: JPEG bytes.
func jpegish(n int) []byte {
	b := bytes.Repeat([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x10"), n/13+1)
	return b[:n]
}

func TestEarlyAnswersLeaveNoRequestBytesOnTheConnection(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the connection's bytes")
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.Rate = 0.01
		c.RateLimit.Burst = 2
		c.RateLimit.LoginBurst = 100
		c.Immich.Listen = "127.0.0.1:0"
	})
	_, session := s.Session()
	native := strings.TrimPrefix(s.URL, "http://")
	immichRoot := s.App().ImmichAddr()
	multipart := "Content-Type: multipart/form-data; boundary=xyz"
	bearer := "Authorization: Bearer " + session

	// Spend the user's burst so that the next request is refused.
	for range 2 {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", session, nil).Status)
	}
	cases := []struct {
		name, addr, path string
		headers          []string
		status           int
		next             string
	}{
		{"an upload without a credential", native, "/api/assets", []string{multipart}, 401, "/api/health/ping"},
		{"a post to an unknown route", native, "/api/no/such/route", nil, 404, "/api/health/ping"},
		{"a request over the rate limit", native, "/api/albums", []string{"Content-Type: application/json", bearer}, 429, "/api/health/ping"},
		{"an Immich upload without a credential", native, "/immich/api/assets", []string{multipart}, 401, "/immich/api/server/ping"},
		{"an Immich upload on its own listener", immichRoot, "/api/assets", []string{multipart}, 401, "/api/server/ping"},
		{"a post to an unknown Immich route", immichRoot, "/api/no/such/route", nil, 404, "/api/server/ping"},
	}
	for _, c := range cases {
		for _, chunked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, chunked %v", c.name, chunked), func(t *testing.T) {
				conn := dialRaw(t, c.addr)
				first := conn.send("POST", c.path, jpegish(300<<10), chunked, c.headers...)
				require.Equal(t, c.status, first.StatusCode)
				require.False(t, first.Close, "a bounded rest is read, the connection kept")
				second := conn.send("GET", c.next, nil, false)
				require.Equal(t, http.StatusOK, second.StatusCode, "the next request gets its own answer")
			})
		}
	}

	t.Run("a rest too large to read closes the connection", func(t *testing.T) {
		conn := dialRaw(t, native)
		first := conn.send("POST", "/api/assets", jpegish(80<<20), false, multipart)
		require.Equal(t, http.StatusUnauthorized, first.StatusCode)
		require.True(t, first.Close, "Connection: close")
		// Closed with the client's bytes still arriving, the kernel may
		// answer them with a reset rather than a FIN: either is a close.
		_, err := conn.r.ReadByte()
		require.True(t, errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET),
			"and the server closes it (got %v)", err)
	})
}
