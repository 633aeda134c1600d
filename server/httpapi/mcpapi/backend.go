package mcpapi

import (
	"context"
	"fmt"
	"io"

	"github.com/photoctl/photoctl/server/albums"
	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/mcp"
	"github.com/photoctl/photoctl/server/people"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/search"
)

// backend is the MCP tools' Backend on the server: the same service calls
// and conversions as the HTTP handlers, with the request's principal. The
// credential's action is checked by the tool gate (mcp.Options.Allows);
// role and library scope by the services, as for every route.
type backend struct {
	d *Deps
	p *catalog.Principal
}

var _ mcp.Backend = backend{}

// maxPreviewBytes bounds a preview sent as image content (they are ~200 KB).
const maxPreviewBytes = 8 << 20

// librariesBatch is how many libraries Libraries reads a call (the REST
// list's largest page).
const librariesBatch = 200

func (b backend) Search(ctx context.Context, q mcp.Query, after string, limit int) (*api.Page[api.SearchHit], error) {
	f, err := filter(q)
	if err != nil {
		return nil, err
	}
	hits, more, err := b.d.Search.Search(ctx, b.p, search.Input{LibraryID: q.LibraryID, Query: q.Text, Filter: f},
		query.Page{Limit: limit, AfterID: after})
	if err != nil {
		return nil, err
	}
	list := convert.HitAssets(hits, nil)
	if err := b.withPeople(ctx, list); err != nil {
		return nil, err
	}
	out := convert.SearchPage(hits, list, more)
	return &out, nil
}

// withPeople fills the people of converted assets (faces stay out: the
// tools show names).
func (b backend) withPeople(ctx context.Context, list []api.Asset) error {
	_, persons, err := b.d.People.OfAssets(ctx, convert.AssetIDs(list))
	if err != nil {
		return err
	}
	convert.AddPeople(list, nil, persons)
	return nil
}

func (b backend) Asset(ctx context.Context, id string) (*api.AssetDetail, error) {
	a, ocr, err := b.d.Assets.Detail(ctx, b.p, id)
	if err != nil {
		return nil, err
	}
	list := []api.Asset{convert.Asset(a, nil)}
	if err := b.withPeople(ctx, list); err != nil {
		return nil, err
	}
	return &api.AssetDetail{Asset: list[0], OCRText: ocr}, nil
}

func (b backend) Preview(ctx context.Context, id string) ([]byte, string, error) {
	_, f, mime, err := b.d.Assets.OpenVariant(ctx, b.p, id, "preview")
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPreviewBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read preview of %s: %w", id, err)
	}
	if len(data) > maxPreviewBytes {
		return nil, "", fmt.Errorf("preview of %s is larger than %d bytes: %w", id, maxPreviewBytes, catalog.ErrTooLarge)
	}
	return data, mime, nil
}

func (b backend) Albums(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Album], error) {
	return page(convert.Album)(b.d.Albums.List(ctx, b.p, albums.ListInput{LibraryID: libraryID},
		query.Page{Limit: limit, AfterID: after}))
}

func (b backend) People(ctx context.Context, libraryID, after string, limit int) (*api.Page[api.Person], error) {
	return page(convert.Person)(b.d.People.List(ctx, b.p, people.ListInput{LibraryID: libraryID},
		query.Page{Limit: limit, AfterID: after}))
}

func (b backend) Libraries(ctx context.Context) ([]api.Library, error) {
	var out []api.Library
	pg := query.Page{Limit: librariesBatch}
	for {
		ms, more, err := b.d.Libraries.List(ctx, b.p, libraries.ListLive, pg)
		if err != nil {
			return nil, err
		}
		out = append(out, convert.Page(ms, more, convert.Library).Data...)
		if !more || len(ms) == 0 {
			return out, nil
		}
		pg.AfterID = ms[len(ms)-1].Library.ID
	}
}

// page converts the result of a service's list call, or passes its error
// on: page(convert.Album)(albums.List(…)).
func page[T, W any](conv func(*T) W) func([]T, bool, error) (*api.Page[W], error) {
	return func(list []T, more bool, err error) (*api.Page[W], error) {
		if err != nil {
			return nil, err
		}
		out := convert.Page(list, more, conv)
		return &out, nil
	}
}

// one converts the result of a service call that returns one value, or
// passes its error on: one(convert.Album)(albums.AddAssets(…)).
func one[T, W any](conv func(*T) W) func(*T, error) (*W, error) {
	return func(v *T, err error) (*W, error) {
		if err != nil {
			return nil, err
		}
		out := conv(v)
		return &out, nil
	}
}
