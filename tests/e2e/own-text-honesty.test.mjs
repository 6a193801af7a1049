// What "Your text" says about the learner's model in Debian's Chromium: the summary line follows
// the text in the box before Train is pressed; the model handed to the explorer is said to be
// trained in this browser on the learner's text, in the page's language; Chinese column labels
// of the playground's heatmaps stand upright.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { explorerStarted, openPage, screenshot, screenshotDir, useBrowser } from './browser.mjs';

const shotPath = (name) => path.join(screenshotDir, `${name}.png`);

const session = useBrowser();
// Chinese words and one Latin one, long enough that the bar charts stand their labels upright.
const SENTENCE =
  '床前明月光 疑是地上霜 举头望明月 低头思故乡 春眠不觉晓 处处闻啼鸟 夜来风雨声 花落知多少 hello world again';

async function openText(query) {
  const opened = await openPage(session.browser, `${session.url}playground.html${query}`);
  await opened.page
    .waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 })
    .catch((error) => assert.fail(`${error.message}\n${opened.problems.join('\n')}`));
  return opened;
}

test('a pasted text changes the summary line before Train is pressed (中文)', async () => {
  const { page, context } = await openText('?task=text&lang=zh');
  // The ready Tang poems, built: their own numbers.
  assert.match(await page.textContent('[data-role=text-summary]'), /^424 个词元 · 词表 241 个 · /);
  const text = '春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。\n'.repeat(10);
  await page.fill('[data-role=text]', text);
  const chars = Array.from(text);
  const summary = await page.textContent('[data-role=text-summary]');
  assert.match(
    summary,
    new RegExp(`^${chars.length} 个词元 · 词表 ${new Set(chars).size + 4} 个 · [\\d,]+ 个参数（尚未训练）$`),
  );
  assert.equal(await page.textContent('[data-role=text-split]'), '', 'no split of a text not yet built');
  // Trained, the line is the engine's: the same tokens and vocabulary, now with the time per step.
  await page.click('[data-role=train-text]');
  await page.waitForFunction(
    () => /每 1000 步/.test(document.querySelector('[data-role=text-summary]').textContent),
    null,
    {
      timeout: 30000,
    },
  );
  assert.match(
    await page.textContent('[data-role=text-summary]'),
    new RegExp(`^${chars.length} 个词元 · 词表 ${new Set(chars).size + 4} 个 · `),
  );
  await context.close();
});

