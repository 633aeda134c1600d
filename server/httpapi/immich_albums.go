package httpapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/immich"
)

func (s *Server) immichAlbums(c *fiber.Ctx) error {
	p := principal(c)
	list, err := s.immich.Albums(c.UserContext(), p, c.Query("assetId"))
	if err != nil {
		return err
	}
	out := make([]immich.Album, len(list))
	for i := range list {
		out[i] = immich.ToAlbum(&list[i], p.User, nil)
	}
	return sendJSON(c, out)
}

func (s *Server) immichCreateAlbum(c *fiber.Ctx) error {
	var req immich.CreateAlbumRequest
	if err := decodeImmichJSON(c, &req); err != nil {
		return err
	}
	p := principal(c)
	al, err := s.immich.CreateAlbum(c.UserContext(), p, req.AlbumName, req.Description, req.AssetIDs)
	if err != nil {
		return err
	}
	return sendJSON(c.Status(fiber.StatusCreated), immich.ToAlbum(al, p.User, nil))
}

// immichAlbum is GET /api/albums/{id}; its assets are listed unless
// withoutAssets=true.
func (s *Server) immichAlbum(c *fiber.Ctx) error {
	without := false
	if raw := c.Query("withoutAssets"); raw != "" {
		v, err := strconv.ParseBool(raw)
		if err != nil {
			return catalog.InvalidField("bool_parsing", "withoutAssets must be true or false", raw, "query", "withoutAssets")
		}
		without = v
	}
	ctx, p := c.UserContext(), principal(c)
	al, err := s.immich.Album(ctx, p, c.Params("id"))
	if err != nil {
		return err
	}
	var items []immich.Asset
	if !without {
		list, err := s.immich.AlbumAssets(ctx, al)
		if err != nil {
			return err
		}
		items = make([]immich.Asset, len(list))
		for i := range list {
			items[i] = immich.ToAsset(&list[i], p.User.ID)
		}
	}
	return sendJSON(c, immich.ToAlbum(al, p.User, items))
}

func (s *Server) immichAddToAlbum(c *fiber.Ctx) error {
	var req immich.BulkIDs
	if err := decodeImmichJSON(c, &req); err != nil {
		return err
	}
	res, err := s.immich.AddAssets(c.UserContext(), principal(c), c.Params("id"), req.IDs)
	if err != nil {
		return err
	}
	return sendJSON(c, res)
}
