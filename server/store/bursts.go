package store

import (
	"context"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
)

// BurstShot is what burst detection reads of an asset: who took it, when,
// what it looks like and how good it is, and where it stands with stacks.
type BurstShot struct {
	ID        string
	LibraryID string
	// DeviceID is the uploading device's id ("" when none was given);
	// Make and Model come from the file metadata layer ("" when absent).
	DeviceID, Make, Model string
	// CaptureSource is the file layer's (catalog.Metadata.CaptureSource):
	// the tag the capture time came from, catalog.CaptureFromFile, or ""
	// when not recorded. UserTime says a user's edit replaced the capture
	// time. SerialNumber and BurstID are the camera's ("" when absent).
	CaptureSource         string
	UserTime              bool
	SerialNumber, BurstID string
	// Instant is the capture instant, the wall-clock reading taken as UTC
	// when the offset is unknown (catalog.CaptureTime.Instant).
	Instant time.Time
	// PHash and Quality are the metrics step's (metrics.phash, .quality):
	// "" and nil before it ran.
	PHash   string
	Quality *float64
	// StackID and StackSource name the asset's stack ("" when none).
	StackID     string
	StackSource catalog.StackSource
	Live        bool
	// Excluded is set once a user took the asset out of an automatic
	// stack: burst detection leaves it alone from then on.
	Excluded bool
}

// Bursts are the reads burst detection makes and the exclusions it
// respects. Every method is scoped by the ids it is given.
type Bursts interface {
	// Shots returns the shots of the assets with these ids that exist, in
	// any order.
	Shots(ctx context.Context, ids []string) ([]BurstShot, error)
	// Near returns the live shots of a library captured from from to to
	// (both included), earliest first (then in upload order), at most
	// limit: one range of an index on (library, live, capture instant),
	// never a scan of the library.
	Near(ctx context.Context, libraryID string, from, to time.Time, limit int) ([]BurstShot, error)
	// UnsettledLibraries returns the libraries holding an automatic stack
	// with a member whose file layer has no capture source recorded (read
	// by an older version, before bursts needed camera evidence): through
	// the stacked assets only, never a scan of the libraries' assets.
	UnsettledLibraries(ctx context.Context) ([]string, error)
	// Exclude records that a user took these assets out of an automatic
	// stack. Recording one twice keeps the first time; a missing asset is
	// ignored. The record goes with the asset.
	Exclude(ctx context.Context, ids []string, at time.Time) error
}
