package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"

	"github.com/photoctl/photoctl/server/servertest"
)

// requireLayer compares a metadata layer field by field, floats to within
// 1e-6 (exiftool stores GPS as degree/minute/second rationals).
func requireLayer(t *testing.T, want, got catalog.Metadata) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
		t.Fatalf("metadata (-want +got):\n%s", diff)
	}
}

func TestMetadataOfATaggedCameraJPEGFillsEveryField(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "reading EXIF")
	e := newEnv(t)
	path := halves(t, 640, 480)
	tag(t, path, "-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-105mm F4 L IS USM",
		"-FNumber=4", "-FocalLength=35", "-ISO=400", "-ExposureTime=1/250", "-ExposureCompensation=-0.7",
		"-DateTimeOriginal=2024:05:01 10:00:00", "-SubSecTimeOriginal=25", "-OffsetTimeOriginal=+02:00",
		"-CreateDate=2024:05:01 10:00:00", "-ModifyDate=2024:05:02 09:00:00",
		"-Orientation#=6", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945",
		"-GPSLongitudeRef=E", "-GPSAltitude=35", "-GPSAltitudeRef=0",
		"-ImageDescription=Eiffel tower at dawn", "-XMP:Rating=4",
		"-XMP-GPano:ProjectionType=equirectangular")
	a := e.upload(path, "", assets.UploadInput{})
	require.Nil(t, a.Width, "nothing is known of the file before the pipeline runs")

	a = e.ingest(a.ID)

	requireLayer(t, catalog.Metadata{
		Make: ptr("Canon"), Model: ptr("Canon EOS R5"), LensModel: ptr("RF24-105mm F4 L IS USM"),
		Orientation: ptr(6.0), FNumber: ptr(4.0), FocalLength: ptr(35.0), ISO: ptr(400.0),
		ExposureTime: ptr(0.004), ExposureBias: ptr(-0.7),
		OriginalDatetime:  ptr("2024-05-01T10:00:00.25+02:00"),
		DigitizedDatetime: ptr("2024-05-01T10:00:00+02:00"),
		ModifiedDatetime:  ptr("2024-05-02T09:00:00+02:00"),
		Latitude:          ptr(48.8584), Longitude: ptr(2.2945), Altitude: ptr(35.0),
		Timezone: ptr("Europe/Paris"), Description: ptr("Eiffel tower at dawn"), Rating: ptr(4.0),
		ProjectionType: ptr("equirectangular"), CaptureSource: ptr("DateTimeOriginal"),
	}, a.FileMeta)
	requireLayer(t, catalog.Metadata{Country: ptr("France"), CountryCode: ptr("FR"), State: ptr("Paris"),
		City: ptr("Paris"), PlaceName: ptr("Paris"), DisplayLabel: ptr("Paris, France")}, a.GeoMeta)
	require.Equal(t, catalog.Metadata{}, a.UserMeta)

	require.Equal(t, "2024-05-01T10:00:00.25+02:00", a.Capture.String())
	require.Equal(t, time.Date(2024, 5, 1, 8, 0, 0, 250e6, time.UTC), a.Capture.Instant())
	require.Equal(t, [2]int{480, 640}, [2]int{*a.Width, *a.Height}, "stored 640×480, displayed turned a quarter")

	_, thumb := e.variant(a.ID, "thumbnail")
	require.Equal(t, [2]int{188, 250}, size(thumb))
	require.True(t, reddish(pixel(thumb, 94, 10)), "the stored left half (red) is on top after orientation 6: %v", pixel(thumb, 94, 10))
	require.True(t, bluish(pixel(thumb, 94, 240)), "and the right half (blue) at the bottom")
	_, preview := e.variant(a.ID, "preview")
	require.Equal(t, [2]int{480, 640}, size(preview), "a preview is never enlarged")
	require.False(t, e.hasBlob(assets.VariantKey(a.ID, "fullsize", ".webp")), "a JPEG is its own fullsize")

	updates := e.events(a, "asset.updated")
	require.Equal(t, []map[string]any{
		{"step": "metadata", "fields": []any{"height", "local_datetime", "metadata", "width"}},
		// variants: libvips agrees on the size, so only the metrics changed
		{"step": "variants", "fields": []any{"metrics"}},
		{"step": "geocode", "fields": []any{"metadata"}},
	}, updates, "one event per step that changed something")
}

func TestMetadataDerivesTheOffsetFromTheGPSTimeZone(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "the offset from the GPS time zone")
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-DateTimeOriginal=2024:07:01 18:30:00", "-GPSLatitude=35.6586", "-GPSLatitudeRef=N",
		"-GPSLongitude=139.7454", "-GPSLongitudeRef=E", "-Orientation#=8")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)

	require.Equal(t, "2024-07-01T18:30:00+09:00", a.Capture.String(), "no offset recorded: Tokyo's")
	require.Equal(t, ptr("Asia/Tokyo"), a.FileMeta.Timezone)
	require.Equal(t, ptr("Tokyo, Japan"), a.Merged().DisplayLabel)
	require.Equal(t, ptr("JP"), a.Merged().CountryCode)
	require.Equal(t, [2]int{48, 64}, [2]int{*a.Width, *a.Height})
	_, thumb := e.variant(a.ID, "thumbnail")
	require.Equal(t, [2]int{48, 64}, size(thumb))
	require.True(t, bluish(pixel(thumb, 24, 5)), "orientation 8 puts the stored right half (blue) on top: %v", pixel(thumb, 24, 5))
	require.True(t, reddish(pixel(thumb, 24, 58)))
}

