package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// crashClient drives a photoctl server over HTTP and records what the
// server acknowledged.
type crashClient struct {
	base, token string
	http        *http.Client
}

// newServedLibrary makes a data folder with the test user in it, serves
// it on a free address and signs a client in: how most journeys through
// the binary start.
func newServedLibrary(t testing.TB, env []string) (srv *server, c *crashClient, dataDir, addr string) {
	t.Helper()
	dataDir, addr = t.TempDir(), freeAddr(t)
	createUser(t, env, "--data-dir", dataDir)
	srv, c = serveSignedIn(t, env, addr, dataDir)
	return srv, c, dataDir, addr
}

// serveSignedIn starts `photoctl serve` on addr over dataDir and returns
// it with a client signed in as the test user.
func serveSignedIn(t testing.TB, env []string, addr, dataDir string) (*server, *crashClient) {
	t.Helper()
	c := &crashClient{base: "http://" + addr, http: &http.Client{Timeout: 10 * time.Second}}
	return c.serve(t, env, "--listen", addr, "--data-dir", dataDir), c
}

// serve starts `photoctl serve args...` with env where c points (again,
// after a stop or a crash) and signs c in.
func (c *crashClient) serve(t testing.TB, env []string, args ...string) *server {
	t.Helper()
	srv := startServe(t, env, args...)
	srv.waitReady(t, c.base)
	c.token = login(t, c.base)
	return srv
}

// requireOriginal requires asset id's original to read back as data.
func (c *crashClient) requireOriginal(t *testing.T, id string, data []byte) {
	t.Helper()
	status, got := c.get(t, "/api/assets/"+id+"/original")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, data, got)
}

func (c *crashClient) upload(data []byte, name string) (string, bool) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", c.base+"/api/assets", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return "", false
	}
	defer resp.Body.Close()
	var out struct{ ID string }
	if resp.StatusCode != http.StatusCreated || json.NewDecoder(resp.Body).Decode(&out) != nil {
		return "", false
	}
	return out.ID, true
}

func (c *crashClient) delete(id string) bool {
	body, _ := json.Marshal(map[string][]string{"ids": {id}})
	req, _ := http.NewRequest("DELETE", c.base+"/api/assets", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (c *crashClient) get(t *testing.T, path string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// TestBinaryKilledMidWorkLosesNothing kills photoctl serve with SIGKILL
// while uploads and permanent deletions run, restarts it, and checks that
// every acknowledged upload is intact, every acknowledged deletion is
// complete, and no file is left without its row or row without its file.
func TestBinaryKilledMidWorkLosesNothing(t *testing.T) {
	for trial := range 3 {
		t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) { crashTrial(t, trial) })
	}
}

func crashTrial(t *testing.T, trial int) {
	env := binaryEnv(t)
	srv, c, dataDir, addr := newServedLibrary(t, env)

	contents := map[string][]byte{} // acknowledged uploads: id → bytes
	var mu sync.Mutex
	var initial []string
	for i := range 30 {
		data := servertest.JPEG(t, 64, 64, trial*1000+i)
		id, ok := c.upload(data, "seed.jpg")
		require.True(t, ok)
		contents[id] = data
		initial = append(initial, id)
	}

	deleted := map[string]bool{}   // acknowledged deletions
	attempted := map[string]bool{} // deletions sent, acknowledged or not
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if w%2 == 0 {
					data := servertest.JPEG(t, 64, 64, trial*1000+100+w*1000+i)
					if id, ok := c.upload(data, "live.jpg"); ok {
						mu.Lock()
						contents[id] = data
						mu.Unlock()
					}
				} else if i*2+w/2 < len(initial) {
					id := initial[i*2+w/2]
					mu.Lock()
					attempted[id] = true
					mu.Unlock()
					if c.delete(id) {
						mu.Lock()
						deleted[id] = true
						mu.Unlock()
					}
				}
			}
		}()
	}
	time.Sleep(time.Duration(50+rand.IntN(250)) * time.Millisecond)
	srv.kill(t)
	close(stop)
	wg.Wait()

	restarted := time.Now()
	srv = c.serve(t, env, "--listen", addr, "--data-dir", dataDir)

	live := map[string]bool{}
	for id, data := range contents {
		status, _ := c.get(t, "/api/assets/"+id)
		if deleted[id] {
			require.Equal(t, http.StatusNotFound, status, "acknowledged deletion of %s", id)
			continue
		}
		if attempted[id] && status == http.StatusNotFound {
			// The server was killed after committing the deletion but
			// before answering: the deletion happened, unacknowledged.
			continue
		}
		require.Equal(t, http.StatusOK, status, "acknowledged upload %s survives", id)
		status, got := c.get(t, "/api/assets/"+id+"/original")
		require.Equal(t, http.StatusOK, status)
		want := sha256.Sum256(data)
		gotSum := sha256.Sum256(got)
		require.Equal(t, base64.StdEncoding.EncodeToString(want[:]), base64.StdEncoding.EncodeToString(gotSum[:]))
		live[id] = true
	}
	// Every listed asset has its file, and every file its asset.
	status, body := c.get(t, "/api/assets?limit=200&state=all")
	require.Equal(t, http.StatusOK, status)
	var page struct{ Data []struct{ ID string } }
	require.NoError(t, json.Unmarshal(body, &page))
	listed := map[string]bool{}
	for _, a := range page.Data {
		listed[a.ID] = true
		status, _ := c.get(t, "/api/assets/"+a.ID+"/original")
		require.Equal(t, http.StatusOK, status, "row %s has its file", a.ID)
	}
	names := servertest.BlobNames(t, dataDir, "originals")
	for _, name := range names {
		require.True(t, listed[name], "file %s has its row", name)
	}
	require.Len(t, names, len(listed))
	// The restarted server's ingest workers write variants through temp
	// files of their own: only those from before the restart must be gone.
	tmp, _ := os.ReadDir(filepath.Join(dataDir, "tmp"))
	for _, e := range tmp {
		if fi, err := e.Info(); err == nil {
			require.True(t, fi.ModTime().After(restarted), "temporary file %s survives a restart", e.Name())
		}
	}
	t.Logf("trial %d: %d acknowledged uploads, %d acknowledged deletions, %d assets after restart",
		trial, len(contents), len(deleted), len(listed))
	srv.stop(t)
}
