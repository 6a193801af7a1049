// Linear attention on the page (?attn=linear), in English and in 中文 (the latter with a causal
// mask, whose sums are prefix sums): each of its steps 4–8 drawn with its shape and every cell
// equal to the engine's (run in node), an output cell's arithmetic φ(q_i)ᵀS/z_i recomputed here
// from the engine's φ(Q), φ(K) and V, the heatmap's softmax and linear grids side by side (the
// linear rows summing to 1), the links' softmax | linear toggle, the softmax view's note, the
// controls linear attention refuses off with their reason (its temperature slider too), and no
// console error. Screenshots at 1280 and 390 px in both languages.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createEngine } from '../node/support.mjs';
import {
  linkLines,
  linksPainted,
  openPage,
  screenshot,
  screenshotDir,
  transitionsDone,
  useBrowser,
  explorerStarted,
} from './browser.mjs';
import { strings } from '../../web/src/i18n.js';

const session = useBrowser();
let engine;
before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
});

const close = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b), `${what}: page ${a}, engine ${b}`);

// The matrices each linear step draws (by engine step name), and those drawn transposed.
const LINEAR_STEPS = {
  4: { names: ['qHead', 'phiQ', 'kHead', 'phiK'], result: 'phiQ' },
  5: { names: ['phiK', 'vHead', 'kvSummary', 'keySum'], transposed: ['phiK'], result: 'kvSummary' },
  6: { names: ['phiQ', 'keySum', 'normaliser'], transposed: ['keySum'], result: 'normaliser' },
  7: { names: ['weights', 'linearWeights'], result: 'linearWeights' },
  8: { names: ['phiQ', 'kvSummary', 'normaliser', 'headOutput'], result: 'headOutput' },
};

const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());
const setState = async (page, patch) => {
  await page.evaluate((p) => window.attentionExplorer.store.set(p), patch);
  await idle(page);
  await transitionsDone(page);
};

const CASES = [
  { lang: 'en', mask: 'none', sentence: 'The cat sat on the mat' },
  { lang: 'zh', mask: 'causal', sentence: '小猫坐在垫子上' },
];

