package immich

import (
	"math"
	"strconv"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// Visibility is the only Immich visibility photoctl assets have: nothing
// is archived, hidden or locked.
const Visibility = "timeline"

// zeroDuration is Immich's duration of a photo (and of videos here: the
// layer does not report durations).
const zeroDuration = "0:00:00.00000"

// ToUser converts an account; Immich clients read id, email and name.
func ToUser(u *catalog.User) User {
	name := u.DisplayName()
	if name == "" {
		name = u.Email
	}
	return User{ID: u.ID, Email: u.Email, Name: name, AvatarColor: "primary", ProfileChangedAt: Time(u.UpdatedAt),
		IsAdmin: u.IsSuperuser, Status: "active", QuotaSizeInBytes: u.QuotaBytes,
		CreatedAt: OptionalTime(&u.CreatedAt), UpdatedAt: OptionalTime(&u.UpdatedAt)}
}

// ToAsset converts an asset. ownerID is the caller's id: Immich clients
// take the assets whose ownerId is their own as theirs, and every asset of
// the layer's library is the caller's to them.
func ToAsset(a *catalog.Asset, ownerID string) Asset {
	m := a.Merged()
	typ := "IMAGE"
	if a.MediaType == catalog.MediaVideo {
		typ = "VIDEO"
	}
	rating := intOf(m.Rating)
	checksum := ""
	if len(a.ChecksumSHA1) > 0 {
		checksum = FormatChecksum(a.ChecksumSHA1)
	}
	captured := ExifTime(a.Capture.Instant())
	return Asset{
		ID: a.ID, DeviceAssetID: a.DeviceAssetID, DeviceID: a.DeviceID, OwnerID: ownerID, Type: typ,
		OriginalPath: "upload/" + a.ID, OriginalFileName: a.OriginalFileName, OriginalMimeType: a.MIMEType,
		FileCreatedAt: Time(a.FileCreatedAt), FileModifiedAt: Time(a.FileModifiedAt),
		LocalDateTime: Time(a.Capture.Wall), CreatedAt: Time(a.CreatedAt), UpdatedAt: Time(a.UpdatedAt),
		IsTrashed: a.TrashedAt != nil, Visibility: Visibility, Duration: zeroDuration, Checksum: checksum,
		Rating: rating, HasMetadata: true, Resized: a.MediaType == catalog.MediaImage,
		Tags: []Tag{}, People: []any{},
		ExifInfo: &ExifInfo{
			Make: m.Make, Model: m.Model, ExifImageWidth: a.Width, ExifImageHeight: a.Height,
			FileSizeInByte: a.OriginalSize, Orientation: orientation(m.Orientation), DateTimeOriginal: &captured,
			TimeZone: m.Timezone, LensModel: m.LensModel, FNumber: m.FNumber, FocalLength: m.FocalLength,
			ISO: m.ISO, ExposureTime: exposure(m.ExposureTime), Latitude: m.Latitude, Longitude: m.Longitude,
			City: m.City, State: m.State, Country: m.Country, Description: deref(m.Description),
			ProjectionType: m.ProjectionType, Rating: rating,
		},
	}
}

// ToAlbum converts an album; owner is the caller (see ToAsset), assets the
// album's assets when they were asked for (else an empty list).
func ToAlbum(al *catalog.Album, owner *catalog.User, assets []Asset) Album {
	if assets == nil {
		assets = []Asset{}
	}
	out := Album{ID: al.ID, AlbumName: al.Name, Description: al.Description, OwnerID: owner.ID, Owner: ToUser(owner),
		CreatedAt: Time(al.CreatedAt), UpdatedAt: Time(al.UpdatedAt), AssetCount: al.AssetCount, Assets: assets,
		Order: "desc", AlbumUsers: []any{}, LastModifiedAssetTimestamp: OptionalTime(&al.UpdatedAt)}
	if al.Cover != nil {
		id := al.Cover.AssetID
		out.AlbumThumbnailAssetID = &id
	}
	if al.StartDate != nil {
		out.StartDate = OptionalTime(&al.StartDate.Wall)
	}
	if al.EndDate != nil {
		out.EndDate = OptionalTime(&al.EndDate.Wall)
	}
	return out
}

// ExifTime is the form of the exif block's dates, with a numeric offset
// as Immich's database gives them: immich-go reads dateTimeOriginal in
// no other form (a "Z" reads as no date, and then it cannot tell a
// smaller copy of a file on the server from another photo).
func ExifTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000-07:00") }

func intOf(f *float64) *int {
	if f == nil {
		return nil
	}
	v := int(math.Round(*f))
	return &v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// orientation is Immich's string form of an EXIF orientation ("1".."8").
func orientation(f *float64) *string {
	if f == nil {
		return nil
	}
	s := strconv.Itoa(int(*f))
	return &s
}

// exposure is Immich's string form of an exposure time: "1/250" below a
// second, else seconds.
func exposure(f *float64) *string {
	if f == nil || *f <= 0 {
		return nil
	}
	var s string
	if *f < 1 {
		s = "1/" + strconv.FormatFloat(math.Round(1 / *f), 'f', -1, 64)
	} else {
		s = strconv.FormatFloat(*f, 'f', -1, 64)
	}
	return &s
}