test('the model handed to the explorer is said to be trained in this browser on your text (中文)', async () => {
  const { page, context, problems } = await openText('?task=text&lang=zh');
  await page.fill('[data-role=text]', '床前明月光，疑是地上霜。举头望明月，低头思故乡。\n'.repeat(12));
  await page.click('[data-role=train-text]');
  await page.waitForSelector('[data-role=play][aria-pressed=true]', { timeout: 30000 });
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  const [explorer] = await Promise.all([context.waitForEvent('page'), page.click('[data-role=open-explorer]')]);
  await explorer.waitForLoadState();
  await explorer.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
    timeout: 30000,
  });
  await explorer.evaluate(() => window.attentionExplorer.idle());
  const line = await explorer.textContent('[data-role=model-about]');
  assert.match(line, /^当前显示：your-text\.model，在这个浏览器中用你的文本训练。/);
  assert.doesNotMatch(line, /本仓库|your text/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a short text: when held-out loss climbs above the unigram line, the page says the model memorises (中文, then English)', async () => {
  const { page, context, problems } = await openText('?task=text&src=paragraph&lang=zh');
  assert.equal(await page.isHidden('[data-role=memorising]'), true, 'nothing said before training');
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=memorising]:not([hidden])', { timeout: 120000 });
  // Said only when the curves show it: the last held-out loss is above the text's unigram line.
  const { unigram, last } = await page.evaluate(() => {
    const h = window.attentionPlayground.history;
    return { unigram: h.baselines.unigram, last: h.heldOutLoss.at(-1)[1] };
  });
  assert.ok(last > unigram, `held-out ${last} above unigram ${unigram}`);
  assert.match(await page.textContent('[data-role=memorising]'), /模型在背这段文本.*更长的文本才能推广/);
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  await page.click('.language button[data-lang=en], [data-lang=en]');
  assert.match(await page.textContent('[data-role=memorising]'), /memorising this text.*A longer text generalises/);
  await screenshot(page, 'own-text-memorising-en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('CJK column labels stand upright: the playground heatmaps, the explorer stage and its exported figure', async () => {
  const { page, context, problems } = await openText('?task=text&lang=zh');
  await page.waitForSelector('[data-role=heatmap-grid] .pg-cols span');
  const col = await page.$eval('[data-role=heatmap-grid] .pg-cols span', (n) => {
    const c = getComputedStyle(n);
    return { text: n.textContent, writingMode: c.writingMode, transform: c.transform, orientation: c.textOrientation };
  });
  assert.match(col.text, /\p{sc=Han}/u);
  // Vertical, no half turn (that stood the characters on their heads), characters upright.
  // (A one-character label is upright whatever its script: text-orientation upright.)
  assert.deepEqual(
    { writingMode: col.writingMode, transform: col.transform, orientation: col.orientation },
    { writingMode: 'vertical-rl', transform: 'none', orientation: 'upright' },
  );
  await page
    .locator('[data-role=heatmap-grid] figure')
    .first()
    .screenshot({ path: shotPath('own-text-cjk-columns') });

  // The explorer's stage: a Chinese token's label is written vertically, a Latin one turned.
  const explorer = await context.newPage();
  await explorer.goto(`${session.url}?lang=zh&step=4&s=${encodeURIComponent(SENTENCE)}`);
  await explorerStarted(explorer);
  await explorer.evaluate(() => window.attentionExplorer.idle());
  const labels = await explorer.$$eval('text.col-label', (all) =>
    all.map((n) => ({
      text: n.textContent,
      turned: /rotate/.test(n.getAttribute('transform')),
      writingMode: getComputedStyle(n).writingMode,
      // Two characters or more: written downward, the label is taller than it is wide.
      tall: Array.from(n.textContent).length < 2 || n.getBBox().height > n.getBBox().width,
    })),
  );
  const han = labels.filter((l) => /\p{sc=Han}/u.test(l.text));
  const latin = labels.filter((l) => l.text === 'hello');
  assert.ok(han.length > 0 && latin.length > 0, JSON.stringify(labels));
  for (const l of han) assert.deepEqual(l, { ...l, turned: false, writingMode: 'vertical-rl', tall: true });
  for (const l of latin) assert.deepEqual(l, { ...l, turned: true, writingMode: 'horizontal-tb' });
  // The exported figure carries the rule that writes them vertically (a file has no page CSS).
  await explorer.evaluate(() => window.attentionExplorer.store.set({ view: 'heatmap' }));
  await explorer.evaluate(() => window.attentionExplorer.idle());
  const svg = await explorer.evaluate(() => window.attentionExplorer.viewSVG());
  assert.match(svg, /\.col-label\.cjk[^{]*\{[^}]*writing-mode: vertical-rl/);
  assert.match(svg, /class="col-label cjk"/);
  // Bars' labels, upright when crowded: a CJK one runs down from its place under the axis
  // (its box starts at its place, give or take the font's slack), never up into the bars.
  await explorer.evaluate(() => window.attentionExplorer.store.set({ view: 'softmax' }));
  await explorer.evaluate(() => window.attentionExplorer.idle());
  const bars = await explorer.$$eval('text.bar-label.upright', (all) =>
    all.map((n) => ({ text: n.textContent, cls: n.getAttribute('class'), top: n.getBBox().y })),
  );
  const hanBars = bars.filter((b) => /\p{sc=Han}/u.test(b.text));
  assert.ok(hanBars.length > 0, JSON.stringify(bars));
  for (const b of hanBars) assert.ok(b.cls.includes('cjk') && b.top >= -4, JSON.stringify(b));
  assert.deepEqual(problems, []);
  await context.close();
});
