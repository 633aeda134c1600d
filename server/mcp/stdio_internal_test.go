package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkDrainReply is what the stdio drain adds to writing a reply as
// large as a view_asset preview (8 MiB, base64 in JSON): it decodes the
// reply's id. The SDK's own encoding of the same reply is the comparison.
func BenchmarkDrainReply(b *testing.B) {
	img := make([]byte, maxPreviewBench)
	reply := map[string]any{"jsonrpc": "2.0", "id": 7, "result": map[string]any{
		"content": []any{map[string]any{"type": "image", "mimeType": "image/jpeg", "data": base64.StdEncoding.EncodeToString(img)}}}}
	msg, err := json.Marshal(reply)
	if err != nil {
		b.Fatal(err)
	}
	msg = append(msg, '\n')
	b.Run("drain", func(b *testing.B) {
		d := &stdioDrain{out: nopWriteCloser{}, ctx: context.Background(), pending: map[string]int{}, answered: make(chan struct{}, 1)}
		w := drainWriter{d}
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			d.pending["float64:7"] = 1
			if _, err := w.Write(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sdk-encoding", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			if _, err := json.Marshal(reply); err != nil {
				b.Fatal(err)
			}
		}
	})
}

const maxPreviewBench = 8 << 20

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }

// The drain reads a reply's id from its head, whatever the order of its
// members, and tells replies from requests and notifications.
func TestDrainReadsRepliesOnly(t *testing.T) {
	d := &stdioDrain{out: nopWriteCloser{}, ctx: context.Background(), pending: map[string]int{}, answered: make(chan struct{}, 1)}
	d.sawInput([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	d.sawInput([]byte(`[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`))
	d.sawInput([]byte(`{"jsonrpc":"2.0","id":3,"method":"ping"}`))
	d.sawInput([]byte(`not json`))
	require.Equal(t, map[string]int{"float64:1": 1, "string:a": 1, "float64:3": 1}, d.pending)
	for _, out := range []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, // a notification: no change
		`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage"}`,     // the server's own call: no change
		`{"jsonrpc":"2.0","result":{"tools":[]},"id":1.0}`,               // the id after the result
		`[{"jsonrpc":"2.0","id":"a","result":{}}]`,                       // a batch
	} {
		_, err := drainWriter{d}.Write([]byte(out + "\n"))
		require.NoError(t, err)
	}
	require.Equal(t, map[string]int{"float64:3": 1}, d.pending)
	_, err := drainWriter{d}.Write([]byte(`{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}}` + "\n"))
	require.NoError(t, err)
	require.Empty(t, d.pending)
}

// A write that fails leaves nothing to wait for: no reply can reach the
// peer any more.
func TestDrainStopsWaitingWhenOutputBreaks(t *testing.T) {
	d := &stdioDrain{out: failingWriter{}, ctx: context.Background(), pending: map[string]int{}, answered: make(chan struct{}, 1)}
	d.sawInput([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	_, err := drainWriter{d}.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n"))
	require.Error(t, err)
	done := make(chan struct{})
	go func() { d.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("wait still waits for a reply that can no longer be written")
	}
}

type failingWriter struct{ nopWriteCloser }

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
