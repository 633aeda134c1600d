package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

func storageOf(t *testing.T, s *servertest.Server, token string) api.StorageUsage {
	t.Helper()
	r := s.Do("GET", "/api/users/me/storage", token, nil)
	return servertest.Expect[api.StorageUsage](t, r, http.StatusOK)
}

// TestStorageFiguresFollowUploadsVersionsAndDeletes: the owner is charged
// for a collaborator's uploads and for versions, a refusal over the quota
// (507) stores nothing, and deletions give the bytes back.
func TestStorageFiguresFollowUploadsVersionsAndDeletes(t *testing.T) {
	s := servertest.Start(t)
	owner, session := s.Session()
	lib := s.Libraries(session)[0]
	_, collab := s.AddMember(session, lib.ID, "collaborator")
	require.Equal(t, api.StorageUsage{}, storageOf(t, s, session))

	mine, theirs := servertest.JPEG(t, 64, 64, 1), servertest.JPEG(t, 64, 64, 2)
	a := s.UploadAsset(session, "a.jpg", mine, nil)
	b := s.UploadAsset(collab, "b.jpg", theirs, map[string]string{"library_id": lib.ID})
	used := int64(len(mine) + len(theirs))
	require.Equal(t, used, storageOf(t, s, session).UsedBytes, "the collaborator's upload is the owner's")
	require.Zero(t, storageOf(t, s, collab).UsedBytes)

	edit := servertest.JPEG(t, 64, 64, 3)
	appendVersion(t, s, collab, b.ID, "edit.jpg", edit)
	used += int64(len(edit))
	require.Equal(t, used, storageOf(t, s, session).UsedBytes, "versions are charged too")

	s.SetQuota(owner.ID, used+10)
	got := storageOf(t, s, session)
	require.Equal(t, used+10, *got.QuotaBytes)
	originals := servertest.BlobNames(t, s.Config.DataDir, "originals")
	requireDetail(t, s.Upload(collab, "c.jpg", servertest.JPEG(t, 64, 64, 4), map[string]string{"library_id": lib.ID}),
		http.StatusInsufficientStorage)
	requireDetail(t, sendVersion(t, s, session, "POST", "/api/assets/"+a.ID+"/versions", "e.jpg",
		servertest.JPEG(t, 64, 64, 5), nil), http.StatusInsufficientStorage)
	require.Equal(t, originals, servertest.BlobNames(t, s.Config.DataDir, "originals"), "a refused upload leaves no file")
	require.Len(t, versionFiles(t, s), 1, "a refused version leaves no file")
	require.Len(t, servertest.List[api.Asset](s, session, "/api/assets"), 2, "nor a row")
	require.Equal(t, used, storageOf(t, s, session).UsedBytes, "nor a charge")

	r := s.Do("DELETE", "/api/assets", session, api.AssetIDs{IDs: []string{b.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, int64(len(mine)), storageOf(t, s, session).UsedBytes, "the original and its version come back")
	key := s.CreateKey(session, []string{"user.read"}, nil)
	require.Equal(t, int64(len(mine)), storageOf(t, s, key).UsedBytes)
}

// TestAdminDeleteUser: an owner of a shared library is refused; otherwise
// the account goes with its libraries, their assets and files, and what it
// uploaded to someone else's library stays there.
func TestAdminDeleteUser(t *testing.T) {
	s := servertest.Start(t)
	admin := adminSession(t, s)
	owner, session := s.Session()
	lib := s.Libraries(session)[0]
	collab, collabSession := s.AddMember(session, lib.ID, "collaborator")
	shared := s.UploadAsset(collabSession, "shared.jpg", servertest.JPEG(t, 64, 64, 1), map[string]string{"library_id": lib.ID})
	own := s.Libraries(collabSession)
	var collabLib string
	for _, l := range own {
		if l.Role == "owner" {
			collabLib = l.ID
		}
	}
	kept := s.UploadAsset(collabSession, "kept.jpg", servertest.JPEG(t, 64, 64, 2), map[string]string{"library_id": collabLib})
	trashed := s.UploadAsset(collabSession, "gone.jpg", servertest.JPEG(t, 64, 64, 3), map[string]string{"library_id": collabLib})
	appendVersion(t, s, collabSession, kept.ID, "edit.jpg", servertest.JPEG(t, 64, 64, 4))
	r := s.Do("POST", "/api/assets/trash", collabSession, api.AssetIDs{IDs: []string{trashed.ID}})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	usedBefore := storageOf(t, s, session).UsedBytes

	requireCode(t, s.Do("DELETE", "/api/admin/users/"+owner.ID, admin, nil), http.StatusConflict, "library_has_members")
	require.Equal(t, http.StatusOK, s.Do("GET", "/api/users/me", session, nil).Status, "a refusal changes nothing")

	r = s.Do("DELETE", "/api/admin/users/"+collab.ID, admin, nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/admin/users/"+collab.ID, admin, nil).Status)
	require.Equal(t, http.StatusUnauthorized, s.Do("GET", "/api/users/me", collabSession, nil).Status)
	names := servertest.BlobNames(t, s.Config.DataDir, "originals")
	require.Equal(t, []string{shared.ID}, names, "the deleted user's own files are gone")
	require.Empty(t, versionFiles(t, s))
	var a api.Asset
	s.Do("GET", "/api/assets/"+shared.ID, session, nil).JSON(t, &a)
	require.Equal(t, owner.ID, a.ContributorID, "an upload to another's library stays, the owner's now")
	require.Equal(t, usedBefore, storageOf(t, s, session).UsedBytes)
	members := servertest.List[api.Member](s, session, "/api/libraries/"+lib.ID+"/members")
	require.Len(t, members, 1)

	r = s.Do("DELETE", "/api/admin/users/"+owner.ID, admin, nil)
	require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
	require.Empty(t, servertest.BlobNames(t, s.Config.DataDir, "originals"))
	require.Equal(t, http.StatusNotFound, s.Do("DELETE", "/api/admin/users/"+owner.ID, admin, nil).Status)
}

// TestConcurrentUploadsIntoTwoLibrariesKeepTheQuota: uploads into two
// libraries of one owner run side by side (on PostgreSQL their writes do
// too), yet the owner's quota holds exactly: the accepted bytes fit, each
// refused file would not have, and the usage is their sum.
func TestConcurrentUploadsIntoTwoLibrariesKeepTheQuota(t *testing.T) {
	s := servertest.Start(t)
	owner, session := s.Session()
	other := s.CreateLibrary(session, "Other")
	libs := []string{s.Libraries(session)[0].ID, other.ID}
	files := make([][]byte, 8)
	total := 0
	for i := range files {
		files[i] = servertest.JPEG(t, 64, 64, 10+i)
		total += len(files[i])
	}
	quota := int64(total / 2)
	s.SetQuota(owner.ID, quota)

	status := make([]int, len(files))
	var wg sync.WaitGroup
	for i, data := range files {
		wg.Go(func() {
			status[i] = s.Upload(session, fmt.Sprintf("%d.jpg", i), data,
				map[string]string{"library_id": libs[i%2]}).Status
		})
	}
	wg.Wait()
	used := storageOf(t, s, session).UsedBytes
	var accepted int64
	for i, st := range status {
		switch st {
		case http.StatusCreated:
			accepted += int64(len(files[i]))
		case http.StatusInsufficientStorage:
			require.Greater(t, used+int64(len(files[i])), quota, "file %d was refused though it fits", i)
		default:
			require.Failf(t, "unexpected status", "file %d: %d", i, st)
		}
	}
	require.Equal(t, accepted, used)
	require.LessOrEqual(t, used, quota)
}
