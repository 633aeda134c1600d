// The timeline: one section a month, newest first, each a square grid of
// thumbnails. Every month exists from the start as a placeholder of its
// estimated height (from its count), so the page has its full length and
// jumping to a month is scrolling to its section. Near the viewport a month
// is split into chunks of a few rows, and its assets are read; chunks near
// the viewport get their tiles, far ones lose them (keeping their height),
// and a month far away folds back into one placeholder and forgets its
// assets. However long the library, the DOM holds a few screens of tiles
// and the heap the assets of a few months.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';
import { Selection, selectionBar, addToAlbum, assetTile } from './select.js';

const main = document.getElementById('timeline');
const status = document.getElementById('status');
const jump = document.getElementById('jump');
const gap = 4;
const pageSize = 200;
const monthNames = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

let library = null;
let cols = 3;
let tile = 120;
let selection = null; // the select mode: a Set of ids, applied to each tile as it is made
let monthList = [];

// measure sets the grid's columns and tile size from the page width.
function measure() {
  const style = getComputedStyle(main); // clientWidth counts the padding
  const width = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  cols = Math.max(3, Math.floor((width + gap) / (150 + gap)));
  tile = Math.floor((width - gap * (cols - 1)) / cols);
  main.style.setProperty('--cols', String(cols));
  main.style.setProperty('--tile', `${tile}px`);
}

function estimate(count) {
  const rows = Math.ceil(count / cols);
  return rows * tile + Math.max(0, rows - 1) * gap;
}

function nextMonth(bucket) {
  const [y, m] = bucket.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function label(bucket) {
  const [y, m] = bucket.split('-').map(Number);
  return monthNames.format(new Date(Date.UTC(y, m - 1, 1)));
}

// months reads every month's count, newest first.
async function months() {
  const out = [];
  let after;
  for (;;) {
    const page = await api('/api/assets/counts' + query({
      library_id: library.id, bucket: 'month', limit: 200, starting_after_bucket: after,
    }));
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0) break;
    after = page.data[page.data.length - 1].bucket;
  }
  return out.sort((a, b) => (a.bucket < b.bucket ? 1 : -1));
}

// tileFor is one asset's link: its thumbnail, and a badge for a stack
// (its count: the link opens the stack's page) or a video.
function tileFor(a) {
  const stacked = a.stack && a.stack.asset_count > 1;
  const href = (stacked ? `/stacks/${a.stack.id}` : `/photos/${a.id}`) + query({ library: library.id });
  const link = assetTile(a, library.id, href, { elementtiming: 'thumbnail', width: String(tile), height: String(tile) });
  if (stacked) {
    link.append(el('span', { class: 'badge stack', title: `stack of ${a.stack.asset_count}` }, `❐ ${a.stack.asset_count}`));
    link.setAttribute('aria-label', `${a.original_file_name}, stack of ${a.stack.asset_count}`);
  }
  return selection ? selection.decorate(link) : link;
}

// chunkRows is how many rows of tiles a chunk holds.
const chunkRows = 6;

// assetsOf reads every page of a month (a compact copy of each asset).
async function assetsOf(bucket) {
  const out = [];
  let after;
  for (;;) {
    const page = await api('/api/assets' + query({
      library_id: library.id, limit: pageSize, starting_after_id: after,
      local_datetime_after: `${bucket}-01T00:00:00`, local_datetime_before: `${nextMonth(bucket)}-01T00:00:00`,
      include: 'variants', variants: 'thumbnail',
    }));
    for (const a of page.data) {
      out.push({
        id: a.id, original_file_name: a.original_file_name, media_type: a.media_type,
        asset_urls: { thumbnail: a.asset_urls.thumbnail }, stack: a.stack ? { id: a.stack.id, asset_count: a.stack.asset_count } : null,
      });
    }
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data[page.data.length - 1].id;
  }
}

// A month: its section, and while expanded its chunks and the promise of
// its assets.
class Month {
  constructor(bucket, count, chunkObserver) {
    this.bucket = bucket;
    this.count = count;
    this.chunks = [];
    this.loading = null;
    this.observer = chunkObserver;
    this.grid = el('div', { class: 'grid' });
    this.section = el('section', { class: 'month', id: `m-${bucket}`, dataset: { month: bucket, count: String(count), state: 'empty' } },
      el('h2', {}, label(bucket), ' ', el('span', { class: 'count' }, `${count}`)), this.grid);
    this.section.month = this;
    this.collapse();
  }

  // expand splits the month into chunk placeholders and reads its assets.
  expand() {
    if (this.chunks.length) return;
    const perChunk = cols * chunkRows;
    this.grid.style.height = '';
    for (let first = 0; first < this.count; first += perChunk) {
      const n = Math.min(perChunk, this.count - first);
      const chunk = el('div', { class: 'chunk', dataset: { first: String(first), n: String(n) } });
      chunk.style.height = `${estimate(n)}px`;
      chunk.month = this;
      this.chunks.push(chunk);
    }
    this.grid.replaceChildren(...this.chunks);
    for (const c of this.chunks) this.observer.observe(c);
    this.section.dataset.state = 'expanded';
  }

  // collapse folds the month back into one placeholder of its height.
  collapse() {
    const height = this.chunks.length ? this.grid.offsetHeight : estimate(this.count);
    for (const c of this.chunks) this.observer.unobserve(c);
    this.chunks = [];
    this.loading = null;
    this.grid.replaceChildren();
    this.grid.style.height = `${height}px`;
    this.section.dataset.state = 'empty';
  }

