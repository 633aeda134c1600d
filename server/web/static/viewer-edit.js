// The viewer's albums and its write actions (owners and collaborators:
// .write): the rating (0–5) and the description (PATCH /api/assets/{id},
// the user-edit layer), "Add to album…" and "Move to trash".
import { api, query, el } from './api.js';
import { addToAlbum, albumsOf } from './select.js';

const error = document.getElementById('viewer-error');

function fail(err) {
  error.textContent = err.message;
  error.hidden = false;
}

// showAlbums lists the albums the asset is in, each a link to its page.
export async function showAlbums(a) {
  const list = document.getElementById('albums');
  try {
    const albums = await albumsOf(a.library_id, { asset_id: a.id });
    list.replaceChildren(...albums.map((al) => el('li', {},
      el('a', { href: `/albums/${al.id}` + query({ library: a.library_id }) }, al.name))));
    if (albums.length === 0) list.replaceChildren(el('li', { class: 'none' }, 'In no album'));
  } catch (err) {
    fail(err);
  }
}

// ratingButtons are "no rating" and one to five stars, the current one
// pressed.
function ratingButtons(box, value, set) {
  const buttons = [0, 1, 2, 3, 4, 5].map((n) => {
    const b = el('button', {
      type: 'button', class: 'star', dataset: { value: String(n) },
      'aria-label': n === 0 ? 'No rating' : `${n} star${n > 1 ? 's' : ''}`,
    }, n === 0 ? '∅' : '★');
    b.addEventListener('click', () => set(n));
    return b;
  });
  const show = (v) => {
    for (const b of buttons) {
      const n = Number(b.dataset.value);
      b.setAttribute('aria-pressed', String(n === v));
      b.classList.toggle('on', n > 0 && n <= v);
    }
  };
  box.replaceChildren(...buttons);
  show(value);
  return show;
}

// editing wires the write actions to the asset a; changed(asset) shows
// the details again after an edit, links are the previous and next links
// (where "Move to trash" goes next).
export function editing(a, { changed, links }) {
  const status = document.getElementById('edit-status');
  const text = document.getElementById('description');
  const save = document.getElementById('save-description');
  const patch = async (change, what) => {
    error.hidden = true;
    status.textContent = 'Saving…';
    try {
      a = await api(`/api/assets/${a.id}`, { method: 'PATCH', body: change });
      changed(a);
      status.textContent = `${what} saved.`;
      return true;
    } catch (err) {
      status.textContent = '';
      fail(err);
      return false;
    }
  };
  const showRating = ratingButtons(document.getElementById('rating'), a.metadata.rating ?? 0, async (n) => {
    if (await patch({ rating: n }, 'Rating')) showRating(a.metadata.rating ?? 0);
  });
  text.value = a.metadata.description ?? '';
  save.addEventListener('click', async () => {
    save.disabled = true;
    await patch({ description: text.value }, 'Description');
    save.disabled = false;
  });

  document.getElementById('add-to-album').addEventListener('click', async () => {
    if (await addToAlbum([a.id], a.library_id)) await showAlbums(a);
  });

  const trash = document.getElementById('trash');
  trash.addEventListener('click', async () => {
    error.hidden = true;
    trash.disabled = true;
    try {
      await api('/api/assets/trash' + query({ library_id: a.library_id }), { method: 'POST', body: { ids: [a.id] } });
    } catch (err) {
      trash.disabled = false;
      fail(err);
      return;
    }
    const next = links.next.getAttribute('href') ?? links.prev.getAttribute('href') ?? '/' + query({ library: a.library_id });
    location.assign(next);
  });
}
