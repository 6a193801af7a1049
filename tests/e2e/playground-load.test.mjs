// Loading model files into the training playground (issue 26): a refusal says what failed in
// the page's language, with the engine's message and no stringified "Error: " (item 11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './browser.mjs';

const session = useBrowser();

async function openPlayground(query) {
  const opened = await openPage(session.browser, `${session.url}playground.html${query}`);
  await opened.page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
  return opened;
}

const load = (page, name, buffer) =>
  page.setInputFiles('[data-role=load]', { name, mimeType: 'application/octet-stream', buffer });

test('a refused model file is said as what failed and the engine’s reason, without "Error: ", in both languages', async () => {
  const { page, context, problems } = await openPlayground('?task=copy&lang=en');
  await load(page, 'hello.model', Buffer.from('hello world'));
  await page.waitForSelector('[data-role=error]:not([hidden])');
  const error = () => page.locator('[data-role=error]').textContent();
  assert.equal(
    await error(),
    'This model file could not be opened: not a model file: it starts with bytes 68 65 6c 6c 6f 20 77 6f, not "ATTNMODL"',
  );
  await page.click('[data-lang=zh]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === '注意力训练场');
  assert.equal(
    await error(),
    '无法打开这个模型文件：not a model file: it starts with bytes 68 65 6c 6c 6f 20 77 6f, not "ATTNMODL"',
  );
  assert.doesNotMatch(await error(), /Error/);
  // Reset (a new model) clears it.
  await page.click('[data-role=reset]');
  await page.waitForSelector('[data-role=error][hidden]', { state: 'attached' });
  assert.deepEqual(problems, []);
  await context.close();
});
