// The library the gallery shows, and the switcher in the header. The
// choice is the page address's ?library= (so a link keeps it), else the
// last one chosen on this device, else the account's default library.
import { api, query } from './api.js';

const remembered = 'photoctl.library';

// currentLibrary lists the caller's libraries, fills the switcher when
// there are several, and returns the one to show ({id, name, role}); with
// none it says so on the page's #status and returns null.
export async function currentLibrary() {
  const [page, prefs] = await Promise.all([
    api('/api/libraries?limit=200'),
    api('/api/users/me/preferences').catch(() => ({})),
  ]);
  const libs = page.data.filter((l) => !l.trashed_at);
  const wanted = new URL(location.href).searchParams.get('library')
    ?? localStorage.getItem(remembered) ?? prefs.default_library_id;
  const lib = libs.find((l) => l.id === wanted) ?? libs.find((l) => l.id === prefs.default_library_id) ?? libs[0];
  if (!lib) {
    // Said on the page's status line, which every page has.
    const status = document.getElementById('status');
    if (status) status.textContent = 'You have no library.';
    return null;
  }
  localStorage.setItem(remembered, lib.id);
  document.body.dataset.role = lib.role; // [data-role=viewer] hides write actions
  for (const a of document.querySelectorAll('.sections a')) {
    a.href = a.getAttribute('href').split('?')[0] + query({ library: lib.id });
  }
  const select = document.getElementById('library-switcher');
  if (select && libs.length > 1) {
    for (const l of libs) {
      const o = new Option(`${l.name} (${l.role})`, l.id, false, l.id === lib.id);
      select.append(o);
    }
    select.closest('label').hidden = false;
    select.addEventListener('change', () => {
      localStorage.setItem(remembered, select.value);
      location.assign('/' + query({ library: select.value }));
    });
  }
  return lib;
}
