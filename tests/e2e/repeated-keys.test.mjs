// A key given twice in a link, on the pages: the explorer and its embed page read the first
// value of every key and say which keys were repeated, under the values they ignored. Which
// value wins is the parsers' (tests/node/repeated-keys.test.mjs, the playground's too); the
// playground's notice is shown in tests/e2e/playground.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, explorerStarted } from './browser.mjs';

const session = useBrowser();
const noticeText = (page) => page.locator('[data-role=notice]').textContent();

test('the explorer and its embed page: the first value of a repeated key is used, the key is named', async () => {
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?h=4&d=16&h=1&lang=en&lang=zh&step=3&step=9&bogus=1`,
  );
  await explorerStarted(page);
  const state = await page.evaluate(() => window.attentionExplorer.store.get());
  assert.deepEqual([state.heads, state.lang, state.step], [4, 'en', 3]);
  assert.equal(
    await noticeText(page),
    'Ignored link values (defaults used instead): bogus=1\nKeys given more than once in the link (the first value of each is used): h, lang, step',
  );
  await page.goto(`${session.url}embed.html?step=2&step=5&controls=0&controls=1&lang=zh`);
  await explorerStarted(page);
  assert.equal(await page.locator('.step-button[aria-current="step"]').getAttribute('data-step'), '2');
  assert.equal(await page.locator('.controls').isHidden(), true, 'controls=0, the first');
  assert.equal(await noticeText(page), '链接中这些键出现了不止一次（每个键只用第一个值）：controls, step');
  assert.deepEqual(problems, []);
  await context.close();
});
