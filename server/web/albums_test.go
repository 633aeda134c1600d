package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// TestGalleryAlbumsAndEdits: in a real browser against the real server, an
// owner opens a stack's tile (its page shows the three members, the cover
// marked), rates and describes a member in the viewer (kept after a reload,
// and the API agrees), creates an album from the viewer, sees a named face
// boxed over its photo, selects two tiles in the timeline with the mouse and
// the keyboard and adds them to the album, lists the albums, removes one
// asset from the album, renames and finally deletes it, trashes an asset
// from the viewer and another from the timeline's selection; the viewer's
// controls fit a phone's width. The API's state is checked at each step.
func TestGalleryAlbumsAndEdits(t *testing.T) {
	needTools(t, "exiftool")
	b := startBrowser(t)
	s := servertest.Start(t, servertest.WithPipeline)
	u, token := s.Session()
	lib := s.Libraries(token)[0]
	files := []fixture{
		photo(t, "beach.jpg", 11, "2024:07:20 10:00:00"),
		photo(t, "dunes.jpg", 12, "2024:07:19 10:00:00"),
		photo(t, "pier.jpg", 13, "2024:07:18 10:00:00"),
		photo(t, "burst-1.jpg", 14, "2024:06:01 09:00:00"),
		photo(t, "burst-2.jpg", 15, "2024:06:01 09:00:01"),
		photo(t, "burst-3.jpg", 16, "2024:06:01 09:00:02"),
	}
	var ids []string
	for _, f := range files {
		ids = append(ids, s.UploadAsset(token, f.name, f.data, nil).ID)
	}
	for _, id := range ids {
		s.WaitForTasks(token, id, 3*time.Minute)
	}
	beach, dunes, pier, burst := ids[0], ids[1], ids[2], ids[3:]
	r := s.Do("POST", "/api/stacks", token, map[string]any{"asset_ids": burst, "cover_asset_id": burst[0]})
	require.Equal(t, http.StatusCreated, r.Status, "stack: %s", r.Body)
	stack := r.Map(t)["id"].(string)
	// A named face on the beach photo.
	r = s.Do("POST", "/api/people", token, map[string]any{"name": "Ada", "library_id": lib.ID})
	require.Equal(t, http.StatusCreated, r.Status, "person: %s", r.Body)
	r = s.Do("POST", "/api/faces", token, map[string]any{"asset_id": beach, "person_id": r.Map(t)["id"],
		"bounding_box": map[string]float64{"x": 0.25, "y": 0.2, "width": 0.3, "height": 0.4}})
	require.Equal(t, http.StatusCreated, r.Status, "face: %s", r.Body)

	asset := func(id string) api.AssetDetail {
		t.Helper()
		r := s.Do("GET", "/api/assets/"+id, token, nil)
		require.Equal(t, http.StatusOK, r.Status, "asset: %s", r.Body)
		var a api.AssetDetail
		r.JSON(t, &a)
		return a
	}
	albumsOf := func(id string) []api.Album {
		t.Helper()
		return servertest.List[api.Album](s, token, "/api/albums?asset_id="+id)
	}
	viewerReady := func(id string) {
		t.Helper()
		b.waitFor(t, "the viewer of "+id, `location.pathname === '/photos/`+id+`' && document.querySelector('#viewer[data-ready="true"]') !== null`)
	}

	// The timeline: three photos and the stack's tile, which opens the
	// stack's page: its three members, the cover marked, each a link.
	signIn(t, b, s, u)
	b.waitFor(t, "four tiles", `document.querySelectorAll('.tile').length === 4`)
	require.True(t, eval[bool](t, b, `(document.querySelector('.tile[href^="/stacks/`+stack+`"]').click(), true)`))
	b.waitFor(t, "the stack's page", `document.querySelector('#stack[aria-busy="false"]') !== null`)
	members := eval[[]string](t, b, `[...document.querySelectorAll('#members .tile')].map(a => new URL(a.href).pathname)`)
	require.ElementsMatch(t, []string{"/photos/" + burst[0], "/photos/" + burst[1], "/photos/" + burst[2]}, members)
	require.Equal(t, "/photos/"+burst[0], eval[string](t, b, `new URL(document.querySelector('#members .tile.cover').href).pathname`))
	require.Contains(t, eval[string](t, b, `document.querySelector('#members .tile.cover').getAttribute('aria-label')`), "cover")
	b.snapshot(t, "stack")

	// A member in the viewer: rated 4 and described, kept after a reload.
	require.True(t, eval[bool](t, b, `(document.querySelector('#members .tile[href^="/photos/`+burst[1]+`"]').click(), true)`))
	viewerReady(burst[1])
	require.Equal(t, "/stacks/"+stack, eval[string](t, b, `new URL(document.querySelector('.meta-stack a').href).pathname`))
	b.do(t, chromedp.Click(css(`#rating [data-value="4"]`)))
	b.waitFor(t, "the rating saved", `document.querySelector('#rating [data-value="4"]').getAttribute('aria-pressed') === 'true' && document.getElementById('edit-status').textContent === 'Rating saved.'`)
	b.do(t, chromedp.SendKeys(css(`#description`), "Three shots of the gull"), chromedp.Click(css(`#save-description`)))
	b.waitFor(t, "the description saved", `document.getElementById('edit-status').textContent === 'Description saved.'`)
	a := asset(burst[1])
	require.NotNil(t, a.Metadata.Rating)
	require.Equal(t, 4.0, *a.Metadata.Rating)
	require.NotNil(t, a.Metadata.Description)
	require.Equal(t, "Three shots of the gull", *a.Metadata.Description)
	b.do(t, chromedp.Reload())
	viewerReady(burst[1])
	require.Equal(t, "Three shots of the gull", eval[string](t, b, `document.getElementById('description').value`))
	require.Equal(t, "true", eval[string](t, b, `document.querySelector('#rating [data-value="4"]').getAttribute('aria-pressed')`))
	require.Equal(t, "★★★★", eval[string](t, b, `document.querySelector('.meta-rating').textContent`))
	require.Equal(t, "Three shots of the gull", eval[string](t, b, `document.querySelector('.meta-description').textContent`))

	// An album made from the viewer holds the asset (Escape first closes
	// the dialog, and only the dialog).
	b.do(t, chromedp.Click(css(`#add-to-album`)), chromedp.WaitVisible(css(`dialog.album-picker #album-name`)))
	b.do(t, chromedp.Focus(css(`dialog.album-picker button[type=submit]`)), chromedp.KeyEvent(kb.Escape))
	b.waitFor(t, "the dialog closed", `!document.querySelector('dialog')`)
	require.Equal(t, "/photos/"+burst[1], eval[string](t, b, `location.pathname`))
	b.do(t, chromedp.Click(css(`#add-to-album`)), chromedp.WaitVisible(css(`dialog.album-picker #album-name`)))
	b.do(t, chromedp.SendKeys(css(`#album-name`), "Summer"), chromedp.Click(css(`dialog.album-picker button[type=submit]`)))
	b.waitFor(t, "the album listed", `[...document.querySelectorAll('#albums a')].map(a => a.textContent).join() === 'Summer' && !document.querySelector('dialog')`)
	in := albumsOf(burst[1])
	require.Len(t, in, 1)
	album := in[0]
	require.Equal(t, "Summer", album.Name)
	require.Equal(t, 1, album.AssetCount)

	// The beach photo's face is boxed where the API put it, named.
	b.do(t, chromedp.Navigate(s.URL+"/photos/"+beach))
	viewerReady(beach)
	b.waitFor(t, "the preview painted", `document.querySelector('#stage img')?.naturalWidth > 0`)
	require.Equal(t, "Ada", eval[string](t, b, `document.querySelector('#stage .face').textContent`))
	box := eval[[]float64](t, b, `(() => {
		const i = document.querySelector('#stage img').getBoundingClientRect();
		const f = document.querySelector('#stage .face').getBoundingClientRect();
		return [(f.left - i.left) / i.width, (f.top - i.top) / i.height, f.width / i.width, f.height / i.height];
	})()`)
	for k, want := range []float64{0.25, 0.2, 0.3, 0.4} {
		require.InDelta(t, want, box[k], 0.02, "face box %v", box)
	}
	b.snapshot(t, "viewer-faces")

	// In the timeline, select mode: one tile by click, one by the
	// keyboard (Space), both added to the album.
	b.do(t, chromedp.Navigate(s.URL+"/"))
	b.waitFor(t, "four tiles", `document.querySelectorAll('.tile').length === 4 && document.querySelector('.select-start') !== null`)
	b.do(t, chromedp.Click(css(`.select-start`)))
	b.waitFor(t, "the select mode", `!document.querySelector('.select-bar').hidden && document.querySelector('.tile').getAttribute('role') === 'checkbox'`)
	require.True(t, eval[bool](t, b, `(document.querySelector('.tile[data-id="`+dunes+`"]').click(), true)`))
	require.True(t, eval[bool](t, b, `(document.querySelector('.tile[data-id="`+pier+`"]').focus(), true)`))
	b.do(t, chromedp.KeyEvent(" "))
	b.waitFor(t, "two selected", `document.querySelector('.select-count').textContent === '2 selected'`)
	checked := eval[[]string](t, b, `[...document.querySelectorAll('.tile[aria-checked="true"]')].map(a => a.dataset.id)`)
	require.ElementsMatch(t, []string{dunes, pier}, checked)
	b.snapshot(t, "timeline-select")
	require.Equal(t, "/", eval[string](t, b, `location.pathname`), "a click in select mode does not open the tile")
	b.do(t, chromedp.Click(chromedp.Search(`//div[contains(@class,"select-bar")]//button[text()="Add to album…"]`)))
	b.waitFor(t, "the album to choose", `document.querySelector('#album-choice option[value="`+album.ID+`"]') !== null`)
	choose(t, b, "#album-choice", album.ID)
	b.do(t, chromedp.Click(css(`dialog.album-picker button[type=submit]`)))
	b.waitFor(t, "the select mode ended", `!document.querySelector('dialog') && document.querySelector('.select-bar').hidden && !document.querySelector('.tile[role]')`)
	r = s.Do("GET", "/api/albums/"+album.ID, token, nil)
	r.JSON(t, &album)
	require.Equal(t, 3, album.AssetCount)

	// The albums page lists it with its count; its page shows the three,
	// one is removed with the select mode, and it is renamed.
	b.do(t, chromedp.Click(css(`.sections a[data-section="albums"]`)))
	b.waitFor(t, "the albums", `document.querySelector('#albums[aria-busy="false"]') !== null`)
	require.Equal(t, []string{"Summer3 items"}, eval[[]string](t, b, `[...document.querySelectorAll('.album-card')].map(a => a.textContent)`))
	require.Equal(t, "page", eval[string](t, b, `document.querySelector('.sections a[data-section="albums"]').getAttribute('aria-current')`))
	b.do(t, chromedp.Click(css(`.album-card`)))
	b.waitFor(t, "the album's page", `document.querySelector('#album[aria-busy="false"]') !== null && document.querySelectorAll('#album-assets .tile').length === 3`)
	b.do(t, chromedp.Click(css(`#album-tools .select-start`)))
	require.True(t, eval[bool](t, b, `(document.querySelector('#album-assets .tile[data-id="`+pier+`"]').click(), true)`))
	b.do(t, chromedp.Click(chromedp.Search(`//div[contains(@class,"select-bar")]//button[text()="Remove from album"]`)))
	b.waitFor(t, "two left", `document.querySelectorAll('#album-assets .tile').length === 2 && document.getElementById('album-meta').textContent.startsWith('2 items')`)
	require.Empty(t, albumsOf(pier))
	require.Len(t, albumsOf(dunes), 1)
	b.snapshot(t, "album")
	b.do(t, chromedp.Click(css(`#rename-start`)), chromedp.WaitVisible(css(`#rename-name`)))
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.getElementById('rename-name').value = ''`),
		chromedp.SendKeys(css(`#rename-name`), "Summer 2024"), chromedp.Click(css(`#rename button[type=submit]`)))
	b.waitFor(t, "the new name", `document.getElementById('title').textContent === 'Summer 2024'`)
	require.Equal(t, "Summer 2024", albumsOf(dunes)[0].Name)

	// On a phone the viewer's controls fit the width.
	b.do(t, chromedp.EmulateViewport(390, 844), chromedp.Navigate(s.URL+"/photos/"+dunes))
	viewerReady(dunes)
	b.waitFor(t, "the phone layout", `(() => {
		const right = Math.max(...[...document.querySelectorAll('#rating button, #trash, #add-to-album, #save-description')]
			.map(e => e.getBoundingClientRect().right));
		return document.documentElement.scrollWidth <= 390 && right <= 390;
	})()`)
	b.snapshot(t, "viewer-phone")
	b.do(t, chromedp.EmulateViewport(1280, 900))

	// "Move to trash" in the viewer: the next asset shows, the API has it
	// trashed, the timeline no longer shows it.
	b.do(t, chromedp.Click(css(`#trash`)))
	b.waitFor(t, "the next asset", `location.pathname !== '/photos/`+dunes+`' && document.querySelector('#viewer[data-ready="true"]') !== null`)
	require.NotNil(t, asset(dunes).TrashedAt)
	b.do(t, chromedp.Navigate(s.URL+"/"))
	b.waitFor(t, "three tiles", `document.querySelectorAll('.tile').length === 3 && document.querySelector('.select-start') !== null`)
	require.False(t, eval[bool](t, b, `document.querySelector('.tile[data-id="`+dunes+`"]') !== null`))

	// Trash from the timeline's selection: the tile goes, the month's
	// count follows. Escape leaves the select mode.
	b.do(t, chromedp.Click(css(`.select-start`)))
	b.waitFor(t, "the select mode", `!document.querySelector('.select-bar').hidden`)
	b.do(t, chromedp.KeyEvent(kb.Escape))
	b.waitFor(t, "the select mode left", `document.querySelector('.select-bar').hidden && !document.querySelector('.tile[role]')`)
	b.do(t, chromedp.Click(css(`.select-start`)))
	require.True(t, eval[bool](t, b, `(document.querySelector('.tile[data-id="`+pier+`"]').click(), true)`))
	b.do(t, chromedp.Click(chromedp.Search(`//div[contains(@class,"select-bar")]//button[text()="Trash"]`)))
	b.waitFor(t, "the tile gone", `document.querySelectorAll('.tile').length === 2 && !document.querySelector('.tile[data-id="`+pier+`"]') && document.querySelector('#m-2024-07 .count').textContent === '1'`)
	require.NotNil(t, asset(pier).TrashedAt)

	// Deleting the album asks first; the assets stay.
	b.do(t, chromedp.Navigate(s.URL+"/albums/"+album.ID))
	b.waitFor(t, "the album's page", `document.querySelector('#album[aria-busy="false"]') !== null`)
	b.do(t, chromedp.Click(css(`#delete`)), chromedp.WaitVisible(css(`#delete-confirm`)), chromedp.Click(css(`#delete-confirm`)))
	b.waitFor(t, "the albums page, empty", `location.pathname === '/albums' && document.getElementById('status').textContent === 'No albums yet.'`)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/albums/"+album.ID, token, nil).Status)
	require.Nil(t, asset(burst[1]).TrashedAt)

	// Every write control is .write: none shows for the viewer role.
	b.do(t, chromedp.Navigate(s.URL+"/photos/"+burst[1]))
	viewerReady(burst[1])
	b.do(t, chromedp.Evaluate[chromedp.Void](`document.body.dataset.role = 'viewer'`))
	require.Equal(t, []string{}, eval[[]string](t, b, `[...document.querySelectorAll('#rating button, #description, #save-description, #add-to-album, #trash')]
		.filter(e => e.getClientRects().length > 0).map(e => e.id || e.dataset.value)`))
	b.noPageErrors(t)
}
