// Every number explained: a picked cell's arithmetic equals the engine's numbers
// (run in node), temperature is named as itself, cells never look blank, heads count from 1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createEngine } from '../node/support.mjs';
import {
  linkLines,
  linksPainted,
  screenshotDir,
  sharedExplorer,
  useBrowser,
  transitionsDone,
  screenshot as shot,
  explorerStarted as started,
} from './browser.mjs';
import { engineTraceFor } from './engine-trace.mjs';
import { formatShort, formatValue } from '../../web/src/format.js';

const session = useBrowser();
// One page for every test at 1280 × 800, brought to each test's link through its store.
const explorer = sharedExplorer(session);
after(() => explorer.close());
let engine;
before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
});

/** float32 numbers computed in two places (the page's JS, the engine) agree this closely. */
const close = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b), `${what}: page ${a}, engine ${b}`);

/** The panel's numbers: every [data-value] of a row of the table whose header is `label`. */
const rowValues = (panel, label) =>
  panel
    .locator('tr', { has: panel.page().locator(`th:text-is("${label}")`) })
    .first()
    .locator('td[data-value]')
    .evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
const term = async (panel, name) => Number(await panel.locator(`[data-term=${name}]`).getAttribute('data-value'));
/** The engine's cell (i, j) of step `name` for head `head`. */
const valueAt = (trace, name, head, i, j) => {
  const step = trace.step(name, head);
  return step.data[i * step.cols + j];
};
/** The panel's term-by-term row of products, summed in float64. */
const productsSum = async (panel) =>
  (
    await panel
      .locator('tr', { has: panel.page().locator('th:text-is("×")') })
      .locator('td[data-value]')
      .evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)))
  ).reduce((a, b) => a + b, 0);

test('a score cell shows q·k term by term, ÷√d_k and ÷T, the mask and its row’s softmax: the engine’s numbers', async () => {
  const { page, problems } = await explorer.show(
    `lang=en&s=The+cat+chased+the+ball&d=16&h=2&head=2&step=4&mask=causal&t=2`,
  );
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const h = 1;
  const panel = page.locator('[data-role=arithmetic]');
  assert.equal(await panel.isHidden(), true, 'no panel before a cell is picked');

  for (const [i, j] of [
    [3, 1],
    [1, 3], // above the diagonal: masked
  ]) {
    await page.click(`[data-role=stage] g.operand[data-step=scores] g.cell[data-i="${i}"][data-j="${j}"]`);
    await page.waitForSelector(`[data-role=arithmetic][data-i="${i}"][data-j="${j}"]:not([hidden])`);
    const q = trace.step('qHead', h).data.slice(i * trace.dK, (i + 1) * trace.dK);
    const k = trace.step('kHead', h).data.slice(j * trace.dK, (j + 1) * trace.dK);
    assert.deepEqual(await rowValues(panel, `q (${trace.tokens[i]})`), Array.from(q));
    assert.deepEqual(await rowValues(panel, `k (${trace.tokens[j]})`), Array.from(k));
    const products = await rowValues(panel, 'q × k');
    products.forEach((p, m) => close(p, q[m] * k[m], `term ${m + 1}`));
    const at = (name) => trace.step(name, h).data[i * trace.nKey + j];
    assert.equal(await term(panel, 'score'), at('scores'));
    close(
      products.reduce((a, b) => a + b, 0),
      at('scores'),
      'the terms sum to the score',
    );
    assert.equal(await term(panel, 'scaled'), at('scaled'));
    close(at('scores') / Math.sqrt(trace.dK) / 2, at('scaled'), '÷√d_k ÷T');
    assert.equal(await term(panel, 'masked'), at('masked'));
    assert.equal(await term(panel, 'weight'), at('weights'));
    const text = await panel.textContent();
    assert.ok(text.includes(`√${trace.dK}`), `÷√${trace.dK} in: ${text}`);
    assert.match(text, /temperature T/);
    assert.match(text, /Head 2/, 'heads are numbered from 1');
    if (j > i) {
      assert.equal(at('masked'), -Infinity);
      assert.equal(at('weights'), 0);
      assert.match(text, /masked: −∞/);
    }
    // The row's softmax: the engine's weights, summing to 1.
    const weights = await rowValues(panel, 'weight A');
    assert.deepEqual(weights, Array.from(trace.step('weights', h).data.slice(i * trace.nKey, (i + 1) * trace.nKey)));
    close(
      weights.reduce((a, b) => a + b, 0),
      1,
      'the row sums to 1',
    );
  }
  await page.click('.step-button[data-step="7"]');
  await page.waitForSelector('[data-role=stage] g.stage-legend g.hatch-key'); // causal: the key for hatched cells
  await transitionsDone(page);
  await shot(page, 'arithmetic-score-en');

  // Chinese, and a change of temperature redraws the panel with the new numbers.
  await page.click('.language button[data-lang="zh"]');
  await page.waitForFunction(() => /头 2/.test(document.querySelector('[data-role=arithmetic]').textContent));
  assert.match(await panel.textContent(), /温度 T/);
  await transitionsDone(page);
  await shot(page, 'arithmetic-score-zh');
  await page.click('.arith-close');
  await page.waitForSelector('[data-role=arithmetic][hidden]', { state: 'attached' });
  assert.deepEqual(problems, []);
});

