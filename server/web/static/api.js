// The gallery's calls to the JSON API. The session cookie authenticates
// them; every state-changing call carries the page's CSRF token. When the
// short-lived session token has expired, one renewal (the refresh cookie)
// is tried before the page goes back to the sign-in form.

// csrf is the page's anti-forgery token, sent with every state-changing call.
export const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';

let renewing = null; // one renewal at a time: refresh tokens rotate

function renew() {
  renewing ??= fetch('/signin/renew', { method: 'POST', credentials: 'same-origin' })
    .then((r) => r.ok)
    .finally(() => { renewing = null; });
  return renewing;
}

export class APIError extends Error {
  constructor(status, detail) {
    // detail: a sentence, or the validation errors of a 422.
    super(typeof detail === 'string' ? detail
      : Array.isArray(detail) && detail.length ? detail.map((e) => e.msg).join('; ') : `request failed (${status})`);
    this.status = status;
  }
}

// api sends a request to path (under /api) and returns the decoded JSON
// body (null for 204). body is sent as JSON, or as it is when it is a
// FormData (multipart).
export async function api(path, { method = 'GET', body } = {}) {
  const form = body instanceof FormData;
  const send = () => {
    const headers = { Accept: 'application/json' };
    if (method !== 'GET' && method !== 'HEAD') headers['X-CSRF-Token'] = csrf;
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
    return fetch(path, {
      method, headers, credentials: 'same-origin',
      body: body === undefined || form ? body : JSON.stringify(body),
    });
  };
  let r = await send();
  if (r.status === 401 && await renew()) r = await send();
  if (r.status === 401) {
    location.assign('/signin');
    throw new APIError(401, 'signed out');
  }
  if (r.status === 204) return null;
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new APIError(r.status, data?.detail);
  return data;
}

// query builds a query string from the defined entries of params.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

// el makes an element with properties and children (text is never HTML).
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e && typeof v !== 'string') e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) {
    if (c !== null && c !== undefined) e.append(c);
  }
  return e;
}

// errorShower shows an action's failure in box (hidden until then):
// show(err, what) writes "what: message" and reveals it, clear() hides it.
export function errorShower(box) {
  return {
    show(err, what) {
      box.textContent = `${what}: ${err.message}`;
      box.hidden = false;
    },
    clear() {
      box.hidden = true;
      box.textContent = '';
    },
  };
}
