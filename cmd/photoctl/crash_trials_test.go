package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// crashTrialsEnv sets how many trials TestCrashTrials runs (default 3, so
// `make test` runs a few; scripts/crash-trials runs 100).
const crashTrialsEnv = "PHOTOCTL_CRASH_TRIALS"

// abandonedTaskError is the error a task requeued after a crash carries
// (tasks.Runner.RequeueAbandoned): such a task is due at once.
const abandonedTaskError = "the worker running it stopped before it finished"

// trialLedger is what the server acknowledged over all trials on one data
// directory: the truth a restarted server must agree with.
type trialLedger struct {
	mu       sync.Mutex
	uploads  map[string][32]byte // acknowledged upload → SHA-256 of its bytes
	deleted  map[string]bool     // acknowledged permanent deletions
	deleting map[string]bool     // deletions sent, acknowledged or not
	trashed  map[string]bool     // acknowledged trashes
	// ratings: the last acknowledged rating of an asset, and those sent
	// since without an answer (the server died, or workers kept sending to
	// the dead server before they stopped): any of them may have committed.
	rated map[string]int
	sent  map[string][]int
	// events the feed must hold: type + " " + resource id.
	events map[string]bool
	// feed is the event ids read after the last restart: the next feed
	// must start with them (committed events are never lost).
	feed []string
}

// TestCrashTrials kills `photoctl serve` with SIGKILL at a random moment
// while uploads, edits (PATCH and bulk), trashes, permanent deletions and
// ingest tasks run, restarts it on the same data directory and checks
// that nothing acknowledged was lost and nothing is left half-done.
func TestCrashTrials(t *testing.T) {
	trials := 3
	if v := os.Getenv(crashTrialsEnv); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, crashTrialsEnv)
		trials = n
	}
	photoctlBinary(t) // built before createUser's 30 s deadline starts
	env := binaryEnv(t, "PHOTOCTL_RATE_LIMIT_ENABLED=false")
	dataDir := t.TempDir()
	createUser(t, env, "--data-dir", dataDir)
	addr := freeAddr(t)
	l := &trialLedger{uploads: map[string][32]byte{}, deleted: map[string]bool{}, deleting: map[string]bool{},
		trashed: map[string]bool{}, rated: map[string]int{}, sent: map[string][]int{}, events: map[string]bool{}}
	var worst time.Duration
	run, failed := 0, 0
	for trial := range trials {
		run++
		ok := t.Run(fmt.Sprintf("trial %d", trial), func(t *testing.T) {
			if d := runCrashTrial(t, env, addr, dataDir, l, trial); d > worst {
				worst = d
			}
		})
		if !ok {
			failed++
			break // the data directory is suspect from here on
		}
	}
	fmt.Printf("crash trials: %d run, %d failed, worst recovery %s (start → healthy), %d acknowledged uploads, %d deletions\n",
		run, failed, worst.Round(time.Millisecond), len(l.uploads), len(l.deleted))
}

// runCrashTrial runs one trial and returns the recovery time.
func runCrashTrial(t *testing.T, env []string, addr, dataDir string, l *trialLedger, trial int) time.Duration {
	srv, c := serveSignedIn(t, env, addr, dataDir)
	if trial == 0 {
		for i := range 10 {
			data := servertest.JPEG(t, 48, 48, i)
			id, ok := c.upload(data, "seed.jpg")
			require.True(t, ok)
			l.ackUpload(id, data)
		}
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(trial), uint64(w)))
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				crashWork(t, c, l, rng, w, trial*100000+w*10000+i)
			}
		}()
	}
	time.Sleep(time.Duration(100+rand.IntN(700)) * time.Millisecond)
	srv.kill(t)
	close(stop)
	wg.Wait()

	restarted := time.Now()
	srv = startServe(t, env, "--listen", addr, "--data-dir", dataDir)
	srv.waitReady(t, c.base)
	recovery := time.Since(restarted)
	c.token = login(t, c.base)
	lib := firstLibrary(t, c)
	checkAssets(t, c, l, dataDir, restarted)
	checkEvents(t, c, l, lib)
	checkTasks(t, c, lib)
	srv.stop(t)
	t.Logf("trial %d: recovery %s, %d acknowledged uploads", trial, recovery, len(l.uploads))
	return recovery
}

