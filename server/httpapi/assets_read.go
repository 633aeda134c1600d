package httpapi

import (
	"encoding/base64"
	"fmt"
	"mime"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/assets"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
)

func (s *Server) getAsset(c *fiber.Ctx) error {
	if err := allowQuery(c, "include", "variants"); err != nil {
		return err
	}
	variants, err := parseVariants(c)
	if err != nil {
		return err
	}
	a, ocr, err := s.assets.Detail(c.UserContext(), Principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	list := []api.Asset{convert.Asset(a, variants)}
	if err := s.withFaces(c, list); err != nil {
		return err
	}
	return SendJSON(c, api.AssetDetail{Asset: list[0], OCRText: ocr})
}

func (s *Server) listAssets(c *fiber.Ctx) error {
	if err := allowQuery(c, assetListParams...); err != nil {
		return err
	}
	pg, f, variants, err := parseListQuery(c)
	if err != nil {
		return err
	}
	list, more, err := s.assets.List(c.UserContext(), Principal(c), assets.ListInput{LibraryID: c.Query("library_id"), Filter: f}, pg)
	if err != nil {
		return err
	}
	out := convert.Page(list, more, func(a *catalog.Asset) api.Asset { return convert.Asset(a, variants) })
	if err := s.withFaces(c, out.Data); err != nil {
		return err
	}
	return SendJSON(c, out)
}

// downloadOriginal streams the original as an attachment (sendAttachment).
func (s *Server) downloadOriginal(c *fiber.Ctx) error {
	if err := allowQuery(c); err != nil {
		return err
	}
	d, err := s.assets.FindOriginal(c.UserContext(), Principal(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendAttachment(c, d, d.Asset.Checksum, d.Asset.OriginalFileName, true)
}

// sendAttachment streams d as an attachment named name, with an ETag (its
// content hash, checksum), conditional requests and byte ranges; an
// immutable file (an original) may be cached for a year, any other is
// revalidated. A request the client's copy satisfies is answered before
// the file is opened (in a bucket: with no GET).
func sendAttachment(c *fiber.Ctx, d assets.Download, checksum []byte, name string, immutable bool) error {
	etag := `"` + base64.RawURLEncoding.EncodeToString(checksum) + `"`
	c.Set(fiber.HeaderETag, etag)
	if immutable {
		c.Set(fiber.HeaderCacheControl, "private, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "private, no-cache")
	}
	if notModified(c, etag) {
		return c.SendStatus(fiber.StatusNotModified)
	}
	f, err := d.Open()
	if err != nil {
		return err
	}
	if ir := c.Get(fiber.HeaderIfRange); ir != "" && ir != etag {
		c.Request().Header.Del(fiber.HeaderRange) // changed since: send it whole
	}
	if err := SendBlob(c, f); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentDisposition, contentDisposition(name))
	c.Set(fiber.HeaderContentType, d.MIME)
	c.Response().Header.Del(fiber.HeaderLastModified)
	return nil
}

// notModified reports whether the request's If-None-Match names etag.
func notModified(c *fiber.Ctx, etag string) bool {
	inm := c.Get(fiber.HeaderIfNoneMatch)
	return inm != "" && etagMatches(inm, etag)
}

func etagMatches(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == etag || v == "*" {
			return true
		}
	}
	return false
}

// contentDisposition builds an RFC 6266 attachment header: an ASCII
// fallback name with quotes, backslashes and controls replaced, and the
// exact name as RFC 5987 filename*.
func contentDisposition(name string) string {
	if name == "" {
		name = "original"
	}
	fallback := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' || r == '%' || r == ';' {
			return '_'
		}
		return r
	}, name)
	v := mime.FormatMediaType("attachment", map[string]string{"filename": fallback})
	if v == "" {
		v = "attachment"
	}
	return fmt.Sprintf("%s; filename*=UTF-8''%s", v, attrValue(name))
}

// attrValue percent-encodes every byte of s outside RFC 5987's attr-char
// (url.PathEscape keeps ':', '@', '=', which a strict parser refuses).
func attrValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// getVariant serves an image rendering inline with a strong ETag (the
// file's size and time: every rendering is a new file). Asked for under
// the asset's current rendering version (?v=, as asset_urls give it) it may
// be kept a year; otherwise it is revalidated each time.
func (s *Server) getVariant(c *fiber.Ctx) error {
	if err := allowQuery(c, "v"); err != nil {
		return err
	}
	a, f, mimeType, err := s.assets.OpenVariant(c.UserContext(), Principal(c), c.Params("id"), c.Params("name"))
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	etag := fmt.Sprintf(`"%s-%s-%x-%x"`, a.ID, c.Params("name"), info.Size(), info.ModTime().UnixNano())
	c.Set(fiber.HeaderETag, etag)
	if v := c.Query("v"); v != "" && v == convert.RenderingVersion(a) {
		c.Set(fiber.HeaderCacheControl, "private, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "private, no-cache")
	}
	if notModified(c, etag) {
		f.Close()
		return c.SendStatus(fiber.StatusNotModified)
	}
	if err := SendBlob(c, f); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, mimeType)
	return nil
}
