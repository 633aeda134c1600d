package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

// albumRoutes are the album operations (decisions.md "Albums, stacks").
func (s *Server) albumRoutes() []route {
	read := access{action: catalog.ActionAlbumRead}
	write := access{action: catalog.ActionAlbumWrite}
	return []route{
		{"GET", "/api/albums", read, s.listAlbums,
			routeDoc{summary: "A library's albums, newest first (asset_id: the albums showing that asset)", tag: "albums",
				paged: true, query: []string{"library_id", "asset_id"}, status: 200, resp: api.Page[api.Album]{}}},
		{"POST", "/api/albums", write, s.createAlbum,
			routeDoc{summary: "Create an album (named create: an existing name in the library answers 200)", tag: "albums",
				query: []string{"library_id"}, body: api.AlbumCreateRequest{}, status: 201, resp: api.Album{},
				also: []int{200}, errs: []int{409}}},
		{"GET", "/api/albums/:id", read, s.getAlbum,
			routeDoc{summary: "One album", tag: "albums", status: 200, resp: api.Album{}}},
		{"PATCH", "/api/albums/:id", write, s.patchAlbum,
			routeDoc{summary: "Rename an album or edit its description", tag: "albums",
				body: api.AlbumUpdateRequest{}, status: 200, resp: api.Album{}, errs: []int{409}}},
		{"DELETE", "/api/albums/:id", write, s.deleteAlbum,
			routeDoc{summary: "Delete an album and its links (the assets stay)", tag: "albums", status: 204}},
		{"POST", "/api/albums/:id/assets", write, s.addAlbumAssets,
			routeDoc{summary: "Add up to 100 live assets of the album's library (already there: unchanged)", tag: "albums",
				body: api.AlbumAssetsRequest{}, status: 200, resp: api.Album{}}},
		{"DELETE", "/api/albums/:id/assets", write, s.removeAlbumAssets,
			routeDoc{summary: "Remove up to 100 assets from an album (not there: ignored)", tag: "albums",
				body: api.AlbumAssetsRequest{}, status: 200, resp: api.Album{}}},
		{"PUT", "/api/albums/:id/cover", write, s.setAlbumCover,
			routeDoc{summary: "Choose the album's cover among its live assets (null: automatic)", tag: "albums",
				body: api.AlbumCoverRequest{}, status: 200, resp: api.Album{}}},
		{"GET", "/api/album-assets", read, s.listAlbumAssets,
			routeDoc{summary: "Album-asset link records, newest first", tag: "albums", paged: true,
				query: albumAssetParams, status: 200, resp: api.Page[api.AlbumAsset]{}}},
	}
}

func (s *Server) listAlbums(c *fiber.Ctx) error {
	if err := allowQuery(c, append([]string{"library_id", "asset_id"}, pageParams...)...); err != nil {
		return err
	}
	pg, err := parsePage(c)
	if err != nil {
		return err
	}
	list, more, err := s.albums.List(c.UserContext(), principal(c),
		albums.ListInput{LibraryID: c.Query("library_id"), AssetID: c.Query("asset_id")}, pg)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Page(list, more, convert.Album))
}

func (s *Server) createAlbum(c *fiber.Ctx) error {
	if err := allowQuery(c, "library_id"); err != nil {
		return err
	}
	var req api.AlbumCreateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	lib, loc, err := jsonCreateLibrary(c, req.LibraryID)
	if err != nil {
		return err
	}
	a, created, err := s.albums.Create(c.UserContext(), principal(c), albums.CreateInput{LibraryID: lib,
		LibraryLoc: loc, Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	status := fiber.StatusOK
	if created {
		status = fiber.StatusCreated
	}
	return sendJSON(c.Status(status), convert.Album(a))
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

func (s *Server) getAlbum(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	a, err := s.albums.Get(c.UserContext(), principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Album(a))
}

func (s *Server) patchAlbum(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.AlbumUpdateRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	a, err := s.albums.Update(c.UserContext(), principal(c), c.Params("id"),
		albums.Change{Name: convert.Patch(req.Name), Description: convert.Patch(req.Description)})
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Album(a))
}

func (s *Server) deleteAlbum(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	if err := s.albums.Delete(c.UserContext(), principal(c), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) addAlbumAssets(c *fiber.Ctx) error {
	return s.albumAssets(c, s.albums.AddAssets)
}

func (s *Server) removeAlbumAssets(c *fiber.Ctx) error {
	return s.albumAssets(c, s.albums.RemoveAssets)
}

// albumAssets decodes {asset_ids} and applies op to the album in the path.
func (s *Server) albumAssets(c *fiber.Ctx, op func(ctx context.Context, p *catalog.Principal, id string, ids []string) (*catalog.Album, error)) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.AlbumAssetsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	a, err := op(c.UserContext(), principal(c), c.Params("id"), req.AssetIDs)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Album(a))
}

func (s *Server) setAlbumCover(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	var req api.AlbumCoverRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if !req.AssetID.Set {
		return catalog.InvalidField("missing", "asset_id is required (null chooses the automatic cover)", nil,
			"body", "asset_id")
	}
	a, err := s.albums.SetCover(c.UserContext(), principal(c), c.Params("id"), req.AssetID.Value)
	if err != nil {
		return err
	}
	return sendJSON(c, convert.Album(a))
}
