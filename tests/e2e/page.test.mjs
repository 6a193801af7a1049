// The explorable page in Debian's Chromium: input, the ten steps, the views, and that every
// number on screen is the engine's (compared with the same engine run in node).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createEngine } from '../node/support.mjs';
import {
  linkLines,
  linksPainted,
  openPage,
  screenshotDir,
  sharedExplorer,
  useBrowser,
  transitionsDone,
  screenshot as shot,
} from './browser.mjs';
import { engineTraceFor } from './engine-trace.mjs';
import { formatValue } from '../../web/src/format.js';
import { cellText } from '../../web/src/views/cell-style.js';

const session = useBrowser();
// One page at 1280 × 800 for the tests that need no fresh one, brought to each test's link
// through its store; the phone's is its own.
const explorer = sharedExplorer(session);
after(() => explorer.close());
let engine;
before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
});

/** The node engine's trace for what the page shows. */
const engineTraceForPage = (page) => engineTraceFor(engine, page);

/** Types into the sentence box and waits until the page has taken it: the URL follows a render. */
async function typeSentence(page, text) {
  await page.fill('[data-role=sentence]', text);
  await page.waitForFunction((t) => new URL(location.href).searchParams.get('s') === t, text);
}

test('typing 我爱吃火锅 gives word chips, and all ten steps play through in English and 中文', async () => {
  const { page, problems, requests } = await explorer.show('lang=en');
  await page.waitForSelector('[data-role=stage] g.cell');
  await typeSentence(page, '我爱吃火锅');
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), ['我', '爱', '吃', '火锅']);
  // Layout at 1280 px: input and model side by side, every button labelled.
  const [input, controls] = await Promise.all([
    page.locator('section.input').boundingBox(),
    page.locator('section.controls').boundingBox(),
  ]);
  assert.equal(Math.round(input.y), Math.round(controls.y));
  assert.ok(controls.x > input.x + input.width);
  for (const label of await page.locator('button').allTextContents()) assert.ok(label.trim() !== '', 'no empty button');
  const expectedStages = [
    ['x', 'pe', 'xPe'],
    // Steps 2 and 3 draw what their text names: W_Q, W_K, W_V, and Q, K and V split into heads.
    ['xPe', 'wQ', 'q', 'xPe', 'wK', 'k', 'xPe', 'wV', 'v'],
    ['q', 'qHead', 'qHead', 'k', 'kHead', 'kHead', 'v', 'vHead', 'vHead'],
    ['qHead', 'kHead', 'scores'],
    ['scores', 'scaled'],
    ['scaled', 'masked'],
    ['masked', 'weights'],
    ['weights', 'vHead', 'headOutput'],
    ['headOutput', 'headOutput', 'concat'],
    ['concat', 'output'],
  ];
  for (const lang of ['en', 'zh']) {
    // The English pass is screenshot at each step: without motion each step is at rest at once
    // (the 中文 pass plays the animated steps).
    await page.emulateMedia({ reducedMotion: lang === 'en' ? 'reduce' : null });
    await page.click(`.language button[data-lang="${lang}"]`);
    await page.click('.step-button[data-step="1"]');
    for (let step = 1; step <= 10; step++) {
      if (step > 1) await page.click('.transport .next');
      await page.waitForFunction(
        (s) => new URL(location.href).searchParams.get('step') === (s === 1 ? null : String(s)),
        step,
      );
      const stages = await page
        .locator('[data-role=stage] g.operand.matrix')
        .evaluateAll((els) => els.map((el) => el.dataset.step));
      assert.deepEqual(stages, expectedStages[step - 1], `step ${step}`);
      assert.equal(await page.locator('.step-button[aria-current="step"]').getAttribute('data-step'), String(step));
      const title = await page.locator('.step-title').textContent();
      assert.ok(title.startsWith(`${step}. `), title);
      assert.ok((await page.locator('.explain .active').count()) > 0, `step ${step} highlights a formula term`);
      if (lang === 'en') {
        await transitionsDone(page);
        await shot(page, `step-${String(step).padStart(2, '0')}`);
      }
    }
  }
  assert.equal(await page.locator('h1').textContent(), '注意力探索器');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(new URL(page.url()).searchParams.get('lang'), 'zh');
  await shot(page, 'step-10-zh');

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
  assert.deepEqual(problems, []);
});

