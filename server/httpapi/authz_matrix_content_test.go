package httpapi_test

import (
	"fmt"
	"net/http"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// Matrix rows of the organizing endpoints (albums, people, faces, stacks,
// tasks): readers need the viewer role, writers the collaborator role. Each
// row makes the resource it acts on in the shared library with the owner's
// session (fresh where the operation consumes it).

func contentRows() []matrixRow {
	return append(append(albumRows(), personRows()...), append(stackRows(), taskRows()...)...)
}

// inShared is a list path filtered to the shared library.
func inShared(path string) func(c *cell) cellRequest {
	return reqAt(func(c *cell) string { return path + "?library_id=" + c.shared })
}

// ownerPost creates something with the owner's session and decodes its id.
func (w *matrixWorld) ownerPost(path string, body any) string {
	r := w.s.Do("POST", path, w.parties[asOwner].session, body)
	require.Contains(w.t, []int{http.StatusOK, http.StatusCreated}, r.Status, "POST %s: %s", path, r.Body)
	var out struct {
		ID string `json:"id"`
	}
	r.JSON(w.t, &out)
	return out.ID
}

func (w *matrixWorld) freshAlbum() string {
	return w.ownerPost("/api/albums", map[string]any{"library_id": w.shared, "name": fmt.Sprintf("album %d", w.next())})
}

func (w *matrixWorld) freshPerson() string {
	return w.ownerPost("/api/people", map[string]any{"library_id": w.shared, "name": fmt.Sprintf("person %d", w.next())})
}

func (w *matrixWorld) freshFace() string {
	return w.ownerPost("/api/faces?library_id="+w.shared, map[string]any{"asset_id": w.asset.ID,
		"bounding_box": map[string]float64{"x": 0.1, "y": 0.1, "width": 0.5, "height": 0.5}})
}

func (w *matrixWorld) freshStack() string {
	return w.ownerPost("/api/stacks", map[string]any{"library_id": w.shared,
		"asset_ids": []string{w.freshAsset().ID, w.freshAsset().ID}})
}

// content is the shared library's organizing fixtures, made on first use.
type content struct {
	album, person, face, stack, task string
}

func (w *matrixWorld) content() *content {
	if w.org == nil {
		o := w.parties[asOwner].session
		tasks := servertest.List[api.Task](w.s, o, "/api/tasks?library_id="+w.shared)
		require.NotEmpty(w.t, tasks, "uploads enqueue tasks")
		w.org = &content{album: w.freshAlbum(), person: w.freshPerson(), face: w.freshFace(), stack: w.freshStack(),
			task: tasks[0].ID}
	}
	return w.org
}

func albumRows() []matrixRow {
	album := func(suffix string) func(c *cell) string {
		return func(c *cell) string { return "/api/albums/" + c.content().album + suffix }
	}
	return []matrixRow{
		{method: "GET", path: "/api/albums", needs: needRead, req: inShared("/api/albums")},
		{method: "POST", path: "/api/albums", needs: needWrite, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/albums", body: map[string]any{"library_id": c.shared,
				"name": fmt.Sprintf("cell album %d", c.next())}}
		}},
		{method: "GET", path: "/api/albums/{id}", needs: needRead, req: reqAt(album(""))},
		{method: "PATCH", path: "/api/albums/{id}", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: album("")(c), body: map[string]any{"description": "from the matrix"}}
		}},
		{method: "DELETE", path: "/api/albums/{id}", needs: needWrite, ok: http.StatusNoContent,
			req: reqAt(func(c *cell) string { return "/api/albums/" + c.freshAlbum() })},
		{method: "POST", path: "/api/albums/{id}/assets", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: album("/assets")(c), body: map[string]any{"asset_ids": []string{c.asset.ID}}}
		}},
		{method: "DELETE", path: "/api/albums/{id}/assets", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: album("/assets")(c), body: map[string]any{"asset_ids": []string{c.asset.ID}}}
		}},
		{method: "PUT", path: "/api/albums/{id}/cover", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: album("/cover")(c), body: map[string]any{"asset_id": nil}}
		}},
		{method: "GET", path: "/api/album-assets", needs: needRead, req: inShared("/api/album-assets")},
	}
}

func personRows() []matrixRow {
	person := func(suffix string) func(c *cell) string {
		return func(c *cell) string { return "/api/people/" + c.content().person + suffix }
	}
	return []matrixRow{
		{method: "GET", path: "/api/people", needs: needRead, req: inShared("/api/people")},
		{method: "POST", path: "/api/people", needs: needWrite, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/people", body: map[string]any{"library_id": c.shared,
				"name": fmt.Sprintf("cell person %d", c.next())}}
		}},
		{method: "GET", path: "/api/people/{id}", needs: needRead, req: reqAt(person(""))},
		{method: "PATCH", path: "/api/people/{id}", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: person("")(c), body: map[string]any{"is_favorite": true}}
		}},
		{method: "POST", path: "/api/people/{id}/merge", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: person("/merge")(c), body: map[string]any{"ids": []string{c.freshPerson()}}}
		}},
		{method: "POST", path: "/api/people/{id}/reassign", needs: needWrite, req: func(c *cell) cellRequest {
			return cellRequest{path: person("/reassign")(c), body: map[string]any{"face_ids": []string{c.content().face}}}
		}},
		{method: "GET", path: "/api/faces", needs: needRead, req: inShared("/api/faces")},
		// The asset named in the body decides the library; one the caller
		// cannot reach is a 422 on body.asset_id, as in the bulk operations.
		{method: "POST", path: "/api/faces", needs: needWrite, ok: http.StatusCreated,
			nonMemberGets: http.StatusUnprocessableEntity, req: func(c *cell) cellRequest {
				return cellRequest{path: "/api/faces", body: map[string]any{"asset_id": c.asset.ID,
					"bounding_box": map[string]float64{"x": 0.2, "y": 0.2, "width": 0.3, "height": 0.3}}}
			}},
		{method: "DELETE", path: "/api/faces/{id}", needs: needWrite, ok: http.StatusNoContent,
			req: reqAt(func(c *cell) string { return "/api/faces/" + c.freshFace() })},
		{method: "GET", path: "/api/faces/{id}/thumbnail", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/faces/" + c.content().face + "/thumbnail" })},
	}
}

func stackRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/stacks", needs: needRead, req: inShared("/api/stacks")},
		{method: "POST", path: "/api/stacks", needs: needWrite, ok: http.StatusCreated, req: func(c *cell) cellRequest {
			return cellRequest{path: "/api/stacks", body: map[string]any{"library_id": c.shared,
				"asset_ids": []string{c.freshAsset().ID, c.freshAsset().ID}}}
		}},
		{method: "GET", path: "/api/stacks/{id}", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/stacks/" + c.content().stack })},
		{method: "PATCH", path: "/api/stacks/{id}", needs: needWrite, req: func(c *cell) cellRequest {
			// Adding nothing and removing nothing: the stack stays as it is.
			return cellRequest{path: "/api/stacks/" + c.content().stack, body: map[string]any{"add_asset_ids": []string{}}}
		}},
		{method: "DELETE", path: "/api/stacks/{id}", needs: needWrite, ok: http.StatusNoContent,
			req: reqAt(func(c *cell) string { return "/api/stacks/" + c.freshStack() })},
	}
}

func taskRows() []matrixRow {
	return []matrixRow{
		{method: "GET", path: "/api/tasks", needs: needRead, req: inShared("/api/tasks")},
		{method: "GET", path: "/api/tasks/{id}", needs: needRead,
			req: reqAt(func(c *cell) string { return "/api/tasks/" + c.content().task })},
	}
}
