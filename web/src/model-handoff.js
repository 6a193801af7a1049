// Handing a model file from one page of the site to another (the playground → the explorer):
// the bytes go into IndexedDB (same origin, any tab, binary, no size issue for a few MB) under
// a fresh id, and the link carries `?model=local:<id>`. The receiving page reads them back with
// takeModel(id). Entries stay (a reload must still find its model) up to KEEP, oldest dropped.
//
//   const id = await handOverModel(bytes, { name: 'sort.model' });   // the sender
//   location.href = modelLink('index.html', id);                     // index.html?model=local:<id>
//   const id = handoffId(new URLSearchParams(location.search).get('model'));  // the receiver
//   const { bytes, name, savedAt } = await takeModel(id);            // null when gone

export const MODEL_PARAM = 'model';
export const LOCAL_PREFIX = 'local:';
const DB = 'attention-explorer';
const STORE = 'model-handoff';
const KEEP = 5;

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** Runs `fn(store)` in one transaction; resolves with the last request's result when it commits. */
async function transaction(mode, fn) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request?.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Stores a model file; resolves with its id (letters and digits only). */
export async function handOverModel(bytes, { name = 'model' } = {}) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('the model file must be a Uint8Array');
  const id = Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
  // Sub-millisecond, so that entries saved in one millisecond still have an order (pruning).
  const savedAt = performance.timeOrigin + performance.now();
  await transaction('readwrite', (store) => store.put({ bytes: bytes.slice(), name: String(name), savedAt }, id));
  // Keep the newest KEEP entries.
  const entries = await transaction('readonly', (store) => store.getAll());
  const keys = await transaction('readonly', (store) => store.getAllKeys());
  const old = keys
    .map((key, i) => [key, entries[i].savedAt])
    .sort((a, b) => b[1] - a[1])
    .slice(KEEP);
  if (old.length) await transaction('readwrite', (store) => old.forEach(([key]) => store.delete(key)));
  return id;
}

/** The id in a `model` parameter's value (`local:<hex>`), or null for any other value. */
export function handoffId(value) {
  if (typeof value !== 'string' || !value.startsWith(LOCAL_PREFIX)) return null;
  const id = value.slice(LOCAL_PREFIX.length);
  return /^[0-9a-f]{18}$/.test(id) ? id : null;
}

/** A link to `page` that hands over model `id`. */
export function modelLink(page, id, params = {}) {
  const query = new URLSearchParams({ ...params, [MODEL_PARAM]: `${LOCAL_PREFIX}${id}` });
  return `${page}?${query}`;
}

/** { bytes: Uint8Array, name, savedAt } of a handed-over model, or null when it is not there. */
export async function takeModel(id) {
  if (!handoffId(`${LOCAL_PREFIX}${id}`)) return null;
  const entry = await transaction('readonly', (store) => store.get(id));
  return entry && entry.bytes instanceof Uint8Array ? entry : null;
}