test('links and heatmap cells match the engine, and hover shows its exact number', async () => {
  const { page, problems } = await explorer.show(`lang=en&h=4&d=16&step=7&s=The+cat+chased+the+ball`);
  await linksPainted(page);
  const trace = await engineTraceForPage(page);
  let expectedLinks = 0;
  for (let h = 0; h < trace.heads; h++) expectedLinks += trace.step('weights', h).data.filter((w) => w >= 0.004).length;
  await transitionsDone(page); // links of the first render have left
  const lines = await linkLines(page);
  assert.equal(lines.length, expectedLinks);
  for (const { h, i, j, weight } of lines) assert.equal(weight, trace.step('weights', h).data[i * trace.nKey + j]);
  // The canvas shows them: the strongest line's middle is painted in its head's colour, the
  // corner above the first row is not; the pointer there names that line's engine weight.
  const strongest = lines.reduce((a, b) => (b.weight > a.weight ? b : a));
  await page.locator('[data-role=links] foreignObject.link-lines').scrollIntoViewIfNeeded();
  // Off screen, the canvas is painted in idle time (views/link-lines.js): wait until it shows these lines.
  await page.waitForFunction(() => {
    const holder = document.querySelector('[data-role=links] foreignObject.link-lines');
    const kept = attentionLinkLines(holder);
    return kept.painted === kept.lines && !kept.deferred;
  });
  const painted = await page.evaluate(({ h, i, j }) => {
    const holder = document.querySelector('[data-role=links] foreignObject.link-lines');
    const canvas = holder.querySelector('canvas');
    const line = attentionLinkLines(holder).lines.find((l) => l.h === h && l.i === i && l.j === j);
    const scale = canvas.width / canvas.clientWidth;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height); // read once
    const alpha = (x, y) => data[(Math.round(y * scale) * canvas.width + Math.round(x * scale)) * 4 + 3];
    const middle = [canvas.clientWidth / 2, (line.y1 + line.y2) / 2];
    const box = canvas.getBoundingClientRect();
    return { middle: alpha(...middle), corner: alpha(2, 2), at: [box.x + middle[0], box.y + middle[1]] };
  }, strongest);
  assert.ok(painted.middle > 0 && painted.corner === 0, JSON.stringify(painted));
  await page.mouse.move(...painted.at);
  await page.waitForSelector('.tooltip:not([hidden])');
  const [named, value] = await page.locator('.tooltip div').allTextContents();
  const [, head, i, j] = value.match(/^head (\d+): A\[(\d+), (\d+)\] = /).map(Number);
  assert.equal(named, `${trace.tokens[i]} → ${trace.kvTokens[j]}`);
  assert.ok(value.endsWith(`= ${formatValue(trace.step('weights', head - 1).data[i * trace.nKey + j])}`), value);
  assert.ok(
    lines.some((l) => l.h === head - 1 && l.i === i && l.j === j),
    `${value}: a line drawn`,
  );

  await page.click('[role=tab][data-view=heatmap]');
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  assert.equal(await page.locator('[data-role=heatmaps] g.cell').count(), trace.heads * trace.nQuery * trace.nKey);
  const cell = page.locator('[data-role=heatmaps] g.multiple[data-head="2"] g.cell[data-i="1"][data-j="3"]');
  await cell.hover();
  const expected = trace.step('weights', 2).data[1 * trace.nKey + 3];
  const tip = await page.locator('.tooltip div').first().textContent();
  // 4 significant digits (web/src/format.js); the cell keeps the exact float32 in data-value.
  assert.ok(tip.endsWith(`= ${formatValue(expected)}`), `tooltip "${tip}" shows ${expected} to 4 digits`);
  assert.equal(Number(await cell.getAttribute('data-value')), expected);
  await transitionsDone(page);
  await shot(page, 'view-heatmap');

  await page.click('[data-role=table-toggle]');
  await page.waitForSelector('[data-role=heatmap-tables] table'); // drawn once the data is there
  assert.equal(await page.locator('[data-role=heatmap-tables] table').count(), 4);
  assert.equal(
    await page.locator('[data-role=heatmap-tables] table').first().locator('td').count(),
    trace.nQuery * trace.nKey,
  );

  await cell.click(); // a cell is marked, the page stays in the heatmap, and its link is marked in the links view
  await page.waitForSelector('[data-role=heatmaps] g.cell.picked');
  await page.click('[role=tab][data-view=links]');
  await linksPainted(page, { pair: true });
  const pairs = (await linkLines(page)).filter((line) => line.pair);
  assert.deepEqual(
    pairs.map(({ h, i, j }) => [h, i, j]),
    [[2, 1, 3]],
  );

  await page.hover('[data-role=links] text.token.query >> nth=1');
  await transitionsDone(page);
  const opacities = (await linkLines(page)).map((line) => [line.i, line.opacity]);
  const hovered = opacities.filter(([i]) => i === 1);
  const others = opacities.filter(([i]) => i !== 1);
  assert.ok(hovered.length > 0 && others.length > 0);
  for (const [, opacity] of hovered) assert.ok(opacity >= 0.05, 'the hovered query keeps its links');
  for (const [, opacity] of others) assert.ok(opacity <= 0.03 + 1e-9, 'other queries fade out');
  await shot(page, 'view-links');

  await page.click('[role=tab][data-view=softmax]');
  await page.waitForSelector('.chart-weights rect.bar');
  await transitionsDone(page);
  const bars = await page
    .locator('.chart-weights rect.bar')
    .evaluateAll((els) => els.map((el) => Number(el.dataset.value)));
  assert.deepEqual(bars, Array.from(trace.step('weights', 0).data.slice(0, trace.nKey)));
  await shot(page, 'view-softmax');
  await page.click('[role=tab][data-view=matrices]');
  const wqNumbers = '[data-role=matrices] g.operand[data-step="wQ"] text.cell-number';
  await page.waitForSelector(wqNumbers);
  await transitionsDone(page);
  // W_Q's picture prints the engine's weights, each as its cell fits it (views/cell-style.js).
  const wq = await page.locator(wqNumbers).allTextContents();
  const engineWq = Array.from(trace.step('wQ').data);
  assert.equal(wq.length, engineWq.length);
  const fits = [2, 3, 4, 5, 6].filter((chars) => engineWq.every((v, k) => cellText(v, chars) === wq[k]));
  assert.ok(fits.length > 0, `W_Q prints ${wq.join(' ')}`);
  assert.ok(wq.filter((text) => text !== '…').length >= wq.length / 2, 'most of W_Q’s numbers are printed');
  await shot(page, 'view-matrices');
  assert.deepEqual(problems, []);
});

