package immichapi

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

func (l *layer) albums(c *fiber.Ctx) error {
	p := httpapi.Principal(c)
	list, err := l.immich.Albums(c.UserContext(), p, c.Query("assetId"))
	if err != nil {
		return err
	}
	out := make([]immich.Album, len(list))
	for i := range list {
		out[i] = immich.ToAlbum(&list[i], p.User, nil)
	}
	return httpapi.SendJSON(c, out)
}

func (l *layer) createAlbum(c *fiber.Ctx) error {
	var req immich.CreateAlbumRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	p := httpapi.Principal(c)
	al, err := l.immich.CreateAlbum(c.UserContext(), p, req.AlbumName, req.Description, req.AssetIDs)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c.Status(fiber.StatusCreated), immich.ToAlbum(al, p.User, nil))
}

// album is GET /api/albums/{id}; its assets are listed unless
// withoutAssets=true.
func (l *layer) album(c *fiber.Ctx) error {
	without := false
	if raw := c.Query("withoutAssets"); raw != "" {
		v, err := strconv.ParseBool(raw)
		if err != nil {
			return catalog.InvalidField("bool_parsing", "withoutAssets must be true or false", raw, "query", "withoutAssets")
		}
		without = v
	}
	ctx, p := c.UserContext(), httpapi.Principal(c)
	al, err := l.immich.Album(ctx, p, c.Params("id"))
	if err != nil {
		return err
	}
	var items []immich.Asset
	if !without {
		list, err := l.immich.AlbumAssets(ctx, al)
		if err != nil {
			return err
		}
		items = make([]immich.Asset, len(list))
		for i := range list {
			items[i] = immich.ToAsset(&list[i], p.User.ID)
		}
	}
	return httpapi.SendJSON(c, immich.ToAlbum(al, p.User, items))
}

func (l *layer) addToAlbum(c *fiber.Ctx) error {
	var req immich.BulkIDs
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	res, err := l.immich.AddAssets(c.UserContext(), httpapi.Principal(c), c.Params("id"), req.IDs)
	if err != nil {
		return err
	}
	return httpapi.SendJSON(c, res)
}
