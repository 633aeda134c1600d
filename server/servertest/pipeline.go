package servertest

import (
	"mime/multipart"
	"net/url"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
)

// UploadWithSidecar uploads data named name with an XMP sidecar part, and
// returns the response.
func (s *Server) UploadWithSidecar(token, name string, data, sidecar []byte) *Response {
	s.T.Helper()
	return s.Multipart("POST", "/api/assets", token, func(mw *multipart.Writer) {
		s.writeFile(mw, "file", name, data)
		s.writeFile(mw, "sidecar", name+".xmp", sidecar)
	})
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
