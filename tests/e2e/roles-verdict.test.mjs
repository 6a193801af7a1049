// One verdict per head on the page, in Debian's Chromium: a shipped model's head shows its stored
// roles only (no per-text label beside them), its position-matched figure on hover, the ↵ the
// model reads first is never the punctuation that opened a line, a role without keys on the typed
// text says why in words, the English model says "sentence start", the rhyme head outlines the
// previous rhyme; the model line says the Tang model is no recitation engine; greedy continue
// that repeats itself stops, says so and offers the sampled continue. Both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { roleKeys, roleScore } from '../../dist/engine/engine.js';
import { createEngine, root } from '../node/support.mjs';
import { openPage, useBrowser, screenshot } from './browser.mjs';

const session = useBrowser();
const engine = await createEngine();
const file = (name) => path.join(root, 'models', name);
const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());

const cells = (page) =>
  page.$$eval('.model-cell', (all) =>
    all.map((c) => ({
      layer: Number(c.dataset.layer),
      head: Number(c.dataset.head),
      role: c.dataset.headRole,
      label: c.dataset.label,
      name: c.querySelector('.model-cell-label')?.textContent,
      ratio: c.querySelector('.model-cell-ratio')?.textContent ?? '',
      here: c.querySelector('.model-cell-here')?.textContent ?? '',
      title: c.title,
      rects: [...c.querySelectorAll('.model-cell-keys rect')].map((r) => [
        Number(r.getAttribute('y')),
        Number(r.getAttribute('x')),
      ]),
    })),
  );

async function open(model, text) {
  const opened = await openPage(session.browser, `${session.url}?model=${model}&s=${encodeURIComponent(text)}`);
  await opened.page.waitForSelector('.model-cell[data-head-role]');
  await idle(opened.page);
  return opened;
}

const skip = { skip: !existsSync(file('tang.model')) || !existsSync(file('brown.model')) };

