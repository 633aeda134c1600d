package catalog

import "time"

// StackSource says how a stack was made.
type StackSource string

// Stack sources: grouped by the burst detector at ingest, or by a user.
const (
	StackAuto   StackSource = "auto"
	StackManual StackSource = "manual"
)

// MinStackAssets is the fewest members a stack has: a stack left with fewer
// is dissolved.
const MinStackAssets = 2

// Stack groups related shots of one moment. Collapsed asset lists show a
// stack as one unit, its cover. An asset is in at most one stack.
//
// Trash and membership are independent: a trashed member stays a member
// (trash lists show it on its own), and while any member is live the cover
// is a live one, so a stack never vanishes from the live timeline while it
// still has live members.
type Stack struct {
	ID           string
	LibraryID    string
	CoverAssetID string
	// AssetIDs are the members, earliest capture first (then by id).
	AssetIDs  []string
	Source    StackSource
	CreatedAt time.Time
	UpdatedAt time.Time
}

// AutoStackID is the value of metadata.auto_stack_id: the id of the
// asset's stack when the burst detector made it, else the metadata
// layers' own value. It is derived from the stack on every read rather than
// written into a metadata layer, so it can never outlive or disagree with
// the stack (the file layer is rewritten by every metadata run, and the
// user layer holds only the user's edits).
func (a *Asset) AutoStackID() *string {
	m := a.Merged()
	return a.AutoStackIDOf(&m)
}

// AutoStackIDOf is AutoStackID for a caller that already holds the merged
// metadata m of a.
func (a *Asset) AutoStackIDOf(m *Metadata) *string {
	if a.StackID != nil && a.StackSource == StackAuto {
		id := *a.StackID
		return &id
	}
	return m.AutoStackID
}
