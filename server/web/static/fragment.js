// A page's fragment kept across a sign-in through the identity provider
// (signin.js keeps it, the page takes it back), in this tab's
// sessionStorage: it never reaches a server.
const key = 'photoctl.fragment';

// keepFragment remembers hash for the page at path.
export function keepFragment(path, hash) {
  if (hash && hash !== '#') sessionStorage.setItem(key, JSON.stringify({ path, hash }));
}

// fragment is the address's fragment, or the one kept for this page when
// the address has none (taken once).
export function fragment() {
  const kept = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (location.hash && location.hash !== '#') return location.hash;
  try {
    const { path, hash } = JSON.parse(kept ?? 'null') ?? {};
    if (path === location.pathname + location.search) {
      history.replaceState(null, '', hash);
      return hash;
    }
  } catch { /* a malformed entry: none */ }
  return '';
}
