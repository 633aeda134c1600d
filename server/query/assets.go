package query

import "github.com/photoctl/photoctl/server/catalog"

// AssetState selects assets by lifecycle.
type AssetState string

// Asset states for filters.
const (
	StateLive    AssetState = "live"
	StateTrashed AssetState = "trashed"
	StateAll     AssetState = "all"
)

// AssetFilter narrows an asset list. Zero fields do not filter.
type AssetFilter struct {
	LibraryID string
	IDs       []string
	State     AssetState // "" means live
	MediaType catalog.MediaType
	MinRating *int
	Capture   catalog.CaptureRange
	Location  *catalog.Location
	// StackID lists a stack's members; without it stacks are collapsed to
	// their cover.
	StackID string
	// AlbumID lists an album's assets as they were added (stacks are not
	// collapsed), through the album's own timeline index. List only: counts
	// and clusters do not take it yet.
	AlbumID string
	// PersonIDs keeps assets holding a face of every one of these people.
	PersonIDs []string
	// WithStacked lists every stack member, not only covers, and counts
	// and clusters them so (the API's stacks=expand; the Immich layer shows
	// its clients every asset they could upload again).
	WithStacked bool
	Asc         bool
}
