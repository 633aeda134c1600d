// The viewer: one asset's preview (or its video with the poster frame)
// with its faces boxed and named, the full size on demand, the original's
// download, the previous and next asset in timeline order (buttons and the
// arrow keys), its details and albums; for writers the rating, the
// description, "Add to album" and "Move to trash" (viewer-edit.js).
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';
import { editing, showAlbums } from './viewer-edit.js';

const viewer = document.getElementById('viewer');
const stage = document.getElementById('stage');
const metaList = document.getElementById('meta');
const id = viewer.dataset.assetId;
const links = { prev: document.getElementById('prev'), next: document.getElementById('next') };

function row(term, ...values) {
  const parts = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (parts.length === 0) return;
  metaList.append(el('dt', {}, term), el('dd', { class: `meta-${term.toLowerCase().replace(/\W+/g, '-')}` }, parts.join(' · ')));
}

function exposure(m) {
  const t = m.exposure_time;
  const shutter = t ? (t >= 1 ? `${t} s` : `1/${Math.round(1 / t)} s`) : null;
  return [m.f_number ? `f/${m.f_number}` : null, shutter, m.iso ? `ISO ${m.iso}` : null,
    m.focal_length ? `${m.focal_length} mm` : null];
}

function place(m) {
  if (m.display_label) return [m.display_label];
  return [m.place_name, m.city, m.state, m.country].filter(Boolean).length
    ? [[m.place_name, m.city, m.state, m.country].filter(Boolean).join(', ')] : [];
}

// taken shows a capture time on its own wall clock (and its offset when
// known): "11 May 2024, 10:00 (+02:00)".
function taken(local) {
  if (!local) return null;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(local);
  if (!m) return local;
  const wall = new Date(`${m[1]}Z`);
  const text = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(wall);
  return m[2] ? `${text} (${m[2] === 'Z' ? 'UTC' : m[2]})` : text;
}

function size(bytes) {
  if (!bytes) return null;
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  while (bytes >= 1000 && i < units.length - 1) { bytes /= 1000; i++; }
  return `${bytes.toFixed(i ? 1 : 0)} ${units[i]}`;
}

// faceBoxes draws the faces over the photo: boxes in fractions of the
// image, placed through custom properties so they scale with it.
function faceBoxes(a) {
  const names = new Map(a.people.map((p) => [p.id, p.name]));
  return a.faces.filter((f) => f.bounding_box && f.timestamp_ms === null).map((f) => {
    const b = f.bounding_box;
    const name = names.get(f.person_id) ?? null;
    const box = el('div', { class: 'face', title: name ?? 'Unnamed person' }, name ? el('span', {}, name) : null);
    box.style.setProperty('--x', String(b.x));
    box.style.setProperty('--y', String(b.y));
    box.style.setProperty('--w', String(b.width));
    box.style.setProperty('--h', String(b.height));
    return box;
  });
}

function showMedia(a) {
  document.title = `${a.original_file_name} · photoctl`;
  document.getElementById('title').textContent = a.original_file_name;
  if (a.media_type === 'video') {
    stage.replaceChildren(el('video', {
      src: a.asset_urls.original, poster: `/api/assets/${a.id}/variants/poster`,
      controls: true, preload: 'metadata', playsInline: true,
    }));
  } else {
    const img = el('img', { src: a.asset_urls.preview ?? a.asset_urls.original, alt: a.original_file_name });
    if (a.width && a.height) { img.width = a.width; img.height = a.height; }
    const faces = faceBoxes(a);
    const photo = el('div', { class: 'photo' }, img, ...faces);
    if (faces.length) {
      photo.setAttribute('role', 'group');
      photo.setAttribute('aria-label', `Faces: ${faces.map((f) => f.title).join(', ')}`);
    }
    stage.replaceChildren(photo);
    const full = document.getElementById('fullsize');
    if (a.asset_urls.fullsize) {
      full.hidden = false;
      full.addEventListener('click', () => {
        img.src = a.asset_urls.fullsize;
        stage.classList.add('full');
        full.disabled = true;
      }, { once: true });
    }
  }
  document.getElementById('download').href = a.asset_urls.original;
}

// showDetails (again after an edit) lists the asset's details.
function showDetails(a) {
  const m = a.metadata;
  metaList.replaceChildren();
  row('Taken', taken(a.local_datetime));
  row('Camera', [m.make, m.model].filter(Boolean).join(' '), m.lens_model);
  row('Exposure', ...exposure(m));
  row('Place', ...place(m));
  row('Rating', m.rating ? '★'.repeat(m.rating) : null);
  row('Description', m.description);
  row('Summary', a.description);
  row('Text', a.ocr_text);
  row('People', a.people.map((p) => p.name).filter(Boolean).join(', '));
  row('File', a.original_file_name, a.width && a.height ? `${a.width} × ${a.height}` : null, size(a.file_size_bytes));
  if (a.stack && a.stack.asset_count > 1) {
    metaList.append(el('dt', {}, 'Stack'), el('dd', { class: 'meta-stack' },
      el('a', { href: `/stacks/${a.stack.id}` + query({ library: a.library_id }) }, `${a.stack.asset_count} shots`)));
  }
}

// neighbour is the asset after (older, the timeline's order) or before
// (newer) this one, through the list's cursor. A stack's member other than
// its cover is not in the timeline: its neighbours are the stack's.
async function neighbour(a, older) {
  const member = a.stack && a.stack.cover_asset_id !== a.id;
  const page = await api('/api/assets' + query({
    library_id: a.library_id, limit: 1, starting_after_id: a.id, order: older ? 'desc' : 'asc',
    stack_id: member ? a.stack.id : undefined, include: 'variants', variants: 'thumbnail',
  }));
  return page.data[0] ?? null;
}

function link(which, target, libraryID) {
  const a = links[which];
  if (!target) return;
  a.href = `/photos/${target.id}` + query({ library: libraryID });
  a.removeAttribute('aria-disabled');
}

function keys(libraryID) {
  addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.('input, select, textarea, video, dialog')) return;
    if (e.key === 'ArrowLeft' && links.prev.href) location.assign(links.prev.href);
    else if (e.key === 'ArrowRight' && links.next.href) location.assign(links.next.href);
    else if (e.key === 'Escape') location.assign('/' + query({ library: libraryID }));
  });
}

async function start() {
  const [lib, a] = await Promise.all([currentLibrary(), api(`/api/assets/${id}`)]);
  document.getElementById('back').href = '/' + query({ library: lib?.id });
  showMedia(a);
  showDetails(a);
  keys(a.library_id);
  const [prev, next] = await Promise.all([neighbour(a, false), neighbour(a, true), showAlbums(a)]);
  link('prev', prev, a.library_id);
  link('next', next, a.library_id);
  editing(a, { changed: showDetails, links });
  viewer.dataset.ready = 'true';
}

start().catch((err) => {
  stage.replaceChildren(el('p', { class: 'error', role: 'alert' }, `Could not show this asset: ${err.message}`));
});
