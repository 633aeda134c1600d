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
// Then: the link again says they are a member; they leave and come back
// through it (its one place is theirs); the owner changes their role,
// removes them and disables the invitation in the page.
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
	b.snapshot(t, "library")
	invs := servertest.List[api.Invitation](s, token, "/api/libraries/"+lib.ID+"/invitations")
	require.Len(t, invs, 1)
	require.Equal(t, "viewer", invs[0].Role)
	require.Equal(t, 1, invs[0].MaxJoiners)
	require.WithinDuration(t, time.Now().Add(48*time.Hour), invs[0].ExpiresAt, time.Hour)
	// On a phone the page fits the width.
	b.do(t, chromedp.EmulateViewport(390, 844))
	b.waitFor(t, "the phone layout", `document.documentElement.scrollWidth <= 390`)
	b.snapshot(t, "library-phone")
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
	b.snapshot(t, "join")
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
		{"/albums", `document.querySelector('#albums[aria-busy="false"]') !== null`},
		{"/search?q=photo", `document.querySelector('#search[aria-busy="false"]') !== null`},
		{"/map", `document.querySelector('#map-main[aria-busy="false"]') !== null`},
		{"/trash", `document.querySelector('#trash[aria-busy="false"]') !== null`},
		{"/library", `document.querySelector('#library[data-ready="true"]') !== null`}, // last: its members are read below
	}

	// Reading controls: choosing a library or month, showing the full
	// size, more photos, signing out, and leaving the library (one's own
	// membership, not the library's content).
	allowed := map[string]bool{"library-switcher": true, "jump": true, "fullsize": true, "more": true, "Sign out": true, "leave": true,
		"q": true, "Search": true, "image": true, "zoom-in": true, "zoom-out": true, "world": true}
	for _, p := range pages {
		sep := "?"
		if strings.Contains(p.path, "?") {
			sep = "&"
		}
		b.do(t, chromedp.Navigate(s.URL+p.path+sep+"library="+lib.ID))
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

	// The link again: already a member, in words, and no Join.
	b.do(t, chromedp.Navigate(link))
	b.waitFor(t, "the refusal", `document.querySelector('#join[data-ready="true"]') !== null`)
	require.Contains(t, eval[string](t, b, `document.getElementById('error').textContent`), "already a member")
	require.False(t, eval[bool](t, b, `document.getElementById('join-button').checkVisibility()`))

	// The viewer leaves (after a confirmation), and comes back through the
	// same link although its one place is taken: they had joined by it.
	b.do(t, chromedp.Navigate(s.URL+"/library?library="+lib.ID))
	b.waitFor(t, "the library page", `document.querySelector('#library[data-ready="true"]') !== null`)
	b.do(t, chromedp.Click(css(`#leave`)))
	b.waitFor(t, "the question", `document.getElementById('leave-confirm').checkVisibility() && document.activeElement.id === 'leave-no'`)
	b.do(t, chromedp.Click(css(`#leave-yes`)))
	b.waitFor(t, "the viewer's own timeline", `location.pathname === '/' && location.search === '' && document.querySelector('#timeline[aria-busy="false"]') !== null`)
	require.Len(t, servertest.List[api.Member](s, token, "/api/libraries/"+lib.ID+"/members"), 1)
	b.do(t, chromedp.Navigate(link))
	b.waitFor(t, "the preview", `document.querySelector('#join[data-ready="true"]') !== null`)
	require.Equal(t, "exhausted", eval[string](t, b, `document.getElementById('preview-state').textContent`))
	require.Contains(t, eval[string](t, b, `document.getElementById('error').textContent`), "Every place of this invitation is taken")
	b.do(t, chromedp.Click(css(`#join-button`)))
	b.waitFor(t, "the library's timeline", `location.search === '?library=`+lib.ID+`' && document.querySelector('#timeline[aria-busy="false"]') !== null`)

	// The owner makes the viewer a collaborator, then removes them, and
	// disables the invitation.
	b.do(t, chromedp.Click(css(`.signout button`)), chromedp.WaitVisible(css(`input[name=email]`)))
	signIn(t, b, s, owner)
	b.do(t, chromedp.Navigate(s.URL+"/library?library="+lib.ID))
	b.waitFor(t, "two members", `document.querySelector('#library[data-ready="true"]') !== null && document.querySelectorAll('#members li').length === 2`)
	choose(t, b, `#members li[data-user-id="`+viewer.ID+`"] select`, "collaborator")
	b.waitFor(t, "the new role", `document.getElementById('done').textContent === 'User2 is now a collaborator.'`)
	roles := map[string]string{}
	for _, m := range servertest.List[api.Member](s, token, "/api/libraries/"+lib.ID+"/members") {
		roles[m.ID] = m.Role
	}
	require.Equal(t, "collaborator", roles[viewer.ID])
	remove := css(`#members li[data-user-id="%s"] button.remove`, viewer.ID)
	b.do(t, chromedp.Click(remove))
	b.waitFor(t, "the second press", `document.querySelector('#members li[data-user-id="`+viewer.ID+`"] button.remove').textContent === 'Really remove?'`)
	b.do(t, chromedp.Click(remove))
	b.waitFor(t, "one member", `document.getElementById('done').textContent === 'User2 was removed.' && document.querySelectorAll('#members li').length === 1`)
	require.Len(t, servertest.List[api.Member](s, token, "/api/libraries/"+lib.ID+"/members"), 1)
	b.do(t, chromedp.Click(css(`#invitations tr button`)))
	b.waitFor(t, "the disabled invitation", `document.getElementById('done').textContent === 'The invitation is disabled.' && document.querySelector('#invitations tr').dataset.state === 'disabled'`)
	require.Equal(t, "disabled", servertest.List[api.Invitation](s, token, "/api/libraries/"+lib.ID+"/invitations")[0].State)
	b.noPageErrors(t)
}

