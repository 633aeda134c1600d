// Trash: the library's trashed assets (GET /api/assets?state=trashed, every
// stack member on its own), a grid to select from, Restore
// (POST /api/assets/restore) and, for the owner, Delete forever
// (DELETE /api/assets) after a confirmation.
import { api, query } from './api.js';
import { currentLibrary } from './nav.js';
import { linkTile, pickTile, setStatus, showError } from './thumbs.js';

const main = document.getElementById('trash');
const grid = document.getElementById('grid');
const status = document.getElementById('status');
const empty = document.getElementById('empty');
const more = document.getElementById('more');
const selectAll = document.getElementById('select-all');
const restore = document.getElementById('restore');
const remove = document.getElementById('delete');
const confirmBox = document.getElementById('confirm');
const batch = 100; // the API's most ids per call

let library = null;
let after;

function selected() {
  return [...grid.querySelectorAll('input:checked')].map((b) => b.value);
}

function update() {
  const n = selected().length;
  const tiles = grid.querySelectorAll('.thumb').length;
  restore.disabled = n === 0;
  remove.disabled = n === 0;
  selectAll.disabled = tiles === 0;
  selectAll.textContent = n > 0 && n === tiles ? 'Select none' : 'Select all';
  empty.hidden = tiles > 0 || !more.hidden;
}

async function loadPage() {
  more.disabled = true;
  try {
    const page = await api('/api/assets' + query({
      library_id: library.id, state: 'trashed', stacks: 'expand', include: 'variants', variants: 'thumbnail',
      limit: 100, starting_after_id: after,
    }));
    // A viewer can neither restore nor delete: the items are links to look at.
    const writer = library.role === 'owner' || library.role === 'collaborator';
    grid.append(...page.data.map((a) => (writer ? pickTile(a, update) : linkTile(a, library.id))));
    after = page.data.at(-1)?.id;
    more.hidden = !page.has_more;
  } finally {
    more.disabled = false;
    update();
  }
}

// act runs call on the selected ids, a batch at a time, and takes the
// tiles it acted on off the grid.
async function act(verb, call) {
  const ids = selected();
  restore.disabled = true;
  remove.disabled = true;
  setStatus(status, `${verb}…`);
  let done = 0;
  try {
    for (let i = 0; i < ids.length; i += batch) {
      const part = ids.slice(i, i + batch);
      await call(part);
      for (const id of part) grid.querySelector(`.thumb[data-id="${CSS.escape(id)}"]`)?.remove();
      done += part.length;
    }
    setStatus(status, `${verb}: ${done} ${done === 1 ? 'item' : 'items'}.`);
  } catch (err) {
    showError(status, `${verb} failed after ${done}`, err);
  }
  update();
}

async function start() {
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  await loadPage();
  selectAll.addEventListener('click', () => {
    const boxes = [...grid.querySelectorAll('input')];
    const all = boxes.every((b) => b.checked);
    for (const b of boxes) b.checked = !all;
    update();
  });
  more.addEventListener('click', () => loadPage().catch((err) => showError(status, 'Could not load more', err)));
  restore.addEventListener('click', () => act('Restored', (ids) =>
    api('/api/assets/restore' + query({ library_id: library.id }), { method: 'POST', body: { ids } })));
  remove.addEventListener('click', () => {
    const n = selected().length;
    document.getElementById('confirm-text').textContent =
      `${n} ${n === 1 ? 'item' : 'items'} will be deleted with their files. This cannot be undone.`;
    confirmBox.returnValue = '';
    confirmBox.showModal();
  });
  confirmBox.addEventListener('close', () => {
    if (confirmBox.returnValue !== 'delete') return;
    act('Deleted forever', (ids) => api('/api/assets' + query({ library_id: library.id }), { method: 'DELETE', body: { ids } }));
  });
  main.setAttribute('aria-busy', 'false');
}

start().catch((err) => {
  showError(status, 'Could not load the trash', err);
  main.setAttribute('aria-busy', 'false');
});
