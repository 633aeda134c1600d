package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
	"github.com/photoctl/photoctl/server/api"
)

// done is the answer of a change: apply runs in Update with what the
// request returned.
type done func(m *Model) tea.Cmd

func (d done) apply(m *Model) tea.Cmd { return d(m) }

// request runs call off the event loop; on success then updates the model
// and on failure the status line shows the server's detail.
func (m *Model) request(call func(ctx context.Context) error, then func(m *Model) tea.Cmd) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		if err := call(ctx); err != nil {
			return done(func(m *Model) tea.Cmd { m.fail(err); return nil })
		}
		return done(then)
	}
}

func ids(as []api.Asset) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

// rate sets the rating of the targets in one bulk update. A rating is
// of one picture: on a stack cover it rates the cover, not the members
// (the prompt and the status say so; enter opens the stack to rate them).
func (m *Model) rate(stars int) tea.Cmd {
	v := m.view()
	targets := v.targets()
	note := coversOnly(v, targets)
	updates := make([]api.AssetUpdate, len(targets))
	for i, a := range targets {
		updates[i] = api.AssetUpdate{ID: a.ID, Change: api.AssetChange{Rating: api.Optional[int]{Set: true, Value: &stars}}}
	}
	return m.request(func(ctx context.Context) error { return m.c.BulkUpdateAssets(ctx, updates) },
		func(m *Model) tea.Cmd {
			r := float64(stars)
			m.eachAsset(ids(targets), func(a *api.Asset) { a.Metadata.Rating = &r })
			m.inform("Rated %d asset(s) %d%s.", len(targets), stars, note)
			return nil
		})
}

// startDescribe asks for the targets' new description ("" clears it): of
// a stack cover only, like a rating.
func (m *Model) startDescribe() {
	v := m.view()
	targets := v.targets()
	if len(targets) == 0 || v.trash {
		return
	}
	value := ""
	if len(targets) == 1 && targets[0].Metadata.Description != nil {
		value = *targets[0].Metadata.Description
	}
	note := coversOnly(v, targets)
	m.newPrompt(fmt.Sprintf("Description (%d%s): ", len(targets), note), value, func(text string) tea.Cmd {
		var val *string
		if text = strings.TrimSpace(text); text != "" {
			val = &text
		}
		updates := make([]api.AssetUpdate, len(targets))
		for i, a := range targets {
			updates[i] = api.AssetUpdate{ID: a.ID, Change: api.AssetChange{Description: api.Optional[string]{Set: true, Value: val}}}
		}
		return m.request(func(ctx context.Context) error { return m.c.BulkUpdateAssets(ctx, updates) },
			func(m *Model) tea.Cmd {
				m.eachAsset(ids(targets), func(a *api.Asset) { a.Metadata.Description = val })
				m.inform("Described %d asset(s)%s.", len(targets), note)
				return nil
			})
	})
}

// addToAlbum adds what the picker was opened for (every member of a
// stack cover among the targets) to album.
func (m *Model) addToAlbum(s spread, album api.Album) tea.Cmd {
	targets := s.ids()
	return m.request(func(ctx context.Context) error {
		_, err := m.c.AddAlbumAssets(ctx, album.ID, targets)
		return err
	}, func(m *Model) tea.Cmd {
		m.albums.reset()
		m.inform("Added %s to %s.", s, albumName(album))
		return m.forgetInfo(targets)
	})
}

// addToNewAlbum creates the album (or finds the library's album of that
// name) and adds what the picker was opened for.
func (m *Model) addToNewAlbum(s spread, name string) tea.Cmd {
	targets, lib := s.ids(), m.libraryID
	return m.request(func(ctx context.Context) error {
		album, _, err := m.c.CreateAlbum(ctx, lib, name)
		if err != nil {
			return err
		}
		_, err = m.c.AddAlbumAssets(ctx, album.ID, targets)
		return err
	}, func(m *Model) tea.Cmd {
		m.albums.reset()
		m.inform("Added %s to %s.", s, name)
		return m.forgetInfo(targets)
	})
}

// viewOriginal fetches the original into the temporary folder and opens
// it in the system viewer; without one, the status line shows the
// original's URL to copy.
func (m *Model) viewOriginal() tea.Cmd {
	a, ok := m.view().p.current()
	if !ok {
		return nil
	}
	ctx, open := m.ctx, m.opts.Open
	return func() tea.Msg {
		path, err := m.fetchOriginal(ctx, a, m.opts.TempDir, true)
		if err == nil {
			err = open(path)
		}
		return done(func(m *Model) tea.Cmd {
			switch {
			case errors.Is(err, ErrNoViewer):
				os.RemoveAll(filepath.Dir(path))
				m.inform("No viewer installed; the original: %s", m.c.Server()+a.AssetURLs.Original)
			case err != nil:
				m.fail(err)
			default:
				m.inform("Opened %s.", path)
			}
			return nil
		})
	}
}

// download saves the originals of the targets in the download folder,
// every member of a stack cover among them (the stack's files, not only
// the one shown).
func (m *Model) download() tea.Cmd {
	v := m.view()
	if len(v.targets()) == 0 {
		return nil
	}
	return m.spreadTargets(v, func(m *Model, s spread) tea.Cmd { return m.save(s) })
}

// save saves the originals of s in the download folder.
func (m *Model) save(s spread) tea.Cmd {
	targets, dir := s.assets, m.opts.DownloadDir
	var last string
	return m.request(func(ctx context.Context) error {
		for _, a := range targets {
			path, err := m.fetchOriginal(ctx, a, dir, false)
			if err != nil {
				return err
			}
			last = path
		}
		return nil
	}, func(m *Model) tea.Cmd {
		m.inform("Saved %d original(s)%s, last %s.", len(targets), stacksNote(s), last)
		return nil
	})
}

// fetchOriginal writes the original of a into dir under its file name
// (in its own folder for temp, else without overwriting a file) and
// returns the path.
func (m *Model) fetchOriginal(ctx context.Context, a api.Asset, dir string, temp bool) (string, error) {
	name := filepath.Base(a.OriginalFileName)
	if name == "." || name == "/" || name == "" {
		name = a.ID
	}
	if temp {
		sub, err := os.MkdirTemp(dir, "photoctl-tui-")
		if err != nil {
			return "", err
		}
		dir = sub
	}
	d, err := m.c.DownloadOriginal(ctx, a.ID, 0, "")
	if err != nil {
		return "", err
	}
	defer d.Body.Close()
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", fmt.Errorf("save %s: %w", a.OriginalFileName, err)
	}
	if _, err := io.Copy(f, d.Body); err != nil {
		f.Close()
		os.Remove(path)
		return "", fmt.Errorf("save %s: %w", a.OriginalFileName, err)
	}
	return path, f.Close()
}

// openAlbum shows the assets of the album under the cursor.
func (m *Model) openAlbum() tea.Cmd {
	a, ok := m.albums.current()
	if !ok {
		return nil
	}
	return m.open(m.assetList("Album "+albumName(a), client.AssetQuery{}, client.AssetScope{AlbumID: a.ID}))
}

// openPerson shows the assets showing the person under the cursor.
func (m *Model) openPerson() tea.Cmd {
	p, ok := m.people.current()
	if !ok {
		return nil
	}
	return m.open(m.assetList(personName(p), client.AssetQuery{}, client.AssetScope{PersonIDs: []string{p.ID}}))
}

func personName(p api.Person) string {
	if p.Name == nil || *p.Name == "" {
		return "(unnamed)"
	}
	return *p.Name
}