test('with scaling off the arithmetic and the stage say so: no ÷√d_k, no "scaled"', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&d=16&h=2&step=5&scale=0`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  await page.click('[data-role=stage] g.operand[data-step=scaled] g.cell[data-i="2"][data-j="0"]');
  await page.waitForSelector('[data-role=arithmetic][data-i="2"]:not([hidden])');
  const panel = page.locator('[data-role=arithmetic]');
  const text = await panel.textContent();
  assert.match(text, /Scaling is off/);
  assert.doesNotMatch(text, /÷ √/);
  assert.equal(await term(panel, 'scaled'), trace.step('scaled', 0).data[2 * trace.nKey]);
  assert.equal(await term(panel, 'scaled'), await term(panel, 'score'), 'unscaled: the score itself');
  const stage = await page.locator('[data-role=stage]').textContent();
  assert.doesNotMatch(stage, /√/, `stage: ${stage}`);
  assert.doesNotMatch(stage, /scaled/, `stage: ${stage}`);
  const shapes = await page.locator('.explain .shapes').textContent();
  assert.doesNotMatch(shapes, /√/, shapes);
  assert.deepEqual(problems, []);
});

test('an output cell shows the value rows weighted by attention, summing to the engine’s output', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&d=16&h=2&head=1&step=8`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const [i, c] = [2, 3];
  // Keyboard: the grid is one tab stop, arrows move, Enter picks.
  const first = page.locator('[data-role=stage] g.operand[data-step=headOutput] g.cell[tabindex="0"]');
  await first.focus();
  for (let k = 0; k < i; k++) await page.keyboard.press('ArrowDown');
  for (let k = 0; k < c; k++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`[data-role=arithmetic][data-kind=output][data-i="${i}"][data-j="${c}"]:not([hidden])`);
  assert.equal(await page.locator('.step-button[data-step="8"]').getAttribute('aria-current'), 'step');
  const panel = page.locator('[data-role=arithmetic]');
  const weights = trace.step('weights', 0).data.slice(i * trace.nKey, (i + 1) * trace.nKey);
  const v = trace.step('vHead', 0);
  for (let j = 0; j < trace.nKey; j++) {
    const row = await panel
      .locator(`tr[data-j="${j}"] td[data-value]`)
      .evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.deepEqual(row, [weights[j], ...v.data.slice(j * trace.dK, (j + 1) * trace.dK)], `row ${j}`);
  }
  const output = trace.step('headOutput', 0).data[i * trace.dK + c];
  assert.equal(await term(panel, 'output'), output);
  let sum = 0;
  for (let j = 0; j < trace.nKey; j++) sum += weights[j] * v.data[j * trace.dK + c];
  close(sum, output, 'Σ_j A[i, j]·V[j, c]');
  // Nothing is masked (mask none): the legend offers no "masked" key.
  assert.equal(await page.locator('[data-role=stage] g.stage-legend g.hatch-key').count(), 0);
  await transitionsDone(page);
  await shot(page, 'arithmetic-output-en');
  assert.deepEqual(problems, []);
});

