// People: the library's people as a grid of face thumbnails with their
// names (unnamed machine clusters too, marked), each a link to the
// person's page.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';

const main = document.getElementById('people');
const status = document.getElementById('status');
const grid = document.getElementById('people-grid');

// allPeople pages through the library's people, newest first.
export async function allPeople(libraryID) {
  const out = [];
  let after;
  for (;;) {
    const page = await api('/api/people' + query({ library_id: libraryID, limit: 200, starting_after_id: after }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data[page.data.length - 1].id;
  }
}

// personName is what the gallery calls a person.
export function personName(p) {
  return p.name ?? 'Unnamed person';
}

// faceImage is a person's featured face, or an empty square.
export function faceImage(p, size) {
  const img = el('img', { class: 'face', alt: '', width: String(size), height: String(size), loading: 'lazy' });
  if (p.thumbnail_face_url) img.src = p.thumbnail_face_url;
  else img.classList.add('missing');
  img.addEventListener('error', () => img.classList.add('missing'), { once: true });
  return img;
}

function card(p, libraryID) {
  const count = `${p.asset_count} photo${p.asset_count === 1 ? '' : 's'}`;
  const name = el('span', { class: 'name' }, personName(p));
  const link = el('a', { class: 'person-card', href: `/people/${p.id}` + query({ library: libraryID }) },
    faceImage(p, 160), name, el('span', { class: 'muted' }, count));
  const li = el('li', { dataset: { personId: p.id } }, link);
  if (p.name === null) li.classList.add('unnamed');
  if (p.is_hidden) {
    li.classList.add('hidden-person');
    name.append(el('span', { class: 'tag' }, 'hidden'));
  }
  return li;
}

async function start() {
  const lib = await currentLibrary();
  if (!lib) return; // currentLibrary said so
  const people = await allPeople(lib.id);
  // Named people first, by name; the unnamed after them, biggest first.
  people.sort((a, b) => (a.name === null) - (b.name === null)
    || (a.name ?? '').localeCompare(b.name ?? '') || b.asset_count - a.asset_count);
  grid.replaceChildren(...people.map((p) => card(p, lib.id)));
  status.textContent = people.length ? `${people.length} ${people.length === 1 ? 'person' : 'people'}` : 'Nobody has been recognised in this library yet.';
}

if (main) {
  start().catch((err) => {
    status.textContent = '';
    main.append(el('p', { class: 'error', role: 'alert' }, `Could not list the people: ${err.message}`));
  }).finally(() => main.setAttribute('aria-busy', 'false'));
}
