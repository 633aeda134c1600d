package immich

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
)

// Search page sizes (Immich's bounds and default).
const (
	MaxSearchSize     = 1000
	DefaultSearchSize = 250
)

// SearchQuery is a metadata search over the layer's library.
type SearchQuery struct {
	Page int64 // FirstPage (or 0), or a nextPage of the previous answer
	Size int   // 1..MaxSearchSize
	// Visibility other than "" or "timeline" matches nothing: no photoctl
	// asset is archived, hidden or locked.
	Visibility string
	// WithDeleted adds trashed assets; a trashed bound lists trashed
	// assets only (trashed after After, before Before).
	WithDeleted                 bool
	Trashed                     bool // trashed assets only (isTrashed:true)
	TrashedAfter, TrashedBefore *time.Time
	MediaType                   catalog.MediaType // "" for both
	Asc                         bool
	// None matches nothing (a filter no photoctl asset meets, such as
	// isFavorite:true).
	None bool
}

// SearchPage is one page of a search: the assets and the nextPage token
// ("" when it is the last page).
type SearchPage struct {
	Assets   []catalog.Asset
	NextPage string
}

// ErrBadPage reports a page that is not a nextPage of this search.
var ErrBadPage = errors.New("page is not a nextPage of this search")

// Search pages the library's assets matching q, by capture time, every
// stack member included: an asset appears once across the searches of
// the live (timeline) and trashed (trashedAfter, trashedBefore) assets.
// The pages are the native keyset pages; nextPage encodes the last asset
// as a number (page.go).
func (s *Service) Search(ctx context.Context, p *catalog.Principal, q SearchQuery) (*SearchPage, error) {
	if q.Size < 1 || q.Size > MaxSearchSize {
		return nil, catalog.InvalidField("value_error", fmt.Sprintf("size must be 1 to %d", MaxSearchSize), q.Size, "body", "size")
	}
	seq, err := cursorSeq(q.Page)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPage, err)
	}
	m, err := s.Library(ctx, p)
	if err != nil {
		return nil, err
	}
	if q.None || (q.Visibility != "" && q.Visibility != Visibility) {
		return &SearchPage{}, nil
	}
	f := query.AssetFilter{LibraryID: m.Library.ID, MediaType: q.MediaType, WithStacked: true, Asc: q.Asc}
	trashBound := q.TrashedAfter != nil || q.TrashedBefore != nil
	switch {
	case trashBound || q.Trashed:
		f.State = query.StateTrashed
	case q.WithDeleted:
		f.State = query.StateAll
	default:
		f.State = query.StateLive
	}
	r := s.store.Read()
	pg := query.Page{Limit: q.Size}
	if seq > 0 {
		if pg.AfterID, err = r.Assets().IDBySeq(ctx, seq); errors.Is(err, catalog.ErrNotFound) {
			return nil, fmt.Errorf("%w: page %d names no asset", ErrBadPage, q.Page)
		} else if err != nil {
			return nil, err
		}
	}
	list, more, err := r.Assets().List(ctx, f, pg)
	var ve *catalog.ValidationError
	if errors.As(err, &ve) && seq > 0 {
		return nil, fmt.Errorf("%w: page %d names an asset outside it (was it trashed, restored or deleted meanwhile?)",
			ErrBadPage, q.Page)
	}
	if err != nil {
		return nil, err
	}
	out := &SearchPage{Assets: list[:0:0]}
	for _, a := range list {
		if trashBound && !trashedWithin(a.TrashedAt, q.TrashedAfter, q.TrashedBefore) {
			continue
		}
		out.Assets = append(out.Assets, a)
	}
	if more {
		last, err := r.Assets().Seq(ctx, list[len(list)-1].ID)
		if err != nil {
			return nil, err
		}
		out.NextPage = pageToken(last)
	}
	return out, nil
}

// trashedWithin tests a trashed asset against the bounds: the trash is
// small (retention), so the bounds are applied to its pages here.
func trashedWithin(at, after, before *time.Time) bool {
	return at != nil && (after == nil || at.After(*after)) && (before == nil || at.Before(*before))
}
