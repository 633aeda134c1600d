// A square grid of thumbnails for the search, map and trash pages, and how
// their errors are shown. The timeline has its own, virtualised grid.
import { el, query } from './api.js';

// thumbURL is an asset's thumbnail (a video's poster frame).
export function thumbURL(a) {
  return a.asset_urls?.thumbnail ?? `/api/assets/${a.id}/variants/poster`;
}

function thumb(a) {
  const img = el('img', { src: thumbURL(a), alt: a.original_file_name, loading: 'lazy', decoding: 'async', width: '150', height: '150' });
  img.addEventListener('error', () => img.classList.add('missing'), { once: true });
  return img;
}

// linkTile is an asset's thumbnail linking to the viewer.
export function linkTile(a, library) {
  const link = el('a', { class: 'thumb', href: `/photos/${a.id}` + query({ library }), dataset: { id: a.id } }, thumb(a));
  if (a.media_type === 'video') link.append(el('span', { class: 'badge video', title: 'video' }, '▶'));
  return link;
}

// pickTile is an asset's thumbnail with a checkbox: Tab reaches it, Space
// selects it.
export function pickTile(a, onChange) {
  const box = el('input', { type: 'checkbox', value: a.id, 'aria-label': `Select ${a.original_file_name}` });
  box.addEventListener('change', onChange);
  return el('label', { class: 'thumb pick', dataset: { id: a.id } }, thumb(a), box);
}

// errorText is what an API error says, for a person.
export function errorText(err) {
  return err?.message || String(err);
}

// showError puts an error in a status line as an alert.
export function showError(status, prefix, err) {
  status.textContent = `${prefix}: ${errorText(err)}`;
  status.setAttribute('role', 'alert');
  status.classList.add('error');
}

// clearStatus sets a status line's text and takes the alert off.
export function setStatus(status, text) {
  status.textContent = text;
  status.removeAttribute('role');
  status.classList.remove('error');
}
