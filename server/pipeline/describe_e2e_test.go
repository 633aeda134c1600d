package pipeline_test

import (
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

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestDisabledMLSkipsFacesAndOCRButStillDescribes turns ML off: the faces,
// cluster and ocr tasks are recorded as succeeded, saying why they did
// nothing, without a worker claiming them (no attempt, no start), the
// chain goes on, and the built-in describer still writes a description.
func TestDisabledMLSkipsFacesAndOCRButStillDescribes(t *testing.T) {
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	s := servertest.Start(t, servertest.WithPipeline, func(c *app.Config) { c.ML.Enabled = false })
	_, session := s.Session()
	a := s.UploadAsset(session, "photo.jpg", readFile(t, halves(t, 640, 480)), nil)
	list := s.WaitForTasks(session, a.ID, chainTimeout)
	state, errs := states(list)
	const off = "ML is disabled (ml.enabled = false)"
	for kind, want := range map[string]string{"faces": "skipped: " + off, "ocr": "skipped: " + off,
		"cluster": "skipped: no faces are detected: " + off} {
		require.Equal(t, "succeeded", state[kind], kind)
		require.Equal(t, want, errs[kind], kind)
	}
	for _, task := range list {
		switch task.Kind {
		case "faces", "cluster", "ocr":
			require.Zero(t, task.Attempts, task.Kind)
			require.Nil(t, task.StartedAt, task.Kind)
			require.NotNil(t, task.FinishedAt, task.Kind)
		default:
			require.Equal(t, 1, task.Attempts, task.Kind)
		}
	}
	require.Equal(t, "succeeded", state["describe"])
	require.Empty(t, errs["describe"])
	require.Empty(t, servertest.List[api.Face](s, session, "/api/faces?asset_id="+a.ID))

	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	r.JSON(t, &a)
	require.True(t, strings.HasPrefix(deref(a.Description), "A landscape-format photo"), deref(a.Description))
}

// chatFake stands in for an OpenAI-compatible provider (a paid remote
// API): it answers the chat-completions shape with what the test sets and
// keeps the requests.
type chatFake struct {
	mu       sync.Mutex
	status   int
	answer   map[string]any // the choice's message
	finish   string
	requests []map[string]any
	auth     []string
}

func newChatFake(t *testing.T) (*chatFake, string) {
	t.Helper()
	f := &chatFake{status: http.StatusOK, finish: "stop"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests, f.auth = append(f.requests, body), append(f.auth, r.Header.Get("Authorization"))
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		if f.status != http.StatusOK {
			_, _ = io.WriteString(w, `{"error":{"message":"the model is overloaded"}}`)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "chat.completion", "choices": []any{
			map[string]any{"index": 0, "message": f.answer, "finish_reason": f.finish}}})
	}))
	t.Cleanup(srv.Close)
	return f, srv.URL + "/v1"
}

func (f *chatFake) set(status int, answer map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.status, f.answer = status, answer
}

// withOpenAI describes with the fake provider at url.
func withOpenAI(url string) func(*app.Config) {
	return func(c *app.Config) {
		servertest.WithPipeline(c)
		c.ML.Enabled = false // this test is about the describer
		c.ML.Describer = app.DescriberConfig{Provider: app.ProviderOpenAI, BaseURL: url, Model: "vision-test",
			APIKey: "sk-test", Timeout: 10 * time.Second}
	}
}

