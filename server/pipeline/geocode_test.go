package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
)

func TestGeocodeFollowsThePositionAndClearsAtNullIsland(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := halves(t, 64, 48)
	tag(t, path, "-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E")
	a := e.ingest(e.upload(path, "", assets.UploadInput{}).ID)
	require.Equal(t, ptr("Paris, France"), a.Merged().DisplayLabel)

	move := func(lat, lon *float64) *catalog.Asset {
		t.Helper()
		_, err := e.assets.Patch(e.ctx, e.user, a.ID, assets.Change{
			Latitude: catalog.Patch[float64]{Set: true, Value: lat}, Longitude: catalog.Patch[float64]{Set: true, Value: lon}})
		require.NoError(t, err)
		require.NoError(t, e.p.Geocode(e.ctx, a.ID))
		return e.get(a.ID)
	}
	a = move(ptr(35.6586), ptr(139.7454))
	requireLayer(t, catalog.Metadata{Country: ptr("Japan"), CountryCode: ptr("JP"), State: ptr("Tokyo"),
		City: ptr("Tokyo"), PlaceName: ptr("Tokyo"), DisplayLabel: ptr("Tokyo, Japan")}, a.GeoMeta)

	a = move(ptr(0.0), ptr(0.0))
	require.Equal(t, catalog.Metadata{}, a.GeoMeta, "Null Island is at sea: no place")
	m := a.Merged()
	require.Nil(t, m.Country)
	require.Nil(t, m.DisplayLabel)
	require.Equal(t, ptr(0.0), m.Latitude, "the position itself stays")

	a = move(nil, nil)
	require.Equal(t, ptr("Paris"), a.Merged().City, "without the user's position, the file's counts again")
}

func TestGeocodeWithoutAPositionClearsTheLayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.upload(halves(t, 64, 48), "", assets.UploadInput{})
	require.NoError(t, e.p.Metadata(e.ctx, a.ID))
	require.NoError(t, e.p.Geocode(e.ctx, a.ID))
	require.Equal(t, catalog.Metadata{}, e.get(a.ID).GeoMeta)
	require.Empty(t, e.events(a, "asset.updated")[1:], "nothing to clear, nothing written")
}
