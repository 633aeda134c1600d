package importer

import (
	"context"
	"fmt"
	"path"
	"path/filepath"

	"github.com/photoctl/photoctl/client"
)

// AlbumResult is what an import put into one album.
type AlbumResult struct {
	Name  string `json:"name"`
	ID    string `json:"id"`
	Added int    `json:"added"`
}

// albumer puts uploaded (and already held) assets into albums: one named
// by Options.Album, or one per folder with Options.AlbumFromFolder. Albums
// are found or made by name (the server's named create), and assets are
// added 100 at a time. It is used by the collecting goroutine only.
type albumer struct {
	c       *client.Client
	library string
	fixed   string              // Options.Album
	byDir   bool                // Options.AlbumFromFolder
	ids     map[string]string   // album name -> id
	pending map[string][]string // album name -> asset ids not sent yet
	added   map[string]int
	order   []string
}

func newAlbumer(c *client.Client, opts Options) *albumer {
	if opts.Album == "" && !opts.AlbumFromFolder || opts.DryRun {
		return nil
	}
	return &albumer{c: c, library: opts.LibraryID, fixed: opts.Album, byDir: opts.AlbumFromFolder,
		ids: map[string]string{}, pending: map[string][]string{}, added: map[string]int{}}
}

// albumName is the album of a file: the fixed one, or the name of the
// folder holding it.
func (a *albumer) albumName(f file) string {
	if a.fixed != "" {
		return a.fixed
	}
	dir := path.Dir(f.rel)
	if dir == "." || f.root.only != "" {
		return filepath.Base(f.root.dir)
	}
	return path.Base(dir)
}

// add queues assetID for f's album and sends a full batch.
func (a *albumer) add(ctx context.Context, f file, assetID string) error {
	name := a.albumName(f)
	if _, ok := a.pending[name]; !ok && a.added[name] == 0 {
		a.order = append(a.order, name)
	}
	a.pending[name] = append(a.pending[name], assetID)
	if len(a.pending[name]) >= client.MaxBulkIDs {
		return a.send(ctx, name)
	}
	return nil
}

// flush sends what is queued.
func (a *albumer) flush(ctx context.Context) error {
	for _, name := range a.order {
		if err := a.send(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (a *albumer) send(ctx context.Context, name string) error {
	ids := a.pending[name]
	if len(ids) == 0 {
		return nil
	}
	id, ok := a.ids[name]
	if !ok {
		album, _, err := a.c.CreateAlbum(ctx, a.library, name)
		if err != nil {
			return &fatalError{fmt.Errorf("album %q: %w", name, err)}
		}
		id = album.ID
		a.ids[name] = id
	}
	if _, err := a.c.AddAlbumAssets(ctx, id, ids); err != nil {
		return &fatalError{fmt.Errorf("add to album %q: %w", name, err)}
	}
	a.added[name] += len(ids)
	a.pending[name] = ids[:0]
	return nil
}

func (a *albumer) results() []AlbumResult {
	var out []AlbumResult
	for _, name := range a.order {
		out = append(out, AlbumResult{Name: name, ID: a.ids[name], Added: a.added[name]})
	}
	return out
}