test('temperature is its own term: ÷T in the formula and the stage, explained, one range for slider, box and link', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&step=5&view=softmax`);
  await started(page);
  const operators = () => page.locator('[data-role=stage] .operator-text').allTextContents();
  assert.deepEqual(await operators(), ['÷ √dₖ =']);
  assert.match(await page.locator('.concept-note').textContent(), /Temperature T = 1: .*separately from √d_k/);
  const slider = page.locator('label.temperature input[type=range]');
  const box = page.locator('[data-role=temperature]');
  // The slider's ends are the box's ends (log scale): moving it to either end gives that bound.
  for (const [end, want] of [
    ['min', Number(await box.getAttribute('min'))],
    ['max', Number(await box.getAttribute('max'))],
  ]) {
    await slider.evaluate((input, e) => {
      input.value = input[e];
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, end);
    await page.waitForFunction((t) => new URL(location.href).searchParams.get('t') === String(t), want);
    assert.equal(Number(await box.inputValue()), want, `slider at its ${end}`);
  }
  assert.deepEqual([await box.getAttribute('min'), await box.getAttribute('max')], ['0.05', '20']);
  assert.deepEqual(await operators(), ['÷ √dₖ ÷ T =']);
  const formula = await page.locator('.explain .formula .t-temperature').count();
  assert.ok(formula > 0, 'the formula divides by T');
  assert.match(await page.locator('.concept-note').textContent(), /Temperature T = 20/);
  // With scaling off, only T divides: the stage never says √d_k.
  await page.locator('[data-role=scale]').uncheck();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scale') === '0');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-role=stage] .operator-text')].some((t) => t.textContent === '÷ T ='),
  );
  assert.doesNotMatch(await page.locator('[data-role=stage]').textContent(), /√|scaled/);
  assert.equal(await page.locator('.explain .formula .t-scale').count(), 0, 'no √d_k in the formula');
  await transitionsDone(page);
  await shot(page, 'temperature-en');
  assert.deepEqual(problems, []);
});

test('the stage and the matrices view state their colour scales: legends with the engine’s ranges, shared where compared', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&step=4&view=matrices`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const maxAbs = (data) => data.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, Math.abs(v)) : m), 0);
  /** Each legend's label and its end ticks, as drawn in `role`. */
  const legends = (role) =>
    page.locator(`[data-role=${role}] g.stage-legend`).evaluateAll((gs) =>
      gs.map((g) => ({
        label: g.querySelector('.legend-label').textContent,
        ticks: [...g.querySelectorAll('text.tick')].map((t) => t.textContent),
      })),
    );
  await page.waitForSelector('[data-role=matrices] g.stage-legend');
  const stage = await legends('stage');
  const scores = stage.find((l) => l.label === 'S₁');
  assert.ok(scores, `a legend for S₁: ${JSON.stringify(stage)}`);
  const m = maxAbs(trace.step('scores', 0).data);
  assert.deepEqual(scores.ticks, [formatShort(-m), '0', formatShort(m)]);
  assert.equal(stage.length, 3, 'Q₁, K₁ᵀ and S₁ each have their own range');

  const matrices = await legends('matrices');
  assert.equal(matrices.length, 2, 'one scale for activations, one for weights');
  const activations = Math.max(
    ...['x', 'pe', 'xPe', 'q', 'k', 'v', 'concat', 'output'].map((n) => maxAbs(trace.step(n).data)),
    maxAbs(trace.step('headOutput', 0).data),
  );
  const weights = Math.max(...['wQ', 'wK', 'wV', 'wO'].map((n) => maxAbs(trace.step(n).data)));
  assert.deepEqual(matrices[0], { label: 'X … O', ticks: [formatShort(-activations), '0', formatShort(activations)] });
  assert.deepEqual(matrices[1], { label: 'W_Q … W_O', ticks: [formatShort(-weights), '0', formatShort(weights)] });
  // Every cell that prints a number prints one: no blank cell that could be read as zero.
  // (The matrices view's are pictures, with their numbers in a layer: views/matrix.js drawNumbers.)
  const printed = await page
    .locator('[data-role=matrices] text.cell-number, [data-role=stage] g.cell text')
    .evaluateAll((ts) => ts.map((t) => t.textContent));
  assert.ok(printed.length >= 13 * 8, `${printed.length} numbers`);
  assert.equal(printed.filter((text) => text === '').length, 0);
  await transitionsDone(page);
  await shot(page, 'legends-matrices-en');
  assert.deepEqual(problems, []);
});

/** PE strips' dots paths, read in the page: their d and data attributes, and where each is drawn. */
const readDots = (paths) =>
  paths.map((path) => {
    const m = path.getScreenCTM();
    return {
      d: path.getAttribute('d'),
      p: path.dataset.p,
      values: path.dataset.values,
      ctm: [m.a, m.b, m.c, m.d, m.e, m.f],
    };
  });

/** readDots' answer → { dots: the engine's values, positions, centres [x, y] in the strip }. */
function dotsOf({ d, p, values }) {
  const numbers = (text) => text.split(' ').map(Number);
  // Each dot is "M x−r,y a r,r 0 1,0 2r,0 a …": its centre is r right of where it starts.
  const centres = [...d.matchAll(/M(-?[\d.]+),(-?[\d.]+)a([\d.]+)/g)].map((m) => [
    Number(m[1]) + Number(m[3]),
    Number(m[2]),
  ]);
  return { dots: numbers(values), positions: numbers(p), centres };
}

