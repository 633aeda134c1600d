package httpapi

import (
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// albumAssetParams are the filters of GET /api/album-assets (spec), besides
// paging.
var albumAssetParams = []string{"album_id", "asset_id", "ids", "library_id"}

// listAlbumAssets lists link records only (spec "GET /api/album-assets"):
// limit 1..200, default 20.
func (s *Server) listAlbumAssets(c *fiber.Ctx) error {
	if err := allowQuery(c, slices.Concat(albumAssetParams, pageParams)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	in := albums.LinksInput{LibraryID: c.Query("library_id"), AlbumID: c.Query("album_id"),
		AssetID: c.Query("asset_id"), IDs: multi(c, "ids")}
	links, more, err := s.albums.ListLinks(c.UserContext(), Principal(c), in, pg)
	if err != nil {
		return err
	}
	return SendJSON(c, convert.Page(links, more, convert.AlbumAsset))
}
