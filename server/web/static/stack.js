// A stack's page: every live member (GET /api/assets?stack_id=), by capture
// time as the API lists them, each opening the viewer; the cover marked.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';
import { assetTile } from './select.js';

const main = document.getElementById('stack');
const status = document.getElementById('status');
const grid = document.getElementById('members');
const id = main.dataset.stackId;

async function members(libraryID) {
  const out = [];
  let after;
  for (;;) {
    const page = await api('/api/assets' + query({
      library_id: libraryID, stack_id: id, limit: 200, starting_after_id: after, include: 'variants', variants: 'thumbnail',
    }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data[page.data.length - 1].id;
  }
}

async function start() {
  const lib = await currentLibrary();
  document.getElementById('back').href = '/' + query({ library: lib?.id });
  const stack = await api(`/api/stacks/${id}`);
  const list = await members(stack.library_id);
  document.getElementById('title').textContent = `Stack of ${list.length}`;
  document.title = `Stack of ${list.length} · photoctl`;
  grid.replaceChildren(...list.map((a) => {
    const tile = assetTile(a, stack.library_id);
    if (a.id === stack.cover_asset_id) {
      tile.classList.add('cover');
      tile.append(el('span', { class: 'badge cover' }, 'Cover'));
      tile.setAttribute('aria-label', `${a.original_file_name}, the stack's cover`);
    }
    return tile;
  }));
  status.textContent = list.length ? '' : 'Every member of this stack is in the trash.';
  main.setAttribute('aria-busy', 'false');
}

start().catch((err) => {
  status.textContent = `Could not show this stack: ${err.message}`;
  status.setAttribute('role', 'alert');
});
