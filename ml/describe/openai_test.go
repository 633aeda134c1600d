package describe

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeChat is a local server speaking the chat-completions shape of
// OpenAI's API (a paid remote service, so the tests talk to this instead):
// it records each request and answers with status and body.
type fakeChat struct {
	mu       sync.Mutex
	requests []recorded
	status   int
	body     string
}

type recorded struct {
	path, auth string
	body       map[string]any
}

func newFakeChat(t *testing.T, status int, body string) (*fakeChat, *httptest.Server) {
	t.Helper()
	f := &fakeChat{status: status, body: body}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		f.mu.Lock()
		f.requests = append(f.requests, recorded{path: r.URL.Path, auth: r.Header.Get("Authorization"), body: body})
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		_, _ = io.WriteString(w, f.body)
	}))
	t.Cleanup(srv.Close)
	return f, srv
}

// reply is a chat-completions answer with one choice.
func reply(content any, refusal any, finish string) string {
	b, _ := json.Marshal(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "model": "vision-1",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish,
			"message": map[string]any{"role": "assistant", "content": content, "refusal": refusal}}}})
	return string(b)
}

func newOpenAI(t *testing.T, url string) *OpenAI {
	t.Helper()
	o, err := NewOpenAI(OpenAIConfig{BaseURL: url + "/v1/", Model: "vision-1", APIKey: "sk-test", Timeout: 5 * time.Second})
	require.NoError(t, err)
	return o
}

func TestOpenAISendsThePreviewAndReadsTheAnswer(t *testing.T) {
	fake, srv := newFakeChat(t, http.StatusOK, reply("  A grey square on a plain background.  ", nil, "stop"))
	o := newOpenAI(t, srv.URL)
	img := grey(t, 32, 24, 128)
	got, err := o.Describe(context.Background(), Input{Image: img, ImageType: "image/jpeg", Place: "Paris, France",
		Faces: []Face{{Name: "Alice"}}, Text: "OPEN"})
	require.NoError(t, err)
	require.Equal(t, "A grey square on a plain background.", got)
	require.Equal(t, "openai:vision-1", o.Name())

	require.Len(t, fake.requests, 1)
	r := fake.requests[0]
	require.Equal(t, "/v1/chat/completions", r.path)
	require.Equal(t, "Bearer sk-test", r.auth)
	require.Equal(t, "vision-1", r.body["model"])
	msgs := r.body["messages"].([]any)
	require.Len(t, msgs, 2)
	parts := msgs[1].(map[string]any)["content"].([]any)
	text := parts[0].(map[string]any)["text"].(string)
	require.Contains(t, text, "Paris, France")
	require.Contains(t, text, "Alice")
	require.Contains(t, text, `"OPEN"`)
	url := parts[1].(map[string]any)["image_url"].(map[string]any)["url"].(string)
	require.True(t, strings.HasPrefix(url, "data:image/jpeg;base64,"), url[:40])
	sent, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/jpeg;base64,"))
	require.NoError(t, err)
	require.Equal(t, img, sent, "a JPEG goes as it is")
}

func TestOpenAIRefusalsAreEmptyDescriptions(t *testing.T) {
	tests := []struct{ name, body string }{
		{"a refusal field", reply(nil, "I can't help with that.", "stop")},
		{"the content filter", reply("", nil, "content_filter")},
		{"no content", reply(nil, nil, "stop")},
		{"blank content", reply("   ", nil, "stop")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, srv := newFakeChat(t, http.StatusOK, tt.body)
			got, err := newOpenAI(t, srv.URL).Describe(context.Background(), Input{Image: grey(t, 8, 8, 9), ImageType: "image/jpeg"})
			require.NoError(t, err)
			require.Equal(t, "", got)
		})
	}
}

func TestOpenAIReadsContentGivenAsParts(t *testing.T) {
	_, srv := newFakeChat(t, http.StatusOK, reply([]any{map[string]any{"type": "text", "text": "A cat."}}, nil, "stop"))
	got, err := newOpenAI(t, srv.URL).Describe(context.Background(), Input{Image: grey(t, 8, 8, 9), ImageType: "image/jpeg"})
	require.NoError(t, err)
	require.Equal(t, "A cat.", got)
}

func TestOpenAIFailuresAreErrorsNotDescriptions(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"a server error", http.StatusInternalServerError, `{"error":{"message":"model crashed"}}`, "500 Internal Server Error"},
		{"a rate limit", http.StatusTooManyRequests, `{"error":{"message":"slow down"}}`, "slow down"},
		{"a body that is not JSON", http.StatusOK, `<html>proxy</html>`, "read the answer"},
		{"no choices", http.StatusOK, `{"choices":[]}`, "no choices"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, srv := newFakeChat(t, tt.status, tt.body)
			_, err := newOpenAI(t, srv.URL).Describe(context.Background(), Input{Image: grey(t, 8, 8, 9), ImageType: "image/jpeg"})
			require.ErrorContains(t, err, tt.want)
		})
	}
	t.Run("no image", func(t *testing.T) {
		_, srv := newFakeChat(t, http.StatusOK, reply("x", nil, "stop"))
		_, err := newOpenAI(t, srv.URL).Describe(context.Background(), Input{})
		require.ErrorContains(t, err, "no image")
	})
}

func TestOpenAIGivesUpAfterItsTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		select { // never answers in time
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs first
	o, err := NewOpenAI(OpenAIConfig{BaseURL: srv.URL, Model: "m", Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	_, err = o.Describe(context.Background(), Input{Image: grey(t, 8, 8, 9), ImageType: "image/jpeg"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestOpenAIConfigValidate(t *testing.T) {
	require.NoError(t, OpenAIConfig{BaseURL: "http://localhost:11434/v1", Model: "llava"}.Validate())
	err := OpenAIConfig{BaseURL: "localhost:11434", Model: " ", Timeout: -1}.Validate()
	require.ErrorContains(t, err, "base_url")
	require.ErrorContains(t, err, "model must be set")
	require.ErrorContains(t, err, "timeout")
}