// crashWork does one operation of worker w: workers 0 and 1 upload, 2
// rates (PATCH), 3 rates in bulk, 4 trashes and permanently deletes.
func crashWork(t *testing.T, c *crashClient, l *trialLedger, rng *rand.Rand, w, seed int) {
	switch w {
	case 0, 1:
		data := servertest.JPEG(t, 48, 48, seed)
		if id, ok := c.upload(data, "live.jpg"); ok {
			l.ackUpload(id, data)
		}
	case 2, 3:
		id := l.pick(rng, w)
		if id == "" {
			time.Sleep(10 * time.Millisecond)
			return
		}
		rating := rng.IntN(6)
		l.mu.Lock()
		l.sent[id] = append(l.sent[id], rating)
		l.mu.Unlock()
		var status int
		if w == 2 {
			status, _, _ = trialDo(c, "PATCH", "/api/assets/"+id, map[string]any{"rating": rating})
		} else {
			status, _, _ = trialDo(c, "POST", "/api/assets/bulk-update",
				map[string]any{"updates": []map[string]any{{"id": id, "change": map[string]any{"rating": rating}}}})
		}
		if status == http.StatusOK {
			l.mu.Lock()
			l.rated[id] = rating
			delete(l.sent, id)
			l.events["asset.updated "+id] = true
			l.mu.Unlock()
		}
	case 4:
		id := l.pick(rng, w)
		if id == "" {
			time.Sleep(10 * time.Millisecond)
			return
		}
		if status, _, _ := trialDo(c, "POST", "/api/assets/trash", map[string]any{"ids": []string{id}}); status == http.StatusOK {
			l.mu.Lock()
			l.trashed[id] = true
			l.events["asset.trashed "+id] = true
			l.mu.Unlock()
		}
		l.mu.Lock()
		l.deleting[id] = true
		l.mu.Unlock()
		if c.delete(id) {
			l.mu.Lock()
			l.deleted[id] = true
			l.events["asset.deleted "+id] = true
			l.mu.Unlock()
		}
	}
}

func (l *trialLedger) ackUpload(id string, data []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.uploads[id] = sha256.Sum256(data)
	l.events["asset.created "+id] = true
}

