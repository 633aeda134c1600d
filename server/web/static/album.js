// An album's page: its assets in a grid (GET /api/assets?album_id=, a page
// of the API at a time), each opening the viewer; for writers rename,
// "Remove from album" on a selection, and delete (after a confirmation).
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';
import { assetTile, Selection, selectionBar } from './select.js';

const main = document.getElementById('album');
const status = document.getElementById('status');
const grid = document.getElementById('album-assets');
const more = document.getElementById('more');
const id = main.dataset.albumId;
const pageSize = 100;
let album = null;
let after;
let selection = null;

function problem(err) {
  status.textContent = err.message;
  status.setAttribute('role', 'alert');
  status.classList.add('error');
}

function day(local) {
  return local ? local.slice(0, 10) : null;
}

function showAlbum(a) {
  album = a;
  document.title = `${a.name} · photoctl`;
  document.getElementById('title').textContent = a.name;
  const span = [day(a.start_date), day(a.end_date)].filter(Boolean);
  const dates = span.length === 2 && span[0] !== span[1] ? `${span[0]} – ${span[1]}` : span[0];
  document.getElementById('album-meta').textContent =
    [`${a.asset_count} ${a.asset_count === 1 ? 'item' : 'items'}`, dates, a.description].filter(Boolean).join(' · ');
}

async function load() {
  more.disabled = true;
  const page = await api('/api/assets' + query({
    library_id: album.library_id, album_id: id, limit: pageSize, starting_after_id: after,
    include: 'variants', variants: 'thumbnail',
  }));
  grid.append(...page.data.map((a) => selection.decorate(assetTile(a, album.library_id))));
  if (page.data.length) after = page.data[page.data.length - 1].id;
  more.hidden = !page.has_more;
  more.disabled = false;
  status.textContent = grid.children.length ? '' : 'This album is empty.';
}

// remove takes the selected assets out of the album (a hundred at a time).
async function remove(ids) {
  for (let i = 0; i < ids.length; i += 100) {
    showAlbum(await api(`/api/albums/${id}/assets`, { method: 'DELETE', body: { asset_ids: ids.slice(i, i + 100) } }));
  }
  const gone = new Set(ids);
  for (const t of [...grid.querySelectorAll('.tile[data-id]')]) if (gone.has(t.dataset.id)) t.remove();
  selection.stop();
  status.textContent = grid.children.length ? '' : 'This album is empty.';
}

function renaming() {
  const form = document.getElementById('rename');
  const name = document.getElementById('rename-name');
  const startButton = document.getElementById('rename-start');
  const close = () => { form.hidden = true; startButton.hidden = false; startButton.focus(); };
  startButton.addEventListener('click', () => {
    name.value = album.name;
    form.hidden = false;
    startButton.hidden = true;
    name.focus();
  });
  document.getElementById('rename-cancel').addEventListener('click', close);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      showAlbum(await api(`/api/albums/${id}`, { method: 'PATCH', body: { name: name.value.trim() } }));
      status.classList.remove('error');
      status.removeAttribute('role');
      close();
    } catch (err) {
      problem(err);
    }
  });
}

// confirmDelete asks before deleting the album (its assets stay).
function confirmDelete() {
  const yes = el('button', { type: 'button', class: 'danger', id: 'delete-confirm' }, 'Delete');
  const no = el('button', { type: 'button' }, 'Cancel');
  const dialog = el('dialog', { class: 'confirm', 'aria-labelledby': 'delete-title' },
    el('h2', { id: 'delete-title' }, `Delete the album “${album.name}”?`),
    el('p', {}, 'Its photos and videos stay in the library.'),
    el('div', { class: 'actions' }, yes, no));
  no.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  yes.addEventListener('click', async () => {
    dialog.close();
    try {
      await api(`/api/albums/${id}`, { method: 'DELETE' });
      location.assign('/albums' + query({ library: album.library_id }));
    } catch (err) {
      problem(err);
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  no.focus();
}

async function start() {
  const lib = await currentLibrary();
  showAlbum(await api(`/api/albums/${id}`));
  document.getElementById('back').href = '/albums' + query({ library: lib?.id });
  selection = new Selection(grid);
  const { start: select, bar } = selectionBar(selection, [
    { label: 'Remove from album', run: remove, className: 'danger' },
  ]);
  document.getElementById('album-tools').prepend(select);
  grid.before(bar);
  renaming();
  document.getElementById('delete').addEventListener('click', confirmDelete);
  more.addEventListener('click', () => load().catch(problem));
  await load();
  main.setAttribute('aria-busy', 'false');
}

start().catch(problem);