for (const { lang, mask, sentence } of CASES) {
  for (const width of [1280, 390]) {
    test(`attn=linear, lang=${lang}, mask ${mask}, ${width} px: every linear step, the heatmap and the refused controls`, async () => {
      const s = strings(lang);
      const query = `attn=linear&lang=${lang}&mask=${mask}&s=${encodeURIComponent(sentence)}`;
      const { page, context, problems } = await openPage(session.browser, `${session.url}?${query}`, {
        viewport: { width, height: 900 },
      });
      await explorerStarted(page);
      await idle(page);
      const tokens = await page.locator('[data-role=tokens] li').allTextContents();
      const trace = engine.run({ tokens, dModel: 8, heads: 2, seed: 42, mask, attention: 'linear' });
      assert.equal(trace.attention, 'linear');

      // The controls the engine refuses with linear attention: off, each with its reason.
      assert.equal(await page.locator('[data-role=attention]').inputValue(), 'linear');
      for (const [role, reason] of [
        ['scale', s.linearNoScale],
        ['temperature', s.linearNoTemperature],
      ]) {
        const control = page.locator(`[data-role=${role}]`);
        assert.equal(await control.isDisabled(), true, `${role} is off`);
        assert.equal(await control.getAttribute('title'), reason);
      }
      const window = page.locator('[data-role=mask] option[value=window]');
      assert.equal(await window.isDisabled(), true, 'no sliding window');
      assert.equal(await window.getAttribute('title'), s.linearNoWindow);
      assert.equal((await page.locator('[data-role=linear-note]').textContent()).trim(), s.linearOff);
      assert.equal(await page.locator('[data-role=linear-note]').isVisible(), true);

      for (const [k, { names, transposed = [], result }] of Object.entries(LINEAR_STEPS)) {
        await setState(page, { step: Number(k), head: 'all', cell: null });
        const title = await page.locator('.explain .step-title').textContent();
        const key = ['scores', 'scale', 'mask', 'softmax', 'weighted'][k - 4];
        const texts = s.linearSteps[key];
        assert.equal(title, `${k}. ${texts.title}`, `step ${k}'s title`);
        assert.ok((await page.locator('.explain .step-text').textContent()).startsWith(texts.text), `step ${k}'s text`);
        // The shape of what the step makes, as the engine has it.
        const made = trace.step(result, 0);
        // KaTeX's HTML text: [4×4] as written.
        const shapes = (await page.locator('.explain .shapes').textContent()).replace(/\s/g, '');
        assert.ok(shapes.includes(`[${made.rows}×${made.cols}]`), `step ${k} shows ${result}'s shape: ${shapes}`);
        const drawn = await page.$$eval('[data-role=stage] g.operand.matrix', (groups) =>
          groups.map((g) => ({
            name: g.dataset.step,
            head: Number(g.dataset.head || 0),
            cells: [...g.querySelectorAll('g.cell')].map((c) => ({
              i: Number(c.dataset.i),
              j: Number(c.dataset.j),
              v: Number(c.dataset.value),
              text: c.querySelector('text')?.textContent ?? '',
            })),
          })),
        );
        assert.deepEqual(
          drawn.map((d) => d.name),
          names,
          `step ${k} draws ${names}`,
        );
        for (const { name, head, cells } of drawn) {
          const step = trace.step(name, head);
          assert.equal(cells.length, step.rows * step.cols, `${name}: every cell`);
          const t = transposed.includes(name);
          for (const { i, j, v, text } of cells) {
            const [r, c] = t ? [j, i] : [i, j];
            close(v, step.data[r * step.cols + c], `step ${k} ${name}[${r}, ${c}]`);
            if (width === 1280) assert.notEqual(text, '', `${name}[${r}, ${c}] prints its number`);
          }
        }
      }

      // An output cell: φ(q_i)ᵀ S[:, c] / z_i, S over the keys i sees, recomputed from the engine's φ and V.
      const [i, c, h] = [3, 1, 0];
      await page.click(`[data-role=stage] g.operand[data-step=headOutput] g.cell[data-i="${i}"][data-j="${c}"]`);
      await page.waitForSelector(`[data-role=arithmetic][data-kind=output][data-i="${i}"]:not([hidden])`);
      const at = (name, r, col) => {
        const st = trace.step(name, h);
        return st.data[r * st.cols + col];
      };
      const keys = Array.from({ length: trace.nKey }, (_, j) => j).filter((j) => mask === 'none' || j <= i);
      let numerator = 0;
      let z = 0;
      for (let a = 0; a < trace.dK; a++) {
        const q = at('phiQ', i, a);
        for (const j of keys) {
          numerator += q * at('phiK', j, a) * at('vHead', j, c);
          z += q * at('phiK', j, a);
        }
      }
      close(z, at('normaliser', i, 0), 'z from φ(q)·Σφ(k)');
      close(numerator / z, at('headOutput', i, c), 'φ(q)ᵀS/z is the head output');
      const shown = Number(await page.locator('[data-role=arithmetic] [data-term=output]').getAttribute('data-value'));
      close(shown, at('headOutput', i, c), 'the panel’s result');
      const products = await page
        .locator('[data-role=arithmetic] tr', { has: page.locator('th:text-is("×")') })
        .locator('td[data-value]')
        .evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
      assert.equal(products.length, trace.dK, 'one term per feature');
      close(
        products.reduce((x, y) => x + y, 0),
        numerator,
        'the terms sum to the numerator',
      );
      await screenshot(page, `linear-step8-${width}-${lang}`);

      // The heatmap: softmax and linear side by side per head, the linear rows summing to 1.
      await setState(page, { step: 7, view: 'heatmap', cell: null });
      const grids = await page.$$eval('[data-role=heatmaps] g.multiple', (groups) =>
        groups.map((g) => ({
          name: g.dataset.step,
          head: Number(g.dataset.head),
          cells: [...g.querySelectorAll('g.cell')].map((c) => ({
            i: Number(c.dataset.i),
            j: Number(c.dataset.j),
            v: Number(c.dataset.value),
          })),
        })),
      );
      assert.deepEqual(
        grids.map((g) => `${g.name}:${g.head}`),
        ['weights:0', 'linearWeights:0', 'weights:1', 'linearWeights:1'],
      );
      for (const { name, head, cells } of grids) {
        const step = trace.step(name, head);
        assert.equal(cells.length, step.rows * step.cols);
        const sums = new Array(step.rows).fill(0);
        for (const { i: r, j, v } of cells) {
          close(v, step.data[r * step.cols + j], `${name} head ${head} [${r}, ${j}]`);
          sums[r] += v;
        }
        sums.forEach((sum, r) => assert.ok(Math.abs(sum - 1) < 1e-4, `${name} head ${head} row ${r} sums to ${sum}`));
      }
      // Flatter: the linear rows' largest weight is below softmax's on average.
      const peak = (name) =>
        grids
          .filter((g) => g.name === name)
          .flatMap((g) => {
            const rows = [];
            for (const { i: r, v } of g.cells) rows[r] = Math.max(rows[r] ?? 0, v);
            return rows;
          });
      const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
      assert.ok(mean(peak('linearWeights')) < mean(peak('weights')), 'linear weights are flatter');
      assert.equal(await page.locator('[data-role=heatmap-linear-hint]').textContent(), s.heatmapLinearHint);
      await screenshot(page, `linear-heatmap-${width}-${lang}`);

      // The links: the implied weights first, softmax's a click away, each line the engine's weight.
      await setState(page, { view: 'links' });
      const toggle = page.locator('[data-role=links-kind]');
      assert.equal(await toggle.isVisible(), true);
      const linesOf = async (name) => {
        await linksPainted(page, { min: 4 });
        const lines = await linkLines(page);
        assert.ok(lines.length >= 4, `${name}: lines drawn`);
        for (const { h: head, i: r, j, weight } of lines) {
          close(weight, trace.step(name, head).data[r * trace.nKey + j], `${name} link ${head}:${r}→${j}`);
        }
      };
      assert.equal(await toggle.locator('[data-kind=linearWeights]').getAttribute('aria-pressed'), 'true');
      await linesOf('linearWeights');
      await screenshot(page, `linear-links-${width}-${lang}`);
      await toggle.locator('[data-kind=weights]').click();
      await transitionsDone(page);
      assert.equal(await toggle.locator('[data-kind=weights]').getAttribute('aria-pressed'), 'true');
      await linesOf('weights');

      // The softmax view: softmax of the same Q and K, said to be for comparison; no temperature.
      await setState(page, { view: 'softmax' });
      assert.equal(await page.locator('[data-role=softmax-linear]').textContent(), s.softmaxLinearNote);
      const slider = page.locator('[data-role=softmax] label.temperature input');
      assert.equal(await slider.isDisabled(), true, 'the temperature slider is off');
      assert.equal(await slider.getAttribute('title'), s.linearNoTemperature);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}