test('the causal mask zeroes the upper triangle in the DOM and hatches it', async () => {
  const { page, problems } = await explorer.show(`mask=causal&step=7&view=heatmap&s=猫追着球跑&tok=chars`);
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  const cells = await page.locator('[data-role=heatmaps] g.cell').evaluateAll((els) =>
    els.map((el) => ({
      i: Number(el.dataset.i),
      j: Number(el.dataset.j),
      v: Number(el.dataset.value),
      masked: el.classList.contains('masked'),
    })),
  );
  assert.equal(cells.length, 2 * 5 * 5);
  for (const { i, j, v, masked } of cells) {
    assert.equal(masked, j > i);
    if (j > i) assert.equal(v, 0);
    else assert.ok(v > 0);
  }
  assert.deepEqual(problems, []);
});

test('a sentence with HTML in it is shown as text and runs nothing', async () => {
  // Whitespace tokens, so that a whole tag is one token (words mode would split it at < and =).
  const { page, problems, requests } = await explorer.show('tok=whitespace');
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs++;
    dialog.dismiss();
  });
  await page.waitForSelector('[data-role=stage] g.cell');
  // Records every <img> or <script> element added anywhere in the document, even one removed
  // again at once (mutation records are delivered before evaluate returns).
  await page.evaluate(() => {
    window.injected = [];
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node.nodeType === 1)
            for (const el of [node, ...node.querySelectorAll('*')])
              if (['IMG', 'SCRIPT'].includes(el.tagName)) window.injected.push(el.outerHTML);
    }).observe(document, { childList: true, subtree: true });
  });
  const attack = '<img/src=x/onerror=alert(1)> <script>alert(2)</script>';
  await typeSentence(page, attack);
  const chips = await page.locator('[data-role=tokens] li').allTextContents();
  assert.deepEqual(chips, attack.split(' '));
  // Labels may be cut to their room; the full token is in each label's aria-label.
  const labels = await page
    .locator('[data-role=links] text.token.query')
    .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label').replace(/^[^:]*: /, '')));
  assert.deepEqual(labels, chips);
  assert.deepEqual(await page.evaluate(() => window.injected), [], 'no element was made from the text');
  assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
  assert.deepEqual(
    requests.filter((url) => new URL(url).pathname === '/x'),
    [],
    'nothing tried to load the injected src',
  );
  assert.equal(dialogs, 0);
  assert.deepEqual(problems, []);
});

