// Upload: files dropped on the drop zone or chosen in the picker are sent to
// POST /api/assets, a few at a time, each with its progress (XMLHttpRequest:
// fetch reports no upload progress) and its result: uploaded, a duplicate
// of an asset the library holds, or the API's error. A 429 is tried again
// after its Retry-After.
import { api, csrf, el, query } from './api.js';
import { currentLibrary } from './nav.js';
import { showError } from './thumbs.js';

const main = document.getElementById('upload');
const status = document.getElementById('status');
const drop = document.getElementById('drop');
const picker = document.getElementById('files');
const list = document.getElementById('queue');
const summary = document.getElementById('summary');
const done = document.getElementById('done');
const atOnce = 3;

let library = null;
const waiting = [];
let running = 0;
const counts = { uploaded: 0, duplicate: 0, failed: 0, total: 0 };

// detail is the API's error text (a string, or validation errors).
function detail(body, status) {
  const d = body?.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((e) => e.msg).join('; ');
  return status ? `upload failed (${status})` : 'the connection failed';
}

// post sends one file; it resolves with the status, the decoded body and
// the Retry-After header (never rejects).
function post(file, row) {
  const form = new FormData();
  const when = new Date(file.lastModified || Date.now()).toISOString();
  form.append('library_id', library.id);
  form.append('device_id', 'photoctl-web');
  form.append('device_asset_id', `${file.name}-${file.size}-${file.lastModified}`);
  form.append('file_created_at', when);
  form.append('file_modified_at', when);
  form.append('file', file, file.name);
  return new Promise((resolve) => {
    const x = new XMLHttpRequest();
    x.open('POST', '/api/assets');
    x.withCredentials = true;
    x.setRequestHeader('Accept', 'application/json');
    x.setRequestHeader('X-CSRF-Token', csrf);
    x.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) row.progress.value = e.loaded / e.total;
    });
    x.addEventListener('load', () => {
      let body = null;
      try { body = JSON.parse(x.responseText); } catch { /* not JSON: the status says enough */ }
      resolve({ status: x.status, body, retryAfter: Number(x.getResponseHeader('Retry-After')) || 1 });
    });
    x.addEventListener('error', () => resolve({ status: 0, body: null }));
    x.send(form);
  });
}

const sleep = (s) => new Promise((r) => { setTimeout(r, s * 1000); });

// upload sends a file until it has an answer other than 429 (and, once,
// renews an expired session: api() does that on any call).
async function upload(file, row) {
  let renewed = false;
  for (;;) {
    row.state.textContent = 'Uploading…';
    const r = await post(file, row);
    if (r.status === 429) {
      row.state.textContent = `Waiting ${r.retryAfter} s (the server is busy)…`;
      row.progress.value = 0;
      await sleep(r.retryAfter);
      continue;
    }
    if (r.status === 401 && !renewed) {
      renewed = true;
      await api('/api/users/me');
      continue;
    }
    return r;
  }
}

function finish(row, r) {
  row.progress.value = 1;
  row.item.dataset.result = 'error';
  if (r.status === 201) {
    row.item.dataset.result = 'uploaded';
    counts.uploaded++;
    row.state.replaceChildren('Uploaded · ', el('a', { href: `/photos/${r.body.id}` + query({ library: library.id }) }, 'open'));
  } else if (r.status === 200 && r.body?.status === 'duplicate') {
    row.item.dataset.result = 'duplicate';
    counts.duplicate++;
    row.state.replaceChildren('Duplicate: already in the library · ',
      el('a', { href: `/photos/${r.body.id}` + query({ library: library.id }) }, 'open it'));
  } else {
    counts.failed++;
    row.state.textContent = `Error: ${detail(r.body, r.status)}`;
    row.state.setAttribute('role', 'alert');
  }
  if (r.body?.id) row.item.dataset.assetId = r.body.id;
}

async function next() {
  while (running < atOnce && waiting.length) {
    const { file, row } = waiting.shift();
    running++;
    upload(file, row).then((r) => finish(row, r)).finally(() => {
      running--;
      report();
      next();
    });
  }
}

function report() {
  const finished = counts.uploaded + counts.duplicate + counts.failed;
  summary.textContent = `${finished} of ${counts.total} done: ${counts.uploaded} uploaded, ${counts.duplicate} duplicates, ${counts.failed} failed.`;
  done.hidden = finished !== counts.total || counts.uploaded === 0;
  main.dataset.busy = String(finished !== counts.total);
}

function add(files) {
  for (const file of files) {
    const progress = el('progress', { max: 1, value: 0, 'aria-label': `Progress of ${file.name}` });
    const state = el('span', { class: 'state' }, 'Waiting…');
    const item = el('li', { dataset: { name: file.name } }, el('span', { class: 'name' }, file.name), progress, state);
    list.append(item);
    waiting.push({ file, row: { item, progress, state } });
    counts.total++;
  }
  report();
  next();
}

async function start() {
  library = await currentLibrary();
  if (!library) return; // currentLibrary said so
  main.setAttribute('aria-busy', 'false');
  if (library.role === 'viewer') {
    status.textContent = `You can look at ${library.name} but not add to it.`;
    return;
  }
  status.textContent = `Into ${library.name}.`;
  document.getElementById('to-timeline').href = '/' + query({ library: library.id });
  picker.addEventListener('change', () => {
    add([...picker.files]);
    picker.value = '';
  });
  for (const type of ['dragenter', 'dragover']) {
    drop.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add('over'); });
  }
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    add([...e.dataTransfer.files]);
  });
  // A file dropped beside the zone must not make the browser open it.
  for (const type of ['dragover', 'drop']) addEventListener(type, (e) => e.preventDefault());
}

start().catch((err) => {
  showError(status, 'Could not start', err);
  main.setAttribute('aria-busy', 'false');
});
