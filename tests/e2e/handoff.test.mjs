// The model handoff (web/src/model-handoff.js) against a store that anything of the origin can
// write: malformed records planted through IndexedDB neither break "Open in the explorer" nor
// grow the store past five, and the explorer says what it found (a damaged record is not "gone";
// a name is cut to fit). No page error. The ids, the faults' wording, the names and the
// explorer's sentences in both languages are tests/node/model-handoff.test.mjs's.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../node/support.mjs';
import { openPage, useBrowser, waitUntil } from './browser.mjs';

const session = useBrowser();
let modelBytes;
before(async () => {
  const engine = await createEngine();
  const trainer = engine.createTrainer({ task: 'copy', length: 4, alphabet: 5, layers: 1, heads: 2, dModel: 16 });
  modelBytes = Array.from(trainer.save());
  trainer.dispose();
});

const ID = (n) => String(n).padStart(18, '0');

/** Puts `records` ([key, value] with value built in the page by `make`) into the handoff store. */
function plant(page, records) {
  return page.evaluate(
    (list) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('attention-explorer', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('model-handoff');
        request.onsuccess = () => {
          const tx = request.result.transaction('model-handoff', 'readwrite');
          const store = tx.objectStore('model-handoff');
          const build = { u8: (a) => Uint8Array.from(a), buffer: (a) => Uint8Array.from(a).buffer };
          for (const [key, value] of list) {
            if (value && typeof value === 'object' && value.bytes?.kind)
              value.bytes = build[value.bytes.kind](value.bytes.data);
            store.put(value, key);
          }
          tx.oncomplete = () => {
            request.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
        request.onerror = () => reject(request.error);
      }),
    records,
  );
}

/** Every record of the store: [key, kind of value]. */
const storeContents = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('attention-explorer', 1);
        request.onsuccess = () => {
          const out = [];
          const cursor = request.result.transaction('model-handoff').objectStore('model-handoff').openCursor();
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) {
              request.result.close();
              return resolve(out);
            }
            const v = at.value;
            out.push([at.key, v?.bytes instanceof Uint8Array && Number.isFinite(v.savedAt) ? 'model' : 'malformed']);
            at.continue();
          };
          cursor.onerror = () => reject(cursor.error);
        };
        request.onerror = () => reject(request.error);
      }),
  );

test('malformed records in the handoff store: "Open in the explorer" keeps working, the store stays at five models or fewer', async () => {
  const opened = await openPage(session.browser, `${session.url}playground.html?task=copy&lang=en`);
  const { page, context, problems } = opened;
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
  const u8 = { kind: 'u8', data: [1, 2, 3] };
  await plant(page, [
    [ID(1), null],
    [ID(2), 42],
    [ID(3), 'a string'],
    [ID(4), { bytes: { kind: 'buffer', data: [1, 2] }, savedAt: 1 }],
    [ID(5), { bytes: [1, 2, 3], savedAt: 2 }],
    [ID(6), { bytes: u8, savedAt: 'yesterday' }],
    [ID(7), { savedAt: 3 }],
    // Well formed but dated far in the future: it must not push the new model out.
    [ID(8), { bytes: u8, name: 'future.model', savedAt: 1e300 }],
    [ID(9), { bytes: u8, name: 'old.model', savedAt: 5 }],
  ]);
  const handed = [];
  const checkStore = async (click, id) => {
    const contents = await storeContents(page);
    assert.ok(contents.length <= 5, `click ${click}: ${contents.length} records`);
    assert.deepEqual(
      contents.filter(([, kind]) => kind !== 'model'),
      [],
      'malformed records are deleted',
    );
    assert.ok(
      contents.some(([key]) => key === id),
      `click ${click}: the model just handed over is kept`,
    );
  };
  // The first click among the malformed records: the explorer opens the model handed over.
  const [explorer] = await Promise.all([
    context.waitForEvent('page', { timeout: 15000 }),
    page.click('[data-role=open-explorer]'),
  ]);
  handed.push(new URL(explorer.url()).searchParams.get('model').replace(/^local:/, ''));
  await explorer.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
    timeout: 20000,
  });
  await explorer.close();
  await checkStore(1, handed[0]);
  // Six more: what they leave in the store is the point, not six more explorer tabs. The page's
  // window.open records each link and answers as an opened tab would.
  await page.evaluate(() => {
    window.__opened = [];
    window.open = (url) => (window.__opened.push(url), {});
  });
  for (let click = 2; click <= 7; click++) {
    await page.click('[data-role=open-explorer]');
    const url = await waitUntil(
      () => page.evaluate((n) => window.__opened[n], click - 2),
      `click ${click} hands a model over`,
      15000,
    );
    handed.push(new URL(url, session.url).searchParams.get('model').replace(/^local:/, ''));
    await checkStore(click, handed.at(-1));
  }
  // The newest four handed over, and the future-dated one, are what is left.
  const keys = (await storeContents(page)).map(([key]) => key).sort();
  assert.deepEqual(keys, [...handed.slice(-4), ID(8)].sort());
  assert.equal(await page.locator('[data-role=error]').isHidden(), true, 'no failure shown');

  // The explorer names what it found: a damaged record is not "gone"; a long name is cut.
  const model = { kind: 'u8', data: modelBytes };
  await plant(page, [
    [ID(11), { bytes: { kind: 'buffer', data: modelBytes }, name: 'a.model', savedAt: 1 }],
    [ID(15), { bytes: model, name: 'x'.repeat(1 << 20), savedAt: 1 }],
  ]);
  await page.goto(`${session.url}?model=local:${ID(11)}&lang=en`);
  await page.waitForFunction(() => document.querySelector('[data-role=notice]')?.textContent);
  assert.equal(
    await page.locator('[data-role=notice]').textContent(),
    'The model handed over from the playground is in this browser, but its record is damaged (its bytes are an ArrayBuffer, not a Uint8Array): train it again or open its file.',
  );
  assert.equal(await page.locator('[data-role=model]').inputValue(), 'random');
  await page.goto(`${session.url}?model=local:${ID(15)}&lang=en`);
  await page.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
    timeout: 20000,
  });
  await page.evaluate(() => window.attentionExplorer.idle());
  const long = await page.locator('[data-role=model-about]').textContent();
  assert.match(long, new RegExp(`from the file ${'x'.repeat(79)}…`));
  assert.ok(long.length < 1000, `the about text has ${long.length} characters`);
  const option = await page.locator('[data-role=model] option[value=file]').textContent();
  assert.equal(option, `${'x'.repeat(79)}…`);
  assert.deepEqual(problems, [], 'no console error, no page error');
  await context.close();
});

test('a handoff that fails is said on the page, in the page language', async () => {
  const opened = await openPage(session.browser, `${session.url}playground.html?task=copy&lang=zh`);
  const { page, context, problems } = opened;
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
  // IndexedDB refusing to open (as in a browser that blocks storage).
  await page.evaluate(() => {
    indexedDB.open = () => {
      throw new DOMException('storage is blocked here', 'SecurityError');
    };
  });
  await page.click('[data-role=open-explorer]');
  await page.waitForSelector('[data-role=error]:not([hidden])');
  assert.equal(await page.locator('[data-role=error]').textContent(), '无法把模型交给探索器：storage is blocked here');
  await page.click('[data-lang=en]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === 'Attention Playground');
  assert.equal(
    await page.locator('[data-role=error]').textContent(),
    'The model could not be handed to the explorer: storage is blocked here',
  );
  assert.deepEqual(problems, []);
  await context.close();
});
