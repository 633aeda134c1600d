package servertest

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// UploadWithSidecar uploads data named name with an XMP sidecar part, and
// returns the response.
func (s *Server) UploadWithSidecar(token, name string, data, sidecar []byte) *Response {
	s.T.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	require.NoError(s.T, err)
	_, err = fw.Write(data)
	require.NoError(s.T, err)
	sw, err := mw.CreateFormFile("sidecar", name+".xmp")
	require.NoError(s.T, err)
	_, err = sw.Write(sidecar)
	require.NoError(s.T, err)
	require.NoError(s.T, mw.Close())
	req, err := http.NewRequest("POST", s.URL+"/api/assets", &body)
	require.NoError(s.T, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.http.Do(req)
	require.NoError(s.T, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(s.T, err)
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: out}
}

// WaitForTasks polls GET /api/tasks?asset_id= until none of the asset's
// tasks is queued or running — the ingest chain enqueues each next step in
// the transaction that finishes the one before, so that is the chain's
// end — and returns them all. It gives up after timeout, failing the test:
// the limit only bounds a hung pipeline, the outcome never depends on it.
func (s *Server) WaitForTasks(token, assetID string, timeout time.Duration) []api.Task {
	s.T.Helper()
	deadline := time.Now().Add(timeout)
	for {
		list := List[api.Task](s, token, "/api/tasks?limit=200&asset_id="+url.QueryEscape(assetID))
		busy := len(list) == 0 // the upload's task is visible at once; none yet means not committed
		for _, t := range list {
			busy = busy || t.State == "queued" || t.State == "running"
		}
		if !busy {
			return list
		}
		if time.Now().After(deadline) {
			require.FailNow(s.T, "tasks still pending", "asset %s after %s: %+v", assetID, timeout, list)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
