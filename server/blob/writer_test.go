package blob_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/blob"
	"github.com/photoctl/photoctl/server/catalog"
)

func randomBytes(t testing.TB, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}

func TestRoundTripKeepsBytesAndHashes(t *testing.T) {
	sizes := map[string]int{
		"an empty blob":                 0,
		"a blob shorter than the head":  100,
		"a blob exactly the head":       blob.HeadSize,
		"a blob of several copy chunks": 3<<20 + 17,
	}
	for name, size := range sizes {
		t.Run(name, func(t *testing.T) {
			s, _ := newStore(t)
			data := randomBytes(t, size)
			w, err := s.Create(int64(size) + 1)
			require.NoError(t, err)
			defer w.Abort()
			n, err := w.ReadFrom(bytes.NewReader(data))
			require.NoError(t, err)
			require.Equal(t, int64(size), n)

			want256, want1 := sha256.Sum256(data), sha1.Sum(data)
			require.Equal(t, want256[:], w.SHA256())
			require.Equal(t, want1[:], w.SHA1())
			require.Equal(t, int64(size), w.Size())
			require.Equal(t, data[:min(size, blob.HeadSize)], w.Head())

			tmp, err := os.ReadFile(w.TempPath())
			require.NoError(t, err)
			require.Equal(t, data, tmp, "tools can read the temp file before commit")

			require.NoError(t, w.Commit("originals/asset_1/original"))
			require.NoFileExists(t, w.TempPath())
			require.Equal(t, string(data), read(t, s, "originals/asset_1/original"))
			fi, err := s.Stat("originals/asset_1/original")
			require.NoError(t, err)
			require.Equal(t, int64(size), fi.Size())
			require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
		})
	}
}

func TestHeadIsACopy(t *testing.T) {
	s, _ := newStore(t)
	w, err := s.Create(0)
	require.NoError(t, err)
	defer w.Abort()
	_, err = w.Write([]byte("abc"))
	require.NoError(t, err)
	h := w.Head()
	h[0] = 'X'
	require.Equal(t, []byte("abc"), w.Head())
}

func TestSizeLimit(t *testing.T) {
	const limit = 1000
	cases := []struct {
		name    string
		size    int
		tooBig  bool
		byWrite bool
	}{
		{"exactly the limit through ReadFrom is accepted", limit, false, false},
		{"one byte over through ReadFrom is too large", limit + 1, true, false},
		{"exactly the limit through Write is accepted", limit, false, true},
		{"one byte over through Write is too large", limit + 1, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, root := newStore(t)
			w, err := s.Create(limit)
			require.NoError(t, err)
			defer w.Abort()
			data := randomBytes(t, c.size)
			if c.byWrite {
				_, err = w.Write(data[:limit/2])
				require.NoError(t, err)
				_, err = w.Write(data[limit/2:])
			} else {
				_, err = w.ReadFrom(bytes.NewReader(data))
			}
			if !c.tooBig {
				require.NoError(t, err)
				require.NoError(t, w.Commit("k"))
				return
			}
			require.ErrorIs(t, err, catalog.ErrTooLarge)
			require.LessOrEqual(t, w.Size(), int64(limit))
			_, err = w.Write([]byte("x"))
			require.ErrorIs(t, err, catalog.ErrTooLarge, "the failure sticks")
			require.ErrorIs(t, w.Commit("k"), catalog.ErrTooLarge)
			_, err = s.Stat("k")
			require.ErrorIs(t, err, catalog.ErrNotFound)
			require.Empty(t, entries(t, filepath.Join(root, "tmp")))
		})
	}
}

func TestAbortRemovesTheTempFileAndIsSafeToRepeat(t *testing.T) {
	s, root := newStore(t)
	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = w.Write([]byte("data"))
	require.NoError(t, err)
	require.FileExists(t, w.TempPath())

	require.NoError(t, w.Abort())
	require.NoFileExists(t, w.TempPath())
	require.NoError(t, w.Abort())
	require.Error(t, w.Commit("k"), "an aborted writer cannot commit")
	_, err = w.Write([]byte("x"))
	require.Error(t, err)
	require.Empty(t, entries(t, filepath.Join(root, "tmp")))
}

func TestAbortAfterCommitKeepsTheBlob(t *testing.T) {
	s, _ := newStore(t)
	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = w.Write([]byte("data"))
	require.NoError(t, err)
	require.NoError(t, w.Commit("k"))
	require.NoError(t, w.Abort())
	require.Error(t, w.Commit("k"), "committing twice is a bug")
	require.Equal(t, "data", read(t, s, "k"))
}

// TestFullDiskIsInsufficientStorage mounts a 1 MiB tmpfs (root only) and
// writes past its end.
func TestFullDiskIsInsufficientStorage(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if exec.Command("umount", dir).Run() != nil {
			_ = exec.Command("umount", "-l", dir).Run() // something still holds it open
		}
	})
	s, err := blob.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })

	w, err := s.Create(0)
	require.NoError(t, err)
	_, err = w.ReadFrom(io.LimitReader(rand.Reader, 4<<20))
	require.ErrorIs(t, err, catalog.ErrInsufficient)
	require.ErrorIs(t, w.Commit("k"), catalog.ErrInsufficient)
	require.Empty(t, entries(t, filepath.Join(dir, "tmp")), "the partial upload is gone")

	require.ErrorIs(t, s.Put("k", io.LimitReader(rand.Reader, 4<<20)), catalog.ErrInsufficient)
	put(t, s, "small", "fits once the failed upload is gone")
}

// truncated yields some bytes, then reports the stream as cut off.
type truncated struct{ left int }

func (t *truncated) Read(p []byte) (int, error) {
	if t.left == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := min(len(p), t.left)
	t.left -= n
	return n, nil
}

func TestReadFromReportsATruncatedSource(t *testing.T) {
	s, _ := newStore(t)
	w, err := s.Create(0)
	require.NoError(t, err)
	defer w.Abort()
	_, err = w.ReadFrom(&truncated{left: 1000})
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "a cut-off source is an error, not the end of the blob")
}
