package immichapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestImmichRolesBeforeDuplicates: Immich checks the permission before it
// answers that something is already there.
func TestImmichRolesBeforeDuplicates(t *testing.T) {
	owner, _, ownerSession := newImmich(t)
	data := servertest.JPEG(t, 16, 16, 7)
	id := owner.uploadNew("a.jpg", data)
	var al immichAlbum
	owner.ok(201, "POST", "/api/albums", map[string]any{"albumName": "Shared", "assetIds": []string{id}}, &al)
	var tags []immichTag
	owner.ok(200, "PUT", "/api/tags", map[string]any{"tags": []string{"t"}}, &tags)
	lib := owner.s.Libraries(ownerSession)[0]
	member := func(role string) *immichClient {
		_, session := owner.s.AddMember(ownerSession, lib.ID, role)
		r := owner.s.Do("PATCH", "/api/users/me/preferences", session, map[string]any{"immich_library_id": lib.ID})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		return owner.with(owner.s.CreateKey(session, []string{"all"}, nil))
	}
	viewer, collaborator := member("viewer"), member("collaborator")

	for name, r := range map[string]*servertest.Response{
		"an upload announced as a duplicate": viewer.upload("a.jpg", data, nil, map[string]string{"x-immich-checksum": sha1Base64(data)}),
		"an upload of a duplicate":           viewer.upload("a.jpg", data, nil, nil),
		"an asset already in the album":      viewer.do("PUT", "/api/albums/"+al.ID+"/assets", map[string]any{"ids": []string{id}}),
		"a tag that exists":                  viewer.do("PUT", "/api/tags", map[string]any{"tags": []string{"t"}}),
		"tagging":                            viewer.do("PUT", "/api/tags/"+tags[0].ID+"/assets", map[string]any{"ids": []string{id}}),
		"a trash":                            viewer.do("DELETE", "/api/assets", map[string]any{"ids": []string{id}}),
		"a copy":                             viewer.do("PUT", "/api/assets/copy", map[string]any{"sourceId": id, "targetId": id}),
	} {
		t.Run("a viewer is refused "+name, func(t *testing.T) { requireImmichError(t, r, http.StatusForbidden) })
	}
	t.Run("a viewer reads and downloads", func(t *testing.T) {
		viewer.ok(200, "GET", "/api/assets/"+id, nil, nil)
		require.Equal(t, data, viewer.do("GET", "/api/assets/"+id+"/original", nil).Body)
	})
	t.Run("a collaborator gets duplicates, trashes, but does not delete for good", func(t *testing.T) {
		var up immichUploadResponse
		collaborator.upload("a.jpg", data, nil, nil).JSON(t, &up)
		require.Equal(t, "duplicate", up.Status)
		requireImmichError(t, collaborator.do("DELETE", "/api/assets", map[string]any{"ids": []string{id}, "force": true}),
			http.StatusForbidden)
		r := collaborator.do("DELETE", "/api/assets", map[string]any{"ids": []string{id}})
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	})
	t.Run("a key without asset.delete does not delete for good", func(t *testing.T) {
		k := owner.with(owner.s.CreateKey(ownerSession, []string{"asset.read", "asset.trash"}, nil))
		e := requireImmichError(t, k.do("DELETE", "/api/assets", map[string]any{"ids": []string{id}, "force": true}),
			http.StatusForbidden)
		require.Contains(t, e.Message, "asset.delete")
	})
}
