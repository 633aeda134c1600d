package api

import (
	"encoding/json"
	"time"
)

// Event is one entry of the change feed.
type Event struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	LibraryID  string          `json:"library_id"`
	ResourceID string          `json:"resource_id"`
	Data       json.RawMessage `json:"data"`
	CreatedAt  time.Time       `json:"created_at"`
}