// TestOpenAIDescriberSendsThePreviewAndStoresTheAnswer points the
// describer at an OpenAI-compatible server: the preview goes as a JPEG
// data URL with the key, the answer is the description; a refusal is "";
// an HTTP error fails the attempt (retried, nothing stored) and the retry
// stores the answer.
func TestOpenAIDescriberSendsThePreviewAndStoresTheAnswer(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the describer's request")
	needTools(t, "exiftool", "ffmpeg", "ffprobe")
	fake, url := newChatFake(t)
	s := servertest.Start(t, withOpenAI(url))
	_, session := s.Session()

	fake.set(http.StatusOK, map[string]any{"role": "assistant", "content": "A red and a blue half, side by side."})
	a := s.UploadAsset(session, "halves.jpg", readFile(t, halves(t, 640, 480)), nil)
	state, errs := states(s.WaitForTasks(session, a.ID, chainTimeout))
	require.Equal(t, "succeeded", state["describe"], errs["describe"])
	r := s.Do("GET", "/api/assets/"+a.ID, session, nil)
	r.JSON(t, &a)
	require.Equal(t, "A red and a blue half, side by side.", deref(a.Description))
	rec, err := serverStore(t, s).Read().AssetTexts().Get(t.Context(), a.ID)
	require.NoError(t, err)
	require.Equal(t, "openai:vision-test", deref(rec.Describer))

	fake.mu.Lock()
	require.Len(t, fake.requests, 1)
	require.Equal(t, "Bearer sk-test", fake.auth[0])
	req := fake.requests[0]
	fake.mu.Unlock()
	require.Equal(t, "vision-test", req["model"])
	msgs := req["messages"].([]any)
	parts := msgs[len(msgs)-1].(map[string]any)["content"].([]any)
	dataURL := parts[1].(map[string]any)["image_url"].(map[string]any)["url"].(string)
	require.True(t, strings.HasPrefix(dataURL, "data:image/jpeg;base64,"), "the WebP preview goes as JPEG")
	jpg, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(dataURL, "data:image/jpeg;base64,"))
	require.NoError(t, err)
	require.Equal(t, []byte{0xff, 0xd8}, jpg[:2])

	t.Run("a refusal is stored as an empty description", func(t *testing.T) {
		fake.set(http.StatusOK, map[string]any{"role": "assistant", "content": nil, "refusal": "I can't describe this."})
		b := s.UploadAsset(session, "other.jpg", readFile(t, halves(t, 320, 480)), nil)
		state, errs := states(s.WaitForTasks(session, b.ID, chainTimeout))
		require.Equal(t, "succeeded", state["describe"], errs["describe"])
		r := s.Do("GET", "/api/assets/"+b.ID, session, nil)
		require.Equal(t, http.StatusOK, r.Status)
		var raw map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &raw))
		require.Equal(t, "", raw["description"], "refused: an empty string, not null")
	})

	t.Run("an HTTP error is retried and stores nothing", func(t *testing.T) {
		fake.set(http.StatusServiceUnavailable, nil)
		c := s.UploadAsset(session, "third.jpg", readFile(t, halves(t, 480, 480)), nil)
		describe := waitForAttempt(t, s, session, c.ID, "describe")
		require.Equal(t, "queued", describe.State, "waiting for its retry")
		require.Contains(t, deref(describe.Error), "503")
		r := s.Do("GET", "/api/assets/"+c.ID, session, nil)
		var raw map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &raw))
		require.Contains(t, raw, "description")
		require.Nil(t, raw["description"], "not run yet: null")

		fake.set(http.StatusOK, map[string]any{"role": "assistant", "content": "A square of two halves."})
		s.Clock.Advance(45 * time.Second) // past the first backoff (30 s)
		state, errs := states(s.WaitForTasks(session, c.ID, chainTimeout))
		require.Equal(t, "succeeded", state["describe"], errs["describe"])
		r = s.Do("GET", "/api/assets/"+c.ID, session, nil)
		r.JSON(t, &c)
		require.Equal(t, "A square of two halves.", deref(c.Description))
	})
}

// waitForAttempt polls the asset's tasks until the task of kind has
// failed an attempt, and returns it. The limit only bounds a hung chain.
func waitForAttempt(t *testing.T, s *servertest.Server, token, assetID, kind string) api.Task {
	t.Helper()
	deadline := time.Now().Add(chainTimeout)
	for time.Now().Before(deadline) {
		for _, task := range servertest.List[api.Task](s, token, "/api/tasks?limit=200&asset_id="+assetID) {
			if task.Kind == kind && task.Error != nil {
				return task
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no failed %s attempt for asset %s", kind, assetID)
	return api.Task{}
}
