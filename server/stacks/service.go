// Package stacks holds the stack use cases: list, read, create, modify
// (cover, add, remove) and unstack, the calls the burst detector makes
// inside its own transaction, and the upkeep that keeps stacks whole when
// members are trashed, restored or deleted.
//
// Rules (catalog.Stack): an asset is in at most one stack; a stack has at
// least two members, and one left with fewer is dissolved; the cover is a
// member, and a live one whenever any member is live.
package stacks

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/libraries"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Service implements the stack use cases.
type Service struct {
	store store.Store
	libs  *libraries.Service
	now   func() time.Time
}

// NewService returns a stack service.
func NewService(st store.Store, libs *libraries.Service, now func() time.Time) *Service {
	return &Service{store: st, libs: libs, now: now}
}

// stack reads one stack the caller can reach inside r; write also requires
// a role that may change it. A stack of a library the caller does not
// belong to reads as not found.
func (s *Service) stack(ctx context.Context, r store.Repos, p *catalog.Principal, id string, write bool, what string) (*catalog.Stack, error) {
	st, err := r.Stacks().Get(ctx, id)
	if err != nil {
		return nil, err
	}
	m, err := s.libs.ReachResource(ctx, r, p, st.LibraryID, "stack "+id)
	if err != nil {
		return nil, err
	}
	if write {
		return st, m.RequireWrite(what)
	}
	return st, nil
}

// inStackTx runs fn in a write transaction of stack id's library, beside
// the other libraries' writes: a stack and its members are all of its
// library. A stack that cannot be read leaves fn to meet the error in
// InTx, as before.
func (s *Service) inStackTx(ctx context.Context, id string, fn func(store.Repos) error) error {
	lib := ""
	if st, err := s.store.Read().Stacks().Get(ctx, id); err == nil {
		lib = st.LibraryID
	}
	return s.store.InLibraryTx(ctx, lib, fn)
}

// Get reads one stack the caller can see.
func (s *Service) Get(ctx context.Context, p *catalog.Principal, id string) (*catalog.Stack, error) {
	return s.stack(ctx, s.store.Read(), p, id, false, "reading")
}

// List pages the stacks of the selected library, newest first.
func (s *Service) List(ctx context.Context, p *catalog.Principal, libraryID string, pg query.Page) ([]catalog.Stack, bool, error) {
	m, err := s.libs.Select(ctx, p, libraryID, "query", "library_id")
	if err != nil {
		return nil, false, err
	}
	return s.store.Read().Stacks().List(ctx, query.StackFilter{LibraryID: m.Library.ID}, pg)
}

// Delete unstacks: the members become ordinary assets again.
func (s *Service) Delete(ctx context.Context, p *catalog.Principal, id string) error {
	return s.inStackTx(ctx, id, func(r store.Repos) error {
		st, err := s.stack(ctx, r, p, id, true, "unstacking")
		if err != nil {
			return err
		}
		if err := leftAuto(ctx, r, st, st.AssetIDs, s.now().UTC()); err != nil {
			return err
		}
		return dissolve(ctx, r, st, s.now().UTC())
	})
}

// dissolve removes a stack and writes its stack.deleted event.
func dissolve(ctx context.Context, r store.Repos, st *catalog.Stack, now time.Time) error {
	if err := r.Stacks().Delete(ctx, st.ID); err != nil {
		return err
	}
	return event(ctx, r, "stack.deleted", st, now)
}

// settle makes st (as stored) follow the rules for the members it is to
// have (loaded, any order) and the cover wanted ("" keeps st's): it writes
// a changed cover or membership with a stack.updated event (also when
// changed reports that members left without st knowing), or dissolves the
// stack with stack.deleted when fewer than two members are left. It
// returns false when it dissolved it.
func settle(ctx context.Context, r store.Repos, st *catalog.Stack, members []catalog.Asset, want string, changed bool, now time.Time) (bool, error) {
	if len(members) < catalog.MinStackAssets {
		st.AssetIDs = ids(members)
		return false, dissolve(ctx, r, st, now)
	}
	if want == "" {
		want = st.CoverAssetID
	}
	cover, list := coverOf(members, want), ids(members)
	if !changed && cover == st.CoverAssetID && slices.Equal(list, st.AssetIDs) {
		// Nothing to report, but members may have been trashed or
		// restored: writing the stack as it is re-derives what lists show.
		return true, r.Stacks().Update(ctx, st)
	}
	st.CoverAssetID, st.AssetIDs, st.UpdatedAt = cover, list, now
	if err := r.Stacks().Update(ctx, st); err != nil {
		return false, err
	}
	return true, event(ctx, r, "stack.updated", st, now)
}

// coverOf returns want when it is a member and live (or no member is live),
// else the earliest captured live member (the earliest member when none is
// live).
func coverOf(members []catalog.Asset, want string) string {
	anyLive := slices.ContainsFunc(members, func(a catalog.Asset) bool { return a.TrashedAt == nil })
	for _, a := range members {
		if a.ID == want && (a.TrashedAt == nil || !anyLive) {
			return want
		}
	}
	var best *catalog.Asset
	for i := range members {
		a := &members[i]
		if anyLive && a.TrashedAt != nil {
			continue
		}
		if best == nil || a.Capture.Wall.Before(best.Capture.Wall) ||
			a.Capture.Wall.Equal(best.Capture.Wall) && a.ID < best.ID {
			best = a
		}
	}
	return best.ID
}

// ids lists the members' ids, earliest capture first (the store's order).
func ids(members []catalog.Asset) []string {
	sorted := slices.Clone(members)
	slices.SortFunc(sorted, func(a, b catalog.Asset) int {
		if c := a.Capture.Wall.Compare(b.Capture.Wall); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out := make([]string, len(sorted))
	for i, a := range sorted {
		out[i] = a.ID
	}
	return out
}

// event appends a stack event carrying the stack's state, so a client can
// replace what it holds.
func event(ctx context.Context, r store.Repos, typ string, st *catalog.Stack, now time.Time) error {
	data := map[string]any{"asset_ids": st.AssetIDs}
	if typ != "stack.deleted" {
		data["cover_asset_id"], data["source"] = st.CoverAssetID, st.Source
	}
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return r.Events().Append(ctx, &catalog.Event{ID: catalog.NewID(catalog.PrefixEvent, now), Type: typ,
		LibraryID: st.LibraryID, ResourceID: st.ID, Data: body, CreatedAt: now})
}
