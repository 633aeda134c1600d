// A person: their photos (a grid opening the viewer), and for writers a
// rename and a merge of another person into this one (after a
// confirmation: the other person is deleted).
import { api, query, el, errorShower } from './api.js';
import { currentLibrary } from './nav.js';
import { allPeople, personName, faceImage } from './people.js';
import { thumbImage } from './thumbs.js';

const main = document.getElementById('person');
const id = main.dataset.personId;
const errorBox = document.getElementById('error');
const photos = document.getElementById('photos');
const more = document.getElementById('more');
const renameForm = document.getElementById('rename');
const renameInput = document.getElementById('rename-input');
const mergeForm = document.getElementById('merge');
const mergeSelect = document.getElementById('merge-select');
const confirmBox = document.getElementById('merge-confirm');

let libraryID = null; // the person's library
let after; // the photo list's cursor

const { show: showError, clear: clearError } = errorShower(errorBox);

function showPerson(p) {
  document.title = `${personName(p)} · photoctl`;
  const name = document.getElementById('name');
  name.textContent = personName(p);
  name.classList.toggle('unnamed', p.name === null);
  document.getElementById('count').textContent = `${p.asset_count} photo${p.asset_count === 1 ? '' : 's'}`;
  const face = document.getElementById('face');
  face.replaceWith(Object.assign(faceImage(p, 96), { id: 'face' }));
  renameInput.value = p.name ?? '';
}

// loadPhotos appends the next page of the person's photos.
async function loadPhotos() {
  const page = await api('/api/assets' + query({
    library_id: libraryID, person_ids: id, limit: 60, starting_after_id: after,
    include: 'variants', variants: 'thumbnail',
  }));
  for (const a of page.data) {
    photos.append(el('a', { class: 'photo', href: `/photos/${a.id}` + query({ library: libraryID }) },
      thumbImage(a, { width: '160', height: '160' })));
  }
  after = page.data.length ? page.data[page.data.length - 1].id : after;
  more.hidden = !page.has_more;
}

async function fillMergeChoices() {
  const others = (await allPeople(libraryID)).filter((p) => p.id !== id);
  others.sort((a, b) => personName(a).localeCompare(personName(b)));
  mergeSelect.replaceChildren(el('option', { value: '' }, 'Choose a person…'),
    ...others.map((p) => el('option', { value: p.id }, `${personName(p)} (${p.asset_count})`)));
  mergeForm.querySelector('button').disabled = others.length === 0;
}

renameForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  clearError();
  const name = renameInput.value.trim();
  try {
    showPerson(await api(`/api/people/${id}`, { method: 'PATCH', body: { name: name === '' ? null : name } }));
  } catch (err) {
    showError(err, 'Could not rename');
  }
});

mergeForm.addEventListener('submit', (e) => {
  e.preventDefault();
  clearError();
  const chosen = mergeSelect.selectedOptions[0];
  if (!mergeSelect.value) {
    showError(new Error('choose the person to merge into this one'), 'Could not merge');
    return;
  }
  document.getElementById('merge-question').textContent =
    `Merge ${chosen.textContent} into ${document.getElementById('name').textContent}? ` +
    'Their faces move here and the other person is deleted.';
  confirmBox.hidden = false;
  document.getElementById('merge-yes').focus();
});

document.getElementById('merge-no').addEventListener('click', () => {
  confirmBox.hidden = true;
  mergeSelect.focus();
});

document.getElementById('merge-yes').addEventListener('click', async () => {
  clearError();
  confirmBox.hidden = true;
  try {
    showPerson(await api(`/api/people/${id}/merge`, { method: 'POST', body: { ids: [mergeSelect.value] } }));
    photos.replaceChildren();
    after = undefined;
    await Promise.all([loadPhotos(), fillMergeChoices()]);
  } catch (err) {
    showError(err, 'Could not merge');
  }
  mergeSelect.focus();
});

more.addEventListener('click', () => loadPhotos().catch((err) => showError(err, 'Could not list the photos')));

async function start() {
  const [, p] = await Promise.all([currentLibrary(), api(`/api/people/${id}`)]);
  libraryID = p.library_id;
  document.getElementById('back').href = '/people' + query({ library: libraryID });
  showPerson(p);
  await Promise.all([loadPhotos(), fillMergeChoices()]);
  main.dataset.ready = 'true';
}

start().catch((err) => showError(err, 'Could not show this person'))
  .finally(() => main.setAttribute('aria-busy', 'false'));
