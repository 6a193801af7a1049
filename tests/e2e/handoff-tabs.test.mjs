// Two playground tabs hand models to the explorer at once, over a handoff store that anything
// of the origin can write (web/src/model-handoff.js). Forged records dated in the future sorted
// first when the store was pruned to five: the second tab's handoff deleted the first tab's
// model before its explorer read it ("gone"). Each tab's explorer must open its own model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';

const session = useBrowser();
const ID = (n) => String(n).padStart(18, '0');

/** Plants four model-like records dated far in the future (garbage bytes, a finite savedAt). */
const plantFuture = (page) =>
  page.evaluate(
    (ids) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('attention-explorer', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('model-handoff');
        request.onsuccess = () => {
          const tx = request.result.transaction('model-handoff', 'readwrite');
          ids.forEach((id, i) =>
            tx
              .objectStore('model-handoff')
              .put({ bytes: Uint8Array.of(1, 2, 3), name: `<b>${i}</b>`, savedAt: 1e300 }, id),
          );
          tx.oncomplete = () => (request.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
        request.onerror = () => reject(request.error);
      }),
    [ID(1), ID(2), ID(3), ID(4)],
  );

test('two tabs hand over at once beside forged future-dated records: each explorer opens its own model', async () => {
  // One browser profile: the tabs and the explorers share the origin's IndexedDB.
  const context = await session.browser.newContext();
  const problems = [];
  context.on('page', (page) => {
    page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
  });
  const tabs = [];
  for (const task of ['copy', 'reverse']) {
    const page = await context.newPage();
    await page.goto(`${session.url}playground.html?task=${task}&lang=en`);
    await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
    // The explorer's link is kept instead of opened, so that both handoffs finish first.
    await page.evaluate(() => {
      window.open = (url) => ((window.openedLink = url), {});
    });
    tabs.push(page);
  }
  await plantFuture(tabs[0]);
  await Promise.all(tabs.map((page) => page.click('[data-role=open-explorer]')));
  const links = [];
  for (const page of tabs) {
    await page.waitForFunction(() => window.openedLink, null, { timeout: 20000 });
    links.push(await page.evaluate(() => window.openedLink));
  }
  assert.notEqual(links[0], links[1]);
  for (const [i, link] of links.entries()) {
    const page = await context.newPage();
    await page.goto(`${session.url}${link}`);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-role=model]')?.value === 'file' ||
        document.querySelector('[data-role=notice]')?.textContent,
      null,
      { timeout: 30000 },
    );
    assert.equal(await page.locator('[data-role=notice]').textContent(), '', `tab ${i + 1}: ${link}`);
    await page.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
      timeout: 30000,
    });
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a handed-over model file whose heldOutLoss is a string is refused with a message naming the key', async () => {
  const { createEngine } = await import('../node/support.mjs');
  const { corpusModelFile } = await import('../node/corpus_model_support.mjs');
  const engine = await createEngine();
  const forged = Array.from(
    corpusModelFile(engine, { symbols: [...'床前明月光疑是地上霜'], extra: { heldOutLoss: '4.2' } }),
  );
  const context = await session.browser.newContext();
  const problems = [];
  const page = await context.newPage();
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${session.url}?lang=en`);
  await page.evaluate(
    ([id, bytes]) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('attention-explorer', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('model-handoff');
        request.onsuccess = () => {
          const tx = request.result.transaction('model-handoff', 'readwrite');
          tx.objectStore('model-handoff').put(
            { bytes: Uint8Array.from(bytes), name: 'forged.model', savedAt: Date.now() },
            id,
          );
          tx.oncomplete = () => (request.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    [ID(9), forged],
  );
  await page.goto(`${session.url}?lang=en&model=local:${ID(9)}`);
  await page.waitForFunction(() => /heldOutLoss/.test(document.querySelector('[data-role=model-about]')?.textContent));
  assert.equal(
    await page.textContent('[data-role=model-about]'),
    'forged.model is not a model this page can show: model.config.heldOutLoss ("4.2") must be a number from 0 to 1000. Nothing was changed.',
  );
  assert.equal(await page.inputValue('[data-role=model]'), 'random');
  assert.deepEqual(problems, []);
  await context.close();
});
