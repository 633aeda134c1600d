package immich_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

func TestParseChecksum(t *testing.T) {
	want := []byte{0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e, 0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d}
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"lowercase hex from the CLI", "a9993e364706816aba3e25717850c26c9cd0d89d", true},
		{"uppercase hex", "A9993E364706816ABA3E25717850C26C9CD0D89D", true},
		{"base64 from immich-go", "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=", true},
		{"hex of the wrong length", "a9993e36", false},
		{"28 characters that are not base64", "!!!!!!!!!!!!!!!!!!!!!!!!!!!!", false},
		{"base64 of a SHA-256", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=", false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := immich.ParseChecksum(tt.in)
			if !tt.ok {
				require.ErrorIs(t, err, immich.ErrChecksum)
				return
			}
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Equal(t, "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=", immich.FormatChecksum(got))
		})
	}
}

func TestPermissions(t *testing.T) {
	key := func(actions ...catalog.Action) *catalog.Principal {
		return &catalog.Principal{Kind: catalog.CredAPIKey, Scope: &catalog.Scope{Actions: actions}}
	}
	require.Equal(t, []string{"all"}, immich.Permissions(&catalog.Principal{Kind: catalog.CredSession}))
	require.Equal(t, []string{"all"}, immich.Permissions(key(catalog.ActionAll)))
	require.Equal(t, []string{"server.about"}, immich.Permissions(key(catalog.ActionSearch, catalog.ActionEventRead)))
	require.Equal(t, []string{"asset.delete", "server.about"}, immich.Permissions(key(catalog.ActionAssetTrash,
		catalog.ActionAssetDelete)), "permissions are listed once")
	require.Equal(t, "asset.upload", immich.Permission(catalog.ActionAssetUpload))
	require.Equal(t, "albumAsset.create", immich.Permission(catalog.ActionAlbumWrite))
	require.Equal(t, "", immich.Permission(catalog.ActionSearch))
}

func TestPageNumberReadsNumbersAndDigitStrings(t *testing.T) {
	for in, want := range map[string]int64{`1`: 1, `"42"`: 42, `7`: 7} {
		var p immich.PageNumber
		require.NoError(t, json.Unmarshal([]byte(in), &p), in)
		require.Equal(t, want, int64(p))
	}
	for _, in := range []string{`"x"`, `1.5`, `true`, `"4a"`} {
		var p immich.PageNumber
		require.Error(t, json.Unmarshal([]byte(in), &p), in)
	}
}

func TestTimeIsImmichsFormat(t *testing.T) {
	paris := time.FixedZone("CEST", 2*3600)
	require.Equal(t, "2024-05-01T08:00:00.123Z", immich.Time(time.Date(2024, 5, 1, 10, 0, 0, 123456789, paris)))
	require.Nil(t, immich.OptionalTime(nil))
	require.Nil(t, immich.OptionalTime(&time.Time{}))
}

func TestToAssetShowsTheCallerAsOwner(t *testing.T) {
	rating, lat := 4.0, 48.85
	off := 7200
	a := &catalog.Asset{ID: "asset_1", MediaType: catalog.MediaVideo, OriginalFileName: "clip.mp4",
		ChecksumSHA1: []byte("01234567890123456789"), OriginalSize: 99,
		Capture: catalog.CaptureTime{Wall: time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), Offset: &off}}
	a.UserMeta.Rating, a.FileMeta.Latitude = &rating, &lat
	got := immich.ToAsset(a, "intuser_me")
	require.Equal(t, "intuser_me", got.OwnerID)
	require.Equal(t, "VIDEO", got.Type)
	require.Nil(t, got.LibraryID)
	require.Equal(t, "MDEyMzQ1Njc4OTAxMjM0NTY3ODk=", got.Checksum)
	require.Equal(t, "2024-05-01T10:00:00.000Z", got.LocalDateTime)
	require.Equal(t, "2024-05-01T08:00:00.000+00:00", *got.ExifInfo.DateTimeOriginal, "immich-go reads no Z here")
	require.Equal(t, 4, *got.Rating)
	require.Equal(t, 48.85, *got.ExifInfo.Latitude)
	require.Equal(t, int64(99), got.ExifInfo.FileSizeInByte)
}
