// The training playground (playground.html) in Debian's Chromium: training from the page lowers
// the loss by a clear margin and redraws the curves and heatmaps; pausing stops it and one step is
// one; a typed example is answered; the √d_k panel shows its committed seeds and a live run of its
// three arms; the trained model reaches the explorer's origin byte for byte and its attention
// there (traced by the engine in node) is the page's; the URL round-trips. No console error, no
// request leaves the local server. Screenshots mid-training and after, in both languages and at
// phone width. That a model trained this way reaches an accuracy is the native suite's
// (tests/cpp/learning_test.cpp); the link's parsing, the handoff's ids and messages are node's
// (tests/node/playground.test.mjs, model-handoff.test.mjs).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../node/support.mjs';
import { explorerStarted, offlineSingleFile, openPage, screenshot, useBrowser, waitUntil } from './browser.mjs';

const session = useBrowser();
let engine;
before(async () => {
  engine = await createEngine();
});

const shot = (page, name) => screenshot(page, `playground-${name}`);

/** Opens the playground and waits until its first model is configured (play enabled). */
async function openPlayground(query, options) {
  const opened = await openPage(session.browser, `${session.url}playground.html${query}`, options);
  await opened.page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
  return opened;
}

const pageState = (page) =>
  page.evaluate(() => {
    const h = window.attentionPlayground.history;
    return { steps: h.loss.length, lastStep: h.loss.at(-1)?.[0] ?? 0, evaluation: h.lastEvaluation };
  });

/** Each heatmap's strongest key per query, as drawn (heatmaps.js keeps it on its canvas). */
const strongest = (page) =>
  page.$$eval('[data-role=heatmap-grid] canvas', (all) => all.map((c) => c.dataset.strongest));

function assertClean({ problems, requests }) {
  assert.deepEqual(problems, [], 'no console error or warning, no page error, no CSP violation');
  const away = requests.filter((url) => !url.startsWith(session.url) && !url.startsWith('blob:'));
  assert.deepEqual(away, [], 'no request leaves the local server');
}

