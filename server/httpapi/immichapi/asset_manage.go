package immichapi

import (
	"mime"
	"path/filepath"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi"
	"github.com/photoctl/photoctl/server/immich"
)

// assetInfo is GET /api/assets/{id}: one asset of the layer's
// library with its exif block and tags (immich-go's archive reads name,
// size and capture time here).
func (l *layer) assetInfo(c *fiber.Ctx) error {
	id := c.Params("id")
	if err := immich.CheckID(catalog.PrefixAsset, id, "path", "id"); err != nil {
		return err
	}
	ctx, p := c.UserContext(), httpapi.Principal(c)
	a, err := l.immich.Asset(ctx, p, id)
	if err != nil {
		return err
	}
	tags, err := l.immich.AssetTags(ctx, a.ID)
	if err != nil {
		return err
	}
	out := immich.ToAsset(a, p.User.ID)
	out.Tags = immich.ToTags(tags)
	return httpapi.SendJSON(c, out)
}

// original is GET /api/assets/{id}/original: the file as uploaded,
// through the native download (access, byte ranges).
func (l *layer) original(c *fiber.Ctx) error {
	id := c.Params("id")
	if err := immich.CheckID(catalog.PrefixAsset, id, "path", "id"); err != nil {
		return err
	}
	ctx, p := c.UserContext(), httpapi.Principal(c)
	if _, err := l.immich.Asset(ctx, p, id); err != nil {
		return err
	}
	d, err := l.assets.FindOriginal(ctx, p, id)
	if err != nil {
		return err
	}
	f, err := d.Open()
	if err != nil {
		return err
	}
	if err := httpapi.SendBlob(c, f); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, d.MIME)
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType("attachment",
		map[string]string{"filename": filepath.Base(d.Asset.OriginalFileName)}))
	return nil
}

// copyAsset is PUT /api/assets/copy: 204 once the source's albums
// and tags are the target's too (immich.Service.Copy).
func (l *layer) copyAsset(c *fiber.Ctx) error {
	var req immich.CopyAssetRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := l.immich.Copy(c.UserContext(), httpapi.Principal(c), req); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// deleteAssets is DELETE /api/assets {ids, force}: the native trash,
// or with force the native permanent deletion, which needs the asset.delete
// action and the library's owner (403 otherwise, as natively). Every id
// must be an asset of the layer's library (400 otherwise); all is checked
// before the first batch of catalog.MaxIDs is changed.
func (l *layer) deleteAssets(c *fiber.Ctx) error {
	var req immich.DeleteAssetsRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	if err := immich.CheckIDs(catalog.PrefixAsset, req.IDs, "body", "ids"); err != nil {
		return err
	}
	ctx, p := c.UserContext(), httpapi.Principal(c)
	force := req.Force != nil && *req.Force
	if force && !p.Allows(catalog.ActionAssetDelete) {
		return missingPermission(catalog.ActionAssetDelete)
	}
	if err := l.immich.CheckDeletable(ctx, p, req.IDs, force, "ids"); err != nil {
		return err
	}
	for start := 0; start < len(req.IDs); start += catalog.MaxIDs {
		chunk := req.IDs[start:min(start+catalog.MaxIDs, len(req.IDs))]
		var err error
		if force {
			_, err = l.assets.Delete(ctx, p, chunk)
		} else {
			err = l.assets.Trash(ctx, p, chunk)
		}
		if err != nil {
			return err
		}
	}
	return c.SendStatus(fiber.StatusNoContent)
}