test('Tang on 猫追着球跑: line-start heads do not score the ↵ read first; one verdict per head', skip, async () => {
  const sidecar = JSON.parse(readFileSync(file('tang.roles.json'), 'utf8'));
  const { page, context, problems } = await open('tang', '猫追着球跑');
  const shown = await cells(page);
  assert.equal(shown.length, sidecar.heads.length);
  for (const head of sidecar.heads) {
    const cell = shown.find((c) => c.layer === head.layer && c.head === head.head);
    const where = `L${head.layer + 1}H${head.head + 1}`;
    assert.equal(cell.role, head.roles.join(' '), where);
    assert.equal(cell.label, undefined, `${where}: no per-text label beside the stored role`);
    if (head.roles.includes('lineStart')) {
      // The only mark is the ↵ the model reads first: no line start on this text.
      assert.match(cell.here, /^your text: (.+ \/ )?no ， or 。 yet( \/ .+)?$/, where);
      // Outlined: only the previous token, for a head named for both (the ↵ is no line start).
      assert.ok(
        cell.rects.every(([i, j]) => head.roles.includes('previous') && j === i - 1),
        `${where}: ${JSON.stringify(cell.rects)}`,
      );
    }
    for (const role of head.roles.filter((r) => r !== 'broad' && r !== 'previous')) {
      const figure = `${head.scores[role].matchedRatio.toFixed(1)}× what it puts on any token at the same distance back`;
      assert.ok(cell.title.includes(figure), `${where}: ${cell.title}`);
    }
  }
  // Two roles within 10%: both named.
  const both = sidecar.heads.filter((h) => h.roles.length === 2);
  for (const head of both) {
    const cell = shown.find((c) => c.layer === head.layer && c.head === head.head);
    assert.equal(cell.name.split(' / ').length, 2, cell.name);
  }
  await screenshot(page, 'roles-verdict-cat-en');
  await page.click('.language button[data-lang=zh]');
  await idle(page);
  for (const c of await cells(page)) {
    assert.doesNotMatch([c.name, c.ratio, c.here, c.title].join(' '), /[A-Za-z]{2,}/, c.title);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('Tang on 静夜思: the rhyme head outlines 霜 from 故 and scores it; the model line is honest', skip, async () => {
  const text = '床前明月光，疑是地上霜。举头望明月，低头思故乡。';
  const sidecar = JSON.parse(readFileSync(file('tang.roles.json'), 'utf8'));
  const rhyme = sidecar.heads.find((h) => h.roles.includes('rhyme'));
  assert.ok(rhyme, 'the Tang model has a rhyme head');
  const model = engine.loadModel(readFileSync(file('tang.model')));
  try {
    const { page, context, problems } = await open('tang', text);
    const ids = model.encode(text).ids;
    const symbols = ids.map((id) => model.vocabulary[id]);
    const keys = roleKeys('rhyme', symbols);
    const at = symbols.indexOf('故');
    assert.deepEqual(keys[at], [symbols.indexOf('霜')]);
    const weights = model
      .trace({ tokens: ids }, { steps: ['weights'] })
      .layers[rhyme.layer].step('weights', rhyme.head).data;
    const cell = (await cells(page)).find((c) => c.layer === rhyme.layer && c.head === rhyme.head);
    assert.equal(cell.name, 'previous rhyme (韵脚)');
    assert.deepEqual(cell.rects, [[at, symbols.indexOf('霜')]]);
    assert.equal(cell.here, `your text: ${roleScore(weights, ids.length, keys).score.toFixed(2)}`);
    assert.equal(cell.ratio, `${rhyme.scores.rhyme.ratio.toFixed(1)}× chance`);
    const about = await page.textContent('[data-role=model-about]');
    assert.match(about, /It is not a recitation engine/);
    assert.doesNotMatch(about, /knows the famous poems/);
    await page.hover(`.model-cell[data-layer="${rhyme.layer}"][data-head="${rhyme.head}"]`);
    await screenshot(page, 'roles-verdict-rhyme-en');
    await page.click('.language button[data-lang=zh]');
    await idle(page);
    assert.match(await page.textContent('[data-role=model-about]'), /但它不会背诗/);
    assert.deepEqual(problems, []);
    await context.close();
  } finally {
    model.dispose();
  }
});

test('English: "sentence start", and part of speech said in a learner’s words', skip, async () => {
  const sidecar = JSON.parse(readFileSync(file('brown.roles.json'), 'utf8'));
  const { page, context, problems } = await open('brown', 'the jury said it was over . the judge said it was not .');
  const shown = await cells(page);
  const lineStart = sidecar.heads.find((h) => h.roles.includes('lineStart'));
  const cell = shown.find((c) => c.layer === lineStart.layer && c.head === lineStart.head);
  assert.match(cell.name, /sentence start/);
  for (const c of shown) assert.doesNotMatch(`${c.name} ${c.here}`, /line start|part-of-speech|tags/, c.title);
  const tagged = sidecar.heads.find((h) => h.roles.some((r) => ['verbNoun', 'closeQuote', 'nounModifier'].includes(r)));
  const t = shown.find((c) => c.layer === tagged.layer && c.head === tagged.head);
  assert.match(t.here, /nouns from its verbs/);
  await page.click('.language button[data-lang=zh]');
  await idle(page);
  const zh = (await cells(page)).find((c) => c.layer === lineStart.layer && c.head === lineStart.head);
  assert.match(zh.name, /句子开头/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('greedy continue that repeats itself stops, says so and offers the sampled continue', skip, async () => {
  const text = '床前明月光，疑是地上霜。';
  const { page, context, problems } = await open('tang', text);
  let clicks = 0;
  while (!(await page.$('[data-role=next-loop]')) && clicks < 24) {
    const before = await page.evaluate(() => window.attentionExplorer.store.get().sentence);
    await page.click('[data-role=continue-greedy]');
    await page.waitForFunction((b) => window.attentionExplorer.store.get().sentence !== b, before);
    await idle(page);
    clicks += 1;
  }
  const loop = await page.textContent('[data-role=next-loop]');
  assert.match(loop, /Greedy continue stopped: the text repeats itself/);
  assert.equal(await page.isDisabled('[data-role=continue-greedy]'), true);
  const sentence = await page.evaluate(() => window.attentionExplorer.store.get().sentence);
  // The repeated piece named is the text's own end, twice.
  const piece = loop.match(/“(.+?)” twice/)[1];
  assert.ok(sentence.endsWith(piece + piece), `${sentence} ends in ${piece} twice`);
  await screenshot(page, 'roles-verdict-loop-en');
  await page.click('.language button[data-lang=zh]');
  await idle(page);
  assert.match(await page.textContent('[data-role=next-loop]'), /贪心续写已停止/);
  await page.click('[data-role=continue-sample-loop]');
  await page.waitForFunction((b) => window.attentionExplorer.store.get().sentence !== b, sentence);
  await idle(page);
  assert.equal(await page.$('[data-role=next-loop]'), null, 'a sampled continue ends the loop notice');
  assert.equal(await page.isDisabled('[data-role=continue-greedy]'), false);
  assert.deepEqual(problems, []);
  await context.close();
});