test('sort trains from the page: the loss falls by a clear margin, curves and heatmaps follow, pause stops, one step is one; a typed example is answered', async () => {
  const opened = await openPlayground('?task=sort&lang=en');
  const { page, context } = opened;
  // The untrained model's heatmaps, drawn before any step.
  await page.waitForSelector('[data-role=heatmap-grid] canvas');
  const untrainedMaps = await strongest(page);
  // Space on the page (focus on no control) starts training.
  await page.locator('h1').click();
  await page.keyboard.press('Space');
  await page.waitForSelector('[data-role=play][aria-pressed=true]');
  // Trained until its loss is below 60% of where it started (≈ 30 steps of sort; the preset's
  // loss starts near ln 10): learning shown, not an accuracy bar.
  await page.waitForFunction(
    () => {
      const { loss } = window.attentionPlayground.history;
      return loss.length >= 2 && loss.at(-1)[1] < 0.6 * loss[0][1];
    },
    null,
    { timeout: 90000, polling: 100 },
  );
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  await shot(page, 'training-en');
  // The loss chart draws every recorded step; the accuracy chart a held-out measurement, of the
  // model as it paused (the curves redraw a moment after the last message).
  const paused = await pageState(page);
  await page.waitForFunction(
    (step) => document.querySelector('[data-role=held-out]').textContent.endsWith(`(step ${step})`),
    paused.lastStep,
  );
  const drawn = await page.evaluate(() => ({
    rows: window.attentionPlayground.history.loss.length,
    points: (document.querySelector('[data-role=loss-chart] path.series')?.getAttribute('d')?.match(/L/g) ?? []).length,
    heldOut: document.querySelector('[data-role=held-out]').textContent,
  }));
  assert.ok(drawn.points >= Math.min(drawn.rows - 1, 2), `the loss curve: ${JSON.stringify(drawn)}`);
  assert.match(drawn.heldOut, /^held-out: whole answers right: \d+\.\d% \(step [\d,]+\)$/);
  // Paused: one step now moves the model from where it stopped to exactly one step further.
  await page.click('[data-role=step]');
  await page.waitForFunction((n) => window.attentionPlayground.history.loss.length === n + 1, paused.steps);
  assert.equal((await pageState(page)).lastStep, paused.lastStep + 1, 'no update ran while paused');
  await page.waitForTimeout(300);
  assert.equal((await pageState(page)).steps, paused.steps + 1, 'paused: nothing trains after the step');

  // Every layer's and head's heatmap is drawn (2 layers × 4 heads of the preset) and follows
  // training; the slider goes back, by keyboard, to the snapshot of the untrained model.
  assert.equal(await page.locator('[data-role=heatmap-grid] canvas').count(), 8);
  assert.notDeepEqual(await strongest(page), untrainedMaps, 'the heatmaps follow the training');
  await page.focus('[data-role=scrub]');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-role=scrub-label]').textContent === 'at step 0');
  const first = await page.evaluate(() => window.attentionPlayground.history.snapshots[0]);
  assert.equal(first.step, 0);
  await page.waitForFunction(
    (want) =>
      [...document.querySelectorAll('[data-role=heatmap-grid] canvas')].map((c) => c.dataset.strongest).join('|') ===
      want.join('|'),
    untrainedMaps,
  );
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-role=scrub-label]').textContent.endsWith('(live)'));

  // A typed example is answered with the model's greedy answer (the engine's predict(), as
  // tests/node/playground.test.mjs proves), marked right or wrong against the sorted input.
  const input = [9, 3, 7, 1, 0, 8, 2, 5];
  await page.fill('[data-role=example]', input.join(' '));
  await page.press('[data-role=example]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-role=answer-text]')?.textContent, null, {
    timeout: 10000,
  });
  const sorted = input
    .slice()
    .sort((a, b) => a - b)
    .join(' ');
  const answerText = await page.locator('[data-role=answer-text]').textContent();
  assert.equal(
    await page.locator('[data-role=answer-text]').getAttribute('data-correct'),
    String(answerText.startsWith(sorted)),
    `answer “${answerText}” marked against ${sorted}`,
  );
  assert.equal(await page.locator('[data-role=answer-grid] canvas').count(), 8);
  await waitUntil(() => new URL(page.url()).search.includes('ex=9+3+7+1+0+8+2+5'), 'the example is in the link', 5000);
  await shot(page, 'trained-en');

  await page.click('[data-lang=zh]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === '注意力训练场');
  await shot(page, 'trained-zh');
  assertClean(opened);
  await context.close();
});

