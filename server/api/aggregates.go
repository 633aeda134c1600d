package api

// AssetCount is one bucket of GET /api/assets/counts: the wall-clock
// capture date ("2024", "2024-05" or "2024-05-01") and how many assets the
// list would show for it.
type AssetCount struct {
	Bucket string `json:"bucket"`
	Count  int64  `json:"count"`
}

// GeoCluster is one non-empty grid cell of GET /api/assets/geo-clusters:
// the mean position of its assets, their number, and the representative
// (the greatest asset id in the cell, i.e. the latest upload).
type GeoCluster struct {
	Latitude              float64 `json:"latitude"`
	Longitude             float64 `json:"longitude"`
	Count                 int64   `json:"count"`
	RepresentativeAssetID string  `json:"representative_asset_id"`
}

// GeoClusters is the answer of GET /api/assets/geo-clusters: every
// non-empty cell, not paginated.
type GeoClusters struct {
	Data []GeoCluster `json:"data"`
}
