// Thumbnails: every page's image of an asset and its link to the viewer
// (the timeline's, the albums', the stack's, the person's), the square grid
// of the search, map and trash pages, and how their errors are shown.
import { el, query } from './api.js';

// thumbURL is an asset's thumbnail (a video's poster frame).
export function thumbURL(a) {
  return a.asset_urls?.thumbnail ?? `/api/assets/${a.id}/variants/poster`;
}

// thumbImage is an asset's thumbnail image, loaded lazily and marked
// missing when it cannot load; props add to its attributes (its size,
// elementtiming).
export function thumbImage(a, props = {}) {
  const img = el('img', { src: thumbURL(a), alt: a.original_file_name, loading: 'lazy', decoding: 'async', ...props });
  img.addEventListener('error', () => img.classList.add('missing'), { once: true });
  return img;
}

// assetLink is an asset's thumbnail as a link (to the viewer unless href
// says otherwise) with data-id and, for a video, a badge; cls is the class
// of the grid's tiles, img the image's extra attributes.
export function assetLink(a, libraryID, { cls, href = `/photos/${a.id}` + query({ library: libraryID }), img } = {}) {
  const link = el('a', { class: cls, href, dataset: { id: a.id } }, thumbImage(a, img));
  if (a.media_type === 'video') link.append(el('span', { class: 'badge video', title: 'video' }, '▶'));
  return link;
}

const size = { width: '150', height: '150' };

function thumb(a) {
  return thumbImage(a, size);
}

// linkTile is an asset's thumbnail linking to the viewer.
export function linkTile(a, library) {
  return assetLink(a, library, { cls: 'thumb', img: size });
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