// pick returns an acknowledged asset that no deletion was sent for; the
// raters (w 2, 3) and the deleter (w 4) work on disjoint thirds so that a
// rating never races a deletion of the same asset.
func (l *trialLedger) pick(rng *rand.Rand, w int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for id := range l.uploads {
		h := int(id[len(id)-1]) % 3
		if !l.deleting[id] && h == w-2 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	slices.Sort(ids)
	return ids[rng.IntN(len(ids))]
}

// trialDo sends a JSON request and returns the status and body.
func trialDo(c *crashClient, method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// listAll pages through a list endpoint (path ends with its query).
func listAll[T any](t *testing.T, c *crashClient, path string, id func(T) string) []T {
	t.Helper()
	var all []T
	after := ""
	for {
		status, body := c.get(t, path+"&limit=200&starting_after_id="+after)
		require.Equal(t, http.StatusOK, status, "GET %s: %s", path, body)
		var page struct {
			Data    []T  `json:"data"`
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal(body, &page))
		all = append(all, page.Data...)
		if !page.HasMore || len(page.Data) == 0 {
			return all
		}
		after = id(page.Data[len(page.Data)-1])
	}
}

func firstLibrary(t *testing.T, c *crashClient) string {
	status, body := c.get(t, "/api/libraries?limit=1")
	require.Equal(t, http.StatusOK, status)
	var page struct{ Data []struct{ ID string } }
	require.NoError(t, json.Unmarshal(body, &page))
	require.NotEmpty(t, page.Data)
	return page.Data[0].ID
}

// trialAsset is the part of an Asset the checks read.
type trialAsset struct {
	ID        string     `json:"id"`
	TrashedAt *time.Time `json:"trashed_at"`
	Metadata  struct {
		Rating *float64 `json:"rating"`
	} `json:"metadata"`
}

// checkAssets: every acknowledged upload is there with its bytes, every
// acknowledged deletion is gone, ratings and trashes hold, and rows and
// files of originals match one to one.
func checkAssets(t *testing.T, c *crashClient, l *trialLedger, dataDir string, restarted time.Time) {
	rows := map[string]trialAsset{}
	for _, a := range listAll(t, c, "/api/assets?state=all", func(a trialAsset) string { return a.ID }) {
		rows[a.ID] = a
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, sum := range l.uploads {
		a, present := rows[id]
		switch {
		case l.deleted[id]:
			require.False(t, present, "acknowledged deletion of %s", id)
			continue
		case !present && l.deleting[id]:
			l.deleted[id] = true // committed, the answer lost in the crash
			continue
		}
		require.True(t, present, "acknowledged upload %s survives", id)
		status, got := c.get(t, "/api/assets/"+id+"/original")
		require.Equal(t, http.StatusOK, status)
		gotSum := sha256.Sum256(got)
		require.Equal(t, base64.StdEncoding.EncodeToString(sum[:]), base64.StdEncoding.EncodeToString(gotSum[:]), "original of %s", id)
		if l.trashed[id] {
			require.NotNil(t, a.TrashedAt, "acknowledged trash of %s", id)
		}
		if want, ok := l.rated[id]; ok {
			require.NotNil(t, a.Metadata.Rating, "acknowledged rating of %s", id)
			got := int(*a.Metadata.Rating)
			require.True(t, got == want || slices.Contains(l.sent[id], got),
				"rating of %s is %d; acknowledged %d, then sent %v", id, got, want, l.sent[id])
			l.rated[id] = got
		} else if a.Metadata.Rating != nil {
			got := int(*a.Metadata.Rating)
			require.Contains(t, l.sent[id], got, "unacknowledged rating of %s", id)
			l.rated[id] = got
		}
		delete(l.sent, id)
	}
	// Rows and files of originals, one to one.
	for id := range rows {
		_, err := os.Stat(servertest.BlobFile(t, dataDir, "originals/"+id))
		require.NoError(t, err, "row %s has its file", id)
	}
	for _, name := range servertest.BlobNames(t, dataDir, "originals") {
		_, ok := rows[name]
		require.True(t, ok, "file %s has its row", name)
	}
	tmp, _ := os.ReadDir(filepath.Join(dataDir, "tmp"))
	for _, e := range tmp {
		if fi, err := e.Info(); err == nil {
			require.True(t, fi.ModTime().After(restarted), "temporary file %s survives a restart", e.Name())
		}
	}
}

// checkEvents: ids strictly increase, the feed read after the previous
// restart is a prefix of this one, and every acknowledged change has its
// event.
func checkEvents(t *testing.T, c *crashClient, l *trialLedger, lib string) {
	type event struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		ResourceID string `json:"resource_id"`
	}
	evs := listAll(t, c, "/api/events?library_id="+lib, func(e event) string { return e.ID })
	have := make(map[string]bool, len(evs))
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.ID
		if i > 0 {
			require.Greater(t, e.ID, evs[i-1].ID, "event ids strictly increase")
		}
		have[e.Type+" "+e.ResourceID] = true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	require.GreaterOrEqual(t, len(ids), len(l.feed))
	require.True(t, slices.Equal(l.feed, ids[:len(l.feed)]), "committed events survive a crash, in order")
	for want := range l.events {
		if !have[want] {
			var mine []event
			for _, e := range evs {
				if strings.HasSuffix(want, " "+e.ResourceID) {
					mine = append(mine, e)
				}
			}
			t.Fatalf("acknowledged change has its event: %s; the feed has %d events, these of the resource: %+v", want, len(evs), mine)
		}
	}
	l.feed = ids
}

// checkTasks waits until no task is running or due (queued without an
// error, or requeued after the crash): tasks the crash cut short are
// requeued and finish.
func checkTasks(t *testing.T, c *crashClient, lib string) {
	type task struct {
		ID, Kind, State string
		Error           *string
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var stuck []task
		failed := 0
		for _, tk := range listAll(t, c, "/api/tasks?library_id="+lib, func(tk task) string { return tk.ID }) {
			switch {
			case tk.State == "running", tk.State == "queued" && (tk.Error == nil || *tk.Error == abandonedTaskError):
				stuck = append(stuck, tk)
			case tk.State == "failed":
				failed++
			}
		}
		if len(stuck) == 0 {
			if failed > 0 {
				t.Logf("%d failed tasks", failed)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d tasks still running or due 2 minutes after the restart, e.g. %+v", len(stuck), stuck[0])
		}
		time.Sleep(200 * time.Millisecond)
	}
}
