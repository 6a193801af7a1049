// The served page loads the WASM engine from the local server and shows its numbers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../node/support.mjs';
import { openPage, screenshotDir, startBrowser } from './browser.mjs';

let session;
let engine;
before(async () => {
  session = await startBrowser();
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
});
after(async () => {
  await session?.close();
});

test('the page computes in the browser the same weights as the engine in node', async () => {
  const { page, context, problems, requests } = await openPage(session.browser, session.url);
  await page.waitForSelector('#weights td');
  const chips = await page.locator('#tokens li').allTextContents();
  assert.deepEqual(chips, ['我', '爱', '吃', '火', '锅']); // the engine's tokenizer: one token per CJK character

  const expected = engine.run({ text: '我 爱 吃 火锅', dModel: 8, heads: 2 }).step('weights', 0);
  const shown = await page.locator('#weights td').allTextContents();
  assert.deepEqual(
    shown,
    Array.from(expected.data, (v) => v.toFixed(3)),
  );

  await page.fill('#sentence', '猫追着球跑');
  await page.waitForFunction(() => document.querySelectorAll('#tokens li').length === 5);
  assert.equal(await page.locator('#weights td').count(), 25);
  await page.screenshot({ path: path.join(screenshotDir, 'engine-page.png') });

  assert.deepEqual(problems, []);
  const origin = new URL(session.url).origin;
  assert.deepEqual(
    requests.filter((url) => !url.startsWith(origin)),
    [],
    'no request leaves the local server',
  );
  assert.ok(
    requests.some((url) => url.endsWith('/attention-engine.wasm')),
    'the .wasm came from the local server',
  );
  await context.close();
});
