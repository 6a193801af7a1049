// "Your text" in the playground in Debian's Chromium: a pasted text builds its
// vocabulary in the worker and trains at once; the training loss falls below the text's unigram
// line; a sample from the fixed prompt appears; the model goes to the explorer and opens there as
// a language model; a bad text, a file that is not UTF-8 and a 200 MB file show their messages in
// the page's language and the page then trains a good text (every refusal's wording is
// tests/node/own-text.test.mjs's). Screenshots at 1280 × 800 and 390 × 844, light and dark, in
// both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, useBrowser } from './browser.mjs';

const session = useBrowser();
const PASTED = 'the cat sat on the mat. the dog sat on the log. a cat and a dog sat on a mat and a log.\n'.repeat(14);

async function openText(query, options) {
  const opened = await openPage(session.browser, `${session.url}playground.html${query}`, options);
  // The page builds the query's ready text at once: play is enabled when its model is ready.
  await opened.page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
  return opened;
}

function assertClean({ problems, requests }) {
  assert.deepEqual(problems, [], 'no console error or warning, no page error, no CSP violation');
  const away = requests.filter((url) => !url.startsWith(session.url) && !url.startsWith('blob:'));
  assert.deepEqual(away, [], 'no request leaves the local server');
}

/** Pastes `text` into the box and presses "Train on this text". */
async function trainPasted(page, text) {
  await page.fill('[data-role=text]', text);
  await page.click('[data-role=train-text]');
}

test('a pasted text trains: loss below the unigram line, a sample, the held-out loss; the model opens in the explorer', async () => {
  const opened = await openText('?task=text&lang=en');
  const { page, context } = opened;
  // The ready Tang poems are proposed at character level.
  assert.equal(await page.inputValue('[data-role=source]'), 'poems');
  assert.match(await page.textContent('[data-role=proposal]'), /Character level is proposed: the text is Chinese/);

  await trainPasted(page, PASTED);
  assert.equal(await page.inputValue('[data-role=source]'), 'own');
  // Built, then training at once.
  await page.waitForSelector('[data-role=play][aria-pressed=true]', { timeout: 30000 });
  // The text's size, counted here: characters, distinct ones (+ <pad> <unk> <bos> <eos>), the
  // held-out tenth.
  const tokens = Array.from(PASTED).length;
  const held = Math.round(tokens * 0.1);
  const n = (v) => v.toLocaleString('en-US');
  assert.match(
    await page.textContent('[data-role=text-summary]'),
    new RegExp(
      `^${n(tokens)} tokens · vocabulary of ${new Set(PASTED).size + 4} · [\\d,]+ parameters · about [\\d,]+ s per 1,000 steps on this machine$`,
    ),
  );
  assert.equal(
    await page.textContent('[data-role=text-split]'),
    `Training on ${n(tokens - held)} tokens; the last ${held} are held out. Context: 64 tokens.`,
  );
  // The training loss (mean of the last rows) falls below the text's own unigram line.
  await page.waitForFunction(
    () => {
      const h = window.attentionPlayground.history;
      const last = h.loss.slice(-5).map(([, v]) => v);
      return h.baselines && last.length === 5 && last.reduce((a, b) => a + b) / 5 < h.baselines.unigram;
    },
    null,
    { timeout: 90000, polling: 250 },
  );
  const { unigram, bigram } = await page.evaluate(() => window.attentionPlayground.history.baselines);
  assert.ok(bigram < unigram);
  // The chart draws the two reference lines, named.
  const legend = await page.$$eval('[data-role=loss-chart] .legend-item text', (all) => all.map((n) => n.textContent));
  assert.deepEqual(legend, ['training loss', 'held-out loss', 'unigram of the text', 'bigram of the text']);
  // A sample from the fixed prompt ("the ") and the held-out loss against the baselines.
  await page.waitForFunction(() => document.querySelector('[data-role=sample]')?.textContent.length > 20);
  assert.match(await page.textContent('[data-role=sample]'), /^the /);
  assert.match(await page.textContent('[data-role=sample-step]'), /^at step [\d,]+$/);
  assert.match(
    await page.textContent('[data-role=held-out]'),
    new RegExp(
      `^held-out loss \\d\\.\\d{3} nats per token \\(unigram ${unigram.toFixed(3)}, bigram ${bigram.toFixed(3)}\\)`,
    ),
  );
  // Every head's attention on the fixed excerpt: 2 layers × 4 heads.
  assert.equal(await page.locator('[data-role=heatmap-grid] canvas').count(), 8);
  // Each head's caption names it and, once measured on the excerpt, its role.
  const captions = await page.$$eval('[data-role=heatmap-grid] figcaption', (all) => all.map((n) => n.textContent));
  assert.equal(captions[0].split(' · ')[0], 'layer 1, head 1');
  const roles = await page.evaluate(() => window.attentionPlayground.history.snapshots.at(-1).snapshot.roles);
  const names = {
    previous: 'previous token',
    previousLine: 'previous line',
    first: 'first token',
    self: 'itself',
    broad: 'broad',
  };
  captions.forEach((caption, i) => assert.equal(caption.split(' · ')[1], roles[i] ? names[roles[i]] : undefined));
  // The link keeps the settings, not this text (longer than 300 characters), and says so.
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('task'), 'text');
  assert.equal(url.searchParams.get('src'), 'own');
  assert.equal(url.searchParams.get('text'), null);
  assert.match(await page.textContent('[data-role=text-url-note]'), /only when it has at most 300 characters/);
  await screenshot(page, 'own-text-training-en');

  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  const [explorer] = await Promise.all([context.waitForEvent('page'), page.click('[data-role=open-explorer]')]);
  await explorer.waitForLoadState();
  const params = new URL(explorer.url()).searchParams;
  assert.match(params.get('model'), /^local:[0-9a-f]{18}$/);
  assert.equal(params.get('s'), 'the cat sat on the mat. ');
  await explorer.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
    timeout: 30000,
  });
  await explorer.evaluate(() => window.attentionExplorer.idle());
  assert.match(await explorer.textContent('[data-role=model-about]'), /your-text\.model/);
  await screenshot(explorer, 'own-text-explorer-en');
  assertClean(opened);
  await context.close();
});