func TestMetadataWithoutACaptureTimeKeepsTheUploadsFileCreatedAt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	created := time.Date(2023, 12, 24, 19, 0, 0, 0, time.FixedZone("", -5*3600))
	a := e.upload(halves(t, 64, 48), "", assets.UploadInput{FileCreatedAt: &created})
	a = e.ingest(a.ID)
	require.Equal(t, "2023-12-24T19:00:00-05:00", a.Capture.String())
	require.Equal(t, ptr("2023-12-24T19:00:00-05:00"), a.FileMeta.OriginalDatetime,
		"original_datetime shows the capture time chosen")
	require.Nil(t, a.FileMeta.Make)
	require.Equal(t, catalog.Metadata{}, a.GeoMeta, "no position, no place")
}

func TestMetadataReadsTheXMPSidecarUploadedWithTheFile(t *testing.T) {
	t.Parallel()
	servertest.SkipStoreNeutralOnPostgres(t, "reading an XMP sidecar")
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-Make=Nikon", "-XMP:Rating=1", "-DateTimeOriginal=2020:01:01 00:00:00")
	sidecar := filepath.Join(t.TempDir(), "photo.xmp")
	require.NoError(t, os.WriteFile(sidecar, []byte(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmp:Rating="5"
    exif:DateTimeOriginal="2021-06-15T12:00:00+01:00"
    exif:GPSLatitude="35,39.516N"
    exif:GPSLongitude="139,44.724E">
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Edited in darktable</rdf:li></rdf:Alt></dc:description>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`), 0o644))

	a := e.upload(path, sidecar, assets.UploadInput{})
	require.True(t, e.hasBlob(assets.SidecarKey(a.ID)), "the sidecar is stored with the asset")
	a = e.ingest(a.ID)

	require.Equal(t, ptr("Nikon"), a.FileMeta.Make, "what the sidecar does not say comes from the file")
	require.Equal(t, ptr(5.0), a.FileMeta.Rating, "the sidecar wins")
	require.Equal(t, ptr("Edited in darktable"), a.FileMeta.Description)
	require.Equal(t, "2021-06-15T12:00:00+01:00", a.Capture.String())
	require.InDelta(t, 35.6586, *a.FileMeta.Latitude, 1e-4)
	require.Equal(t, ptr("Tokyo"), a.Merged().City)

	_, err := e.assets.Delete(e.ctx, e.user, []string{a.ID})
	require.NoError(t, err)
	require.False(t, e.hasBlob(assets.SidecarKey(a.ID)), "deleted with the asset")
}

func TestAUserEditSurvivesAMetadataRerun(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-DateTimeOriginal=2024:05:01 10:00:00", "-OffsetTimeOriginal=+02:00", "-XMP:Rating=2",
		"-ImageDescription=from the camera", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
		"-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)

	_, err := e.assets.Patch(e.ctx, e.user, a.ID, assets.Change{
		Description:      catalog.Patch[string]{Set: true, Value: ptr("mine")},
		Rating:           catalog.Patch[int]{Set: true, Value: ptr(5)},
		OriginalDatetime: catalog.Patch[string]{Set: true, Value: ptr("2000-01-01T00:00:00Z")},
		Latitude:         catalog.Patch[float64]{Set: true, Value: ptr(35.6586)},
		Longitude:        catalog.Patch[float64]{Set: true, Value: ptr(139.7454)},
	})
	require.NoError(t, err)
	require.NoError(t, e.p.Metadata(e.ctx, a.ID))
	require.NoError(t, e.p.Geocode(e.ctx, a.ID))
	a = e.get(a.ID)

	m := a.Merged()
	require.Equal(t, ptr("mine"), m.Description)
	require.Equal(t, ptr(5.0), m.Rating)
	require.Equal(t, "2000-01-01T00:00:00Z", a.Capture.String(), "the user's capture time stays")
	require.Equal(t, ptr("Tokyo"), m.City, "the place follows the user's position")
	require.Equal(t, ptr("from the camera"), a.FileMeta.Description, "the file layer is still the file's")

	// Clearing the edit brings the file's values back.
	_, err = e.assets.Patch(e.ctx, e.user, a.ID, assets.Change{
		OriginalDatetime: catalog.Patch[string]{Set: true},
		Latitude:         catalog.Patch[float64]{Set: true}, Longitude: catalog.Patch[float64]{Set: true},
	})
	require.NoError(t, err)
	require.NoError(t, e.p.Geocode(e.ctx, a.ID))
	a = e.get(a.ID)
	require.Equal(t, "2024-05-01T10:00:00+02:00", a.Capture.String())
	require.Equal(t, ptr("Paris"), a.Merged().City)
}

func TestEveryStepIsIdempotent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := halves(t, 300, 200)
	tag(t, path, "-DateTimeOriginal=2024:05:01 10:00:00", "-GPSLatitude=48.8584", "-GPSLatitudeRef=N",
		"-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)
	before := len(e.events(a, "asset.updated"))
	thumb, _ := e.variant(a.ID, "thumbnail")

	again := e.ingest(a.ID)
	require.Len(t, e.events(a, "asset.updated"), before, "a re-run that changes nothing writes nothing")
	require.Equal(t, a.UpdatedAt, again.UpdatedAt)
	require.Equal(t, a.Metrics, again.Metrics)
	thumb2, _ := e.variant(a.ID, "thumbnail")
	require.Equal(t, thumb, thumb2, "the same original renders the same bytes")
}
