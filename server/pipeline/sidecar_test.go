package pipeline_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/servertest"
)

func TestUploadRefusesASidecarThatIsNotXMP(t *testing.T) {
	servertest.SkipStoreNeutralOnPostgres(t, "sniffing a sidecar")
	s := servertest.Start(t, servertest.WithPipeline)
	_, session := s.Session()
	jpeg := servertest.JPEG(t, 64, 48, 1)

	r := s.UploadWithSidecar(session, "a.jpg", jpeg, []byte("PK\x03\x04 not xml at all"))
	require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s", r.Body)
	require.Contains(t, string(r.Body), `"sidecar"`)

	big := append([]byte("<?xpacket begin=''?>"), bytes.Repeat([]byte(" "), assets.MaxSidecarBytes)...)
	r = s.UploadWithSidecar(session, "a.jpg", jpeg, big)
	require.Equal(t, http.StatusRequestEntityTooLarge, r.Status, "%s", r.Body)

	// Nothing of the refused uploads is stored: the same bytes are new.
	r = s.UploadWithSidecar(session, "a.jpg", jpeg, []byte("\xef\xbb\xbf\n  <x:xmpmeta xmlns:x='adobe:ns:meta/'/>"))
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	require.True(t, strings.HasPrefix(r.Map(t)["id"].(string), "asset_"))
}

func TestAnOrphanSidecarIsSwept(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	kept := e.upload(halves(t, 64, 48), writeXMP(t), assets.UploadInput{})
	orphan := assets.SidecarKey("asset_01jd0000000000000000000000")
	require.NoError(t, e.blobs.Put(orphan, strings.NewReader("<x:xmpmeta/>")))

	n, err := e.assets.SweepOrphans(e.ctx, 0)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.False(t, e.hasBlob(orphan), "a sidecar whose row never committed is removed")
	require.True(t, e.hasBlob(assets.SidecarKey(kept.ID)))
}

// The sweep looks originals up a batch at a time: across more orphans than
// one batch, next to live files, it removes exactly the orphans.
func TestSweepRemovesOrphansAcrossBatchesAndKeepsLiveFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.upload(halves(t, 64, 48), "", assets.UploadInput{})
	var orphans []string
	for i := range 1200 {
		key := catalog.OriginalKey(fmt.Sprintf("asset_01jd%022d", i))
		require.NoError(t, e.blobs.Put(key, strings.NewReader("partial")))
		orphans = append(orphans, key)
	}
	last := e.upload(halves(t, 48, 64), "", assets.UploadInput{})

	n, err := e.assets.SweepOrphans(e.ctx, 0)
	require.NoError(t, err)
	require.Equal(t, len(orphans), n)
	for _, key := range orphans {
		require.False(t, e.hasBlob(key), key)
	}
	require.True(t, e.hasBlob(catalog.OriginalKey(first.ID)))
	require.True(t, e.hasBlob(catalog.OriginalKey(last.ID)))
	n, err = e.assets.SweepOrphans(e.ctx, 0)
	require.NoError(t, err)
	require.Zero(t, n)
}

// writeXMP writes a minimal XMP sidecar and returns its path.
func writeXMP(t *testing.T) string {
	t.Helper()
	path := t.TempDir() + "/photo.xmp"
	writeFile(t, path, []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="3"/></rdf:RDF></x:xmpmeta>`))
	return path
}
