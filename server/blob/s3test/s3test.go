// Package s3test starts an S3-compatible service on a loopback port for
// tests: gofakes3 (the S3 REST API over HTTP, objects kept in memory), so
// the store's S3 code runs through the real client and protocol.
package s3test

import (
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// Service is a running S3-compatible service.
type Service struct {
	// Endpoint is host:port (plain HTTP).
	Endpoint string
	backend  *s3mem.Backend
}

// Start runs a service until the test ends, with the named buckets.
func Start(t testing.TB, buckets ...string) *Service {
	t.Helper()
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			t.Fatalf("create bucket %s: %v", b, err)
		}
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &Service{Endpoint: u.Host, backend: backend}
}