test('the √d_k panel shows the committed seeds at once, then a live run of three arms that the button stops; its sentences are the numbers’ (textbook setting)', async () => {
  // The run's end (its exact match in the table, 300 steps of three arms) is a measurement the
  // committed run holds; the table's rows, before and after an end, are
  // tests/node/dk-experiment.test.mjs's. Here: the panel draws, a live run starts and stops.
  const opened = await openPlayground('?task=copy&dks=textbook&lang=zh');
  const { page, context } = opened;
  // Before any run: each chart has three bands (the seeds' range) and three median lines.
  for (const chart of ['dk-loss', 'dk-entropy', 'dk-gradient']) {
    await page.waitForFunction((c) => document.querySelectorAll(`[data-role=${c}] path.band`).length === 3, chart);
    const paths = await page
      .locator(`[data-role=${chart}] path.series`)
      .evaluateAll((els) => els.map((e) => e.getAttribute('d') ?? ''));
    assert.equal(paths.length, 3, `${chart}: three curves`);
    for (const d of paths)
      assert.ok((d.match(/L/g) ?? []).length >= 10, `${chart}: a drawn line, got ${d.slice(0, 40)}`);
  }
  assert.equal(await page.locator('[data-role=dk-setting]').inputValue(), 'textbook');
  const says = await page.locator('[data-role=dk-says] p').allTextContents();
  assert.equal(says.length, 4);
  await shot(page, 'experiment-zh');
  await page.click('[data-role=experiment]');
  await page.waitForSelector('[data-role=experiment][aria-pressed=true]');
  await page.waitForFunction(() => window.attentionPlayground.experiment.rows.length >= 5, null, { timeout: 60000 });
  const rows = await page.evaluate(() => window.attentionPlayground.experiment.rows);
  // q and k of unit variance, width 128: unscaled scores are ~11× larger and start far sharper;
  // the control starts as the scaled model.
  assert.ok(rows[0].unscaled.entropy < rows[0].scaled.entropy / 2, `entropy ${JSON.stringify(rows[0])}`);
  assert.ok(Math.abs(rows[0].control.loss - rows[0].scaled.loss) < 0.05, `control ${JSON.stringify(rows[0])}`);
  assert.match(await page.locator('[data-role=dk-lines]').textContent(), /你的运行，种子 1/);
  // The live lines replace the medians: each chart's three curves follow this run's rows (drawn in
  // the next frame).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const live = await page.evaluate(() => ({
    rows: window.attentionPlayground.experiment.rows.length,
    drawn: [...document.querySelectorAll('[data-role=dk-loss] path.series')].map(
      (e) => (e.getAttribute('d')?.match(/L/g) ?? []).length,
    ),
  }));
  assert.ok(
    live.drawn.length === 3 && live.drawn.every((n) => n >= 1 && n < live.rows),
    `three live curves of fewer points than the ${live.rows} rows, got ${live.drawn}`,
  );
  // While it runs, the table's column of this run waits for its end.
  const yours = await page.locator('[data-role=dk-table] tbody td:last-child').allTextContents();
  assert.deepEqual(yours, ['—', '—', '—']);
  // The button stops it: run again, and no row comes after.
  await page.click('[data-role=experiment]');
  await page.waitForSelector('[data-role=experiment][aria-pressed=false]');
  const stopped = await page.evaluate(() => window.attentionPlayground.experiment.rows.length);
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.attentionPlayground.experiment.rows.length), stopped, 'stopped');
  // Another setting: the realistic one's committed sentences, in English.
  await page.click('[data-lang=en]');
  await page.selectOption('[data-role=dk-setting]', 'realistic');
  await page.waitForFunction(() => !location.search.includes('dks='));
  assert.match(await page.locator('[data-role=dk-setting-help]').textContent(), /4 heads of width d_k = 64/);
  await shot(page, 'experiment-en');
  assertClean(opened);
  await context.close();
});

