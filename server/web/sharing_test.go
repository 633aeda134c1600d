package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/api"
	"github.com/photoctl/photoctl/server/servertest"
)

// newPerson makes a person named name in the library with one manual face
// on each of the assets, through the API.
func newPerson(t *testing.T, s *servertest.Server, token, libraryID, name string, assetIDs ...string) api.Person {
	t.Helper()
	r := s.Do("POST", "/api/people", token, map[string]any{"name": name, "library_id": libraryID})
	require.Equal(t, http.StatusCreated, r.Status, "person: %s", r.Body)
	var p api.Person
	r.JSON(t, &p)
	for _, id := range assetIDs {
		r := s.Do("POST", "/api/faces", token, map[string]any{"asset_id": id, "person_id": p.ID,
			"bounding_box": map[string]float64{"x": 0.25, "y": 0.25, "width": 0.5, "height": 0.5}})
		require.Equal(t, http.StatusCreated, r.Status, "face: %s", r.Body)
	}
	return p
}

// visibleControls lists the page's visible controls (buttons, selects,
// inputs) by id, else by text.
const visibleControls = `[...document.querySelectorAll('button, select, input:not([type=hidden]), [role=button]')]
	.filter((e) => e.checkVisibility()).map((e) => e.id || e.textContent.trim())`

