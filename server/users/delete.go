package users

import (
	"context"
	"fmt"

	"github.com/photoctl/photoctl/server/catalog"
	"github.com/photoctl/photoctl/server/query"
	"github.com/photoctl/photoctl/server/store"
)

// Delete removes an account for a superuser, with every library it owns
// (live or trashed) and those libraries' assets and files:
//
//   - a user who owns a library with other members is refused (409,
//     code library_has_members): the owner removes them first, so nobody
//     loses photos they reach without being told;
//   - the last active superuser is refused (409, code last_superuser);
//   - otherwise the account is deactivated at once (its credentials stop
//     working), then each owned library's assets are deleted through the
//     assets' own deletion path (files journaled and removed, storage
//     credited), then the libraries and the account go in one
//     transaction. What the user uploaded to other people's libraries
//     stays there, attributed to each library's owner.
//
// A failure part-way leaves the account deactivated and some assets
// deleted; deleting it again finishes the job.
func (s *Service) Delete(ctx context.Context, p *catalog.Principal, id string) error {
	if err := requireSuperuser(p); err != nil {
		return err
	}
	var owned []string
	err := s.store.InTx(ctx, func(r store.Repos) error {
		u, err := r.Users().Get(ctx, id)
		if err != nil {
			return err
		}
		if u.IsActive && u.IsSuperuser {
			if err := notLastSuperuser(ctx, r, "deleted"); err != nil {
				return err
			}
		}
		if owned, err = ownedUnshared(ctx, r, id); err != nil {
			return err
		}
		u.IsActive, u.UpdatedAt = false, s.now().UTC()
		return r.Users().Update(ctx, u)
	})
	if err != nil {
		return err
	}
	if s.purger != nil {
		for _, lib := range owned {
			if err := s.purger.PurgeLibrary(ctx, lib); err != nil {
				return fmt.Errorf("delete the assets of library %s: %w", lib, err)
			}
		}
	}
	return s.store.InTx(ctx, func(r store.Repos) error { return r.Users().Delete(ctx, id) })
}

// ownedUnshared returns the ids of the libraries userID owns, trashed or
// not, refusing when one of them has another member.
func ownedUnshared(ctx context.Context, r store.Repos, userID string) ([]string, error) {
	var ids []string
	pg := query.Page{Limit: 200}
	for {
		list, more, err := r.Libraries().ListForUser(ctx, query.LibraryFilter{UserID: userID, IncludeTrashed: true}, pg)
		if err != nil {
			return nil, err
		}
		for _, m := range list {
			if m.Role != catalog.RoleOwner {
				continue
			}
			members, _, err := r.Libraries().Members(ctx, m.Library.ID, query.Page{Limit: 2})
			if err != nil {
				return nil, err
			}
			if len(members) > 1 {
				return nil, catalog.Coded(catalog.ErrConflict, "library_has_members", fmt.Sprintf(
					"the user owns library %s (%q), which has other members: remove them first", m.Library.ID, m.Library.Name))
			}
			ids = append(ids, m.Library.ID)
		}
		if !more || len(list) == 0 {
			return ids, nil
		}
		pg.AfterID = list[len(list)-1].Library.ID
	}
}