test('a trained model goes to the explorer byte for byte (IndexedDB + ?model=local:<id>) and traces there as on the page', async () => {
  const opened = await openPlayground('?task=copy&lang=en');
  const { page, context } = opened;
  await page.click('[data-role=play]');
  await page.waitForFunction(() => window.attentionPlayground.history.loss.at(-1)?.[0] >= 20, null, { timeout: 30000 });
  await page.click('[data-role=play]');
  await page.waitForSelector('[data-role=play][aria-pressed=false]');

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-role=download]')]);
  const downloaded = new Uint8Array(await (await import('node:fs/promises')).readFile(await download.path()));
  const [explorer] = await Promise.all([context.waitForEvent('page'), page.click('[data-role=open-explorer]')]);
  await explorer.waitForLoadState();
  const params = new URL(explorer.url()).searchParams;
  const id = params.get('model')?.replace(/^local:/, '');
  assert.match(id, /^[0-9a-f]{18}$/);
  assert.equal(params.get('lang'), 'en');
  // …on the fixed example the playground's heatmaps follow.
  const example = await page.evaluate(() => window.attentionPlayground.history.snapshots.at(-1).snapshot.tokens);
  assert.equal(params.get('s'), example.join(' '));
  // Links both ways: the explorer's header leads back to the playground.
  assert.equal(await page.locator('[data-role=explorer-link]').getAttribute('href'), 'index.html');
  await explorer.waitForSelector('[data-role=playground-link]');
  assert.equal(await explorer.locator('[data-role=playground-link]').getAttribute('href'), 'playground.html');
  // What the explorer's page can read of it, through the same module's store.
  const handed = await explorer.evaluate(
    (key) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('attention-explorer', 1);
        request.onsuccess = () => {
          const get = request.result.transaction('model-handoff').objectStore('model-handoff').get(key);
          get.onsuccess = () => resolve({ bytes: Array.from(get.result.bytes), name: get.result.name });
          get.onerror = () => reject(get.error);
        };
        request.onerror = () => reject(request.error);
      }),
    id,
  );
  assert.equal(handed.name, 'copy.model');
  assert.deepEqual(Uint8Array.from(handed.bytes), downloaded, 'the explorer receives the bytes the download gives');
  // The explorer opens them as its model file: the layers × heads grid of the copy preset, named,
  // and the link value is not reported as ignored.
  await explorer.waitForFunction(() => document.querySelector('[data-role=model]')?.value === 'file', null, {
    timeout: 20000,
  });
  await explorer.evaluate(() => window.attentionExplorer.idle());
  assert.match(await explorer.textContent('[data-role=model-about]'), /copy\.model/);
  const cells = await explorer.$$eval('.model-cell', (all) => all.map((c) => `${c.dataset.layer},${c.dataset.head}`));
  assert.deepEqual(cells.sort(), ['0,0', '0,1', '1,0', '1,1']);
  assert.doesNotMatch(await explorer.textContent('[data-role=notice]'), /Ignored/);

  // The model file, read by the engine in node, gives the attention the page shows.
  const model = engine.loadModel(downloaded);
  try {
    assert.equal(model.config.task, 'copy');
    const snap = await page.evaluate(() => {
      const s = window.attentionPlayground.history.snapshots.at(-1).snapshot;
      return { tokens: s.tokens, weights: Array.from(s.weights), layers: s.layers, heads: s.heads, T: s.length };
    });
    const trace = model.trace({ tokens: snap.tokens }, { steps: ['weights'] });
    let worst = 0;
    for (let l = 0; l < snap.layers; l++) {
      for (let h = 0; h < snap.heads; h++) {
        const want = trace.layers[l].step('weights', h).data;
        want.forEach(
          (w, i) => (worst = Math.max(worst, Math.abs(w - snap.weights[(l * snap.heads + h) * snap.T * snap.T + i]))),
        );
      }
    }
    assert.ok(worst <= 1e-6, `largest difference between the page's snapshot and node's trace: ${worst}`);
  } finally {
    model.dispose();
  }

  // Loading it back: a trained model that cannot train further, its attention drawn; a damaged
  // file is refused with the engine's message naming the part at fault.
  await page.setInputFiles('[data-role=load]', {
    name: 'copy.model',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(downloaded),
  });
  await page.waitForFunction(() => document.querySelector('[data-role=notice]').textContent.includes('copy.model'));
  assert.equal(await page.locator('[data-role=play]').isDisabled(), true);
  assert.equal(await page.locator('[data-role=heatmap-grid] canvas').count(), 4, 'the copy preset: 2 layers × 2 heads');
  const damaged = Buffer.from(downloaded);
  damaged[damaged.length - 5] ^= 0xff;
  await page.setInputFiles('[data-role=load]', {
    name: 'bad.model',
    mimeType: 'application/octet-stream',
    buffer: damaged,
  });
  await page.waitForSelector('[data-role=error]:not([hidden])');
  assert.match(await page.locator('[data-role=error]').textContent(), /checksum/);
  assertClean(opened);
  await context.close();
});

test('a handed-over model that is gone, or a model value that is no id, leaves the explorer on random weights and says so', async () => {
  const opened = await openPage(session.browser, `${session.url}?model=local:${'0'.repeat(18)}&lang=en`);
  const { page, context } = opened;
  await page.waitForFunction(() =>
    /no longer in this browser/.test(document.querySelector('[data-role=notice]')?.textContent ?? ''),
  );
  assert.equal(await page.locator('[data-role=model]').inputValue(), 'random');
  await explorerStarted(page);
  // Which values are no id is tests/node/model-handoff.test.mjs's; here one of them, on the page.
  await page.goto(`${session.url}?model=${encodeURIComponent('local:../x')}&lang=en`);
  await page.waitForFunction(() =>
    /Ignored link values/.test(document.querySelector('[data-role=notice]')?.textContent ?? ''),
  );
  assert.equal(await page.locator('[data-role=model]').inputValue(), 'random');
  await explorerStarted(page);
  assertClean(opened);
  await context.close();
});

