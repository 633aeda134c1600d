package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/httpapi/convert"
	"github.com/photoctl/photoctl/server/httpapi/openapi"
)

// route is one entry of the route table. The documentation fields feed the
// OpenAPI document, so it cannot drift from what is served.
type route struct {
	method  string
	path    string
	access  access
	handler fiber.Handler
	doc     openapi.Doc
}

// routes is the route table: every operation and what it requires.
func (s *Server) routes() []route {
	table := []route{
		{"GET", "/api/health/ping", access{public: true}, s.ping,
			openapi.Doc{Summary: "Liveness check for uptime monitoring", Tag: "health", Status: 200, Resp: api.Health{}}},
		{"GET", "/api/openapi.json", access{public: true}, s.openAPI,
			openapi.Doc{Summary: "This OpenAPI document", Tag: "health", Status: 200, Resp: map[string]any{}}},

		{"POST", "/api/auth/login", access{public: true, perAddress: true}, s.login,
			openapi.Doc{Summary: "Sign in with e-mail and password (first-party session)", Tag: "auth",
				Body: api.LoginRequest{}, Status: 200, Resp: api.TokenResponse{}, Errs: []int{401}}},
		{"POST", "/api/auth/refresh", access{public: true, perAddress: true}, s.refresh,
			openapi.Doc{Summary: "Rotate a refresh token for new tokens", Tag: "auth",
				Body: api.RefreshRequest{}, Status: 200, Resp: api.TokenResponse{}, Errs: []int{401}}},
		{"POST", "/api/auth/logout", access{kinds: sessionOnly}, s.logout,
			openapi.Doc{Summary: "End the current session", Tag: "auth", Status: 204}},

		{"GET", "/api/users/me", access{action: catalog.ActionUserRead}, s.me,
			openapi.Doc{Summary: "The authenticated user", Tag: "users", Status: 200, Resp: api.User{}}},
		{"PATCH", "/api/users/me", access{action: catalog.ActionUserUpdate}, s.patchMe,
			openapi.Doc{Summary: "Change the caller's names, or password (with current_password; ends the other sessions)", Tag: "users",
				Body: api.UserUpdate{}, Status: 200, Resp: api.User{}}},
		{"GET", "/api/users/me/storage", access{action: catalog.ActionUserRead}, s.myStorage,
			openapi.Doc{Summary: "The caller's storage allowance and use (the files of the libraries they own)", Tag: "users",
				Status: 200, Resp: api.StorageUsage{}}},
		{"GET", "/api/users/me/preferences", access{action: catalog.ActionUserRead}, s.getPreferences,
			openapi.Doc{Summary: "The current user's preferences", Tag: "users", Status: 200, Resp: api.Preferences{}}},
		{"PATCH", "/api/users/me/preferences", access{action: catalog.ActionUserUpdate}, s.patchPreferences,
			openapi.Doc{Summary: "Update the current user's preferences", Tag: "users",
				Body: api.PreferencesUpdate{}, Status: 200, Resp: api.Preferences{}}},

		{"GET", "/api/events", access{action: catalog.ActionEventRead}, listByQuery("library_id", s.events.List, convert.Event),
			openapi.Doc{Summary: "The change feed of a library, oldest first", Tag: "events", Paged: true,
				Query: []string{"library_id"}, Status: 200, Resp: api.Page[api.Event]{}}},

		{"POST", "/api/assets", access{action: catalog.ActionAssetUpload, cost: CostUpload}, s.uploadAsset,
			openapi.Doc{Summary: "Upload a photo or video", Form: uploadForm{},
				Tag: "assets", Query: []string{"library_id"}, Status: 201, Resp: api.Asset{}, Also: []int{200}, Errs: []int{413, 507, 503}}},
		{"GET", "/api/assets", access{action: catalog.ActionAssetRead}, s.listAssets,
			openapi.Doc{Summary: "List assets", Tag: "assets", Paged: true, Query: assetFilterParams,
				Status: 200, Resp: api.Page[api.Asset]{}}},
		{"GET", "/api/assets/counts", access{action: catalog.ActionAssetRead}, s.assetCounts,
			openapi.Doc{Summary: "Count assets per capture day, month or year (paged by starting_after_bucket)", Tag: "assets",
				Query: assetCountsParams, Status: 200, Resp: api.Page[api.AssetCount]{}}},
		{"GET", "/api/assets/geo-clusters", access{action: catalog.ActionAssetRead}, s.geoClusters,
			openapi.Doc{Summary: "Group the assets of a viewport into grid cells (at most 1000 non-empty cells)", Tag: "assets",
				Query: geoClusterParams, Must: []string{"bbox", "cell_size"}, Status: 200, Resp: api.GeoClusters{}}},
		{"POST", "/api/assets/check", access{action: catalog.ActionAssetRead}, s.checkAssets,
			openapi.Doc{Summary: "Which checksums the library already holds", Tag: "assets", Query: []string{"library_id"},
				Body: api.ChecksumCheckRequest{}, Status: 200, Resp: api.ChecksumCheckResponse{}}},
		{"POST", "/api/assets/bulk-update", access{action: catalog.ActionAssetUpdate}, s.bulkUpdateAssets,
			openapi.Doc{Summary: "Edit metadata of up to 200 assets atomically", Tag: "assets",
				Body: api.BulkUpdateRequest{}, Status: 200, Resp: api.Empty{}}},
		{"POST", "/api/assets/trash", access{action: catalog.ActionAssetTrash}, s.trashAssets,
			openapi.Doc{Summary: "Move up to 100 assets to the trash", Tag: "assets", Query: []string{"library_id"},
				Body: api.AssetIDs{}, Status: 200, Resp: api.AssetIDs{}}},
		{"POST", "/api/assets/restore", access{action: catalog.ActionAssetTrash}, s.restoreAssets,
			openapi.Doc{Summary: "Restore up to 100 assets from the trash", Tag: "assets", Query: []string{"library_id"},
				Body: api.AssetIDs{}, Status: 200, Resp: api.AssetIDs{}}},
		{"DELETE", "/api/assets", access{action: catalog.ActionAssetDelete}, s.deleteAssets,
			openapi.Doc{Summary: "Permanently delete up to 100 assets (library owner only)", Tag: "assets",
				Query: []string{"library_id"}, Body: api.AssetIDs{}, Status: 200, Resp: api.AssetsDeleted{}}},
		{"GET", "/api/assets/:id", access{action: catalog.ActionAssetRead}, s.getAsset,
			openapi.Doc{Summary: "One asset, with the text OCR read in it", Tag: "assets", Query: []string{"include", "variants"},
				Status: 200, Resp: api.AssetDetail{}}},
		{"PATCH", "/api/assets/:id", access{action: catalog.ActionAssetUpdate}, s.patchAsset,
			openapi.Doc{Summary: "Edit one asset's metadata", Tag: "assets", Body: api.AssetChange{}, Status: 200, Resp: api.Asset{}}},
		{"GET", "/api/assets/:id/original", access{action: catalog.ActionAssetRead}, s.downloadOriginal,
			openapi.Doc{Summary: "Download the original file (attachment; ETag, Range)", Tag: "assets", Status: 200, Errs: []int{503}}},
		{"HEAD", "/api/assets/:id/original", access{action: catalog.ActionAssetRead}, s.downloadOriginal,
			openapi.Doc{Summary: "The original download's status and headers, without the file", Tag: "assets", Status: 200, Errs: []int{503}}},
		{"GET", "/api/assets/:id/versions", access{action: catalog.ActionAssetRead}, listByID(s.assets.ListVersions, convert.Version),
			openapi.Doc{Summary: "An asset's versions, newest first; the original is the last", Tag: "assets", Paged: true,
				Status: 200, Resp: api.Page[api.Version]{}}},
		{"POST", "/api/assets/:id/versions", access{action: catalog.ActionAssetUpdate, cost: CostUpload}, s.appendVersion,
			openapi.Doc{Summary: "Append an edited rendering; it becomes current", Tag: "assets", Form: versionForm{},
				Status: 201, Resp: api.Version{}, Errs: []int{413, 507, 503}}},
		{"PUT", "/api/assets/:id/versions/:version_id", access{action: catalog.ActionAssetUpdate, cost: CostUpload}, s.replaceVersion,
			openapi.Doc{Summary: "Replace a version's file; not the original", Tag: "assets", Form: versionForm{},
				Status: 200, Resp: api.Version{}, Errs: []int{409, 413, 507, 503}}},
		{"POST", "/api/assets/:id/versions/:version_id/revert", access{action: catalog.ActionAssetUpdate}, s.revertVersion,
			openapi.Doc{Summary: "Make a version, or the original, current", Tag: "assets", Status: 200, Resp: api.Version{}}},
		{"DELETE", "/api/assets/:id/versions/:version_id", access{action: catalog.ActionAssetUpdate}, s.deleteVersion,
			openapi.Doc{Summary: "Delete a version (not the original); the one before it becomes current if it was", Tag: "assets",
				Status: 204, Errs: []int{409}}},
		{"GET", "/api/assets/:id/versions/:version_id/file", access{action: catalog.ActionAssetRead}, s.downloadVersion,
			openapi.Doc{Summary: "Download a version's file (attachment; ETag, Range)", Tag: "assets", Status: 200, Errs: []int{503}}},
		{"HEAD", "/api/assets/:id/versions/:version_id/file", access{action: catalog.ActionAssetRead}, s.downloadVersion,
			openapi.Doc{Summary: "A version file download's status and headers, without the file", Tag: "assets", Status: 200, Errs: []int{503}}},
		{"GET", "/api/assets/:id/variants/:name", access{action: catalog.ActionAssetRead}, s.getVariant,
			openapi.Doc{Summary: "An image rendering: thumbnail, preview or fullsize; a video's poster frame: poster", Tag: "assets",
				Query: []string{"v"}, Status: 200, Errs: []int{503}}},
		{"HEAD", "/api/assets/:id/variants/:name", access{action: catalog.ActionAssetRead}, s.getVariant,
			openapi.Doc{Summary: "An image rendering's status and headers, without the image", Tag: "assets",
				Query: []string{"v"}, Status: 200, Errs: []int{503}}},

		{"POST", "/api/api-keys", access{kinds: sessionOnly}, s.createAPIKey,
			openapi.Doc{Summary: "Create an API key (the secret is returned once)", Tag: "api-keys",
				Body: api.APIKeyCreateRequest{}, Status: 201, Resp: api.APIKeyCreated{}}},
		{"GET", "/api/api-keys", access{kinds: sessionOnly}, listPage([]string{"name", "library_id", "order_by", "order"}, s.listAPIKeys, convert.APIKey),
			openapi.Doc{Summary: "List API keys", Tag: "api-keys", Paged: true,
				Query: []string{"name", "library_id", "order_by", "order"}, Status: 200, Resp: api.Page[api.APIKey]{}}},
		{"GET", "/api/api-keys/:id", access{kinds: sessionOnly}, one(s.auth.GetAPIKey, convert.APIKey),
			openapi.Doc{Summary: "One API key", Tag: "api-keys", Status: 200, Resp: api.APIKey{}}},
		{"PATCH", "/api/api-keys/:id", access{kinds: sessionOnly}, s.patchAPIKey,
			openapi.Doc{Summary: "Rename an API key or replace its scope", Tag: "api-keys",
				Body: api.APIKeyUpdateRequest{}, Status: 200, Resp: api.APIKey{}}},
		{"DELETE", "/api/api-keys/:id", access{kinds: sessionOnly}, s.deleteAPIKey,
			openapi.Doc{Summary: "Revoke an API key", Tag: "api-keys", Status: 204}},
	}
	table = append(table, s.taskRoutes()...)
	table = append(table, s.libraryRoutes()...)
	table = append(table, s.memberRoutes()...)
	table = append(table, s.invitationRoutes()...)
	table = append(table, s.peopleRoutes()...)
	table = append(table, s.albumRoutes()...)
	table = append(table, s.stackRoutes()...)
	table = append(table, s.searchRoutes()...)
	table = append(table, s.oauthRoutes()...)
	table = append(table, s.mcpRoutes()...)
	table = append(table, s.oidcRoutes()...)
	table = append(table, s.adminUserRoutes()...)
	return table
}
