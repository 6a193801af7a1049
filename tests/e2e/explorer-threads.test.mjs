// The explorer's engine worker on the threaded engine: served by
// build-scripts/serve.mjs (cross-origin isolated) it imports dist/site/engine-mt/ and a long
// trace's heads run on every core; from a host without the two headers and from the single file
// it runs the single-threaded engine. Either way the page says which, and a long trace holds the
// numbers of the node engine, bit for bit. A screenshot of where the page says it, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerStarted, offlineSingleFile, openPage, screenshot, useBrowser, withoutIsolation } from './browser.mjs';
import { engineTraceFor } from './engine-trace.mjs';
import { createEngine } from '../node/support.mjs';

const session = useBrowser();
const engine = await createEngine();
// 200 tokens and 8 heads: past the page's own instance (128 tokens), and past the work from which
// Trace::Run spreads the heads (n·m·heads ≥ 65,536).
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'echo', 'foxtrot', 'golf'];
const SENTENCE = Array.from({ length: 200 }, (_, i) => WORDS[(i * 3) % 7]).join(' ');
const QUERY = `?s=${encodeURIComponent(SENTENCE)}&d=32&h=8&mask=causal&view=matrix`;

const threadsShown = (page) =>
  page.evaluate(() => {
    const line = document.querySelector('[data-role=engine-threads]');
    return { count: Number(line.dataset.threads), reason: line.dataset.threadsReason, text: line.textContent };
  });

/** FNV-1a of each step's float bits, by "name:head". */
function digest(step) {
  let hash = 0x811c9dc5;
  for (const word of new Uint32Array(step.data.buffer, step.data.byteOffset, step.data.length)) {
    hash = Math.imul(hash ^ word, 0x01000193) >>> 0;
  }
  return `${step.rows}×${step.cols}:${hash}`;
}

/** The page's long trace (computed in its worker, never on the page) against node's, every step of every head. */
async function assertSameTrace(page) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-role=tokens] li').length === n, 200);
  const shown = await page.evaluate(`(async () => {
    const trace = window.attentionExplorer.trace;
    const whole = await trace.complete();
    const digest = ${digest.toString()};
    const out = {};
    for (const name of whole.stepNames) {
      for (let h = 0; h < (whole.isPerHead(name) ? whole.heads : 1); h++) out[name + ':' + h] = digest(whole.step(name, h));
    }
    return { onPage: trace.onPage, steps: out };
  })()`);
  assert.equal(shown.onPage, false, 'the long trace was computed in the worker');
  const expected = await engineTraceFor(engine, page);
  const steps = {};
  for (const name of expected.stepNames) {
    const heads = Array.isArray(expected.steps[name]) ? expected.heads : 1;
    for (let h = 0; h < heads; h++) steps[`${name}:${h}`] = digest(expected.step(name, h));
  }
  assert.ok(Object.keys(steps).length > 80, "every head's steps: 8 heads × 10");
  assert.deepEqual(shown.steps, steps);
}

test('served isolated, the explorer computes long traces on the threaded engine and says so', async () => {
  const { page, context, problems, requests } = await openPage(session.browser, `${session.url}${QUERY}&lang=en`);
  await explorerStarted(page);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const shown = await threadsShown(page);
  assert.deepEqual([shown.count, shown.reason], [cores, '']);
  assert.equal(shown.text, `engine: ${cores} threads (shared memory)`);
  assert.ok(
    requests.some((url) => url.endsWith('/engine-mt/attention-engine.worker.js')),
    'the threaded engine started its pthreads',
  );
  await assertSameTrace(page);
  await page.locator('[data-role=engine-threads]').scrollIntoViewIfNeeded();
  await screenshot(page, 'explorer-threads-en');
  await page.click('[data-lang=zh]');
  assert.equal((await threadsShown(page)).text, `引擎：${cores} 个线程（共享内存）`);
  await screenshot(page, 'explorer-threads-zh');
  assert.deepEqual(problems, [], 'no console error, page error or CSP violation');
  await context.close();
});

test('from a host without the two headers the explorer runs one thread and says why', async () => {
  const { context, page } = await withoutIsolation(session.browser, session.url);
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${session.url}${QUERY}&lang=zh`);
  await explorerStarted(page);
  const shown = await threadsShown(page);
  assert.deepEqual([shown.count, shown.reason, shown.text], [1, 'not-isolated', '引擎：1 个线程——此页面未跨源隔离']);
  assert.ok(!requests.some((url) => url.includes('/engine-mt/')), 'the threaded engine is never loaded');
  await context.close();
});

test('the single file from file:// computes the long trace single-threaded and says why', async () => {
  const { context, page, attempted, file, problems } = await offlineSingleFile(session.browser, {
    viewport: { width: 1280, height: 800 },
  });
  await page.goto(`${file}${QUERY}&lang=en`);
  await explorerStarted(page);
  const shown = await threadsShown(page);
  assert.deepEqual(
    [shown.count, shown.reason, shown.text],
    [1, 'single-file', 'engine: 1 thread — the single file cannot share memory'],
  );
  await assertSameTrace(page);
  assert.deepEqual(attempted, [], 'no network request');
  assert.deepEqual(problems, []);
  await context.close();
});