  async fill(chunk) {
    if (chunk.dataset.filled === 'true') return;
    this.loading ??= assetsOf(this.bucket);
    const loading = this.loading;
    let list;
    try {
      list = await loading;
    } catch (err) {
      // Shown, and tried again while the chunk stays near.
      if (this.loading === loading) this.loading = null;
      chunk.replaceChildren(el('p', { class: 'error', role: 'alert' }, err.message));
      setTimeout(() => { if (chunk.isConnected && chunk.dataset.near === 'true') this.fill(chunk); }, 2000);
      return;
    }
    if (this.loading !== loading || !chunk.isConnected || chunk.dataset.near !== 'true') return;
    const first = Number(chunk.dataset.first);
    chunk.replaceChildren(...list.slice(first, first + Number(chunk.dataset.n)).map(tileFor));
    chunk.style.height = '';
    chunk.dataset.filled = 'true';
    this.updateState();
  }

  empty(chunk) {
    if (chunk.dataset.filled !== 'true') return;
    chunk.style.height = `${chunk.offsetHeight}px`;
    chunk.replaceChildren();
    chunk.dataset.filled = 'false';
    this.updateState();
  }

  updateState() {
    const all = this.chunks.length > 0 && this.chunks.every((c) => c.dataset.filled === 'true');
    this.section.dataset.state = all ? 'full' : 'expanded';
  }

  // recount takes the month's new count (assets were trashed) and, if
  // expanded, reads its assets again; an emptied month disappears.
  recount(count) {
    this.count = count;
    this.section.dataset.count = String(count);
    this.section.querySelector('h2 .count').textContent = `${count}`;
    this.section.hidden = count === 0;
    const option = [...jump.options].find((o) => o.value === this.bucket);
    if (option) option.textContent = `${label(this.bucket)} (${count})`;
    if (count === 0) option?.remove();
    if (!this.chunks.length) {
      this.grid.style.height = `${estimate(count)}px`;
      return;
    }
    for (const c of this.chunks) this.observer.unobserve(c);
    this.chunks = [];
    this.loading = null;
    this.expand(); // its chunks fill as the observer sees them near
  }
}

// trash moves the selected assets to the trash, then recounts the months
// and reads the affected ones again (a stack's next member may take the
// place of a trashed cover).
async function trash(ids) {
  for (let i = 0; i < ids.length; i += 100) {
    await api('/api/assets/trash' + query({ library_id: library.id }), { method: 'POST', body: { ids: ids.slice(i, i + 100) } });
  }
  const gone = new Set(ids);
  const touched = new Set();
  for (const t of main.querySelectorAll('.tile[data-id]')) {
    if (gone.has(t.dataset.id)) touched.add(t.closest('.month').dataset.month);
  }
  const counts = new Map((await months()).map((m) => [m.bucket, m.count]));
  for (const m of monthList) {
    const count = counts.get(m.bucket) ?? 0;
    if (count !== m.count || touched.has(m.bucket)) m.recount(count);
  }
  selection.stop();
}

// selecting adds the select mode and its actions (owners and collaborators).
function selecting() {
  selection = new Selection(main);
  const { start, bar } = selectionBar(selection, [
    { label: 'Add to album…', run: async (ids) => { if (await addToAlbum(ids, library.id)) selection.stop(); } },
    { label: 'Trash', run: trash, className: 'danger' },
  ]);
  document.getElementById('tools').append(start);
  main.before(bar);
}

function render(list) {
  // Chunks: tiles within a screen or so of the viewport, none past three.
  const chunkNear = new IntersectionObserver((entries) => {
    for (const e of entries) {
      e.target.dataset.near = String(e.isIntersecting);
      if (e.isIntersecting) e.target.month.fill(e.target);
    }
  }, { rootMargin: '1000px 0px' });
  const chunkFar = new IntersectionObserver((entries) => {
    for (const e of entries) if (!e.isIntersecting) e.target.month.empty(e.target);
  }, { rootMargin: '3000px 0px' });
  const chunks = {
    observe: (c) => { chunkNear.observe(c); chunkFar.observe(c); },
    unobserve: (c) => { chunkNear.unobserve(c); chunkFar.unobserve(c); },
  };
  // Months: expanded within two screens, folded past four.
  const monthNear = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) e.target.month.expand();
  }, { rootMargin: '2000px 0px' });
  const monthFar = new IntersectionObserver((entries) => {
    for (const e of entries) if (!e.isIntersecting && e.target.month.chunks.length) e.target.month.collapse();
  }, { rootMargin: '4000px 0px' });
  const months = list.map(({ bucket, count }) => {
    jump.append(new Option(`${label(bucket)} (${count})`, bucket));
    return new Month(bucket, count, chunks);
  });
  monthList = months;
  main.replaceChildren(...months.map((m) => m.section));
  for (const m of months) { monthNear.observe(m.section); monthFar.observe(m.section); }
  jump.addEventListener('change', () => {
    document.getElementById(`m-${jump.value}`)?.scrollIntoView({ block: 'start' });
  });
  let width = main.clientWidth;
  addEventListener('resize', () => {
    if (main.clientWidth === width) return;
    width = main.clientWidth;
    measure();
    for (const m of months) m.collapse(); // re-chunked for the new columns as they come near
    for (const m of months) m.grid.style.height = `${estimate(m.count)}px`;
    for (const m of months) { monthNear.unobserve(m.section); monthNear.observe(m.section); }
  });
}

async function start() {
  measure();
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  const list = await months();
  if (list.length === 0) {
    status.textContent = 'No photos or videos yet.';
  } else {
    render(list);
    selecting();
  }
  main.setAttribute('aria-busy', 'false');
}

start().catch((err) => {
  status.textContent = `Could not load the timeline: ${err.message}`;
  status.setAttribute('role', 'alert');
});
