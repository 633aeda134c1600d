package store

import "context"

// AssetsLibrary returns the library that holds every asset ids names, as
// s reads them, to scope a write transaction on them with InLibraryTx; ""
// (InTx) when they are in several libraries, when one is missing or when
// the read fails, so that the transaction meets the error itself as it did
// before. An asset never moves to another library, so the library read
// before the transaction is still its library inside it. A store that
// writes one transaction at a time (SQLite) gets "" without a read: the
// scope would change nothing there, and the pipeline asks before every
// step's write.
func AssetsLibrary(ctx context.Context, s Store, ids ...string) string {
	if p, ok := s.(ParallelLibraryWriter); !ok || !p.ParallelLibraryWrites() {
		return ""
	}
	list, err := s.Read().Assets().GetMany(ctx, ids)
	if err != nil || len(list) == 0 {
		return ""
	}
	found := make(map[string]bool, len(list))
	lib := list[0].LibraryID
	for _, a := range list {
		if a.LibraryID != lib {
			return ""
		}
		found[a.ID] = true
	}
	for _, id := range ids {
		if !found[id] {
			return ""
		}
	}
	return lib
}
