// Map: the library's photos with a position, as circles sized by count
// (GET /api/assets/geo-clusters for the box in view, with a cell a
// fraction of its width) on an offline world outline (world.json, made by
// internal/worldgen). Zoom with the buttons, the wheel or +/−; pan with the
// arrow keys or by dragging; a cluster (click, or Tab then Enter) lists its
// photos (GET /api/assets?bbox= of its cell), which open the viewer.
import { api, el, query } from './api.js';
import { currentLibrary } from './nav.js';
import { linkTile, setStatus, showError } from './thumbs.js';

const svgNS = 'http://www.w3.org/2000/svg';
const main = document.getElementById('map-main');
const box = document.getElementById('map');
const status = document.getElementById('status');
const panel = document.getElementById('cluster');
const panelTitle = document.getElementById('cluster-title');
const panelAssets = document.getElementById('cluster-assets');
const panelMore = document.getElementById('cluster-more');
const maxZoom = 14;
// Cell sizes, in degrees, that divide the world's grid evenly; those the
// server keeps aggregates for (1, 0.1, 0.01) are among them.
const cellSizes = [30, 15, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];

let library = null;
let world = null;
let svg = null;
let dots = null;
const view = { lon: 0, lat: 15, zoom: 0 }; // the centre, and a width of 360/2^zoom degrees
let clusters = { data: [], cell: 30, bbox: null };
let asked = 0; // the newest request: older answers are dropped
let timer = null;

function mk(tag, attrs = {}) {
  const e = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// spans are the degrees in view across and down (the box's shape).
function spans() {
  const w = 360 / 2 ** view.zoom;
  const h = w * (box.clientHeight || 1) / (box.clientWidth || 1);
  return [w, h];
}

// clamp keeps the view on the world.
function clamp() {
  const [w, h] = spans();
  view.lon = w >= 360 ? 0 : Math.min(180 - w / 2, Math.max(-180 + w / 2, view.lon));
  view.lat = h >= 180 ? 0 : Math.min(90 - h / 2, Math.max(-90 + h / 2, view.lat));
}

// bbox is the part of the world in view: west, south, east, north.
function bbox() {
  const [w, h] = spans();
  return [
    Math.max(-180, view.lon - w / 2), Math.max(-90, view.lat - h / 2),
    Math.min(180, view.lon + w / 2), Math.min(90, view.lat + h / 2),
  ];
}

const fmt = (v) => String(Math.round(v * 1e6) / 1e6);

// draw places the outline and the circles for the view.
function draw() {
  clamp();
  const s = world.scale;
  const [w, h] = spans();
  svg.setAttribute('viewBox', [(view.lon - w / 2 + 180) * s, (90 - view.lat - h / 2) * s, w * s, h * s].join(' '));
  const perPixel = (w * s) / (box.clientWidth || 1);
  for (const c of dots.children) {
    const n = Number(c.dataset.count);
    c.querySelector('circle').setAttribute('r', (7 + 3.5 * Math.sqrt(n)) * perPixel);
    const t = c.querySelector('text');
    if (t) t.setAttribute('font-size', 11 * perPixel);
  }
  document.getElementById('zoom-in').disabled = view.zoom >= maxZoom;
  document.getElementById('zoom-out').disabled = view.zoom <= 0;
  main.dataset.zoom = String(view.zoom);
}

// dot is one cluster: a focusable circle with its count.
function dot(c) {
  const s = world.scale;
  const noun = c.count === 1 ? 'photo' : 'photos';
  const g = mk('g', {
    class: 'cluster', tabindex: 0, role: 'button',
    'aria-label': `${c.count} ${noun} near ${c.latitude.toFixed(3)}, ${c.longitude.toFixed(3)}`,
  });
  Object.assign(g.dataset, { count: String(c.count), lat: String(c.latitude), lon: String(c.longitude) });
  const x = (c.longitude + 180) * s;
  const y = (90 - c.latitude) * s;
  g.append(mk('circle', { cx: x, cy: y, r: 1 }));
  if (c.count > 1) {
    const t = mk('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
    t.textContent = String(c.count);
    g.append(t);
  }
  g.append(Object.assign(mk('title'), { textContent: `${c.count} ${noun}` }));
  g.addEventListener('click', () => { if (!dragged) open(c); });
  g.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      open(c);
    }
  });
  return g;
}

// load asks for the clusters in view, a moment after the view stops moving.
function load() {
  clearTimeout(timer);
  const mine = ++asked;
  main.dataset.loading = 'true';
  timer = setTimeout(async () => {
    const b = bbox();
    const [w] = spans();
    const cell = cellSizes.find((c) => c <= w / 12) ?? cellSizes.at(-1);
    main.dataset.cell = String(cell);
    try {
      const page = await api('/api/assets/geo-clusters' + query({
        library_id: library.id, bbox: b.map(fmt).join(','), cell_size: cell,
      }));
      if (mine !== asked) return;
      clusters = { data: page.data, cell, bbox: b };
      dots.replaceChildren(...page.data.map(dot));
      draw();
      const n = page.data.reduce((sum, c) => sum + c.count, 0);
      setStatus(status, n === 0 ? 'No photos with a position in view.' : `${n} ${n === 1 ? 'photo' : 'photos'} in view.`);
    } catch (err) {
      if (mine === asked) showError(status, 'Could not read the map', err);
    } finally {
      if (mine === asked) main.dataset.loading = 'false';
    }
  }, 120);
}

