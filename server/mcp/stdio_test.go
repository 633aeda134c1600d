package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/mcp"
)

// slowLibraries is a Backend whose only used call takes a while, so the
// reply is still being computed when the input ends.
type slowLibraries struct{ mcp.Backend }

func (slowLibraries) Libraries(ctx context.Context) ([]api.Library, error) {
	time.Sleep(100 * time.Millisecond)
	return []api.Library{{ID: "lib_1", Name: "Family"}}, nil
}

// oneShot writes lines to ServeStdio, closes its input at once, and
// returns the ids of the replies written before ServeStdio returned.
func oneShot(t *testing.T, lines ...string) []float64 {
	t.Helper()
	s := mcp.New(slowLibraries{}, mcp.Options{Version: "test"})
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		err := mcp.ServeStdio(ctx, s, io.NopCloser(strings.NewReader(strings.Join(lines, "\n"))), outW)
		outW.Close()
		served <- err
	}()
	var ids []float64
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var reply struct {
			ID     float64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &reply), "%s", sc.Bytes())
		require.NotEmpty(t, reply.Result, "%s", sc.Bytes())
		ids = append(ids, reply.ID)
	}
	require.NoError(t, sc.Err())
	select {
	case <-served:
	case <-ctx.Done():
		t.Fatal("ServeStdio did not return after its input ended")
	}
	return ids
}

const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// A script that pipes its requests and closes the pipe (`printf … |
// photoctl mcp`) gets every reply, each time: the SDK alone dropped the
// replies still being computed when the input ended.
func TestServeStdioAnswersEveryCallReadBeforeTheEnd(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_libraries","arguments":{}}}`
	for i := range 10 {
		require.Equal(t, []float64{1, 2}, oneShot(t, initialize, initialized, call), "run %d", i)
	}
	// The last message without its newline is a message too.
	require.Equal(t, []float64{1}, oneShot(t, initialize+"\n"))
	require.Equal(t, []float64{1}, oneShot(t, initialize))
}

// Input that is not a call (a notification, a reply, garbage) leaves
// nothing to wait for: the end of input ends the session at once.
func TestServeStdioWaitsForNothingElse(t *testing.T) {
	start := time.Now()
	require.Empty(t, oneShot(t, initialized, `{"jsonrpc":"2.0","id":9,"result":{}}`))
	require.Less(t, time.Since(start), 10*time.Second)
}
