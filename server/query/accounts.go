package query

// LibraryFilter narrows a user's library list.
type LibraryFilter struct {
	UserID         string
	IncludeTrashed bool
	// OnlyTrashed lists trashed libraries alone.
	OnlyTrashed bool
	// IDs, when not nil, keeps only these libraries (a scoped credential's).
	IDs []string
}

// APIKeyFilter narrows and orders a user's API key list.
type APIKeyFilter struct {
	UserID    string
	Name      string // case-insensitive substring
	LibraryID string // keys whose scope reaches this library
	OrderBy   string // created_at, last_used_at or name
	Desc      bool
}
