package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/photoctl/photoctl/server/api"
)

// PersonQuery holds the filters of the people list. Zero values are left
// out, so every person of the library is listed (hidden ones included).
type PersonQuery struct {
	LibraryID string
	IDs       []string // at most 100
	Name      string   // case-insensitive substring
	// Named true lists named people only, false unnamed ones only.
	Named   *bool
	AssetID string // people with a face in this asset
	AlbumID string // people with a face in a live asset of this album
	// IncludeUnverified adds machine clusters with fewer faces than the
	// clustering minimum.
	IncludeUnverified bool
}

func (q PersonQuery) values() url.Values {
	v := url.Values{}
	setIf(v, "library_id", q.LibraryID)
	if len(q.IDs) > 0 {
		v.Set("ids", strings.Join(q.IDs, ","))
	}
	setIf(v, "name", q.Name)
	if q.Named != nil {
		v.Set("named", strconv.FormatBool(*q.Named))
	}
	setIf(v, "asset_id", q.AssetID)
	setIf(v, "album_id", q.AlbumID)
	if q.IncludeUnverified {
		v.Set("include_unverified", "true")
	}
	return v
}

// People iterates over the people q selects, newest first.
func (c *Client) People(ctx context.Context, q PersonQuery) iter.Seq2[api.Person, error] {
	return walk(ctx, c, "/api/people", q.values(), "", 0, func(p api.Person) string { return p.ID })
}

// Person returns one person.
func (c *Client) Person(ctx context.Context, id string) (*api.Person, error) {
	var p api.Person
	if _, err := c.do(ctx, &call{method: "GET", path: personPath(id), idempotent: true, out: &p}); err != nil {
		return nil, err
	}
	return &p, nil
}

// CreatePerson creates a person, or returns the library's person of that
// name (created false) when the fields sent agree with it (else a 409).
func (c *Client) CreatePerson(ctx context.Context, req api.PersonCreateRequest) (person *api.Person, created bool, err error) {
	var p api.Person
	resp, err := c.do(ctx, &call{method: "POST", path: "/api/people", body: req, out: &p, idempotent: true})
	if err != nil {
		return nil, false, err
	}
	return &p, resp.StatusCode() == http.StatusCreated, nil
}

// UpdatePerson edits the fields u sets: name and birth date may be set to
// nil (cleared); the others may not.
func (c *Client) UpdatePerson(ctx context.Context, id string, u api.PersonUpdateRequest) (*api.Person, error) {
	body := map[string]any{}
	setOptional(body, "name", u.Name)
	setOptional(body, "birth_date", u.BirthDate)
	setOptional(body, "is_hidden", u.IsHidden)
	setOptional(body, "is_favorite", u.IsFavorite)
	setOptional(body, "thumbnail_face_id", u.ThumbnailFaceID)
	var p api.Person
	if _, err := c.do(ctx, &call{method: "PATCH", path: personPath(id), body: body, out: &p, idempotent: true}); err != nil {
		return nil, err
	}
	return &p, nil
}

// MergePeople moves the faces of the people ids (1 to 100, of into's
// library) to into and deletes them; into keeps its own fields.
func (c *Client) MergePeople(ctx context.Context, into string, ids []string) (*api.Person, error) {
	var p api.Person
	if _, err := c.do(ctx, &call{method: "POST", path: personPath(into) + "/merge",
		body: api.PersonMergeRequest{IDs: ids}, out: &p, idempotent: true}); err != nil {
		return nil, err
	}
	return &p, nil
}

// ReassignFaces gives faces (1 to 100, of the person's library) to a
// person.
func (c *Client) ReassignFaces(ctx context.Context, personID string, faceIDs []string) (*api.Person, error) {
	var p api.Person
	if _, err := c.do(ctx, &call{method: "POST", path: personPath(personID) + "/reassign",
		body: api.PersonReassignRequest{FaceIDs: faceIDs}, out: &p, idempotent: true}); err != nil {
		return nil, err
	}
	return &p, nil
}

func personPath(id string) string { return "/api/people/" + url.PathEscape(id) }
