package immich

// Wire types: the JSON Immich clients send and read (camelCase). Fields
// follow Immich's own DTOs where a client reads them; see immich-compat.md.

// ErrorBody is Immich's error shape.
type ErrorBody struct {
	Message    string `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// WellKnown is GET /.well-known/immich: where the API is.
type WellKnown struct {
	API WellKnownAPI `json:"api"`
}

// WellKnownAPI names the API's path.
type WellKnownAPI struct {
	Endpoint string `json:"endpoint"`
}

// Pong is GET /api/server/ping.
type Pong struct {
	Res string `json:"res"`
}

// About is GET /api/server/about.
type About struct {
	Version    string `json:"version"`
	VersionURL string `json:"versionUrl"`
	Licensed   bool   `json:"licensed"`
	Build      string `json:"build,omitempty"`
}

// Version is GET /api/server/version.
type Version struct {
	Major int `json:"major"`
	Minor int `json:"minor"`
	Patch int `json:"patch"`
}

// MediaTypes is GET /api/server/media-types: extensions with their dots.
type MediaTypes struct {
	Image   []string `json:"image"`
	Video   []string `json:"video"`
	Sidecar []string `json:"sidecar"`
}

// User is GET /api/users/me and an album's owner.
type User struct {
	ID                   string  `json:"id"`
	Email                string  `json:"email"`
	Name                 string  `json:"name"`
	ProfileImagePath     string  `json:"profileImagePath"`
	AvatarColor          string  `json:"avatarColor"`
	ProfileChangedAt     string  `json:"profileChangedAt"`
	IsAdmin              bool    `json:"isAdmin"`
	ShouldChangePassword bool    `json:"shouldChangePassword"`
	Status               string  `json:"status"`
	StorageLabel         *string `json:"storageLabel"`
	OAuthID              string  `json:"oauthId"`
	QuotaSizeInBytes     *int64  `json:"quotaSizeInBytes"`
	QuotaUsageInBytes    *int64  `json:"quotaUsageInBytes"`
	CreatedAt            *string `json:"createdAt"`
	UpdatedAt            *string `json:"updatedAt"`
	DeletedAt            *string `json:"deletedAt"`
}

// APIKeyBody is GET /api/api-keys/me.
type APIKeyBody struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
	Permissions []string `json:"permissions"`
}

// Statistics is GET /api/assets/statistics.
type Statistics struct {
	Images int64 `json:"images"`
	Videos int64 `json:"videos"`
	Total  int64 `json:"total"`
}

// CheckRequest is the body of POST /api/assets/bulk-upload-check.
type CheckRequest struct {
	Assets []CheckItem `json:"assets"`
}

// CheckItem is one file a client may upload: its own id (the CLI sends the
// file path) and its SHA-1.
type CheckItem struct {
	ID       string `json:"id"`
	Checksum string `json:"checksum"`
}

// CheckResponse answers a bulk upload check.
type CheckResponse struct {
	Results []CheckResult `json:"results"`
}

// CheckResult says whether to upload one file; a reject names the asset
// that already holds the content.
type CheckResult struct {
	ID        string  `json:"id"`
	Action    string  `json:"action"` // accept or reject
	Reason    *string `json:"reason,omitempty"`
	AssetID   *string `json:"assetId,omitempty"`
	IsTrashed *bool   `json:"isTrashed,omitempty"`
}

// UploadResponse answers POST /api/assets (201 created, 200 duplicate).
type UploadResponse struct {
	ID     string `json:"id"`
	Status string `json:"status"` // created or duplicate
}

// JobCommand is the body of PUT /api/jobs/{name}.
type JobCommand struct {
	Command string `json:"command"`
	Force   *bool  `json:"force"`
}

// JobStatus answers a job command; the layer runs no Immich jobs, so the
// counts are zero and the queue reflects the command.
type JobStatus struct {
	JobCounts   JobCounts   `json:"jobCounts"`
	QueueStatus QueueStatus `json:"queueStatus"`
}

// JobCounts are a queue's job counts.
type JobCounts struct {
	Active    int `json:"active"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
	Delayed   int `json:"delayed"`
	Waiting   int `json:"waiting"`
	Paused    int `json:"paused"`
}

// QueueStatus is a queue's state.
type QueueStatus struct {
	IsActive bool `json:"isActive"`
	IsPaused bool `json:"isPaused"`
}