// TestGalleryInvitedViewerSeesNoWriteActions: the owner creates a viewer
// invitation on the library page and reads its link there; signed out, a
// second user opens the link, passes through the sign-in (the token in
// the fragment survives it), sees the preview, joins and lands on the
// library's timeline; on every page of that library they see no write
// action, and a write sent through the page's api() is refused (403).
func TestGalleryInvitedViewerSeesNoWriteActions(t *testing.T) {
	b := startBrowser(t)
	s := servertest.Start(t)
	owner, token := s.Session()
	lib := s.Libraries(token)[0]
	a := s.UploadAsset(token, "shared.jpg", servertest.JPEG(t, 64, 48, 7), map[string]string{"file_created_at": "2023-07-01T10:00:00Z"})
	ann := newPerson(t, s, token, lib.ID, "Ann", a.ID)

	// The owner creates a viewer invitation for one person in the page.
	signIn(t, b, s, owner)
	b.do(t, chromedp.Navigate(s.URL+"/library?library="+lib.ID))
	b.waitFor(t, "the library page", `document.querySelector('#library[data-ready="true"]') !== null`)
	require.Equal(t, "owner", eval[string](t, b, `document.getElementById('my-role').textContent`))
	require.True(t, eval[bool](t, b, `document.getElementById('invite').checkVisibility() && !document.getElementById('leave').checkVisibility()`),
		"the owner sees the invitations, not Leave")
	choose(t, b, "#invite-role", "viewer")
	b.do(t, chromedp.SetValue(css(`#invite-days`), "2"), chromedp.SetValue(css(`#invite-max`), "1"),
		chromedp.Click(css(`#invite button[type=submit]`)))
	b.waitFor(t, "the new link", `!document.getElementById('created').hidden && document.querySelectorAll('#invitations tr').length === 1`)
	link := eval[string](t, b, `document.getElementById('invite-link').value`)
	require.True(t, strings.HasPrefix(link, s.URL+"/join#token=invite_"), link)
	require.Equal(t, "active", eval[string](t, b, `document.querySelector('#invitations tr').dataset.state`))
	b.do(t, chromedp.Click(css(`#copy`)))
	b.waitFor(t, "the copy's outcome", `document.getElementById('copied').textContent !== ''`)
	invs := servertest.List[api.Invitation](s, token, "/api/libraries/"+lib.ID+"/invitations")
	require.Len(t, invs, 1)
	require.Equal(t, "viewer", invs[0].Role)
	require.Equal(t, 1, invs[0].MaxJoiners)
	require.WithinDuration(t, time.Now().Add(48*time.Hour), invs[0].ExpiresAt, time.Hour)
	// On a phone the page fits the width.
	b.do(t, chromedp.EmulateViewport(390, 844))
	b.waitFor(t, "the phone layout", `document.documentElement.scrollWidth <= 390`)
	b.do(t, chromedp.EmulateViewport(1280, 900))
	b.do(t, chromedp.Click(css(`.signout button`)), chromedp.WaitVisible(css(`input[name=email]`)))

	// Signed out, the second user opens the link: the sign-in form, which
	// comes back to the link with its token.
	viewer := s.CreateUser()
	b.do(t, chromedp.Navigate(link), chromedp.WaitVisible(css(`input[name=email]`)))
	signin, err := url.Parse(b.location(t))
	require.NoError(t, err)
	require.Equal(t, "/signin", signin.Path)
	require.Equal(t, "/join", signin.Query().Get("next"))
	b.do(t, chromedp.SendKeys(css(`input[name=email]`), viewer.Email), chromedp.SendKeys(css(`input[name=password]`), viewer.Password),
		chromedp.Submit(css(`input[name=password]`)))
	b.waitFor(t, "the preview", `location.pathname === '/join' && !document.getElementById('join-button').hidden`)
	require.Equal(t, link, b.location(t))
	preview := eval[map[string]string](t, b, `Object.fromEntries([...document.querySelectorAll('#preview dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]))`)
	require.Equal(t, lib.Name, preview["Library"])
	require.Equal(t, "User1", preview["Owner"])
	require.Equal(t, "viewer", preview["Your role"])
	require.Contains(t, preview["Invitation"], "active")
	require.Equal(t, "join-button", eval[string](t, b, `document.activeElement.id`), "Join has the focus")
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, "the library's timeline", `location.pathname === '/' && location.search === '?library=`+lib.ID+`' &&
		document.querySelector('#timeline[aria-busy="false"]') !== null && document.querySelectorAll('.tile').length === 1`)
	require.Equal(t, "viewer", eval[string](t, b, `document.body.dataset.role`))

	// No page of the library offers the viewer a write action.
	pages := []struct{ path, ready string }{
		{"/", `document.querySelector('#timeline[aria-busy="false"]') !== null`},
		{"/photos/" + a.ID, `document.querySelector('#viewer[data-ready="true"]') !== null`},
		{"/people", `document.querySelector('#people[aria-busy="false"]') !== null && document.querySelectorAll('.person-card').length === 1`},
		{"/people/" + ann.ID, `document.querySelector('#person[data-ready="true"]') !== null`},
		{"/library", `document.querySelector('#library[data-ready="true"]') !== null`},
	}
	if s.Get("/albums", "", nil).Status != http.StatusNotFound { // the albums page, once merged
		pages = append(pages, struct{ path, ready string }{"/albums", `document.querySelector('[aria-busy="true"]') === null`})
	}
	// Reading controls: choosing a library or month, showing the full
	// size, more photos, signing out, and leaving the library (one's own
	// membership, not the library's content).
	allowed := map[string]bool{"library-switcher": true, "jump": true, "fullsize": true, "more": true, "Sign out": true, "leave": true}
	for _, p := range pages {
		b.do(t, chromedp.Navigate(s.URL+p.path+"?library="+lib.ID))
		b.waitFor(t, p.path, `document.body.dataset.role === 'viewer' && `+p.ready)
		shown := eval[[]string](t, b, `[...document.querySelectorAll('.write')].filter((e) => e.checkVisibility()).map((e) => e.outerHTML.slice(0, 80))`)
		require.Empty(t, shown, "write actions shown on %s", p.path)
		for _, c := range eval[[]string](t, b, visibleControls) {
			require.True(t, allowed[c], "%s shows the control %q", p.path, c)
		}
	}
	require.Equal(t, "viewer", eval[string](t, b, `document.getElementById('my-role').textContent`))
	members := eval[[]string](t, b, `[...document.querySelectorAll('#members li')].map((li) => li.textContent)`)
	require.Len(t, members, 2)

	// The API refuses a write sent from the page anyway.
	for _, call := range []string{
		`api('/api/people/` + ann.ID + `', { method: 'PATCH', body: { name: 'Mallory' } })`,
		`api('/api/libraries/` + lib.ID + `/invitations', { method: 'POST', body: { role: 'viewer', max_joiners: 1, expires_at: new Date(Date.now() + 864e5).toISOString() } })`,
	} {
		status, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`import('/static/api.js').then(({ api }) => `+call+`).then(() => 200, (e) => e.status)`,
			chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		require.Equal(t, float64(http.StatusForbidden), status, call)
	}
	r := s.Do("GET", "/api/people/"+ann.ID, token, nil)
	require.Equal(t, http.StatusOK, r.Status)
	require.Contains(t, string(r.Body), `"name":"Ann"`)
	b.noPageErrors(t)
}
