package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
	"github.com/photoctl/photoctl/server/query"
)

// albumRoutes are the album operations (decisions.md "Albums, stacks").
func (s *Server) albumRoutes() []route {
	read := access{action: catalog.ActionAlbumRead}
	write := access{action: catalog.ActionAlbumWrite}
	return []route{
		{"GET", "/api/albums", read, listPage([]string{"library_id", "asset_id"}, s.listAlbums, convert.Album),
			openapi.Doc{Summary: "A library's albums, newest first (asset_id: the albums showing that asset)", Tag: "albums",
				Paged: true, Query: []string{"library_id", "asset_id"}, Status: 200, Resp: api.Page[api.Album]{}}},
		{"POST", "/api/albums", write, s.createAlbum,
			openapi.Doc{Summary: "Create an album (named create: an existing name in the library answers 200)", Tag: "albums",
				Query: []string{"library_id"}, Body: api.AlbumCreateRequest{}, Status: 201, Resp: api.Album{},
				Also: []int{200}, Errs: []int{409}}},
		{"GET", "/api/albums/:id", read, one(s.albums.Get, convert.Album),
			openapi.Doc{Summary: "One album", Tag: "albums", Status: 200, Resp: api.Album{}}},
		{"PATCH", "/api/albums/:id", write, oneWithBody(s.patchAlbum, convert.Album),
			openapi.Doc{Summary: "Rename an album or edit its description", Tag: "albums",
				Body: api.AlbumUpdateRequest{}, Status: 200, Resp: api.Album{}, Errs: []int{409}}},
		{"DELETE", "/api/albums/:id", write, noContent(s.albums.Delete),
			openapi.Doc{Summary: "Delete an album and its links (the assets stay)", Tag: "albums", Status: 204}},
		{"POST", "/api/albums/:id/assets", write, oneWithBody(albumAssets(s.albums.AddAssets), convert.Album),
			openapi.Doc{Summary: "Add up to 100 live assets of the album's library (already there: unchanged)", Tag: "albums",
				Body: api.AlbumAssetsRequest{}, Status: 200, Resp: api.Album{}}},
		{"DELETE", "/api/albums/:id/assets", write, oneWithBody(albumAssets(s.albums.RemoveAssets), convert.Album),
			openapi.Doc{Summary: "Remove up to 100 assets from an album (not there: ignored)", Tag: "albums",
				Body: api.AlbumAssetsRequest{}, Status: 200, Resp: api.Album{}}},
		{"PUT", "/api/albums/:id/cover", write, oneWithBody(s.setAlbumCover, convert.Album),
			openapi.Doc{Summary: "Choose the album's cover among its live assets (null: automatic)", Tag: "albums",
				Body: api.AlbumCoverRequest{}, Status: 200, Resp: api.Album{}}},
		{"GET", "/api/album-assets", read, listPage(albumAssetParams, s.listAlbumAssets, convert.AlbumAsset),
			openapi.Doc{Summary: "Album-asset link records, newest first", Tag: "albums", Paged: true,
				Query: albumAssetParams, Status: 200, Resp: api.Page[api.AlbumAsset]{}}},
	}
}

func (s *Server) listAlbums(c *fiber.Ctx, pg query.Page) ([]catalog.Album, bool, error) {
	return s.albums.List(c.UserContext(), Principal(c),
		albums.ListInput{LibraryID: c.Query("library_id"), AssetID: c.Query("asset_id")}, pg)
}

func (s *Server) createAlbum(c *fiber.Ctx) error {
	var req api.AlbumCreateRequest
	if err := decodeRequest(c, &req, "library_id"); err != nil {
		return err
	}
	lib, loc, err := jsonCreateLibrary(c, req.LibraryID)
	if err != nil {
		return err
	}
	a, created, err := s.albums.Create(c.UserContext(), Principal(c), albums.CreateInput{LibraryID: lib,
		LibraryLoc: loc, Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	return sendNamedCreate(c, created, convert.Album(a))
}

// jsonCreateLibrary reads the library of a JSON create: the body's
// library_id, else the query's (decisions.md: the body is the place, the
// query is accepted too). Both, differing, is a 422. The returned loc is
// where a missing one belongs.
func jsonCreateLibrary(c *fiber.Ctx, body *string) (string, []any, error) {
	q := c.Query("library_id")
	switch {
	case body != nil && q != "" && *body != q:
		return "", nil, catalog.InvalidField("value_error", "library_id differs between the query and the body",
			q, "query", "library_id")
	case body != nil:
		return *body, []any{"body", "library_id"}, nil
	case q != "":
		return q, []any{"query", "library_id"}, nil
	}
	return "", []any{"body", "library_id"}, nil
}

func (s *Server) patchAlbum(ctx context.Context, p *catalog.Principal, id string, req *api.AlbumUpdateRequest) (*catalog.Album, error) {
	return s.albums.Update(ctx, p, id, albums.Change{Name: convert.Patch(req.Name), Description: convert.Patch(req.Description)})
}

// albumAssets applies op to the album in the path with the body's asset ids.
func albumAssets(op func(ctx context.Context, p *catalog.Principal, id string, ids []string) (*catalog.Album, error)) withBody[api.AlbumAssetsRequest, *catalog.Album] {
	return func(ctx context.Context, p *catalog.Principal, id string, req *api.AlbumAssetsRequest) (*catalog.Album, error) {
		return op(ctx, p, id, req.AssetIDs)
	}
}

func (s *Server) setAlbumCover(ctx context.Context, p *catalog.Principal, id string, req *api.AlbumCoverRequest) (*catalog.Album, error) {
	if !req.AssetID.Set {
		return nil, catalog.InvalidField("missing", "asset_id is required (null chooses the automatic cover)", nil,
			"body", "asset_id")
	}
	return s.albums.SetCover(ctx, p, id, req.AssetID.Value)
}
