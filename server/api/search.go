package api

// SearchHit is one result of GET and POST /api/search: the Asset as the
// asset list returns it, with its score. Higher scores rank first; a search
// with filters only scores every hit 0 (docs/api.md, "Search").
type SearchHit struct {
	Asset
	Score float64 `json:"score"`
}
