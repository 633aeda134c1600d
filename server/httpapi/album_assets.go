package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// albumAssetParams are the filters of GET /api/album-assets (spec), besides
// paging.
var albumAssetParams = []string{"album_id", "asset_id", "ids", "library_id"}

// listAlbumAssets lists link records only (spec "GET /api/album-assets"):
// limit 1..200, default 20.
func (s *Server) listAlbumAssets(c *fiber.Ctx, pg query.Page) ([]catalog.AlbumAsset, bool, error) {
	in := albums.LinksInput{LibraryID: c.Query("library_id"), AlbumID: c.Query("album_id"),
		AssetID: c.Query("asset_id"), IDs: multi(c, "ids")}
	return s.albums.ListLinks(c.UserContext(), Principal(c), in, pg)
}
