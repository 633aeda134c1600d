// The timeline: one section a month, newest first, each a square grid of
// thumbnails. Every section exists from the start as a placeholder of its
// estimated height (from the month's count), so the page has its full
// length and jumping to a month is scrolling to its section. An
// IntersectionObserver fills the sections near the viewport and another
// empties the far ones, keeping their measured height: the DOM holds a
// few screens of tiles however far one scrolls.
import { api, query, el } from './api.js';
import { currentLibrary } from './nav.js';

const main = document.getElementById('timeline');
const status = document.getElementById('status');
const jump = document.getElementById('jump');
const gap = 4;
const pageSize = 200;
const monthNames = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

let library = null;
let cols = 3;
let tile = 120;

// measure sets the grid's columns and tile size from the page width.
function measure() {
  const width = main.clientWidth;
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
// (its count) or a video.
function tileFor(a) {
  const img = el('img', {
    src: a.asset_urls.thumbnail ?? `/api/assets/${a.id}/variants/poster`,
    alt: a.original_file_name, loading: 'lazy', decoding: 'async',
    width: String(tile), height: String(tile),
  });
  img.addEventListener('error', () => img.classList.add('missing'), { once: true });
  const link = el('a', { class: 'tile', href: `/photos/${a.id}` + query({ library: library.id }) }, img);
  if (a.stack && a.stack.asset_count > 1) {
    link.append(el('span', { class: 'badge stack', title: `stack of ${a.stack.asset_count}` }, `❐ ${a.stack.asset_count}`));
    link.setAttribute('aria-label', `${a.original_file_name}, stack of ${a.stack.asset_count}`);
  }
  if (a.media_type === 'video') link.append(el('span', { class: 'badge video', title: 'video' }, '▶'));
  return link;
}

// fill loads a section's assets (every page of its month) and shows them.
async function fill(section) {
  if (section.dataset.state !== 'empty') return;
  section.dataset.state = 'loading';
  const generation = (Number(section.dataset.generation) || 0) + 1;
  section.dataset.generation = String(generation);
  const bucket = section.dataset.month;
  const grid = section.querySelector('.grid');
  const tiles = [];
  let after;
  try {
    for (;;) {
      const page = await api('/api/assets' + query({
        library_id: library.id, limit: pageSize, starting_after_id: after,
        local_datetime_after: `${bucket}-01T00:00:00`, local_datetime_before: `${nextMonth(bucket)}-01T00:00:00`,
        include: 'variants', variants: 'thumbnail',
      }));
      tiles.push(...page.data.map(tileFor));
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1].id;
    }
  } catch (err) {
    section.dataset.state = 'empty';
    grid.replaceChildren(el('p', { class: 'error', role: 'alert' }, err.message));
    return;
  }
  if (section.dataset.generation !== String(generation) || section.dataset.state !== 'loading') return;
  grid.replaceChildren(...tiles);
  grid.style.height = '';
  section.dataset.state = 'full';
}

// empty removes a far section's tiles and keeps its height.
function empty(section) {
  if (section.dataset.state === 'empty') return;
  const grid = section.querySelector('.grid');
  if (section.dataset.state === 'full') grid.style.height = `${grid.offsetHeight}px`;
  grid.replaceChildren();
  section.dataset.state = 'empty';
}

function render(list) {
  const near = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) fill(e.target);
  }, { rootMargin: '1200px 0px' });
  const far = new IntersectionObserver((entries) => {
    for (const e of entries) if (!e.isIntersecting) empty(e.target);
  }, { rootMargin: '6000px 0px' });
  const sections = list.map(({ bucket, count }) => {
    const grid = el('div', { class: 'grid' });
    grid.style.height = `${estimate(count)}px`;
    const section = el('section', { class: 'month', id: `m-${bucket}`, dataset: { month: bucket, count: String(count), state: 'empty' } },
      el('h2', {}, label(bucket), ' ', el('span', { class: 'count' }, `${count}`)), grid);
    jump.append(new Option(`${label(bucket)} (${count})`, bucket));
    return section;
  });
  main.replaceChildren(...sections);
  for (const s of sections) { near.observe(s); far.observe(s); }
  jump.addEventListener('change', () => {
    document.getElementById(`m-${jump.value}`)?.scrollIntoView({ block: 'start' });
  });
  addEventListener('resize', () => {
    measure();
    for (const s of sections) {
      if (s.dataset.state === 'empty') s.querySelector('.grid').style.height = `${estimate(Number(s.dataset.count))}px`;
    }
  });
}

async function start() {
  measure();
  library = await currentLibrary();
  if (!library) {
    status.textContent = 'You have no library.';
    return;
  }
  const list = await months();
  if (list.length === 0) {
    status.textContent = 'No photos or videos yet.';
  } else {
    render(list);
  }
  main.setAttribute('aria-busy', 'false');
}

start().catch((err) => {
  status.textContent = `Could not load the timeline: ${err.message}`;
  status.setAttribute('role', 'alert');
});
