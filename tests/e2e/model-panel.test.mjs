// What a learner trips over in a trained model's panel. *Continue* writes where
// the learner looks: the growing text beside the predictions with each continued token marked,
// equal to what the model generates in node, and the sentence box keeps the same text; typing
// ends the marks. The whole block's pictures have axes and legends, the section a takeaway,
// and the parameter counts say what they count.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, root } from '../node/support.mjs';
import { openPage, useBrowser } from './browser.mjs';

const session = useBrowser();
let model;
before(async () => {
  const engine = await createEngine();
  model = engine.loadModel(readFileSync(path.join(root, 'models', 'tang.model')));
});

// One page for the file (opening one is the slow part): each test types its text there and
// chooses its language.
let shared = null;
after(() => shared?.context.close());
async function tangPage(text, lang) {
  shared ??= await openPage(session.browser, `${session.url}?model=tang&lang=${lang}&s=${encodeURIComponent(text)}`);
  const { page } = shared;
  await page.waitForSelector('.next-item', { timeout: 20000 });
  if (await page.evaluate((l) => window.attentionExplorer.store.get().lang !== l, lang)) {
    await page.click(`[data-lang=${lang}]`);
  }
  if (await page.evaluate((t) => window.attentionExplorer.store.get().sentence !== t, text)) {
    await page.fill('[data-role=sentence]', text);
    await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, text);
  }
  await page.evaluate(() => window.attentionExplorer.idle());
  return shared;
}

test('three greedy continues are marked beside the predictions, the sentence box in sync', async () => {
  const { page, problems } = await tangPage('床前明月光', 'zh');
  {
    const idle = () => page.evaluate(() => window.attentionExplorer.idle());
    await page.waitForSelector('[data-role=next-text]', { timeout: 20000 });
    assert.equal(await page.locator('[data-role=next-added]').count(), 0, 'nothing continued yet');
    let text = '床前明月光';
    const pieces = [];
    for (let k = 0; k < 3; k++) {
      const next = model.generate({ text }, { count: 1, greedy: true }).text;
      pieces.push(next.slice(text.length));
      text = next;
      await page.click('[data-role=continue-greedy]');
      await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, text);
      await idle();
    }
    const marked = await page.$$eval('[data-role=next-added]', (marks) => marks.map((m) => m.textContent));
    assert.deepEqual(
      marked,
      pieces.map((p) => p.replace(/\n/g, '↵')),
    );
    assert.match(await page.textContent('[data-role=next-text]'), /床前明月光/);
    // A one-line box drops the line breaks the model writes (↵ beside the predictions).
    assert.equal(await page.inputValue('[data-role=sentence]'), text.replace(/\n/g, ''));
    // Beside the predictions: in the same panel, above their list.
    const [shown, list] = await Promise.all([
      page.locator('[data-role=next-text]').boundingBox(),
      page.locator('.next-list').boundingBox(),
    ]);
    assert.ok(shown.y < list.y && shown.y > list.y - 200, `text at ${shown.y}, predictions at ${list.y}`);
    // The special symbols among the predictions and the continued text, in words.
    const present = await page.evaluate(() => [
      ...[...document.querySelectorAll('.next-item')].map((i) => i.dataset.token),
      ...[...document.querySelectorAll('[data-role=next-added]')].map((m) => m.textContent.replace(/↵/g, '\n')),
    ]);
    const expected = ['\n', '<unk>', '<eos>'].filter((t) =>
      present.some((x) => x === t || (t === '\n' && x.includes('\n'))),
    );
    const hint = (await page.locator('.next-specials').count()) ? await page.textContent('.next-specials') : '';
    assert.equal(hint.includes('换行'), expected.includes('\n'), hint);
    assert.equal(hint.includes('<unk>'), expected.includes('<unk>'), hint);
    assert.equal(hint.includes('<eos>'), expected.includes('<eos>'), hint);
    await page
      .locator('[data-role=model-next]')
      .screenshot({ path: path.join(root, 'tests/e2e/screenshots/continue-zh.png') });
    // The learner types: the text is theirs, nothing is marked.
    await page.fill('[data-role=sentence]', '春眠不觉晓');
    await page.waitForFunction(() =>
      document.querySelector('[data-role=next-text]')?.textContent.includes('春眠不觉晓'),
    );
    assert.equal(await page.locator('[data-role=next-added]').count(), 0);
    assert.deepEqual(problems, []);
  }
});

