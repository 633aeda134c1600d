package convert

import (
	"encoding/base64"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
)

// FromChange reads a request's asset change (PATCH /api/assets/{id} and
// each item of a bulk update).
func FromChange(c api.AssetChange) assets.Change {
	return assets.Change{
		Description:      Patch(c.Description),
		Latitude:         Patch(c.Latitude),
		Longitude:        Patch(c.Longitude),
		OriginalDatetime: Patch(c.OriginalDatetime),
		Rating:           Patch(c.Rating),
	}
}

// FromUpdates reads a bulk update's items (the REST body and the MCP
// tool's arguments alike).
func FromUpdates(updates []api.AssetUpdate) []assets.Update {
	out := make([]assets.Update, len(updates))
	for i, u := range updates {
		out[i] = assets.Update{ID: u.ID, Change: FromChange(u.Change)}
	}
	return out
}

// Version converts a version of an asset's original, with the URL of its
// file.
func Version(v *assets.Version) api.Version {
	return api.Version{ID: v.ID, AssetID: v.AssetID, IsOriginal: v.IsOriginal, IsCurrent: v.IsCurrent,
		MIMEType: v.MIMEType, FileName: v.FileName, FileSizeBytes: v.Size,
		Checksum: base64.StdEncoding.EncodeToString(v.Checksum), ContributorID: v.ContributorID,
		FileURL:   "/api/assets/" + v.AssetID + "/versions/" + v.ID + "/file",
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
}
