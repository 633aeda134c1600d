package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainWait bounds how long the end of input is held back for replies
// still being computed: a call the SDK never answers must not keep the
// process alive for ever.
const drainWait = time.Minute

// ServeStdio runs s over a pair of streams (stdin and stdout for a local
// assistant) until the peer closes them or ctx ends. A peer may write its
// requests and close its end at once (`printf '…' | photoctl mcp`): every
// call read before the end is answered before ServeStdio returns.
func ServeStdio(ctx context.Context, s *sdk.Server, in io.ReadCloser, out io.WriteCloser) error {
	d := &stdioDrain{in: in, out: out, pending: map[string]int{}, answered: make(chan struct{}, 1), ctx: ctx}
	return s.Run(ctx, &sdk.IOTransport{Reader: drainReader{d}, Writer: drainWriter{d}})
}

// stdioDrain stands between the streams and the SDK. The SDK takes the end
// of its input for the end of the connection and refuses to write the
// replies it is still computing (modelcontextprotocol/go-sdk#1061, still so
// in v1.8.0), so a one-shot pipe got its reply about half the time. The
// drain counts the calls read (messages with a method and an id) and the
// replies written (an id and no method), and holds the end of input back
// until every call has its reply, ctx ends, or drainWait passes.
//
// Messages are newline-delimited and hold no newline of their own (the
// MCP stdio transport), so a line is a message.
type stdioDrain struct {
	in  io.ReadCloser
	out io.WriteCloser
	ctx context.Context

	mu       sync.Mutex
	pending  map[string]int // calls read and not yet answered, by id
	answered chan struct{}  // a token when pending may have emptied

	line     []byte // the start of a line whose end is not read yet
	counted  bool   // line is already a whole message, and counted
	skipping bool   // the line is longer than a message may be: not counted
	atEOF    bool   // in has ended; the next Read waits, then says so
}

type drainReader struct{ d *stdioDrain }

func (r drainReader) Read(p []byte) (int, error) {
	d := r.d
	if d.atEOF {
		d.wait()
		return 0, io.EOF
	}
	n, err := d.in.Read(p)
	d.scan(p[:n])
	if err == io.EOF {
		// Hand over the last bytes first; the SDK reads again for more,
		// and that Read waits for the replies.
		d.atEOF = true
		d.scan([]byte{'\n'}) // a last message without its newline
		if n > 0 {
			return n, nil
		}
		d.wait()
	}
	return n, err
}

func (r drainReader) Close() error { return r.d.in.Close() }

// scan counts the calls among the complete lines of b.
func (d *stdioDrain) scan(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			d.keep(b)
			d.countWhole()
			return
		}
		d.keep(b[:i])
		if !d.skipping && !d.counted {
			d.sawInput(d.line)
		}
		d.line, d.counted, d.skipping = d.line[:0], false, false
		b = b[i+1:]
	}
}

// countWhole counts a line that is a whole message before its newline
// comes: the SDK decodes it as soon as it is whole and may answer it
// before the newline (or the end of input) is read.
func (d *stdioDrain) countWhole() {
	if d.skipping || d.counted || len(d.line) == 0 {
		return
	}
	if last := bytes.TrimRight(d.line, " \t\r"); len(last) == 0 || (last[len(last)-1] != '}' && last[len(last)-1] != ']') {
		return
	}
	if json.Valid(d.line) {
		d.sawInput(d.line)
		d.counted = true
	}
}

// keep adds b to the line being read, up to the SDK's own bound on one
// message; a longer line is refused by the SDK, so it is not counted.
func (d *stdioDrain) keep(b []byte) {
	if d.skipping {
		return
	}
	if len(d.line)+len(b) > sdk.DefaultMaxLineLength {
		d.line, d.skipping = d.line[:0], true
		return
	}
	d.line = append(d.line, b...)
}

type drainWriter struct{ d *stdioDrain }

// Write passes a message on, then marks the calls it answers: once a
// reply is counted it is on the stream. The SDK writes one message (or
// one batch) per call.
func (w drainWriter) Write(b []byte) (int, error) {
	n, err := w.d.out.Write(b)
	if err != nil {
		w.d.broken() // no reply can reach the peer: wait for none
		return n, err
	}
	w.d.sawOutput(b)
	return n, nil
}

func (w drainWriter) Close() error { return w.d.out.Close() }

// rpcProbe is what the drain reads of a JSON-RPC message.
type rpcProbe struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
}

// probes decodes a message or a batch of them; anything else is none.
func probes(b []byte) []rpcProbe {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	if b[0] == '[' {
		var batch []rpcProbe
		if json.Unmarshal(b, &batch) != nil {
			return nil
		}
		return batch
	}
	var one rpcProbe
	if json.Unmarshal(b, &one) != nil {
		return nil
	}
	return []rpcProbe{one}
}

// idKey names an id by its value, so the 1 of a call and the 1 of its
// reply match however each was written; "" for none (or null).
func idKey(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	return fmt.Sprintf("%T:%v", v, v)
}

func (d *stdioDrain) sawInput(line []byte) {
	for _, m := range probes(line) {
		if key := idKey(m.ID); key != "" && len(m.Method) > 0 {
			d.mu.Lock()
			d.pending[key]++
			d.mu.Unlock()
		}
	}
}

// head reads a message's id and method from its head: the SDK writes them
// before a reply's result, which may be megabytes (a preview image), so
// the rest is not read. A batch, or a message it cannot read this way, is
// decoded whole.
func head(msg []byte) []rpcProbe {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return probes(msg)
	}
	var m rpcProbe
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return probes(msg)
		}
		var value json.RawMessage
		switch key, _ := tok.(string); {
		case key == "method":
			return []rpcProbe{{ID: m.ID, Method: json.RawMessage(`"?"`)}}
		case (key == "result" || key == "error") && m.ID != nil:
			return []rpcProbe{m}
		case key == "id":
			err = dec.Decode(&m.ID)
		default:
			err = dec.Decode(&value)
		}
		if err != nil {
			return probes(msg)
		}
	}
	return []rpcProbe{m}
}

func (d *stdioDrain) sawOutput(msg []byte) {
	for _, m := range head(msg) {
		key := idKey(m.ID)
		if key == "" || len(m.Method) > 0 {
			continue
		}
		d.mu.Lock()
		if d.pending[key]--; d.pending[key] <= 0 {
			delete(d.pending, key)
		}
		empty := len(d.pending) == 0
		d.mu.Unlock()
		if empty {
			d.signal()
		}
	}
}

// broken forgets the calls still unanswered: the output failed, so their
// replies cannot be delivered and the end of input need not wait.
func (d *stdioDrain) broken() {
	d.mu.Lock()
	clear(d.pending)
	d.mu.Unlock()
	d.signal()
}

// signal wakes wait to look at pending again.
func (d *stdioDrain) signal() {
	select {
	case d.answered <- struct{}{}:
	default:
	}
}

// wait returns once no call read is unanswered, ctx ends, or drainWait
// passes.
func (d *stdioDrain) wait() {
	timeout := time.NewTimer(drainWait)
	defer timeout.Stop()
	for {
		d.mu.Lock()
		empty := len(d.pending) == 0
		d.mu.Unlock()
		if empty {
			return
		}
		select {
		case <-d.answered:
		case <-d.ctx.Done():
			return
		case <-timeout.C:
			return
		}
	}
}