// TestGalleryPeople: the people page shows the library's people with
// their faces (cut from the pipeline's previews) and names, the unnamed
// one marked; on the unnamed person's page the user names them, merges
// another person into them (confirmed from the keyboard), and sees their
// photos grow; the API agrees.
func TestGalleryPeople(t *testing.T) {
	b := startBrowser(t)
	s := servertest.Start(t, servertest.WithPipeline)
	u, token := s.Session()
	lib := s.Libraries(token)[0]
	var ids []string
	for i, day := range []string{"01", "02", "03"} {
		a := s.UploadAsset(token, "p"+day+".jpg", servertest.JPEG(t, 640, 480, 20+i),
			map[string]string{"file_created_at": "2024-02-" + day + "T10:00:00Z"})
		ids = append(ids, a.ID)
	}
	for _, id := range ids {
		s.WaitForTasks(token, id, 3*time.Minute)
	}
	newPerson(t, s, token, lib.ID, "Ann", ids[0])
	bob := newPerson(t, s, token, lib.ID, "Bob", ids[1])
	nameless := newPerson(t, s, token, lib.ID, "Someone", ids[2])
	r := s.Do("PATCH", "/api/people/"+nameless.ID, token, map[string]any{"name": nil})
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)

	signIn(t, b, s, u)
	b.do(t, chromedp.Click(css(`.sections a[data-section=people]`)))
	b.waitFor(t, "three people with their faces", `document.querySelector('#people[aria-busy="false"]') !== null &&
		[...document.querySelectorAll('.person-card img')].filter((i) => i.complete && i.naturalWidth > 0).length === 3`)
	cards := eval[[]string](t, b, `[...document.querySelectorAll('.people-grid li')].map((li) => li.className + ':' + li.querySelector('.name').textContent)`)
	require.Equal(t, []string{":Ann", ":Bob", "unnamed:Unnamed person"}, cards)
	b.snapshot(t, "people")
	b.do(t, chromedp.EmulateViewport(390, 844))
	b.waitFor(t, "the phone layout", `document.documentElement.scrollWidth <= 390`)
	b.snapshot(t, "people-phone")
	b.do(t, chromedp.EmulateViewport(1280, 900))

	// The unnamed person's page: their one photo; name them.
	require.True(t, eval[bool](t, b, `(document.querySelector('.unnamed a').click(), true)`))
	b.waitFor(t, "the person's page", `document.querySelector('#person[data-ready="true"]') !== null`)
	require.Equal(t, "/people/"+nameless.ID, eval[string](t, b, `location.pathname`))
	require.Equal(t, 1, eval[int](t, b, `document.querySelectorAll('#photos .photo').length`))
	b.do(t, chromedp.SendKeys(css(`#rename-input`), "Cat"), chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, "the new name", `document.getElementById('name').textContent === 'Cat'`)
	var got api.Person
	s.Do("GET", "/api/people/"+nameless.ID, token, nil).JSON(t, &got)
	require.NotNil(t, got.Name)
	require.Equal(t, "Cat", *got.Name)

	// Merge Bob into Cat: asked first, confirmed with the keyboard.
	choose(t, b, "#merge-select", bob.ID)
	b.do(t, chromedp.Click(css(`#merge button[type=submit]`)))
	b.waitFor(t, "the question", `!document.getElementById('merge-confirm').hidden && document.activeElement.id === 'merge-yes'`)
	require.Contains(t, eval[string](t, b, `document.getElementById('merge-question').textContent`), "Merge Bob (1) into Cat?")
	b.snapshot(t, "person")
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, "the merged photos and the choices left", `document.querySelectorAll('#photos .photo').length === 2 &&
		document.getElementById('count').textContent === '2 photos' && document.getElementById('merge-confirm').hidden &&
		[...document.querySelectorAll('#merge-select option')].filter((o) => o.value).length === 1`)
	require.Equal(t, http.StatusNotFound, s.Do("GET", "/api/people/"+bob.ID, token, nil).Status, "Bob is merged away")
	s.Do("GET", "/api/people/"+nameless.ID, token, nil).JSON(t, &got)
	require.Equal(t, 2, got.AssetCount)
	require.Equal(t, "Cat", *got.Name)
	require.Contains(t, eval[string](t, b, `document.querySelector('#merge-select option[value^="person_"]').textContent`), "Ann",
		"only Ann is left to merge")

	// A photo of the grid opens in the viewer.
	require.True(t, eval[bool](t, b, `(document.querySelector('#photos .photo').click(), true)`))
	b.do(t, chromedp.WaitReady(css(`#viewer[data-ready="true"]`)))
	require.Contains(t, b.location(t), "/photos/")
	b.noPageErrors(t)
}
