package httpapi_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/app"
	"github.com/photoctl/photoctl/server/servertest"
)

// withDefaultLimits turns the rate limiter on with the defaults a user
// gets from photoctl serve.
func withDefaultLimits(c *app.Config) {
	c.RateLimit = app.Defaults(c.DataDir).RateLimit
}

// A bulk import — 300 files one after another, then 8 clients at once —
// is never refused by the default limits: uploads wait their turn.
func TestABulkImportPassesTheDefaultLimits(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the rate limiter's defaults")
	s := servertest.Start(t, withDefaultLimits)
	require.True(t, s.Config.RateLimit.Enabled)
	_, session := s.Session()
	for i := range 300 {
		s.UploadAsset(session, fmt.Sprintf("seq-%d.jpg", i), servertest.JPEG(t, 8+i, 8, i), nil)
	}
	var wg sync.WaitGroup
	statuses := make(chan int, 8*25)
	for w := range 8 {
		wg.Go(func() {
			for i := range 25 {
				statuses <- s.Upload(session, fmt.Sprintf("par-%d-%d.jpg", w, i), servertest.JPEG(t, 8+w*25+i, 9, 7), nil).Status
			}
		})
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		require.Equal(t, http.StatusCreated, st)
	}
}

// multipartUpload is an upload body of one photo of noise (some 200 KB,
// more than fasthttp reads before calling the handler), with its content
// type.
func multipartUpload(t *testing.T, seed int) ([]byte, string) {
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	var photo bytes.Buffer
	require.NoError(t, jpeg.Encode(&photo, img, &jpeg.Options{Quality: 95}))
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", fmt.Sprintf("held-%d.jpg", seed))
	require.NoError(t, err)
	_, err = fw.Write(photo.Bytes())
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	return body.Bytes(), mw.FormDataContentType()
}

// Uploads beyond a user's places wait; beyond the queue they are refused
// at once with a Retry-After the detail repeats; another user's upload is
// served meanwhile, and the waiting ones complete.
func TestUploadsBeyondTheQueueAreRefusedAndTheRestWait(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the upload queue")
	s := servertest.Start(t, withDefaultLimits, func(c *app.Config) {
		c.RateLimit.UploadConcurrency = 1
		c.RateLimit.UploadQueue = 1
	})
	_, alice := s.Session()
	_, bob := s.Session()
	addr := strings.TrimPrefix(s.URL, "http://")

	// The first upload holds alice's place: its body stops halfway.
	body, ctype := multipartUpload(t, 1)
	held := dialRaw(t, addr)
	_, err := fmt.Fprintf(held.conn, "POST /api/assets HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: %s\r\nContent-Length: %d\r\n\r\n", alice, ctype, len(body))
	require.NoError(t, err)
	_, err = held.conn.Write(body[:len(body)/2])
	require.NoError(t, err)
	time.Sleep(time.Second) // the server has taken it, on a loaded machine too

	// The second waits in the queue.
	waiting := make(chan int, 1)
	go func() { waiting <- s.Upload(alice, "queued.jpg", servertest.JPEG(t, 16, 16, 2), nil).Status }()
	time.Sleep(300 * time.Millisecond)
	select {
	case st := <-waiting:
		held.conn.SetReadDeadline(time.Now().Add(time.Second))
		resp, err := http.ReadResponse(held.r, nil)
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			t.Logf("held: %d %s", resp.StatusCode, b)
		}
		t.Fatalf("the second upload should wait for a place, got %d", st)
	default:
	}

	// The third is refused at once.
	r := s.Upload(alice, "refused.jpg", servertest.JPEG(t, 16, 16, 3), nil)
	requireDetail(t, r, http.StatusTooManyRequests)
	require.Equal(t, "1", r.Header.Get("Retry-After"))
	require.Contains(t, string(r.Body), "retry in 1s", "the detail agrees with Retry-After")

	require.Equal(t, http.StatusCreated, s.Upload(bob, "neighbour.jpg", servertest.JPEG(t, 16, 16, 4), nil).Status,
		"another user has places of their own")

	_, err = held.conn.Write(body[len(body)/2:])
	require.NoError(t, err)
	resp, err := http.ReadResponse(held.r, nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	require.Equal(t, http.StatusCreated, <-waiting)
}

// A client a little over the rate is slowed down, not refused: its
// requests wait for their tokens up to max_wait. A flood that would wait
// longer is refused at once with 429, and another user is served.
func TestRequestsOverTheRateWaitUpToMaxWait(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "the rate limiter's waits")
	s := servertest.Start(t, func(c *app.Config) {
		c.RateLimit.Enabled = true
		c.RateLimit.Rate = 10
		c.RateLimit.Burst = 5
		c.RateLimit.MaxWait = time.Second
		c.RateLimit.UserConcurrency = 64
	})
	_, alice := s.Session()
	_, bob := s.Session()
	start := time.Now()
	for i := range 12 {
		require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", alice, nil).Status, "request %d waits its turn", i)
	}
	require.GreaterOrEqual(t, time.Since(start), 600*time.Millisecond, "seven requests over the burst took a tenth of a second each")

	var wg sync.WaitGroup
	statuses := make(chan *servertest.Response, 60)
	for range 60 {
		wg.Go(func() { statuses <- s.Do("GET", "/api/users/me", alice, nil) })
	}
	wg.Wait()
	close(statuses)
	refused := 0
	for r := range statuses {
		if r.Status == http.StatusTooManyRequests {
			refused++
			require.NotEmpty(t, r.Header.Get("Retry-After"))
			require.Contains(t, string(r.Body), "retry in "+r.Header.Get("Retry-After")+"s")
		} else {
			require.Equal(t, http.StatusOK, r.Status)
		}
	}
	require.GreaterOrEqual(t, refused, 40, "at most a second's worth of tokens waits")
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", bob, nil).Status, "another user is served")
}
