// The library page: its name, the caller's role and its members. The
// owner changes members' roles, removes members and manages invitations
// (a new link is shown once: only its creation returns the token); any
// other member may leave.
import { api, query, el, errorShower } from './api.js';
import { currentLibrary } from './nav.js';

const main = document.getElementById('library');
const errorBox = document.getElementById('error');
const doneBox = document.getElementById('done');
const membersList = document.getElementById('members');
const invitationsBody = document.getElementById('invitations');
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

let lib = null;

const { show: showError, clear: clearError } = errorShower(errorBox);

// act runs an action and refreshes the lists, then says done, or shows
// the failure.
async function act(what, fn, done) {
  clearError();
  doneBox.textContent = '';
  try {
    await fn();
    await refresh();
    doneBox.textContent = done;
  } catch (err) {
    showError(err, what);
    await refresh().catch(() => {}); // the lists as they are (the failure is shown)
  }
}

async function listAll(path) {
  const out = [];
  let after;
  for (;;) {
    const page = await api(path + query({ limit: 200, starting_after_id: after }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data[page.data.length - 1].id;
  }
}

function memberName(m) {
  return m.display_name || m.id;
}

function memberRow(m) {
  const name = el('span', { class: 'member-name' }, memberName(m));
  const li = el('li', { dataset: { userId: m.id } }, name);
  if (m.role === 'owner' || lib.role !== 'owner') {
    li.append(el('span', { class: 'role' }, m.role));
    return li;
  }
  const role = el('select', { class: 'write owner-only', 'aria-label': `Role of ${memberName(m)}` },
    el('option', { value: 'viewer' }, 'viewer'), el('option', { value: 'collaborator' }, 'collaborator'));
  role.value = m.role;
  role.addEventListener('change', () => act('Could not change the role', () =>
    api(`/api/libraries/${lib.id}/members/${m.id}`, { method: 'PATCH', body: { role: role.value } }),
    `${memberName(m)} is now a ${role.value}.`));
  const remove = el('button', { type: 'button', class: 'write owner-only remove', 'aria-label': `Remove ${memberName(m)}` }, 'Remove');
  remove.addEventListener('click', () => {
    if (remove.dataset.armed !== 'true') { // a second press confirms
      remove.dataset.armed = 'true';
      remove.textContent = 'Really remove?';
      remove.setAttribute('aria-label', `Really remove ${memberName(m)}? Press again to confirm`);
      return;
    }
    act('Could not remove the member', () => api(`/api/libraries/${lib.id}/members/${m.id}`, { method: 'DELETE' }),
      `${memberName(m)} was removed.`);
  });
  li.append(role, remove);
  return li;
}

function invitationRow(inv) {
  const disable = el('button', { type: 'button', class: 'write owner-only', 'aria-label': `Disable the ${inv.role} invitation of ${dateTime.format(new Date(inv.created_at))}` }, 'Disable');
  disable.disabled = inv.state === 'disabled';
  disable.addEventListener('click', () => act('Could not disable the invitation', () =>
    api(`/api/libraries/invitations/${inv.id}/disable`, { method: 'POST' }), 'The invitation is disabled.'));
  return el('tr', { dataset: { invitationId: inv.id, state: inv.state } },
    el('td', {}, inv.role), el('td', { class: 'state' }, inv.state),
    el('td', {}, `${inv.joiner_count} of ${inv.max_joiners}`),
    el('td', {}, dateTime.format(new Date(inv.expires_at))), el('td', {}, disable));
}

async function refresh() {
  const members = await listAll(`/api/libraries/${lib.id}/members`);
  membersList.replaceChildren(...members.map(memberRow));
  if (lib.role === 'owner') {
    invitationsBody.replaceChildren(...(await listAll(`/api/libraries/${lib.id}/invitations`)).map(invitationRow));
  }
}

document.getElementById('invite').addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.target;
  const days = Number(form.days.value);
  act('Could not create the invitation', async () => {
    const inv = await api(`/api/libraries/${lib.id}/invitations`, {
      method: 'POST',
      body: {
        role: form.role.value, max_joiners: Number(form.max.value),
        expires_at: new Date(Date.now() + days * 86400e3).toISOString(),
      },
    });
    // The token travels in the fragment: it never reaches a server log
    // or a Referer header.
    const link = document.getElementById('invite-link');
    link.value = `${location.origin}/join#token=${encodeURIComponent(inv.token)}`;
    document.getElementById('copied').textContent = '';
    document.getElementById('created').hidden = false;
    link.focus();
    link.select();
  }, 'The invitation is created.');
});

document.getElementById('copy').addEventListener('click', async () => {
  const link = document.getElementById('invite-link');
  const said = document.getElementById('copied');
  try {
    await navigator.clipboard.writeText(link.value);
    said.textContent = 'Copied.';
  } catch {
    link.select();
    said.textContent = 'Select the link and copy it (the clipboard is not available here).';
  }
});

const leaveBox = document.getElementById('leave-confirm');
document.getElementById('leave').addEventListener('click', () => {
  leaveBox.hidden = false;
  document.getElementById('leave-no').focus();
});
document.getElementById('leave-no').addEventListener('click', () => {
  leaveBox.hidden = true;
  document.getElementById('leave').focus();
});
document.getElementById('leave-yes').addEventListener('click', async () => {
  clearError();
  try {
    await api(`/api/libraries/${lib.id}/leave`, { method: 'POST' });
    localStorage.removeItem('photoctl.library');
    location.assign('/');
  } catch (err) {
    leaveBox.hidden = true;
    showError(err, 'Could not leave the library');
  }
});

async function start() {
  lib = await currentLibrary();
  if (!lib) throw new Error('you have no library');
  document.getElementById('library-name').textContent = lib.name;
  document.getElementById('my-role').textContent = lib.role;
  await refresh();
  main.dataset.ready = 'true';
}

start().catch((err) => showError(err, 'Could not show the library'))
  .finally(() => main.setAttribute('aria-busy', 'false'));
