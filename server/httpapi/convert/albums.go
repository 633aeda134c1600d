package convert

import (
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// Album converts an album, with its cover's id and URL (the thumbnail of
// an image, the original of a video) and its date span.
func Album(a *catalog.Album) api.Album {
	out := api.Album{ID: a.ID, LibraryID: a.LibraryID, Name: a.Name, Description: a.Description,
		AssetCount: a.AssetCount, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
	if a.Cover != nil {
		id, url := a.Cover.AssetID, "/api/assets/"+a.Cover.AssetID+"/variants/thumbnail"
		if a.Cover.MediaType != catalog.MediaImage {
			url = "/api/assets/" + a.Cover.AssetID + "/original"
		}
		out.CoverAssetID, out.AlbumCoverURL = &id, &url
	}
	if a.StartDate != nil {
		v := a.StartDate.String()
		out.StartDate = &v
	}
	if a.EndDate != nil {
		v := a.EndDate.String()
		out.EndDate = &v
	}
	return out
}

// AlbumAsset converts an album's link to one of its assets.
func AlbumAsset(l *catalog.AlbumAsset) api.AlbumAsset {
	return api.AlbumAsset{ID: l.ID, AlbumID: l.AlbumID, AssetID: l.AssetID, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
}

// Stack converts a stack; its asset ids are copied, never null.
func Stack(st *catalog.Stack) api.Stack {
	return api.Stack{ID: st.ID, LibraryID: st.LibraryID, CoverAssetID: st.CoverAssetID,
		AssetIDs: append([]string{}, st.AssetIDs...), AssetCount: len(st.AssetIDs), Source: string(st.Source),
		CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt}
}