test('positional encoding’s picture: a wave per dimension through the engine’s PE, at step 1 and in the matrices view', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&d=16&step=1&view=matrices`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const pe = trace.step('pe');
  for (const role of ['stage', 'matrices']) {
    await page.waitForSelector(`[data-role=${role}] .pe-waves g.pe-strip`);
    const strip = page.locator(`[data-role=${role}] .pe-waves g.pe-strip`);
    const paths = (await strip.locator('path.dots').evaluateAll(readDots)).map(dotsOf);
    const strips = (
      await strip.evaluateAll((gs) =>
        gs.map((g) => ({ dim: Number(g.dataset.dim), label: g.querySelector('.pe-label').textContent })),
      )
    ).map((s, k) => ({ ...s, ...paths[k] }));
    // d_model 16: the four fastest and the four slowest waves.
    assert.deepEqual(
      strips.map((s) => s.dim),
      [0, 1, 2, 3, 12, 13, 14, 15],
    );
    const [top, topValue] = strips
      .flatMap((s) => s.centres.map(([, y], p) => [y, s.dots[p]]))
      .reduce((a, b) => (Math.abs(b[1]) > Math.abs(a[1]) ? b : a));
    const k = -top / topValue;
    assert.ok(k > 5, `${role}: ${k} px for a value of 1`);
    for (const { dim, label, dots, positions, centres } of strips) {
      assert.match(label, dim % 2 ? /cos$/ : /sin$/);
      assert.deepEqual(
        positions,
        Array.from({ length: trace.nQuery }, (_, p) => p),
        `${role}: dim ${dim} positions`,
      );
      // The dots are drawn where their numbers are: evenly along x, at height −k·value (one k,
      // from the dot of largest value: a cosine's first, 1).
      centres.forEach(([x, y], p) => {
        assert.ok(Math.abs(y + k * dots[p]) < 0.02, `${role}: dim ${dim}: dot ${p} at y ${y}, value ${dots[p]}`);
        assert.ok(Math.abs(x - (p * centres.at(-1)[0]) / (centres.length - 1)) < 0.02, `${role}: dot ${p} at x ${x}`);
      });
      assert.deepEqual(
        dots,
        Array.from({ length: trace.nQuery }, (_, p) => pe.data[p * pe.cols + dim]),
        `${role}: dim ${dim}`,
      );
      // The engine's numbers are the formula's (docs/computation.md), so the wave passes through them.
      dots.forEach((v, p) => {
        const angle = p / 10000 ** ((2 * Math.floor(dim / 2)) / pe.cols);
        close(v, dim % 2 ? Math.cos(angle) : Math.sin(angle), `PE[${p}, ${dim}]`);
      });
    }
  }
  assert.match(await page.locator('.concept-note').textContent(), /one wave per dimension/);
  await transitionsDone(page);
  await shot(page, 'positional-waves-en');
  await page.locator('[data-role=positionalEncoding]').uncheck();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('pe') === '0');
  await page.waitForFunction(() => !document.querySelector('[data-role=stage] .pe-waves'));
  assert.equal(await page.locator('[data-role=matrices] .pe-waves').count(), 0);
  assert.deepEqual(problems, []);
});

test('a dot on the waves names its value and its token on hover, also for a token just typed', async () => {
  // One listener on the picture serves every dot (positional.js): it must read the newest trace.
  const { page, problems } = await explorer.show(`lang=en&s=The+cat&step=1`);
  await started(page);
  const input = page.locator('[data-role=sentence]');
  await input.focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' sat');
  await page.waitForSelector('[data-role=stage] .pe-waves g.pe-strip[data-dim="3"] path.dots[data-p="0 1 2"]');
  const trace = await engineTraceFor(engine, page);
  const pe = trace.step('pe');
  for (const [p, c] of [
    [2, 3],
    [0, 0],
  ]) {
    // The pointer on dot p's centre, in the page's coordinates (scrolled into view).
    const dots = page.locator(`[data-role=stage] .pe-waves g.pe-strip[data-dim="${c}"] path.dots`);
    await dots.scrollIntoViewIfNeeded();
    const [path] = await dots.evaluateAll(readDots);
    const [cx, cy] = dotsOf(path).centres[p];
    const [a, b, cc, d, e, f] = path.ctm;
    const [x, y] = [a * cx + cc * cy + e, b * cx + d * cy + f];
    await page.mouse.move(x, y);
    const tip = page.locator('.tooltip:not([hidden]) div');
    await tip.first().waitFor();
    assert.deepEqual(await tip.allTextContents(), [
      `PE[${p}, ${c}] = ${formatValue(pe.data[p * pe.cols + c])}`,
      `position ${p}: ${trace.tokens[p]}`,
    ]);
    await page.mouse.move(1, 1);
    await page.waitForSelector('.tooltip', { state: 'hidden' });
  }
  assert.equal(trace.tokens[2], 'sat');
  assert.deepEqual(problems, []);
});

test('phone and dark, both languages: the arithmetic panel, the legends and the waves fit the screen', async () => {
  const phone = sharedExplorer(session, { viewport: { width: 390, height: 844 } });
  for (const lang of ['zh', 'en']) {
    const { page, problems } = await phone.show(`lang=${lang}&s=猫追着球跑&mask=causal&step=7`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('[data-role=stage] g.operand[data-step=weights] g.cell[data-i="2"][data-j="1"]');
    await page.waitForSelector('[data-role=arithmetic][data-i="2"]:not([hidden])');
    // The page does not scroll sideways: wide tables scroll inside the panel.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${lang}: the page is ${overflow} px wider than the phone`);
    assert.ok((await page.locator('[data-role=stage] g.stage-legend').count()) > 0, 'the stage has its legends');
    await transitionsDone(page);
    await shot(page, `arithmetic-phone-dark-${lang}`);
    await page.click('.step-button[data-step="1"]');
    await page.waitForSelector('[data-role=stage] .pe-waves g.pe-strip');
    await transitionsDone(page);
    await shot(page, `positional-phone-dark-${lang}`);
    assert.deepEqual(problems, []);
  }
  await phone.close();
});

