// The viewer: one asset's preview (or its video with the poster frame),
// the full size on demand, the original's download, the previous and next
// asset in timeline order (buttons and the arrow keys) and its details.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';

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

function show(a) {
  const m = a.metadata;
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
    stage.replaceChildren(img);
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
  row('Taken', taken(a.local_datetime));
  row('Camera', [m.make, m.model].filter(Boolean).join(' '), m.lens_model);
  row('Exposure', ...exposure(m));
  row('Place', ...place(m));
  row('Description', m.description);
  row('Summary', a.description);
  row('Text', a.ocr_text);
  row('People', a.people.map((p) => p.name).filter(Boolean).join(', '));
  row('File', a.original_file_name, a.width && a.height ? `${a.width} × ${a.height}` : null, size(a.file_size_bytes));
  if (a.stack && a.stack.asset_count > 1) row('Stack', `${a.stack.asset_count} shots`);
}

// neighbour is the asset after (older, the timeline's order) or before
// (newer) this one, through the list's cursor.
async function neighbour(a, older) {
  const page = await api('/api/assets' + query({
    library_id: a.library_id, limit: 1, starting_after_id: a.id, order: older ? 'desc' : 'asc',
    include: 'variants', variants: 'thumbnail',
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
    if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest?.('input, select, textarea, video')) return;
    if (e.key === 'ArrowLeft' && links.prev.href) location.assign(links.prev.href);
    else if (e.key === 'ArrowRight' && links.next.href) location.assign(links.next.href);
    else if (e.key === 'Escape') location.assign('/' + query({ library: libraryID }));
  });
}

async function start() {
  const [lib, a] = await Promise.all([currentLibrary(), api(`/api/assets/${id}`)]);
  document.getElementById('back').href = '/' + query({ library: lib?.id });
  show(a);
  keys(a.library_id);
  const [prev, next] = await Promise.all([neighbour(a, false), neighbour(a, true)]);
  link('prev', prev, a.library_id);
  link('next', next, a.library_id);
  viewer.dataset.ready = 'true';
}

start().catch((err) => {
  stage.replaceChildren(el('p', { class: 'error', role: 'alert' }, `Could not show this asset: ${err.message}`));
});
