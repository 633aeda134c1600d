package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/catalog"
)

// route is one entry of the route table. The documentation fields feed the
// OpenAPI document, so it cannot drift from what is served.
type route struct {
	method  string
	path    string
	access  access
	handler fiber.Handler
	doc     routeDoc
}

// routeDoc describes a route for the OpenAPI document.
type routeDoc struct {
	summary string
	tag     string
	query   []string // query parameter names beyond paging
	must    []string // the query parameters among query that are required
	paged   bool
	body    any   // JSON request body type, nil for none
	form    any   // multipart/form-data body (a struct with formData tags), nil for none
	status  int   // success status
	resp    any   // success body type
	also    []int // other success statuses with the same body (200 for a named-create match)
	errs    []int // route-specific failures beyond the common ones (401 on sign-in, 409)
}

// routes is the route table: every operation and what it requires.
func (s *Server) routes() []route {
	table := []route{
		{"GET", "/api/health/ping", access{public: true}, s.ping,
			routeDoc{summary: "Liveness check for uptime monitoring", tag: "health", status: 200, resp: api.Health{}}},
		{"GET", "/api/openapi.json", access{public: true}, s.openAPI,
			routeDoc{summary: "This OpenAPI document", tag: "health", status: 200, resp: map[string]any{}}},

		{"POST", "/api/auth/login", access{public: true, perAddress: true}, s.login,
			routeDoc{summary: "Sign in with e-mail and password (first-party session)", tag: "auth",
				body: api.LoginRequest{}, status: 200, resp: api.TokenResponse{}, errs: []int{401}}},
		{"POST", "/api/auth/refresh", access{public: true, perAddress: true}, s.refresh,
			routeDoc{summary: "Rotate a refresh token for new tokens", tag: "auth",
				body: api.RefreshRequest{}, status: 200, resp: api.TokenResponse{}, errs: []int{401}}},
		{"POST", "/api/auth/logout", access{kinds: sessionOnly}, s.logout,
			routeDoc{summary: "End the current session", tag: "auth", status: 204}},

		{"GET", "/api/users/me", access{action: catalog.ActionUserRead}, s.me,
			routeDoc{summary: "The authenticated user", tag: "users", status: 200, resp: api.User{}}},
		{"PATCH", "/api/users/me", access{action: catalog.ActionUserUpdate}, s.patchMe,
			routeDoc{summary: "Change the caller's names, or password (with current_password; ends the other sessions)", tag: "users",
				body: api.UserUpdate{}, status: 200, resp: api.User{}}},
		{"GET", "/api/users/me/storage", access{action: catalog.ActionUserRead}, s.myStorage,
			routeDoc{summary: "The caller's storage allowance and use (the files of the libraries they own)", tag: "users",
				status: 200, resp: api.StorageUsage{}}},
		{"GET", "/api/users/me/preferences", access{action: catalog.ActionUserRead}, s.getPreferences,
			routeDoc{summary: "The current user's preferences", tag: "users", status: 200, resp: api.Preferences{}}},
		{"PATCH", "/api/users/me/preferences", access{action: catalog.ActionUserUpdate}, s.patchPreferences,
			routeDoc{summary: "Update the current user's preferences", tag: "users",
				body: api.PreferencesUpdate{}, status: 200, resp: api.Preferences{}}},

		{"GET", "/api/events", access{action: catalog.ActionEventRead}, s.listEvents,
			routeDoc{summary: "The change feed of a library, oldest first", tag: "events", paged: true,
				query: []string{"library_id"}, status: 200, resp: api.Page[api.Event]{}}},

		{"POST", "/api/assets", access{action: catalog.ActionAssetUpload, cost: costUpload}, s.uploadAsset,
			routeDoc{summary: "Upload a photo or video", form: uploadForm{},
				tag: "assets", query: []string{"library_id"}, status: 201, resp: api.Asset{}, also: []int{200}, errs: []int{413, 507, 503}}},
		{"GET", "/api/assets", access{action: catalog.ActionAssetRead}, s.listAssets,
			routeDoc{summary: "List assets", tag: "assets", paged: true, query: assetFilterParams,
				status: 200, resp: api.Page[api.Asset]{}}},
		{"GET", "/api/assets/counts", access{action: catalog.ActionAssetRead}, s.assetCounts,
			routeDoc{summary: "Count assets per capture day, month or year (paged by starting_after_bucket)", tag: "assets",
				query: assetCountsParams, status: 200, resp: api.Page[api.AssetCount]{}}},
		{"GET", "/api/assets/geo-clusters", access{action: catalog.ActionAssetRead}, s.geoClusters,
			routeDoc{summary: "Group the assets of a viewport into grid cells (at most 1000 non-empty cells)", tag: "assets",
				query: geoClusterParams, must: []string{"bbox", "cell_size"}, status: 200, resp: api.GeoClusters{}}},
		{"POST", "/api/assets/check", access{action: catalog.ActionAssetRead}, s.checkAssets,
			routeDoc{summary: "Which checksums the library already holds", tag: "assets", query: []string{"library_id"},
				body: api.ChecksumCheckRequest{}, status: 200, resp: api.ChecksumCheckResponse{}}},
		{"POST", "/api/assets/bulk-update", access{action: catalog.ActionAssetUpdate}, s.bulkUpdateAssets,
			routeDoc{summary: "Edit metadata of up to 200 assets atomically", tag: "assets",
				body: api.BulkUpdateRequest{}, status: 200, resp: api.Empty{}}},
		{"POST", "/api/assets/trash", access{action: catalog.ActionAssetTrash}, s.trashAssets,
			routeDoc{summary: "Move up to 100 assets to the trash", tag: "assets", query: []string{"library_id"},
				body: api.AssetIDs{}, status: 200, resp: api.AssetIDs{}}},
		{"POST", "/api/assets/restore", access{action: catalog.ActionAssetTrash}, s.restoreAssets,
			routeDoc{summary: "Restore up to 100 assets from the trash", tag: "assets", query: []string{"library_id"},
				body: api.AssetIDs{}, status: 200, resp: api.AssetIDs{}}},
		{"DELETE", "/api/assets", access{action: catalog.ActionAssetDelete}, s.deleteAssets,
			routeDoc{summary: "Permanently delete up to 100 assets (library owner only)", tag: "assets",
				query: []string{"library_id"}, body: api.AssetIDs{}, status: 200, resp: api.AssetsDeleted{}}},
		{"GET", "/api/assets/:id", access{action: catalog.ActionAssetRead}, s.getAsset,
			routeDoc{summary: "One asset, with the text OCR read in it", tag: "assets", query: []string{"include", "variants"},
				status: 200, resp: api.AssetDetail{}}},
		{"PATCH", "/api/assets/:id", access{action: catalog.ActionAssetUpdate}, s.patchAsset,
			routeDoc{summary: "Edit one asset's metadata", tag: "assets", body: api.AssetChange{}, status: 200, resp: api.Asset{}}},
		{"GET", "/api/assets/:id/original", access{action: catalog.ActionAssetRead}, s.downloadOriginal,
			routeDoc{summary: "Download the original file (attachment; ETag, Range)", tag: "assets", status: 200, errs: []int{503}}},
		{"HEAD", "/api/assets/:id/original", access{action: catalog.ActionAssetRead}, s.downloadOriginal,
			routeDoc{summary: "The original download's status and headers, without the file", tag: "assets", status: 200, errs: []int{503}}},
		{"GET", "/api/assets/:id/versions", access{action: catalog.ActionAssetRead}, s.listVersions,
			routeDoc{summary: "An asset's versions, newest first; the original is the last", tag: "assets", paged: true,
				status: 200, resp: api.Page[api.Version]{}}},
		{"POST", "/api/assets/:id/versions", access{action: catalog.ActionAssetUpdate, cost: costUpload}, s.appendVersion,
			routeDoc{summary: "Append an edited rendering; it becomes current", tag: "assets", form: versionForm{},
				status: 201, resp: api.Version{}, errs: []int{413, 507, 503}}},
		{"PUT", "/api/assets/:id/versions/:version_id", access{action: catalog.ActionAssetUpdate, cost: costUpload}, s.replaceVersion,
			routeDoc{summary: "Replace a version's file; not the original", tag: "assets", form: versionForm{},
				status: 200, resp: api.Version{}, errs: []int{409, 413, 507, 503}}},
		{"POST", "/api/assets/:id/versions/:version_id/revert", access{action: catalog.ActionAssetUpdate}, s.revertVersion,
			routeDoc{summary: "Make a version, or the original, current", tag: "assets", status: 200, resp: api.Version{}}},
		{"DELETE", "/api/assets/:id/versions/:version_id", access{action: catalog.ActionAssetUpdate}, s.deleteVersion,
			routeDoc{summary: "Delete a version (not the original); the one before it becomes current if it was", tag: "assets",
				status: 204, errs: []int{409}}},
		{"GET", "/api/assets/:id/versions/:version_id/file", access{action: catalog.ActionAssetRead}, s.downloadVersion,
			routeDoc{summary: "Download a version's file (attachment; ETag, Range)", tag: "assets", status: 200, errs: []int{503}}},
		{"HEAD", "/api/assets/:id/versions/:version_id/file", access{action: catalog.ActionAssetRead}, s.downloadVersion,
			routeDoc{summary: "A version file download's status and headers, without the file", tag: "assets", status: 200, errs: []int{503}}},
		{"GET", "/api/assets/:id/variants/:name", access{action: catalog.ActionAssetRead}, s.getVariant,
			routeDoc{summary: "An image rendering: thumbnail, preview or fullsize; a video's poster frame: poster", tag: "assets",
				query: []string{"v"}, status: 200, errs: []int{503}}},
		{"HEAD", "/api/assets/:id/variants/:name", access{action: catalog.ActionAssetRead}, s.getVariant,
			routeDoc{summary: "An image rendering's status and headers, without the image", tag: "assets",
				query: []string{"v"}, status: 200, errs: []int{503}}},

		{"POST", "/api/api-keys", access{kinds: sessionOnly}, s.createAPIKey,
			routeDoc{summary: "Create an API key (the secret is returned once)", tag: "api-keys",
				body: api.APIKeyCreateRequest{}, status: 201, resp: api.APIKeyCreated{}}},
		{"GET", "/api/api-keys", access{kinds: sessionOnly}, s.listAPIKeys,
			routeDoc{summary: "List API keys", tag: "api-keys", paged: true,
				query: []string{"name", "library_id", "order_by", "order"}, status: 200, resp: api.Page[api.APIKey]{}}},
		{"GET", "/api/api-keys/:id", access{kinds: sessionOnly}, s.getAPIKey,
			routeDoc{summary: "One API key", tag: "api-keys", status: 200, resp: api.APIKey{}}},
		{"PATCH", "/api/api-keys/:id", access{kinds: sessionOnly}, s.patchAPIKey,
			routeDoc{summary: "Rename an API key or replace its scope", tag: "api-keys",
				body: api.APIKeyUpdateRequest{}, status: 200, resp: api.APIKey{}}},
		{"DELETE", "/api/api-keys/:id", access{kinds: sessionOnly}, s.deleteAPIKey,
			routeDoc{summary: "Revoke an API key", tag: "api-keys", status: 204}},
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
