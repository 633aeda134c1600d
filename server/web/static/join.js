// Joining a library through an invitation link, /join#token=invite_…:
// the token is read from the address's fragment (which no request
// carries: no server log or Referer sees it), previewed, and redeemed on
// "Join"; then the timeline of the joined library opens.
import { fragment } from './fragment.js';
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';

const main = document.getElementById('join');
const errorBox = document.getElementById('error');
const button = document.getElementById('join-button');

// why explains an invitation that cannot be used.
const why = {
  disabled: 'The owner has disabled this invitation.',
  expired: 'This invitation has expired. Ask the owner for a new link.',
};

function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = false;
}

// The token is in the address's fragment, or was kept across a sign-in
// through the identity provider (fragment.js).
function tokenFromAddress() {
  return new URLSearchParams(fragment().slice(1)).get('token');
}

function timelineOf(libraryID) {
  return '/' + query({ library: libraryID });
}

async function start() {
  const token = tokenFromAddress();
  const [libs, preview] = await Promise.all([
    currentLibrary().then(() => api('/api/libraries?limit=200')),
    token ? api('/api/libraries/invitations/preview', { method: 'POST', body: { token } }).catch((err) => {
      if (err.status === 404 || err.status === 422) throw new Error('This invitation link is not valid (or its library is gone). Check that you copied the whole link.');
      throw err;
    }) : null,
  ]);
  if (!preview) throw new Error('This address holds no invitation. Open the whole link you were sent.');
  const inv = preview.invitation;
  document.getElementById('preview-library').textContent = preview.library.name;
  document.getElementById('preview-owner').textContent = preview.owner.display_name || preview.owner.id;
  document.getElementById('preview-role').textContent = inv.role;
  document.getElementById('preview-state').textContent = inv.state === 'active'
    ? `active until ${new Date(inv.expires_at).toLocaleString()}, ${inv.remaining_places} place${inv.remaining_places === 1 ? '' : 's'} left`
    : inv.state;
  document.getElementById('preview').hidden = false;
  const mine = libs.data.find((l) => l.id === preview.library.id && !l.trashed_at);
  if (mine) {
    errorBox.append('You are already a member of this library (', mine.role, '). ',
      el('a', { href: timelineOf(mine.id) }, 'Open its photos'));
    errorBox.hidden = false;
    return;
  }
  if (why[inv.state]) {
    showError(why[inv.state]);
    return;
  }
  if (inv.state === 'exhausted') { // one who joined through it before and left may come back
    showError('Every place of this invitation is taken, unless you joined through it before.');
  }
  button.textContent = `Join ${preview.library.name}`;
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const joined = await api('/api/libraries/invitations/join', { method: 'POST', body: { token } });
      localStorage.setItem('photoctl.library', joined.id);
      location.assign(timelineOf(joined.id));
    } catch (err) {
      showError(`Could not join: ${err.message}.`);
      button.disabled = false;
    }
  });
  button.focus();
}

start().catch((err) => showError(err.message))
  .finally(() => {
    main.setAttribute('aria-busy', 'false');
    main.dataset.ready = 'true';
  });
