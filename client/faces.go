package client

import (
	"context"
	"iter"
	"net/url"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// FaceQuery holds the filters of the face list. Zero values are left out.
type FaceQuery struct {
	LibraryID string
	AssetID   string
	PersonID  string
	IDs       []string // at most 100
}

func (q FaceQuery) values() url.Values {
	v := url.Values{}
	setIf(v, "library_id", q.LibraryID)
	setIf(v, "asset_id", q.AssetID)
	setIf(v, "person_id", q.PersonID)
	if len(q.IDs) > 0 {
		v.Set("ids", strings.Join(q.IDs, ","))
	}
	return v
}

// Faces iterates over the faces q selects, newest first (faces on trashed
// assets included).
func (c *Client) Faces(ctx context.Context, q FaceQuery) iter.Seq2[api.Face, error] {
	return walk(ctx, c, "/api/faces", q.values(), "", 0, func(f api.Face) string { return f.ID })
}

// CreateFace draws a face on an asset (source manual), optionally giving
// it to a person.
func (c *Client) CreateFace(ctx context.Context, req api.FaceCreateRequest) (*api.Face, error) {
	var f api.Face
	if _, err := c.do(ctx, &call{method: "POST", path: "/api/faces", body: req, out: &f}); err != nil {
		return nil, err
	}
	return &f, nil
}

// DeleteFace deletes a face.
func (c *Client) DeleteFace(ctx context.Context, id string) error {
	_, err := c.do(ctx, &call{method: "DELETE", path: "/api/faces/" + url.PathEscape(id), idempotent: true})
	return err
}