// open lists a cluster's photos: those in its cell, within the view.
async function open(c) {
  const cell = clusters.cell;
  const [bw, bs, be, bn] = clusters.bbox;
  const west = Math.max(bw, -180 + Math.floor((c.longitude + 180) / cell) * cell);
  const south = Math.max(bs, -90 + Math.floor((c.latitude + 90) / cell) * cell);
  const east = Math.min(be, west + cell);
  const north = Math.min(bn, south + cell);
  panel.hidden = false;
  panelTitle.textContent = `${c.count} ${c.count === 1 ? 'photo' : 'photos'} near ${c.latitude.toFixed(3)}, ${c.longitude.toFixed(3)}`;
  panelAssets.replaceChildren();
  setStatus(panelMore, 'Loading…');
  try {
    const page = await api('/api/assets' + query({
      library_id: library.id, bbox: [west, south, east, north].map(fmt).join(','),
      include: 'variants', variants: 'thumbnail', limit: 100,
    }));
    panelAssets.replaceChildren(...page.data.map((a) => linkTile(a, library.id)));
    setStatus(panelMore, page.has_more ? `The first ${page.data.length} of ${c.count}: zoom in for the others.` : '');
    panel.scrollIntoView({ block: 'nearest' });
  } catch (err) {
    showError(panelMore, 'Could not list the photos', err);
  }
}

// zoomAt zooms by steps keeping the point at (px, py) of the box still.
function zoomAt(steps, px = box.clientWidth / 2, py = box.clientHeight / 2) {
  const zoom = Math.min(maxZoom, Math.max(0, view.zoom + steps));
  if (zoom === view.zoom) return;
  const [w, h] = spans();
  const lon = view.lon - w / 2 + (px / box.clientWidth) * w;
  const lat = view.lat + h / 2 - (py / box.clientHeight) * h;
  const k = 2 ** (view.zoom - zoom);
  view.zoom = zoom;
  view.lon = lon + (view.lon - lon) * k;
  view.lat = lat + (view.lat - lat) * k;
  draw();
  load();
}

function pan(fx, fy) {
  const [w, h] = spans();
  view.lon += fx * w;
  view.lat += fy * h;
  draw();
  load();
}

let dragged = false;

function controls() {
  document.getElementById('zoom-in').addEventListener('click', () => zoomAt(1));
  document.getElementById('zoom-out').addEventListener('click', () => zoomAt(-1));
  document.getElementById('world').addEventListener('click', () => {
    Object.assign(view, { lon: 0, lat: 15, zoom: 0 });
    draw();
    load();
  });
  box.addEventListener('keydown', (e) => {
    const moves = { ArrowLeft: [-0.25, 0], ArrowRight: [0.25, 0], ArrowUp: [0, 0.25], ArrowDown: [0, -0.25] };
    if (moves[e.key]) pan(...moves[e.key]);
    else if (e.key === '+' || e.key === '=') zoomAt(1);
    else if (e.key === '-' || e.key === '_') zoomAt(-1);
    else return;
    e.preventDefault();
  });
  let wheeled = 0; // a touchpad sends a stream of wheel events: one step per 250 ms
  box.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (e.deltaY === 0 || e.timeStamp - wheeled < 250) return;
    wheeled = e.timeStamp;
    const r = box.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1 : -1, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  let from = null;
  box.addEventListener('pointerdown', (e) => {
    from = { x: e.clientX, y: e.clientY, id: e.pointerId };
    dragged = false;
  });
  box.addEventListener('pointermove', (e) => {
    if (!from || e.pointerId !== from.id) return;
    const dx = e.clientX - from.x;
    const dy = e.clientY - from.y;
    if (!dragged && Math.hypot(dx, dy) < 5) return;
    if (!dragged) box.setPointerCapture(e.pointerId);
    dragged = true;
    const [w, h] = spans();
    view.lon -= (dx / box.clientWidth) * w;
    view.lat += (dy / box.clientHeight) * h;
    from.x = e.clientX;
    from.y = e.clientY;
    draw();
  });
  const end = () => {
    if (from && dragged) load();
    from = null;
  };
  box.addEventListener('pointerup', end);
  box.addEventListener('pointercancel', end);
  new ResizeObserver(() => { if (svg) { draw(); load(); } }).observe(box);
}

async function start() {
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  const r = await fetch(box.dataset.world, { credentials: 'same-origin' }); // its hash in the address: cached for good
  if (!r.ok) throw new Error(`no world outline (${r.status})`);
  world = await r.json();
  svg = mk('svg', { class: 'world', preserveAspectRatio: 'xMidYMid slice' });
  svg.append(mk('path', { class: 'land', d: world.d }));
  dots = mk('g', { class: 'clusters' });
  svg.append(dots);
  box.append(svg);
  controls();
  draw();
  load();
  main.setAttribute('aria-busy', 'false');
}

start().catch((err) => {
  showError(status, 'Could not show the map', err);
  main.setAttribute('aria-busy', 'false');
});
