// Search: words (GET /api/search?query=, kept in the address as ?q= so a
// reload or Back shows the same results) or a picture (POST /api/search
// with the image as a multipart part), results as a grid of thumbnails
// opening the viewer, best first, a page at a time.
import { api, el, query } from './api.js';
import { currentLibrary } from './nav.js';
import { linkTile, setStatus, showError } from './thumbs.js';

const main = document.getElementById('search');
const status = document.getElementById('status');
const results = document.getElementById('results');
const more = document.getElementById('more');
const box = document.getElementById('q');
const picture = document.getElementById('image');
const pageSize = 60;

let library = null;
let nextPage = null; // loads the next page of the current search, or null
let generation = 0; // a newer search makes the older one's answers stale

// postForm sends a multipart search (the image too).
function postForm(fields, image) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  form.append('image', image, image.name);
  return api('/api/search', { method: 'POST', body: form });
}

// run shows the results of one search: fetchPage(after) returns a page.
async function run(describe, fetchPage) {
  const mine = ++generation;
  results.replaceChildren();
  more.hidden = true;
  setStatus(status, 'Searching…');
  main.setAttribute('aria-busy', 'true');
  let after;
  let shown = 0;
  const load = async () => {
    more.disabled = true;
    try {
      const page = await fetchPage(after);
      if (mine !== generation) return;
      results.append(...page.data.map((a) => linkTile(a, library.id)));
      shown += page.data.length;
      after = page.data.at(-1)?.id;
      more.hidden = !page.has_more;
      nextPage = page.has_more ? load : null;
      setStatus(status, shown === 0 ? `No matches for ${describe}.` : `${shown}${page.has_more ? '+' : ''} ${shown === 1 ? 'match' : 'matches'} for ${describe}.`);
    } catch (err) {
      if (mine === generation) showError(status, 'Search failed', err);
    } finally {
      more.disabled = false;
      main.setAttribute('aria-busy', 'false');
    }
  };
  await load();
}

function searchText(q) {
  return run(`“${q}”`, (after) => api('/api/search' + query({
    query: q, library_id: library.id, include: 'variants', variants: 'thumbnail', limit: pageSize, starting_after_id: after,
  })));
}

function searchImage(file) {
  return run(`the picture ${file.name}`, (after) => postForm({
    library_id: library.id, include: 'variants', variants: 'thumbnail', limit: String(pageSize), starting_after_id: after,
  }, file));
}

async function start() {
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  // The form's GET keeps the library the address named.
  const field = document.getElementById('library-field');
  if (new URL(location.href).searchParams.has('library')) {
    field.value = library.id;
    field.disabled = false;
  }
  more.addEventListener('click', () => nextPage?.());
  picture.addEventListener('change', () => {
    const file = picture.files[0];
    if (!file) return;
    // The address holds words only: a picture search leaves none there.
    box.value = '';
    const url = new URL(location.href);
    url.searchParams.delete('q');
    history.replaceState(null, '', url);
    searchImage(file);
  });
  const q = new URL(location.href).searchParams.get('q')?.trim();
  main.setAttribute('aria-busy', 'false');
  if (q) {
    box.value = q;
    await searchText(q);
  } else {
    box.focus();
  }
}

start().catch((err) => {
  showError(status, 'Could not start', err);
  main.setAttribute('aria-busy', 'false');
});