test('reduced motion: a new step shows its final state at once', async () => {
  const { page, problems } = await explorer.show('');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.waitForSelector('[data-role=stage] g.cell');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const opacities = await page
    .locator('[data-role=stage] g.cell')
    .evaluateAll((els) => els.map((el) => el.getAttribute('opacity')));
  assert.ok(opacities.length > 0);
  assert.ok(
    opacities.every((o) => o === '1'),
    'no cell is still fading in',
  );
  assert.equal(await page.locator('.step-button[aria-current="step"]').getAttribute('data-step'), '4');
  assert.equal(await page.locator('[data-role=stage] rect.sweep').count(), 0, 'no sweep animation');
  assert.deepEqual(problems, []);
  await page.emulateMedia({ reducedMotion: null }); // the next test's page moves again
});

test('phone size and dark theme: no horizontal scroll, dark background', async () => {
  const { page, context, problems } = await openPage(session.browser, `${session.url}?step=7`, {
    viewport: { width: 390, height: 844 },
  });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForSelector('[data-role=stage] g.cell');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.equal(background, 'rgb(21, 22, 27)');
  await shot(page, 'phone-dark');
  assert.deepEqual(problems, []);
  await context.close();
});

test('keyboard: tabs, play and pause, token lock', async () => {
  const { page, problems } = await explorer.show('');
  await page.waitForSelector('[data-role=links] text.token');
  // Views, locks and the transport re-render after the worker answers: wait for each state
  // (a selector that never matches fails the test by its timeout), then assert it.
  const reaches = async (selector) => {
    await page.waitForSelector(selector, { state: 'attached', timeout: 10000 });
    assert.equal(await page.locator(selector).count(), 1, selector);
  };
  await page.focus('[role=tab][data-view=links]');
  await page.keyboard.press('ArrowRight');
  await reaches('[role=tab][data-view=heatmap][aria-selected=true]');
  await page.keyboard.press('ArrowLeft');
  await reaches('[role=tab][data-view=links][aria-selected=true]');
  await page.focus('[data-role=links] text.token.key >> nth=2');
  await page.keyboard.press('Enter');
  await reaches('[data-role=links] text.token.locked');
  await page.locator('.transport .play').focus();
  await page.keyboard.press('Enter');
  await reaches('.transport .play[aria-pressed=true]');
  await page.keyboard.press('Enter');
  await reaches('.transport .play[aria-pressed=false]');
  assert.deepEqual(problems, []);
});
