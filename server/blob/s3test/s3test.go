// Package s3test starts an S3-compatible service on a loopback port for
// tests: gofakes3 (the S3 REST API over HTTP, objects kept in memory), so
// the store's S3 code runs through the real client and protocol.
package s3test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/photoctl/photoctl/server/blob"
)

// Service is a running S3-compatible service.
type Service struct {
	// Endpoint is host:port (plain HTTP).
	Endpoint string
	srv      *httptest.Server
	mu       sync.Mutex
	requests []string // "METHOD path" of each request of an object
}

// Reads counts the GET requests of objects whose path contains part.
func (s *Service) Reads(part string) int { return s.count(http.MethodGet+" ", part) }

// Requests counts the requests of any method (GET, HEAD, PUT, DELETE...)
// of objects whose path contains part.
func (s *Service) Requests(part string) int { return s.count("", part) }

func (s *Service) count(method, part string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.requests {
		if strings.HasPrefix(r, method) && strings.Contains(r[strings.IndexByte(r, ' '):], part) {
			n++
		}
	}
	return n
}

// Stop makes the service unreachable (an outage), before the test ends.
func (s *Service) Stop() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Start runs a service until the test ends, with the named buckets.
func Start(t testing.TB, buckets ...string) *Service {
	t.Helper()
	svc, err := New(buckets...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.srv.Close)
	return svc
}

// New runs a service with the named buckets until Close: in a process of
// its own, say, so that a benchmark measures its client's memory alone.
func New(buckets ...string) (*Service, error) {
	backend := s3mem.New()
	for _, b := range buckets {
		if err := backend.CreateBucket(b); err != nil {
			return nil, fmt.Errorf("create bucket %s: %w", b, err)
		}
	}
	svc := &Service{}
	fake := decodeStreamedParts(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	svc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Count(strings.Trim(r.URL.Path, "/"), "/") > 0 { // an object, not a bucket
			svc.mu.Lock()
			svc.requests = append(svc.requests, r.Method+" "+r.URL.Path)
			svc.mu.Unlock()
		}
		fake.ServeHTTP(w, r)
	}))
	u, err := url.Parse(svc.srv.URL)
	if err != nil {
		svc.srv.Close()
		return nil, err
	}
	svc.Endpoint = u.Host
	return svc, nil
}

// Close stops the service.
func (s *Service) Close() { s.srv.Close() }

// Config is how a store reaches bucket (under prefix) of the service.
func (s *Service) Config(bucket, prefix string) blob.S3Config {
	return blob.S3Config{Endpoint: s.Endpoint, Bucket: bucket, Prefix: prefix, Region: "us-east-1",
		AccessKeyID: "photoctl", SecretAccessKey: "photoctl-secret", Insecure: true}
}

// streamingPayload is the X-Amz-Content-Sha256 of a body sent in
// aws-chunked encoding with a signature per chunk, which minio-go uses for
// uploads over plain HTTP.
const streamingPayload = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"

// decodeStreamedParts decodes the aws-chunked body of a multipart upload's
// part before gofakes3 sees it: gofakes3 v1.2.0 decodes it for a plain PUT
// but stores a part with its chunk framing (a 64 MiB object read back 92
// KB too long), where real services decode both.
func decodeStreamedParts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Method == http.MethodPut && q.Has("partNumber") && q.Has("uploadId") &&
			r.Header.Get("X-Amz-Content-Sha256") == streamingPayload {
			n, err := strconv.ParseInt(r.Header.Get("X-Amz-Decoded-Content-Length"), 10, 64)
			if err != nil {
				http.Error(w, "missing X-Amz-Decoded-Content-Length", http.StatusBadRequest)
				return
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{&chunked{r: bufio.NewReader(r.Body)}, r.Body}
			r.ContentLength = n
			r.Header.Set("Content-Length", strconv.FormatInt(n, 10))
			r.Header.Set("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD")
		}
		next.ServeHTTP(w, r)
	})
}

// chunked reads the data of an aws-chunked body: chunks of
// "<hex size>;chunk-signature=<sig>\r\n<data>\r\n", ending with a chunk of
// size 0 (the signatures are not checked).
type chunked struct {
	r      *bufio.Reader
	remain int64
	done   bool
}

func (c *chunked) Read(p []byte) (int, error) {
	for c.remain == 0 {
		if c.done {
			return 0, io.EOF
		}
		line, err := c.r.ReadString('\n')
		if err != nil {
			return 0, fmt.Errorf("aws-chunked header: %w", err)
		}
		size, _, _ := strings.Cut(strings.TrimSpace(line), ";")
		n, err := strconv.ParseInt(size, 16, 64)
		if err != nil {
			return 0, fmt.Errorf("aws-chunked size %q: %w", size, err)
		}
		if n == 0 {
			c.done = true
			return 0, io.EOF
		}
		c.remain = n
	}
	n, err := c.r.Read(p[:min(int64(len(p)), c.remain)])
	c.remain -= int64(n)
	if c.remain == 0 && err == nil {
		_, err = c.r.Discard(2) // the chunk's trailing CRLF
	}
	return n, err
}

// processEnv, set, names the buckets of a service the test binary runs
// as a process of StartProcess's.
const processEnv = "PHOTOCTL_S3TEST_PROCESS"

// StartProcess runs a service with the named buckets in a process of its
// own until the test ends, so that a benchmark's heap is its client's
// alone: the test binary again, whose TestMain must call ServeProcess
// first. Only Endpoint and Config work on what it returns.
func StartProcess(t testing.TB, buckets ...string) *Service {
	t.Helper()
	endpoint, err := startProcess(t, buckets)
	if err != nil {
		t.Fatalf("start an S3 service process: %v", err)
	}
	return &Service{Endpoint: endpoint}
}

// startProcess starts the test binary as ServeProcess, stopped when t
// ends, and returns the host:port it prints.
func startProcess(t testing.TB, buckets []string) (string, error) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), processEnv+"="+strings.Join(buckets, ","))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
	endpoint, err := bufio.NewReader(stdout).ReadString('\n')
	return strings.TrimSpace(endpoint), err
}

// ServeProcess is for TestMain: in a process StartProcess started, it
// serves until the standard input closes and returns true (the process
// should then exit); in any other it returns false at once.
func ServeProcess() bool {
	buckets, ok := os.LookupEnv(processEnv)
	if !ok {
		return false
	}
	svc, err := New(strings.Split(buckets, ",")...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer svc.Close()
	fmt.Println(svc.Endpoint)
	_, _ = io.Copy(io.Discard, os.Stdin)
	return true
}
