// The sign-in page. A sign-in through the identity provider passes through
// its pages, which drop the address's fragment (a /join#token=… link's
// token): it is kept in this tab's sessionStorage, never sent to a
// server, and the page it belongs to takes it back (fragment.js).
import { keepFragment } from './fragment.js';

document.getElementById('oidc')?.addEventListener('click', () => {
  const next = new URL(location.href).searchParams.get('next');
  if (next) keepFragment(next, location.hash);
});
