package convert

import (
	"encoding/base64"
	"slices"
	"strconv"
	"time"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// imageVariants are the renderings of an image besides its original.
var imageVariants = []string{"thumbnail", "preview", "fullsize"}

// Asset converts an asset. variants, when not nil, limits the image
// renderings listed in asset_urls (include=variants). Its faces and
// people are empty until AddPeople fills them.
func Asset(a *catalog.Asset, variants []string) api.Asset {
	m := a.Merged()
	common := api.NewMetadataCommon(a.ID, a.CreatedAt.UTC().Format(time.RFC3339Nano), a.UpdatedAt.UTC().Format(time.RFC3339Nano),
		api.MetadataValues{Make: m.Make, Model: m.Model, Orientation: m.Orientation,
			ModifiedDatetime: m.ModifiedDatetime, OriginalDatetime: m.OriginalDatetime,
			DigitizedDatetime: m.DigitizedDatetime, LensModel: m.LensModel, FNumber: m.FNumber,
			FocalLength: m.FocalLength, ISO: m.ISO, ExposureTime: m.ExposureTime, ExposureBias: m.ExposureBias,
			Latitude: m.Latitude, Longitude: m.Longitude, Altitude: m.Altitude, City: m.City, State: m.State,
			Country: m.Country, Description: m.Description, FPS: m.FPS, LivePhotoCID: m.LivePhotoCID,
			ProjectionType: m.ProjectionType, AutoStackID: a.AutoStackIDOf(&m), Rating: m.Rating})
	var sha1 *string
	if len(a.ChecksumSHA1) > 0 {
		v := base64.StdEncoding.EncodeToString(a.ChecksumSHA1)
		sha1 = &v
	}
	metrics := a.Metrics
	if metrics == nil {
		metrics = map[string]any{}
	}
	return api.Asset{
		ID: a.ID, LibraryID: a.LibraryID, ContributorID: a.ContributorID, DeviceAssetID: a.DeviceAssetID,
		DeviceID: a.DeviceID, MediaType: string(a.MediaType), MIMEType: a.MIMEType,
		OriginalFileName: a.OriginalFileName, FileCreatedAt: a.FileCreatedAt, FileModifiedAt: a.FileModifiedAt,
		LocalDatetime: a.Capture.String(), Checksum: base64.StdEncoding.EncodeToString(a.Checksum),
		ChecksumSHA1: sha1, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt,
		Metadata: api.AssetMetadata{MetadataCommon: common, CountryCode: m.CountryCode, Sublocation: m.Sublocation,
			PlaceName: m.PlaceName, Timezone: m.Timezone, DisplayLabel: m.DisplayLabel},
		Exif:      api.AssetExif{MetadataCommon: common, ProfileDescription: m.ProfileDescription},
		Metrics:   metrics,
		AssetURLs: assetURLs(a, variants), Description: a.Description,
		Faces: []api.Face{}, People: []api.Person{}, Width: a.Width, Height: a.Height,
		FileSizeBytes: a.FileSizeBytes, TrashedAt: a.TrashedAt, Stack: assetStack(a),
	}
}

// assetStack is the asset's stack: its id, the members that listing the
// stack in the asset's state (live or trashed) shows, and its cover.
func assetStack(a *catalog.Asset) *api.AssetStack {
	if a.StackID == nil {
		return nil
	}
	return &api.AssetStack{ID: *a.StackID, AssetCount: a.StackSize, CoverAssetID: a.StackCoverID}
}

// RenderingVersion names the state of an asset's renderings: its row's
// last change, which the pipeline's variants step makes whenever it
// renders (an edit of the row changes it too, which only costs a
// download). A rendering's URL carries it (?v=), so the address changes
// when the picture may have, and the variants route lets a browser keep the
// file a year under it.
func RenderingVersion(a *catalog.Asset) string {
	return strconv.FormatInt(a.UpdatedAt.UnixMicro(), 36) // the stores keep microseconds
}

// assetURLs are where the asset's original and, for an image, its
// renderings (those named in variants; all when nil) are served.
func assetURLs(a *catalog.Asset, variants []string) api.AssetURLs {
	base := "/api/assets/" + a.ID
	urls := api.AssetURLs{Original: base + "/original"}
	if a.MediaType != catalog.MediaImage {
		return urls
	}
	for _, name := range imageVariants {
		if variants != nil && !slices.Contains(variants, name) {
			continue
		}
		u := base + "/variants/" + name
		if !a.UpdatedAt.IsZero() { // a face's or person's asset: only its id
			u += "?v=" + RenderingVersion(a)
		}
		switch name {
		case "thumbnail":
			urls.Thumbnail = &u
		case "preview":
			urls.Preview = &u
		case "fullsize":
			urls.Fullsize = &u
		}
	}
	return urls
}
