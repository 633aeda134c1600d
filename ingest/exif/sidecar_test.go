package exif_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/ingest/exif"
)

func TestReadLetsAnXMPSidecarOverrideTheFile(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	img := photo(t, eiffel...)
	sidecar := filepath.Join(t.TempDir(), "photo.jpg.xmp")
	run(t, exec.CommandContext(t.Context(), "exiftool", "-q", "-o", sidecar,
		"-XMP:Rating=5", "-XMP:Description=Sunset from the Trocadéro",
		"-XMP:DateTimeOriginal=2024:05:01 21:15:00+02:00"))

	got, err := p.Read(t.Context(), img, sidecar)
	require.NoError(t, err)

	require.Equal(t, ptr(5.0), got.Rating)
	require.Equal(t, ptr("Sunset from the Trocadéro"), got.Description)
	require.Equal(t, ptr("2024-05-01T21:15:00+02:00"), got.OriginalDatetime)
	require.Equal(t, &exif.Capture{Wall: utc(2024, 5, 1, 21, 15, 0, 0), Offset: ptr(7200),
		Source: "DateTimeOriginal", OffsetSource: "DateTimeOriginal"}, got.Capture)
	// What the sidecar does not say, and the file's own facts, stay.
	require.Equal(t, ptr("Canon"), got.Make)
	require.Equal(t, ptr("image/jpeg"), got.MIMEType)
	require.Equal(t, ptr(48), got.Width)
	require.Equal(t, ptr("Europe/Paris"), got.Timezone)
}

// A sidecar as darktable or digiKam writes it: attributes, not elements.
const handWrittenXMP = `<?xml version="1.0" encoding="UTF-8"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmp:Rating="2"
    exif:GPSLatitude="35,41.37N"
    exif:GPSLongitude="139,41.502E">
   <dc:description xmlns:dc="http://purl.org/dc/elements/1.1/">
    <rdf:Alt><rdf:li xml:lang="x-default">Shinjuku at night</rdf:li></rdf:Alt>
   </dc:description>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
`

func TestReadAHandWrittenSidecar(t *testing.T) {
	t.Parallel()
	p := newPool(t, exif.Config{})
	img := photo(t, "-Rating=1", "-DateTimeOriginal=2024:05:01 22:00:00")
	sidecar := filepath.Join(t.TempDir(), "photo.xmp")
	require.NoError(t, os.WriteFile(sidecar, []byte(handWrittenXMP), 0o644))

	got, err := p.Read(t.Context(), img, sidecar)
	require.NoError(t, err)
	require.Equal(t, ptr(2.0), got.Rating)
	require.Equal(t, ptr("Shinjuku at night"), got.Description)
	require.InDelta(t, 35.6895, *got.Latitude, 1e-4)
	require.InDelta(t, 139.6917, *got.Longitude, 1e-4)
	require.Equal(t, ptr("2024-05-01T22:00:00+09:00"), got.OriginalDatetime, "the sidecar's position gives the zone")
	require.Equal(t, ptr("Asia/Tokyo"), got.Timezone)
}
