package immich

// Wire types of the tag and asset-management routes (immich-go's --tag,
// its replacement of a smaller copy, and archive from-immich).

// Tag is Immich's TagResponseDto: name is the last segment of value.
// photoctl keeps no hierarchy, so parentId is always null.
type Tag struct {
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Name      string  `json:"name"`
	Value     string  `json:"value"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	Color     *string `json:"color,omitempty"`
}

// UpsertTagsRequest is the body of PUT /api/tags.
type UpsertTagsRequest struct {
	Tags []string `json:"tags"`
}

// BulkTagAssetsRequest is the body of PUT /api/tags/assets.
type BulkTagAssetsRequest struct {
	TagIDs   []string `json:"tagIds"`
	AssetIDs []string `json:"assetIds"`
}

// BulkTagAssetsResponse answers PUT /api/tags/assets: the links made.
type BulkTagAssetsResponse struct {
	Count int `json:"count"`
}

// CopyAssetRequest is the body of PUT /api/assets/copy: what to carry from
// source to target. Immich's flags default to true.
type CopyAssetRequest struct {
	SourceID    string `json:"sourceId"`
	TargetID    string `json:"targetId"`
	Albums      *bool  `json:"albums"`
	Favorite    *bool  `json:"favorite"`
	SharedLinks *bool  `json:"sharedLinks"`
	Sidecar     *bool  `json:"sidecar"`
	Stack       *bool  `json:"stack"`
}

// DeleteAssetsRequest is the body of DELETE /api/assets: trash the assets,
// or delete them for good with force.
type DeleteAssetsRequest struct {
	IDs   []string `json:"ids"`
	Force *bool    `json:"force"`
}