test('the block: each picture with its axes and legend, a takeaway, and counts that say what they count', async () => {
  const text = '床前明月光，疑是地上霜。';
  const { page, problems } = await tangPage(text, 'zh');
  {
    await page.waitForSelector('.block-takeaway', { timeout: 20000 });
    const figures = await page.$$eval('.block-step', (steps) =>
      steps.map((f) => ({
        shape: f.querySelector('.block-shape').textContent.trim(),
        rows: [...f.querySelectorAll('.block-axis-y span')].map((s) => s.textContent),
        columns: [...f.querySelectorAll('.block-axis-x span')].map((s) => s.textContent),
        legend: [...f.querySelectorAll('.block-legend > span')].map((s) => s.textContent),
        range: f.querySelector('.block-range').textContent,
      })),
    );
    assert.equal(figures.length, 8);
    // The model reads a line break before the poem (its document start), drawn as ↵.
    const tokens = model.encode(text).tokens.map((t) => (t === '\n' ? '↵' : t));
    assert.equal(tokens[0], '↵');
    for (const f of figures) {
      const [rows, cols] = f.shape.split(' × ').map(Number);
      assert.equal(rows, tokens.length);
      assert.deepEqual([f.rows[0], f.rows.at(-1)], [tokens[0], tokens.at(-1)]);
      assert.deepEqual([f.columns[0], f.columns.at(-1)], ['1', String(cols)]);
      // The legend spans ±the largest |value| of the picture: the range's ends, the larger one.
      const [low, high] = f.range.match(/−?[\d.]+/g).map((v) => Number(v.replace('−', '-')));
      const m = Number(f.legend.at(-1));
      assert.equal(f.legend[0], `−${f.legend.at(-1)}`);
      assert.ok(Math.abs(m - Math.max(-low, high)) < 1e-3, `legend ±${m}, values ${low} … ${high}`);
    }
    const takeaway = await page.textContent('.block-takeaway');
    assert.match(takeaway, /^值得注意：/);
    assert.doesNotMatch(takeaway, /LayerNorm|residual|dimension/);
    assert.match(
      await page.textContent('[data-role=summary]'),
      /这一注意力层的参数 66,048 个（W_Q、W_K、W_V、W_O 及其偏置）/,
    );
    // The whole model's count, as the engine counts the shipped file's parameters.
    const whole = model.parameterCount.toLocaleString('en');
    assert.match(await page.textContent('[data-role=model-about]'), new RegExp(`共 ${whole} 个参数（`));
    // The whole block in both languages, as a learner sees it.
    const block = page.locator('[data-role=model-block]');
    await block.screenshot({ path: path.join(root, 'tests/e2e/screenshots/block-zh.png') });
    await page.click('[data-lang=en]');
    await page.waitForFunction(() => /^What to notice/.test(document.querySelector('.block-takeaway')?.textContent));
    await block.screenshot({ path: path.join(root, 'tests/e2e/screenshots/block-en.png') });
    assert.deepEqual(problems, []);
  }
});

test('the poem model reads a line break before the typed poem, marked and said; 疑是地上 → 霜', async () => {
  const text = '床前明月光，疑是地上';
  for (const [lang, said] of [
    ['en', /reads ↵ before your text/],
    ['zh', /模型先读一个 ↵/],
  ]) {
    const { page, problems } = await tangPage(text, lang);
    {
      const chips = await page.$$eval('[data-role=tokens] li', (li) =>
        li.map((c) => ({ text: c.textContent, start: c.classList.contains('start'), title: c.title })),
      );
      assert.deepEqual(
        chips.map((c) => c.text),
        ['↵', ...text],
      );
      assert.deepEqual(
        chips.map((c) => c.start),
        chips.map((_, i) => i === 0),
      );
      assert.match(chips[0].title, /↵/);
      assert.match(await page.textContent('[data-role=model-notice]'), said);
      // The model's first choice is what node's predict gives for the same text: 霜.
      const first = await page.$eval('.next-item', (i) => i.dataset.token);
      assert.equal(first, model.predict({ text }, { topK: 1 }).predictions[0].token);
      assert.equal(first, '霜');
      assert.deepEqual(problems, []);
    }
  }
  // A word model has no document start: no chip is marked, no notice.
  const { page } = shared;
  await page.selectOption('[data-role=model]', 'brown');
  await page.waitForFunction(
    () => /Brown/i.test(document.querySelector('[data-role=model-about]')?.textContent),
    null,
    {
      timeout: 20000,
    },
  );
  await page.fill('[data-role=sentence]', 'the united');
  await page.waitForFunction(() => window.attentionExplorer.store.get().sentence === 'the united');
  await page.evaluate(() => window.attentionExplorer.idle());
  await page.waitForSelector('.next-item');
  assert.equal(await page.locator('[data-role=tokens] li').count(), 2);
  assert.equal(await page.locator('[data-role=tokens] li.start').count(), 0);
  assert.equal(await page.locator('[data-role=model-notice]').isHidden(), true);
});
