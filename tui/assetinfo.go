package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/photoctl/photoctl/client"
)

// assetInfo is what the detail pane shows of an asset beyond the list's
// copy of it: the albums that show it, the people in it and the text OCR
// read in it, fetched once the cursor rests on it (never for a whole
// list).
type assetInfo struct {
	loading bool
	albums  []string
	people  []string
	text    *string
	err     error
}

// maxInfos bounds the assets whose albums and people are kept.
const maxInfos = 256

// infoCmd fetches the albums and people of the asset under the cursor, if
// not fetched yet.
func (m *Model) infoCmd() tea.Cmd {
	v := m.view()
	if v == nil || v.trash {
		return nil
	}
	a, ok := v.p.current()
	if !ok {
		return nil
	}
	if _, ok := m.infos[a.ID]; ok {
		return nil
	}
	if len(m.infos) >= maxInfos {
		clear(m.infos)
	}
	m.infos[a.ID] = &assetInfo{loading: true}
	ctx, id, lib := m.ctx, a.ID, a.LibraryID
	return func() tea.Msg {
		info, err := m.fetchInfo(ctx, lib, id)
		if err != nil {
			info = &assetInfo{err: err}
		}
		return done(func(m *Model) tea.Cmd {
			m.infos[id] = info
			return nil
		})
	}
}

// fetchInfo reads the albums showing asset id (GET /api/albums?asset_id=),
// the people with a face in it (GET /api/people?asset_id=), in its library
// lib (which the server asks for once there are several), and its text
// (GET /api/assets/{id}).
func (m *Model) fetchInfo(ctx context.Context, lib, id string) (*assetInfo, error) {
	d, err := m.c.AssetDetail(ctx, id, "thumbnail")
	if err != nil {
		return nil, err
	}
	info := &assetInfo{text: d.OCRText}
	for a, err := range m.c.AlbumsWhere(ctx, client.AlbumQuery{LibraryID: lib, AssetID: id}) {
		if err != nil {
			return nil, err
		}
		info.albums = append(info.albums, albumName(a))
	}
	for p, err := range m.c.People(ctx, client.PersonQuery{LibraryID: lib, AssetID: id}) {
		if err != nil {
			return nil, err
		}
		info.people = append(info.people, personName(p))
	}
	return info, nil
}

// forgetInfo drops what is known of the assets ids (their albums
// changed), and fetches it again for the asset under the cursor.
func (m *Model) forgetInfo(ids []string) tea.Cmd {
	for _, id := range ids {
		delete(m.infos, id)
	}
	return m.infoCmd()
}
