// The threaded engine in the browser: the bundled server isolates the page (COOP + COEP), so the
// playground trains on dist/site/engine-mt/ with one thread per core and says so; the same site
// from a host without those headers trains on the single-threaded engine and says why (the single
// file's playground, one thread as well, is playground.test.mjs's: it trains there anyway).
// Screenshots of the status in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser, withoutIsolation } from './browser.mjs';

const session = useBrowser();

const threadsShown = (page) =>
  page.evaluate(() => {
    const status = document.querySelector('[data-role=status]');
    return {
      count: Number(status.dataset.threads),
      reason: status.dataset.threadsReason,
      text: status.textContent,
      isolated: globalThis.crossOriginIsolated,
      cores: navigator.hardwareConcurrency,
    };
  });

/** Plays until the page has drawn `steps` steps; returns the losses it drew. */
async function trainFor(page, steps) {
  await page.click('[data-role=play]');
  await page.waitForFunction((n) => window.attentionPlayground.history.loss.at(-1)?.[0] >= n, steps, {
    timeout: 60000,
  });
  await page.click('[data-role=play]'); // pause
  return page.evaluate(() => window.attentionPlayground.history.loss.map(([, loss]) => loss));
}

test('served by build-scripts/serve.mjs the playground is cross-origin isolated and trains on every core', async () => {
  const { page, context, problems, requests } = await openPage(
    session.browser,
    `${session.url}playground.html?task=sort&lang=en`,
  );
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
  const shown = await threadsShown(page);
  assert.equal(shown.isolated, true, 'the page is cross-origin isolated');
  assert.equal(shown.reason, '', 'no reason for one thread');
  assert.equal(shown.count, shown.cores, 'one thread per core (navigator.hardwareConcurrency)');
  assert.match(shown.text, new RegExp(`${shown.cores} threads? \\(shared memory\\)`));
  assert.ok(
    requests.some((url) => url.endsWith('/engine-mt/attention-engine.worker.js')),
    'the threaded engine started its pthreads',
  );
  // The page's main thread never waits for a thread: there the threaded engine refuses to start.
  const onPage = await page.evaluate(async () => {
    try {
      const url = new URL('engine-mt/engine.js', location.href).href; // the page's, not this file's
      await (await import(url)).createEngine();
      return 'started';
    } catch (error) {
      return error.message;
    }
  });
  assert.match(onPage, /runs in a Web Worker/);
  const losses = await trainFor(page, 20);
  assert.ok(losses.at(-1) < losses[0], `the loss falls: ${losses[0]} → ${losses.at(-1)}`);
  assert.match(await page.textContent('[data-role=status]'), /steps\/s/);
  await screenshot(page, 'threads-served-en');
  await page.click('[data-lang=zh]');
  assert.match(await page.textContent('[data-role=status]'), new RegExp(`${shown.cores} 个线程（共享内存）`));
  await screenshot(page, 'threads-served-zh');
  assert.deepEqual(problems, [], 'no console error, page error or CSP violation');
  assert.deepEqual(
    requests.filter((url) => !url.startsWith(session.url)),
    [],
    'every request stays on the server',
  );
  await context.close();
});

test('from a host without the two headers the playground runs one thread and says why', async () => {
  const { context, page } = await withoutIsolation(session.browser, session.url);
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${session.url}playground.html?task=sort&lang=zh`);
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
  const shown = await threadsShown(page);
  assert.equal(shown.isolated, false);
  assert.deepEqual([shown.count, shown.reason], [1, 'not-isolated']);
  assert.match(shown.text, /1 个线程——此页面未跨源隔离/);
  const losses = await trainFor(page, 20);
  assert.ok(losses.at(-1) < losses[0]);
  assert.deepEqual(problems, []);
  await context.close();
});
