// The albums of the library: each a card (cover thumbnail, name, count)
// linking to its page, newest first, a page of the API at a time ("More
// albums" follows the cursor); writers create one by name.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';

const main = document.getElementById('albums');
const status = document.getElementById('status');
const list = document.getElementById('album-list');
const more = document.getElementById('more');
const pageSize = 60;
let library = null;
let after;

function card(a) {
  const cover = a.album_cover_url
    ? el('img', { src: a.album_cover_url, alt: '', loading: 'lazy', decoding: 'async' })
    : el('span', { class: 'no-cover', 'aria-hidden': 'true' }, '▦');
  return el('li', {}, el('a', { class: 'album-card', href: `/albums/${a.id}` + query({ library: library.id }), dataset: { id: a.id } },
    el('span', { class: 'cover' }, cover),
    el('span', { class: 'name' }, a.name),
    el('span', { class: 'count' }, `${a.asset_count} ${a.asset_count === 1 ? 'item' : 'items'}`)));
}

function problem(err) {
  status.textContent = err.message;
  status.setAttribute('role', 'alert');
  status.classList.add('error');
}

async function load() {
  more.disabled = true;
  const page = await api('/api/albums' + query({ library_id: library.id, limit: pageSize, starting_after_id: after }));
  list.append(...page.data.map(card));
  if (page.data.length) after = page.data[page.data.length - 1].id;
  more.hidden = !page.has_more;
  more.disabled = false;
  status.textContent = list.children.length ? '' : 'No albums yet.';
}

function creating() {
  const form = document.getElementById('new-album');
  const name = document.getElementById('new-album-name');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const a = await api('/api/albums', { method: 'POST', body: { name: name.value.trim(), library_id: library.id } });
      location.assign(`/albums/${a.id}` + query({ library: library.id }));
    } catch (err) {
      problem(err);
    }
  });
}

async function start() {
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  creating();
  more.addEventListener('click', () => load().catch(problem));
  await load();
  main.setAttribute('aria-busy', 'false');
}

start().catch(problem);
