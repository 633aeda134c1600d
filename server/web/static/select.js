// What the pages that show grids of assets share: a tile that opens the
// viewer, the selection mode (a Set of ids, never the DOM: tiles come and go
// as the timeline scrolls, and each new one asks the selection how to look),
// its action bar, and the "Add to album" dialog.
import { api, query, el } from './api.js';
import { assetLink } from './thumbs.js';

// assetTile is one asset's link to the viewer: its thumbnail (a video's
// poster), a badge for a video, and data-id for the selection.
export function assetTile(a, libraryID, href, img) {
  return assetLink(a, libraryID, { cls: 'tile', href, img });
}

// Selection is a select mode over the .tile[data-id] elements under root:
// while it is on, a click, Enter or Space on a tile toggles it (role
// checkbox, aria-checked) instead of following its link, and Escape ends it.
export class Selection {
  constructor(root, onChange) {
    this.root = root;
    this.onChange = onChange;
    this.active = false;
    this.ids = new Set();
    root.addEventListener('click', (e) => {
      const tile = e.target.closest('.tile[data-id]');
      if (!this.active || !tile) return;
      e.preventDefault();
      this.toggle(tile);
    });
    root.addEventListener('keydown', (e) => {
      const tile = e.target.closest?.('.tile[data-id]');
      if (!this.active || !tile || e.key !== ' ') return;
      e.preventDefault(); // not a scroll
      this.toggle(tile);
    });
    addEventListener('keydown', (e) => {
      if (this.active && e.key === 'Escape' && !e.target.closest?.('dialog')) this.stop();
    });
  }

  start() {
    this.active = true;
    this.root.classList.add('selecting');
    for (const t of this.root.querySelectorAll('.tile[data-id]')) this.decorate(t);
    this.onChange(this);
  }

  stop() {
    this.active = false;
    this.ids.clear();
    this.root.classList.remove('selecting');
    for (const t of this.root.querySelectorAll('.tile[data-id]')) this.decorate(t);
    this.onChange(this);
  }

  // decorate makes a tile show the selection's state (new tiles too).
  decorate(tile) {
    if (this.active) {
      tile.setAttribute('role', 'checkbox');
      tile.setAttribute('aria-checked', String(this.ids.has(tile.dataset.id)));
    } else {
      tile.removeAttribute('role');
      tile.removeAttribute('aria-checked');
    }
    return tile;
  }

  toggle(tile) {
    const id = tile.dataset.id;
    if (this.ids.has(id)) this.ids.delete(id); else this.ids.add(id);
    this.decorate(tile);
    this.onChange(this);
  }
}

// selectionBar is the select mode's controls: a "Select" button that starts
// it, then the count, the actions ({label, run(ids)}, disabled while none is
// selected) and "Done". An action's failure is shown in the bar.
export function selectionBar(selection, actions) {
  const start = el('button', { type: 'button', class: 'write select-start' }, 'Select');
  const count = el('span', { class: 'select-count', 'aria-live': 'polite' });
  const error = el('p', { class: 'error', role: 'alert', hidden: true });
  const buttons = actions.map(({ label, run, className }) => {
    const b = el('button', { type: 'button', class: className ?? '' }, label);
    b.addEventListener('click', async () => {
      error.hidden = true;
      const ids = [...selection.ids];
      b.disabled = true;
      try {
        await run(ids);
      } catch (err) {
        error.textContent = err.message;
        error.hidden = false;
      } finally {
        b.disabled = selection.ids.size === 0;
      }
    });
    return b;
  });
  const done = el('button', { type: 'button' }, 'Done');
  const bar = el('div', { class: 'select-bar write', role: 'group', 'aria-label': 'Selection', hidden: true },
    count, ...buttons, done, error);
  start.addEventListener('click', () => selection.start());
  done.addEventListener('click', () => selection.stop());
  const inner = selection.onChange;
  selection.onChange = (s) => {
    const focused = document.activeElement;
    start.hidden = s.active;
    bar.hidden = !s.active;
    count.textContent = `${s.ids.size} selected`;
    for (const b of buttons) b.disabled = s.ids.size === 0;
    if (!s.active) error.hidden = true;
    if (s.active && focused === start) done.focus();
    if (!s.active && bar.contains(focused)) start.focus();
    inner?.(s);
  };
  return { start, bar };
}

// albumsOf lists every album of the library (all pages).
export async function albumsOf(libraryID, extra = {}) {
  const out = [];
  let after;
  for (;;) {
    const page = await api('/api/albums' + query({ library_id: libraryID, limit: 200, starting_after_id: after, ...extra }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data[page.data.length - 1].id;
  }
}

// addAssets adds ids to an album, a hundred at a time (the API's limit).
export async function addAssets(albumID, ids) {
  let album = null;
  for (let i = 0; i < ids.length; i += 100) {
    album = await api(`/api/albums/${albumID}/assets`, { method: 'POST', body: { asset_ids: ids.slice(i, i + 100) } });
  }
  return album;
}

// addToAlbum asks which album (an existing one, or a new one by name) and
// adds ids to it. It resolves to the album, or null when cancelled.
export function addToAlbum(ids, libraryID) {
  return new Promise((resolve) => {
    const choice = el('select', { id: 'album-choice' }, new Option('New album…', ''));
    const name = el('input', { id: 'album-name', type: 'text', maxLength: 255, autocomplete: 'off' });
    const nameLabel = el('label', {}, 'Name of the new album ', name);
    const error = el('p', { class: 'error', role: 'alert', hidden: true });
    const add = el('button', { type: 'submit' }, 'Add');
    const cancel = el('button', { type: 'button' }, 'Cancel');
    const form = el('form', { class: 'card' },
      el('h2', { id: 'album-picker-title' }, `Add ${ids.length === 1 ? 'this asset' : `${ids.length} assets`} to an album`),
      el('label', {}, 'Album ', choice), nameLabel, error, el('div', { class: 'actions' }, add, cancel));
    const dialog = el('dialog', { class: 'album-picker', 'aria-labelledby': 'album-picker-title' }, form);
    let result = null;
    const fail = (err) => {
      error.textContent = err.message;
      error.hidden = false;
    };
    choice.addEventListener('change', () => { nameLabel.hidden = choice.value !== ''; });
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => { dialog.remove(); resolve(result); });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      error.hidden = true;
      add.disabled = true;
      try {
        let albumID = choice.value;
        if (!albumID) {
          if (!name.value.trim()) throw new Error('Give the new album a name.');
          albumID = (await api('/api/albums', { method: 'POST', body: { name: name.value.trim(), library_id: libraryID } })).id;
        }
        result = await addAssets(albumID, ids);
        dialog.close();
      } catch (err) {
        fail(err);
      } finally {
        add.disabled = false;
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    albumsOf(libraryID).then((albums) => {
      for (const a of albums) choice.append(new Option(`${a.name} (${a.asset_count})`, a.id));
    }, fail);
  });
}