test('the URL round-trips every field, bad values are named, and the page fits a phone', async () => {
  const query = 'task=induction&L=3&H=1&d=64&scale=0&ao=0&lr=0.003&b=16&seed=7&ex=5+12+40+7+33+12&lang=zh';
  const opened = await openPlayground(`?${query}&L=9&bogus=1`, { viewport: { width: 390, height: 844 } });
  const { page, context } = opened;
  const values = await page.evaluate(() =>
    ['task', 'layers', 'heads', 'dModel', 'learningRate', 'batchSize', 'seed', 'example'].map(
      (role) => document.querySelector(`[data-role=${role}]`).value,
    ),
  );
  // L=9 is out of range: the link's earlier L=3 stands, and the notice names both bad keys
  // (and L as given twice: the first value of a repeated key is used).
  assert.deepEqual(values, ['induction', '3', '1', '64', '0.003', '16', '7', '5 12 40 7 33 12']);
  assert.equal(await page.locator('[data-role=scale]').isChecked(), false);
  assert.match(await page.locator('[data-role=notice]').textContent(), /L, bogus/);
  assert.match(await page.locator('[data-role=notice]').textContent(), /不止一次.*：L。/);
  await waitUntil(async () => new URL(page.url()).search === `?${query}`, 'the page writes the same link back', 5000);
  // The induction task shows its head-score charts; the page is no wider than the phone.
  await page.waitForSelector('[data-role=heads-panel]:not([hidden])');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scrolling');
  await shot(page, 'phone-zh');
  assertClean(opened);
  await context.close();
});

test('embedded: embed=1 hides the header, controls=0 and try=0 hide their panels, training still runs', async () => {
  const opened = await openPlayground('?task=reverse&embed=1&controls=0&try=0&lang=en', {
    viewport: { width: 700, height: 600 },
  });
  const { page, context } = opened;
  const visible = (selector) => page.locator(selector).first().isVisible();
  assert.equal(await visible('header.top'), false);
  assert.equal(await visible('.pg-setup'), false);
  assert.equal(await visible('.pg-try'), false);
  assert.equal(await visible('.pg-heatmaps'), true);
  await page.click('[data-role=play]');
  await page.waitForFunction(() => window.attentionPlayground.history.loss.length >= 3, null, { timeout: 30000 });
  await page.click('[data-role=play]');
  await waitUntil(() => /embed=1&controls=0&try=0/.test(page.url()), 'the link keeps the embed flags', 5000);
  assertClean(opened);
  await context.close();
});

// (The served explorer's link to playground.html is checked above, on the explorer the handoff opens.)
test('the single file (file://) is the playground too: its link opens it, it trains on one thread with every request blocked, and links back', async () => {
  const { context, page, attempted, file, problems } = await offlineSingleFile(session.browser, {
    viewport: { width: 1280, height: 800 },
  });
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  await page.goto(`${file}?lang=en`);
  await page.waitForSelector('[data-role=stage] g.operand', { timeout: 20000 });
  // Its playground is itself at ?page=playground (it had no link: no playground.html beside it).
  await page.click('[data-role=playground-link]');
  await page.waitForURL(/attention-explorer\.html\?page=playground$/);
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
  assert.equal(await page.locator('[data-role=notice]:visible').count(), 0, 'page=playground is no ignored value');
  // The single file cannot share memory: one thread, and the page says why.
  const threads = await page.evaluate(() => {
    const status = document.querySelector('[data-role=status]');
    return { count: status.dataset.threads, reason: status.dataset.threadsReason, text: status.textContent };
  });
  assert.deepEqual([threads.count, threads.reason], ['1', 'single-file']);
  assert.match(threads.text, /1 thread — the single file cannot share memory/);
  await page.click('[data-role=play]');
  // The page writes its state into the URL and keeps itself the playground on a reload.
  await page.waitForURL(/\?page=playground&task=sort/);
  await page.waitForFunction(() => window.attentionPlayground.history.loss.at(-1)?.[0] >= 20, null, {
    timeout: 60000,
  });
  const losses = await page.evaluate(() => window.attentionPlayground.history.loss.map(([, loss]) => loss));
  assert.ok(losses.at(-1) < losses[0], `the loss falls: ${losses[0]} → ${losses.at(-1)}`);
  assert.equal(
    await page.getAttribute('[data-role=explorer-link]', 'href'),
    'attention-explorer.html',
    'the explorer link leads back to the file itself',
  );
  assert.deepEqual(attempted, [], 'no network request at all');
  assert.deepEqual(problems, []);
  await context.close();
});