test('a 1.1 MB text builds its vocabulary behind a progress bar, piece by piece', async () => {
  const opened = await openText('?task=text&src=names&lang=en');
  const { page, context } = opened;
  const big = 'The ferry leaves at dawn and returns at noon, heavy with baskets. '.repeat(16000);
  await page.selectOption('[data-role=level]', 'word');
  await trainPasted(page, big);
  await page.waitForSelector('[data-role=play][aria-pressed=true]', { timeout: 60000 });
  // 1 MiB pieces (two here): each counted, then each encoded, the bar told after every one.
  const fractions = await page.evaluate(() => window.attentionPlayground.textProgress);
  const pieces = Math.ceil(big.length / 2 ** 20);
  assert.ok(fractions.length >= 2 * pieces, `${fractions.length} progress messages for ${pieces} pieces`);
  assert.ok(fractions.every((f, i) => f > 0 && f <= 1 && (i === 0 || f >= fractions[i - 1])));
  assert.equal(fractions.at(-1), 1);
  assert.equal(await page.isHidden('[data-role=text-progress]'), true, 'the bar goes once the model is built');
  // Word level: 14 tokens a sentence (12 words, "," and "."), 13 distinct, + <pad> <unk> <bos> <eos>.
  assert.match(await page.textContent('[data-role=text-summary]'), /^224,000 tokens · vocabulary of 17 · /);
  assertClean(opened);
  await context.close();
});

test('a bad text, a file that is not UTF-8 and one past the size limit are refused in the page language; the page then trains a good text', async () => {
  // Every refusal's wording, word for word in both languages, is tests/node/own-text.test.mjs's
  // (the worker's refusal read and worded as the page does); here the page's own paths: a pasted
  // text, a file's bytes checked by the engine at their offset, a file refused by its size unread.
  const opened = await openText('?task=text&lang=zh');
  const { page, context } = opened;
  const refused = async (what, message) => {
    await page.waitForFunction(
      (source) => {
        const error = document.querySelector('[data-role=error]');
        return !error.hidden && new RegExp(source).test(error.textContent);
      },
      message.source,
      { timeout: 30000 },
    );
    const text = await page.textContent('[data-role=error]');
    assert.doesNotMatch(text, /[a-z]{4,}/, `${what}: no English in 中文 (“${text}”)`);
    assert.equal(await page.isVisible('[data-role=play][aria-pressed=true]'), false, `${what}: nothing trains`);
  };
  await trainPasted(page, '');
  await refused('empty', /^文本是空的：至少需要 24 个 UTF-8 词元。$/);
  await screenshot(page, 'own-text-refused-zh');
  await page.setInputFiles('[data-role=open-text]', {
    name: 'c.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('caf\xe9 na\xefve '.repeat(8), 'latin1'),
  });
  await refused('latin-1', /^这个文件不是有效的 UTF-8（第 4 字节）/);
  await page.evaluate(() => {
    const input = document.querySelector('[data-role=open-text]');
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(200 * 1024 * 1024)], 'big.txt', { type: 'text/plain' }));
    input.files = data.files;
    input.dispatchEvent(new Event('change'));
  });
  await refused('200 MB', /^big\.txt 有 209\.7 MB；上限是 16 MiB（16777216 字节）/);
  // A good text clears the message and trains.
  await trainPasted(page, PASTED);
  await page.waitForSelector('[data-role=play][aria-pressed=true]', { timeout: 30000 });
  assert.equal(await page.isHidden('[data-role=error]'), true);
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  assertClean(opened);
  await context.close();
});

test('screenshots: phone and desktop, light and dark, both languages (one page, trained once)', async () => {
  const opened = await openText('?task=text&src=names&lang=en', { viewport: { width: 1280, height: 800 } });
  const { page, context } = opened;
  await page.click('[data-role=play]');
  await page.waitForFunction(() => window.attentionPlayground.history.loss.at(-1)?.[0] >= 40, null, {
    timeout: 60000,
  });
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  await page.waitForFunction(() => document.querySelector('[data-role=sample]')?.textContent.length > 0);
  const titles = { en: 'Attention Playground', zh: '注意力训练场' };
  for (const [lang, width, height, scheme] of [
    ['en', 1280, 800, 'light'],
    ['zh', 1280, 800, 'dark'],
    ['en', 390, 844, 'dark'],
    ['zh', 390, 844, 'light'],
  ]) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.click(`[data-lang=${lang}]`);
    await page.waitForFunction((title) => document.querySelector('h1').textContent === title, titles[lang]);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await screenshot(page, `own-text-${lang}-${width}-${scheme}`);
    // No horizontal scrolling at phone width.
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1),
      `${lang}, ${width} px, ${scheme}: no sideways scrolling`,
    );
  }
  assertClean(opened);
  await context.close();
});