test('any other cell explains itself: projections term by term, X + PE, PE’s formula, Concat, given matrices', async () => {
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&d=16&h=2`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const at = (name, head, i, j) => valueAt(trace, name, head, i, j);
  const panel = page.locator('[data-role=arithmetic]');
  /** Picks cell (i, j) of the `nth` operand showing `name` at `step`; resolves with the panel's text. */
  const pick = async (step, name, i, j, nth = 0) => {
    await page.click(`.step-button[data-step="${step}"]`);
    await page
      .locator(`[data-role=stage] g.operand[data-step=${name}] g.cell[data-i="${i}"][data-j="${j}"]`)
      .nth(nth)
      .click();
    await page.waitForSelector(`[data-role=arithmetic][data-step=${name}][data-i="${i}"][data-j="${j}"]:not([hidden])`);
    return panel.textContent();
  };
  const result = async () => Number(await panel.locator('[data-term=result]').getAttribute('data-value'));

  // Q = X'·W_Q: row 3 of X' times column 5 of W_Q.
  await pick(2, 'q', 3, 5);
  assert.equal(await result(), at('q', 0, 3, 5));
  close(await productsSum(panel), at('q', 0, 3, 5), "Σ X'[3, m]·W_Q[m, 5]");
  // K₂ (head 2) at column 1 is column dK + 1 of W_K.
  const text = await pick(3, 'kHead', 2, 1, 1);
  assert.match(text, new RegExp(`W_K column ${trace.dK + 1}`));
  assert.equal(await result(), at('kHead', 1, 2, 1));
  close(await productsSum(panel), at('k', 0, 2, trace.dK + 1), 'K₂ is K’s second slice');
  // X' = X + PE.
  await pick(1, 'xPe', 4, 3);
  assert.equal(await result(), at('xPe', 0, 4, 3));
  close(at('x', 0, 4, 3) + at('pe', 0, 4, 3), await result(), 'X + PE');
  // PE by its formula.
  const peText = await pick(1, 'pe', 4, 3);
  assert.match(peText, /cos\(4 \/ 10000\^\(2\/16\)\)/);
  assert.equal(await result(), at('pe', 0, 4, 3));
  // Concat: head 2's column 0 is Concat's column dK.
  await pick(9, 'concat', 1, trace.dK);
  assert.equal(await result(), at('headOutput', 1, 1, 0));
  // O = Concat·W_O.
  await pick(10, 'output', 0, 7);
  assert.equal(await result(), at('output', 0, 0, 7));
  close(await productsSum(panel), at('output', 0, 0, 7), 'Σ Concat[0, m]·W_O[m, 7]');
  // X is given: the panel says where it comes from.
  assert.match(await pick(1, 'x', 0, 0), /Given, not computed/);
  // K₁ᵀ at step 4 is drawn transposed: its cell (row m, column j) is K₁[j, m].
  await page.click('.step-button[data-step="4"]');
  await page.locator('[data-role=stage] g.operand[data-step=kHead] g.cell[data-i="1"][data-j="3"]').click();
  await page.waitForSelector('[data-role=arithmetic][data-step=kHead][data-i="3"][data-j="1"]:not([hidden])');
  assert.equal(await result(), at('kHead', 0, 3, 1));
  assert.deepEqual(problems, []);
});

test('the matrices view’s cells explain themselves in the view: a click or Enter opens the arithmetic under them, outlined', async () => {
  // Any cell explains itself, wherever it is drawn: the matrices view's cells took no click. Their
  // panel is the view's own (an embed may show the views without the stage), and the stage's stays
  // closed.
  const { page, problems } = await explorer.show(`lang=en&s=The+cat+chased+the+ball&view=matrices`);
  await started(page);
  const trace = await engineTraceFor(engine, page);
  const at = (name, head, i, j) => valueAt(trace, name, head, i, j);
  const panel = page.locator('[data-role=matrices-arithmetic]');
  const shown = (name, i, j) =>
    page.waitForSelector(
      `[data-role=matrices-arithmetic][data-step=${name}][data-i="${i}"][data-j="${j}"]:not([hidden])`,
    );
  const result = async () => Number(await panel.locator('[data-term=result]').getAttribute('data-value'));
  const operand = (name) => page.locator(`[data-role=matrices] g.operand[data-step=${name}]`);

  /** Clicks cell (i, j) of the picture of `name`, a rows × cols grid; resolves with its box. */
  const clickCell = async (name, i, j, rows, cols) => {
    const picture = operand(name).locator('rect.picture');
    await picture.scrollIntoViewIfNeeded();
    const box = await picture.boundingBox();
    await page.mouse.click(box.x + (box.width / cols) * (j + 0.5), box.y + (box.height / rows) * (i + 0.5));
    await shown(name, i, j);
  };
  // A weight: given, and outlined as picked.
  await clickCell('wQ', 2, 3, trace.dModel, trace.dModel);
  assert.match(await panel.textContent(), /W_Q\[2, 3\][\s\S]*Given, not computed/);
  assert.equal(await operand('wQ').locator('rect.picked-cell').count(), 1);
  assert.ok(await page.locator('[data-role=arithmetic]').isHidden(), 'the stage’s panel stays closed');
  // The panel is brought into the window (it lies under the matrices and the waves).
  assert.ok(await panel.evaluate((e) => e.getBoundingClientRect().bottom <= innerHeight + 1), 'the panel in view');

  // Q: its cell (1, 4), X'·W_Q term by term.
  const [rows, cols] = [trace.nQuery, trace.dModel];
  await clickCell('q', 1, 4, rows, cols);
  assert.equal(await result(), at('q', 0, 1, 4));
  close(await productsSum(panel), at('q', 0, 1, 4), "Σ X'[1, m]·W_Q[m, 4]");
  // Outlined there, and only there: the weight's outline went with its pick.
  const outline = operand('q').locator('rect.picked-cell');
  assert.equal(await outline.count(), 1);
  // (Where the picture is now: bringing the panel into view scrolled the page.)
  const now = await operand('q').locator('rect.picture').boundingBox();
  const cell = now.width / cols;
  const marked = await outline.boundingBox();
  assert.ok(Math.abs(marked.x + marked.width / 2 - (now.x + cell * 4.5)) < cell / 2, 'outlined at column 4');
  assert.ok(Math.abs(marked.y + marked.height / 2 - (now.y + cell * 1.5)) < cell / 2, 'outlined at row 1');
  assert.equal(
    await page.locator('[data-role=matrices] .cell.picked, [data-role=matrices] rect.picked-cell').count(),
    1,
  );

  // The keyboard: Enter on head 1's output picture picks its cursor's cell (0, 0).
  await operand('headOutput').locator('rect.picture').focus();
  await page.keyboard.press('Enter');
  await shown('headOutput', 0, 0);
  assert.equal(await term(panel, 'output'), at('headOutput', 0, 0, 0));

  // Closed: no panel, no outline; the stage's own cells still open the stage's panel.
  await panel.locator('.arith-close').click();
  await page.waitForSelector('[data-role=matrices-arithmetic][hidden]', { state: 'attached' });
  assert.equal(
    await page.locator('[data-role=matrices] .cell.picked, [data-role=matrices] rect.picked-cell').count(),
    0,
  );
  await page.locator('[data-role=stage] g.operand[data-step=xPe] g.cell[data-i="1"][data-j="2"]').click();
  await page.waitForSelector('[data-role=arithmetic][data-step=xPe][data-i="1"][data-j="2"]:not([hidden])');
  assert.equal(
    await page.locator('[data-role=stage] g.operand[data-step=xPe] g.cell.picked').getAttribute('data-j'),
    '2',
    'the stage outlines its picked cell too',
  );
  assert.ok(await panel.isHidden(), 'one panel at a time');
  await shot(page, 'matrices-arithmetic');
  assert.deepEqual(problems, []);
});

test('cross-attention: a second sentence gives keys and values; rectangular heatmaps and two-column links with the engine’s weights', async () => {
  const { page, problems } = await explorer.show(`lang=zh&s=我爱吃火锅&step=7&view=heatmap`);
  await started(page);
  await page.fill('[data-role=kv]', 'I love hotpot');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('kv') === 'I love hotpot');
  await page.waitForSelector('[data-role=heatmaps] g.multiple[data-head="0"] g.cell[data-j="2"]');
  const tokens = await page.locator('[data-role=tokens] li').allTextContents();
  const kvTokens = await page.locator('[data-role=kv-tokens] li').allTextContents();
  assert.deepEqual(kvTokens, ['I', 'love', 'hotpot']);
  const trace = engine.run({ tokens, kvTokens, dModel: 8, heads: 2, seed: 42 });
  assert.equal(trace.nKey, 3);
  for (let h = 0; h < 2; h++) {
    const cells = await page
      .locator(`[data-role=heatmaps] g.multiple[data-head="${h}"] g.cell`)
      .evaluateAll((gs) => gs.map((g) => [Number(g.dataset.i), Number(g.dataset.j), Number(g.dataset.value)]));
    assert.equal(cells.length, tokens.length * 3, `head ${h + 1}: a ${tokens.length} × 3 heatmap`);
    for (const [i, j, v] of cells)
      assert.equal(v, trace.step('weights', h).data[i * 3 + j], `head ${h + 1} (${i}, ${j})`);
  }
  await transitionsDone(page);
  await shot(page, 'cross-attention-heatmap-zh');

  // Links: queries on the left, the second sentence's tokens as keys on the right.
  await page.click('[role=tab][data-view=links]');
  await linksPainted(page);
  const keys = await page.locator('[data-role=links] text.token.key').allTextContents();
  assert.deepEqual(keys, kvTokens);
  for (const { h, i, j, weight } of await linkLines(page))
    assert.equal(weight, trace.step('weights', h).data[i * 3 + j], `link of head ${h + 1} (${i}, ${j})`);
  // Steps 1 and 2 embed the second sentence and take K and V from it.
  await page.click('.step-button[data-step="1"]');
  await page.waitForSelector('[data-role=stage] g.operand[data-step=xPeKv]');
  await page.click('.step-button[data-step="2"]');
  await page.waitForSelector('[data-role=stage] g.operand[data-step=k]');
  const inputs = await page
    .locator('[data-role=stage] g.operand.matrix')
    .evaluateAll((gs) => gs.map((g) => g.dataset.step));
  assert.deepEqual(inputs, ['xPe', 'wQ', 'q', 'xPeKv', 'wK', 'k', 'xPeKv', 'wV', 'v']);
  // A key's projection reads the second sentence's X'.
  await page.locator('[data-role=stage] g.operand[data-step=k] g.cell[data-i="2"][data-j="1"]').click();
  await page.waitForSelector('[data-role=arithmetic][data-step=k][data-i="2"]:not([hidden])');
  assert.match(await page.locator('[data-role=arithmetic]').textContent(), /“hotpot”/);
  assert.equal(
    Number(await page.locator('[data-role=arithmetic] [data-term=result]').getAttribute('data-value')),
    trace.step('k').data[2 * trace.step('k').cols + 1],
  );
  await transitionsDone(page);
  await shot(page, 'cross-attention-step2-zh');
  // The matrices view adds the second sentence's X_kv, PE_kv and X'_kv.
  await page.click('[role=tab][data-view=matrices]');
  await page.waitForSelector('[data-role=matrices] g.operand[data-step=xPeKv]');
  const xKv = await page.locator('[data-role=matrices] g.operand[data-step=xKv] text.row-label').allTextContents();
  assert.deepEqual(xKv, kvTokens);
  // Emptying the second box is self-attention again; a picked cell of the second sentence goes.
  await page.click('.step-button[data-step="1"]');
  await page.locator('[data-role=stage] g.operand[data-step=xPeKv] g.cell[data-i="1"][data-j="0"]').click();
  await page.waitForSelector('[data-role=arithmetic][data-step=xPeKv]:not([hidden])');
  await page.fill('[data-role=kv]', '');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('kv'));
  await page.waitForFunction(() => !document.querySelector('[data-role=stage] g.operand[data-step=xPeKv]'));
  assert.equal(await page.locator('[data-role=kv-tokens] li').count(), 0);
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.equal(await page.locator('[data-role=arithmetic]').isHidden(), true);
  assert.equal(await page.locator('[data-role=message]').isHidden(), true, 'no engine error');
  assert.deepEqual(problems, []);
});

/** The page opened with a 32-word sentence and `params` (English), settled, and its tokens. */
async function openLong(params) {
  const words = 'the cat sat on a mat and we ate hot pot in it so you can see how far it goes'.split(' ');
  const sentence = Array.from({ length: 32 }, (_, i) => words[i % words.length]).join(' ');
  const opened = await explorer.show(`${new URLSearchParams({ lang: 'en', ...params, s: sentence })}`);
  return { ...opened, tokens: await opened.page.locator('[data-role=tokens] li').allTextContents() };
}

test('a long sentence’s grids are pictures that still take a click and Enter: a heatmap cell picks its pair, a stage score shows its arithmetic', async () => {
  // A long sentence's heatmaps and the stage's n × n grids are pictures (from
  // 16–21 tokens here; views/matrix-image.js): they took no click, so the pair and the arithmetic
  // were out of reach.
  const { page, problems, tokens } = await openLong({ step: 4, view: 'heatmap' });
  assert.equal(tokens.length, 32);
  assert.equal(await page.locator('[data-role=heatmaps] g.cell').count(), 0, 'the heatmaps are pictures');
  const picture = (head) => page.locator(`[data-role=heatmaps] g.multiple[data-head="${head}"] foreignObject.pixels`);
  const pair = () => page.evaluate(() => window.attentionExplorer.store.get().pair);

  // A click on head 2's cell (9, 5) picks that pair, in the heatmap, and outlines the cell.
  await picture(1).scrollIntoViewIfNeeded();
  const box = await picture(1).boundingBox();
  const pitch = box.width / 32;
  await page.mouse.click(box.x + pitch * 5.5, box.y + pitch * 9.5);
  await page.waitForFunction(() => window.attentionExplorer.store.get().pair);
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.deepEqual(await pair(), { head: 1, i: 9, j: 5 });
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().view), 'heatmap');
  const outlines = page.locator('[data-role=heatmaps] rect.picked-cell');
  assert.equal(await outlines.count(), 1);
  const outline = await outlines.boundingBox();
  const centre = [outline.x + outline.width / 2, outline.y + outline.height / 2];
  assert.ok(Math.abs(centre[0] - (box.x + pitch * 5.5)) < pitch / 2, `outline at x ${centre[0]}`);
  assert.ok(Math.abs(centre[1] - (box.y + pitch * 9.5)) < pitch / 2, `outline at y ${centre[1]}`);
  // A second click on the picture, which has the focus now, moves its keyboard cursor there too.
  await page.mouse.click(box.x + pitch * 12.5, box.y + pitch * 3.5);
  await page.waitForFunction(() => window.attentionExplorer.store.get().pair?.j === 12);
  const cursor = await page.locator('[data-role=heatmaps] rect.cursor').boundingBox();
  assert.ok(
    Math.abs(cursor.x + cursor.width / 2 - (box.x + pitch * 12.5)) < pitch / 2 &&
      Math.abs(cursor.y + cursor.height / 2 - (box.y + pitch * 3.5)) < pitch / 2,
    `the cursor at the clicked cell: ${JSON.stringify(cursor)}`,
  );
  // The exported figure has neither: they are the page's, not the figure's.
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="svg"]')]);
  const figure = (await readFile(await file.path())).toString('utf8');
  assert.ok(figure.includes('scores') && !/picked-cell|class="cursor"/.test(figure), 'no outline in the figure');

  // A pair that is no cell of the grid (set through the store) outlines nothing, as on SVG cells.
  for (const bad of [
    { i: -1, j: 5 },
    { i: 2.5, j: 3 },
    { i: '2', j: '3' },
    { i: 1e9, j: 2 },
  ]) {
    await page.evaluate(async (p) => {
      window.attentionExplorer.store.set({ pair: { head: 1, ...p } });
      await window.attentionExplorer.idle();
    }, bad);
    assert.equal(await outlines.count(), 0, `no outline for ${JSON.stringify(bad)}`);
  }

  // The keyboard: head 1's picture, three cells right and two down, Enter.
  await picture(0).focus();
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'Enter'])
    await page.keyboard.press(key);
  await page.waitForFunction(() => window.attentionExplorer.store.get().pair?.head === 0);
  assert.deepEqual(await pair(), { head: 0, i: 2, j: 3 });

  // The stage's scores at step 4 are a picture too: a click shows that score's arithmetic.
  const scores = page
    .locator(
      '[data-role=stage] g.operand[data-step=scores] foreignObject.pixels, [data-role=stage] g.operand[data-step=scores] rect.picture',
    )
    .first();
  await scores.scrollIntoViewIfNeeded();
  const grid = await scores.boundingBox();
  await page.mouse.click(grid.x + (grid.width / 32) * 2.5, grid.y + (grid.height / 32) * 7.5);
  await page.waitForSelector('[data-role=arithmetic][data-step=scores][data-i="7"][data-j="2"]:not([hidden])');
  const trace = engine.run({ tokens, dModel: 8, heads: 2, seed: 42 });
  close(
    Number(await page.locator('[data-role=arithmetic] [data-term=score]').getAttribute('data-value')),
    trace.step('scores', 0).data[7 * 32 + 2],
    'the score’s arithmetic',
  );
  assert.deepEqual(problems, []);
});

test('the stage at 32 tokens draws X, PE and X′ as pictures with gaps, whose cells still open their arithmetic', async () => {
  // Too small for numbers, their 768 SVG cells were restyled, laid out and painted on
  // every keystroke (views/stage.js STAGE_SMALL_CELLS); as pictures they still open their
  // arithmetic on a click.
  const { page, problems, tokens } = await openLong({ step: 1 });
  for (const step of ['x', 'pe', 'xPe']) {
    const operand = `[data-role=stage] g.operand[data-step=${step}]`;
    assert.equal(await page.locator(`${operand} g.cell`).count(), 0, `${step}: no SVG cells`);
    // A picture with the gaps SVG cells have (views/matrix-image.js cellsPicture).
    assert.equal(await page.locator(`${operand} svg.cells-image`).count(), 1, `${step}: a picture`);
    assert.equal(await page.locator(`${operand} path.cell-gaps`).count(), 1, `${step}: its gaps`);
  }
  const picture = page.locator('[data-role=stage] g.operand[data-step=xPe] rect.picture');
  await picture.scrollIntoViewIfNeeded();
  const box = await picture.boundingBox();
  await page.mouse.click(box.x + (box.width / 8) * 3.5, box.y + (box.height / 32) * 20.5);
  await page.waitForSelector('[data-role=arithmetic][data-step=xPe][data-i="20"][data-j="3"]:not([hidden])');
  const xPe = engine.run({ tokens, dModel: 8, heads: 2, seed: 42 }).step('xPe');
  close(
    Number(await page.locator('[data-role=arithmetic] [data-term=result]').getAttribute('data-value')),
    xPe.data[20 * xPe.cols + 3],
    'X′[20, 3]',
  );
  assert.deepEqual(problems, []);
});

test('step 4’s sweep runs over SVG cells only: with Q and Kᵀ drawn as pictures it is left out, with no error', async () => {
  // d_model 64, 2 heads (d_k 32), 10 tokens: Q is 320 cells too small for numbers, a picture
  // (views/stage.js STAGE_SMALL_CELLS); the sweep read its cells' size from Q's SVG cells, found
  // none, and wrote NaN sizes (a console error).
  const words = 'the cat sat on a mat and we ate hot'.split(' ');
  const { page, problems } = await explorer.show(
    `${new URLSearchParams({ lang: 'en', step: 3, d: 64, h: 2, s: words.join(' ') })}`,
  );
  await started(page);
  await page.evaluate(() => window.attentionExplorer.idle());
  await page.click('.step-button[data-step="4"]');
  await page.waitForSelector('[data-role=stage] g.operand[data-step=scores]');
  await page.waitForTimeout(400);
  await transitionsDone(page);
  assert.equal(await page.locator('[data-role=stage] g.operand[data-step=qHead] g.cell').count(), 0, 'Q is a picture');
  assert.ok((await page.locator('[data-role=stage] g.operand[data-step=scores] g.cell').count()) > 0, 'S has cells');
  assert.deepEqual(problems, []);
});
