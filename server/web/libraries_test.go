package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/photoctl/photoctl/server/servertest"
)

// TestGalleryLibrarySwitcher: a user who joined another's library as a
// viewer has two libraries; the header's switcher lists both with the
// role, and choosing the shared one shows its timeline and its asset in
// the viewer, with the page marked for the viewer role.
func TestGalleryLibrarySwitcher(t *testing.T) {
	b := startBrowser(t)
	s := servertest.Start(t)
	_, owner := s.Session()
	shared := s.Libraries(owner)[0]
	a := s.UploadAsset(owner, "shared.jpg", servertest.JPEG(t, 64, 48, 5), map[string]string{"file_created_at": "2023-07-01T10:00:00Z"})
	u, _ := s.AddMember(owner, shared.ID, "viewer")

	signIn(t, b, s, u)
	b.waitFor(t, "the switcher", `!document.querySelector('.switcher').hidden`)
	options := eval[[]string](t, b, `[...document.querySelectorAll('#library-switcher option')].map(o => o.value)`)
	require.Len(t, options, 2)
	require.Contains(t, options, shared.ID)
	choose(t, b, "#library-switcher", shared.ID)
	b.waitFor(t, "the shared library's timeline", `location.search === '?library=`+shared.ID+`' && document.querySelectorAll('.tile').length === 1`)
	require.Equal(t, "viewer", eval[string](t, b, `document.body.dataset.role`))
	b.do(t, chromedp.Click(css(`.tile`)), chromedp.WaitReady(css(`#viewer[data-ready="true"]`)))
	require.Contains(t, b.location(t), "/photos/"+a.ID)
	require.Equal(t, "viewer", eval[string](t, b, `document.body.dataset.role`))
	b.noPageErrors(t)
}
