// Handing a model file from one page of the site to another (the playground → the explorer):
// the bytes go into IndexedDB (same origin, any tab, binary, no size issue for a few MB) under
// a fresh id, and the link carries `?model=local:<id>`. The receiving page reads them back with
// takeModel(id). Entries stay (a reload must still find its model) up to KEEP, oldest dropped.
//
//   const id = await handOverModel(bytes, { name: 'sort.model' });   // the sender
//   location.href = modelLink('index.html', id);                     // index.html?model=local:<id>
//   const id = handoffId(new URLSearchParams(location.search).get('model'));  // the receiver
//   const { bytes, name, savedAt } = await takeModel(id);            // null when gone
//
// The store is shared with every page of the origin (and its console): a record can be anything.
// Only { bytes: Uint8Array, savedAt: finite number } is a model; any other record is deleted when
// the next model is handed over, and takeModel says what is wrong with it.

export const MODEL_PARAM = 'model';
export const LOCAL_PREFIX = 'local:';
const DB = 'attention-explorer';
const STORE = 'model-handoff';
const KEEP = 5;
const FUTURE_SLACK_MS = 24 * 3600 * 1000;
/** A name longer than this (code points) is shown cut, with an ellipsis. */
export const MAX_NAME_CHARS = 80;

/** A record's fault as an Error with a code and the field at fault (`record`, `bytes`, `savedAt`). */
export class HandoffError extends Error {
  constructor(field, message) {
    super(message);
    this.name = 'HandoffError';
    this.code = 'MALFORMED_HANDOFF';
    this.field = field;
  }
}

const article = (word) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);
/** A value's kind in a few words: "missing", "null", "an ArrayBuffer", "an Array", "a string". */
function kindOf(value) {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (typeof value === 'object') return article(value.constructor?.name || 'object');
  return article(typeof value);
}

/** What is wrong with a stored record, as a HandoffError; null when it is a model's. */
export function recordFault(record) {
  if (record === null || typeof record !== 'object') {
    return new HandoffError('record', `the handed-over record is ${kindOf(record)}, not an object`);
  }
  if (!(record.bytes instanceof Uint8Array)) {
    return new HandoffError('bytes', `its bytes are ${kindOf(record.bytes)}, not a Uint8Array`);
  }
  if (typeof record.savedAt !== 'number' || !Number.isFinite(record.savedAt)) {
    return new HandoffError('savedAt', `its savedAt is ${kindOf(record.savedAt)}, not a finite number`);
  }
  // A record dated later than tomorrow was not saved here (a clock may move, not by a day). Kept,
  // such records would sort first when the store is pruned, and a second tab's handoff would
  // delete the first tab's model before its explorer read it.
  if (record.savedAt > Date.now() + FUTURE_SLACK_MS) {
    return new HandoffError('savedAt', 'its savedAt is in the future: it was not saved by this page');
  }
  return null;
}

/** A name fit to show: at most MAX_NAME_CHARS code points, cut with "…" ('model' for a non-string). */
export function displayName(name) {
  if (typeof name !== 'string' || !name) return 'model';
  // A code point is one or two UTF-16 units: this many units hold more than MAX_NAME_CHARS.
  const chars = Array.from(name.slice(0, 2 * MAX_NAME_CHARS + 2));
  return chars.length <= MAX_NAME_CHARS ? name : `${chars.slice(0, MAX_NAME_CHARS - 1).join('')}…`;
}

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

/**
 * Stores a model file; resolves with its id (letters and digits only). In the same transaction
 * (all or nothing): every record that is not a model is deleted, and of the others the newest
 * KEEP − 1 stay beside the new one, read key by key through a cursor.
 */
export async function handOverModel(bytes, { name = 'model', origin } = {}) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('the model file must be a Uint8Array');
  const id = Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
  // Sub-millisecond, so that entries saved in one millisecond still have an order (pruning).
  const savedAt = performance.timeOrigin + performance.now();
  await transaction('readwrite', (store) => {
    // `origin` 'browser': the playground trained it here, in this browser (the explorer says so).
    store.put({ bytes: bytes.slice(), name: displayName(name), savedAt, ...(origin === 'browser' && { origin }) }, id);
    const others = []; // [key, savedAt] of the other models
    const cursor = store.openCursor();
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (at) {
        if (recordFault(at.value)) at.delete();
        else if (at.key !== id) others.push([at.key, at.value.savedAt]);
        at.continue();
        return;
      }
      // The new one always stays, even beside records dated in the future.
      others
        .sort((a, b) => b[1] - a[1])
        .slice(KEEP - 1)
        .forEach(([key]) => store.delete(key));
    };
  });
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

/**
 * { bytes: Uint8Array, name, savedAt } of a handed-over model (its name fit to show), or null
 * when it is not there. Rejects with a HandoffError naming the field when a record is there but
 * is not a model's.
 */
export async function takeModel(id) {
  if (!handoffId(`${LOCAL_PREFIX}${id}`)) return null;
  const record = await transaction('readonly', (store) => store.get(id));
  if (record === undefined) return null;
  const error = recordFault(record);
  if (error) throw error;
  const origin = record.origin === 'browser' ? 'browser' : undefined;
  return { bytes: record.bytes, name: displayName(record.name), savedAt: record.savedAt, origin };
}
