// Hostile and huge input in the page: limits with an offer to truncate, 500 edits without
// growth, text never turned into HTML anywhere, and a Content-Security-Policy that holds.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openPage, useBrowser, transitionsDone } from './browser.mjs';

const session = useBrowser();
const ATTACK = `<img src=x onerror="alert(1)">"'&<script>alert(2)</script>`;

// The explorer's default page, shared by the tests that need no fresh state of their own (opening
// one is the slow part); each sets what it needs over the state it opened with.
let plain = null;
after(() => plain?.context.close());
async function plainPage(state = {}) {
  if (!plain) {
    plain = await openPage(session.browser, session.url);
    await plain.page.waitForSelector('[data-role=stage] g.cell');
    plain.base = await plain.page.evaluate(() => window.attentionExplorer.store.get());
  }
  const { page, base } = plain;
  await page.evaluate(
    async (s) => {
      document.activeElement?.blur();
      window.attentionExplorer.store.set(s);
      await window.attentionExplorer.idle();
    },
    { ...base, ...state },
  );
  await page.waitForSelector('[data-role=stage] g.cell');
  return plain;
}

test('a 10,000-character paste of 3,000 words: the page says so, offers to truncate, and stays responsive', async () => {
  const { page, problems } = await plainPage();
  const paste = Array.from({ length: 3000 }, (_, i) => `w${i % 90}`)
    .join(' ')
    .slice(0, 10000);
  assert.ok(paste.length >= 9990);
  await page.fill('[data-role=sentence]', paste);
  const message = page.locator('[data-role=message]');
  await message.getByRole('button').waitFor();
  assert.match(await message.textContent(), /has \d{4} tokens; the engine takes at most 2048/);
  const started = Date.now();
  await message.getByRole('button').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-role=tokens] li').length === 2048, null, {
    timeout: 60000,
  });
  await page.waitForSelector('[data-role=stage] .pixels, [data-role=stage] g.cell');
  const elapsed = Date.now() - started;
  // The main thread answers again: a trivial evaluate returns.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  assert.ok(
    await page.locator('[data-role=links-note]').isVisible(),
    'the links view says it shows the strongest links only',
  );
  console.log(`  2048 tokens: truncate → first view in ${elapsed} ms`);
  await page.fill('[data-role=sentence]', '');
  await page.waitForSelector('[data-role=empty]:not([hidden])');
  assert.equal(await page.locator('[data-role=stage] g.operand').count(), 0);
  assert.deepEqual(problems, []);
});

test('500 edits of the sentence keep the JS heap, the WASM heap and the DOM bounded', async () => {
  const { page, context, problems } = await openPage(session.browser, `${session.url}?step=7`);
  await page.waitForSelector('[data-role=stage] g.cell');
  const cdp = await context.newCDPSession(page);
  const sentences = [
    '我 爱 吃 火锅',
    '猫追着球跑',
    '小明在北京的清华大学读书',
    'The cat chased the ball because it was fast',
    'a b',
  ];
  const edit = (count, offset) =>
    page.evaluate(
      async ({ count, offset, sentences }) => {
        const explorer = window.attentionExplorer;
        for (let i = 0; i < count; i++) {
          explorer.store.set({ sentence: `${sentences[(i + offset) % sentences.length]} ${i % 7}` });
          if (i % 25 === 0) await new Promise(requestAnimationFrame);
        }
        explorer.store.set({ sentence: sentences[0] });
      },
      { count, offset, sentences },
    );
  const measure = async () => {
    await page.evaluate(() => window.attentionExplorer.idle()); // the last edit is computed and drawn
    await transitionsDone(page); // exiting elements are gone
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
    const wasm = await page.evaluate(() => window.attentionExplorer.engine.heapStats());
    return { usedSize, dom, wasm };
  };
  // A few edits through the real, debounced input first.
  for (const s of sentences) {
    await page.fill('[data-role=sentence]', s);
    await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, s);
  }
  await edit(50, 0);
  const before = await measure();
  await edit(500, 1);
  const afterEdits = await measure();
  console.log(
    `  JS heap ${before.usedSize} → ${afterEdits.usedSize} B; DOM ${before.dom} → ${afterEdits.dom} elements; WASM in use ${before.wasm.inUse} → ${afterEdits.wasm.inUse} B`,
  );
  assert.ok(afterEdits.usedSize - before.usedSize < 3 * 1024 * 1024, 'JS heap grows by less than 3 MB over 500 edits');
  assert.equal(afterEdits.dom, before.dom, 'the same sentence has the same number of elements');
  // malloc may place the same sentence's trace in differently split chunks depending on what
  // ran before (a few bytes); one leaked trace per edit would be 500 traces.
  assert.ok(
    Math.abs(afterEdits.wasm.inUse - before.wasm.inUse) < 16 * 1024,
    'every replaced trace was freed in WASM (within malloc rounding)',
  );
  assert.deepEqual(problems, []);
  await context.close();
});

test('text is never HTML: chips, links, tooltips, table, exported SVG, embed page and web component', async () => {
  let dialogs = 0;
  const check = async (page) => {
    assert.equal(await page.evaluate(() => document.querySelectorAll('img').length), 0);
    assert.equal(dialogs, 0);
  };
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?tok=whitespace&view=heatmap&step=7`,
  );
  page.on('dialog', (d) => {
    dialogs++;
    d.dismiss();
  });
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  // Waits for this sentence's draw: the default sentence's chips are already there.
  await page.evaluate(async (text) => {
    window.attentionExplorer.store.set({ sentence: text });
    await window.attentionExplorer.idle();
  }, ATTACK);
  const chips = await page.locator('[data-role=tokens] li').allTextContents();
  assert.equal(chips.join(' '), ATTACK.split(/\s+/).join(' '));
  await page.locator('[data-role=heatmaps] g.cell').first().hover();
  assert.match(await page.locator('.tooltip').textContent(), /<img/);
  await page.click('[data-role=table-toggle]');
  await page.waitForSelector('[data-role=heatmap-tables] th'); // drawn once the data is there
  const headers = await page.locator('[data-role=heatmap-tables] th').allTextContents();
  assert.ok(headers.includes('src=x'));
  const svg = await page.evaluate(() => window.attentionExplorer.viewSVG());
  assert.ok(svg.includes('&lt;img'), 'the figure escapes token text');
  assert.ok(!svg.includes('<img') && !svg.includes('<script'));
  await check(page);

  const embed = await context.newPage();
  embed.on('dialog', (d) => {
    dialogs++;
    d.dismiss();
  });
  await embed.goto(`${session.url}embed.html?tok=whitespace&s=${encodeURIComponent(ATTACK)}`);
  await embed.waitForSelector('[data-role=links] text.token');
  assert.ok((await embed.locator('[data-role=links] text.token').allTextContents()).includes('<img'));
  await check(embed);

  const component = await context.newPage();
  component.on('dialog', (d) => {
    dialogs++;
    d.dismiss();
  });
  await component.goto(`${session.url}examples/component.html`);
  await component.waitForFunction(() => document.querySelector('#full')?.shadowRoot?.querySelector('g.cell'));
  await component.evaluate((text) => {
    const el = document.querySelector('#full');
    el.setAttribute('tokenization', 'whitespace');
    el.setAttribute('sentence', text);
  }, ATTACK);
  await component.waitForFunction(
    () => document.querySelector('#full').shadowRoot.querySelector('[data-role=tokens] li')?.textContent === '<img',
  );
  assert.equal(
    await component.evaluate(() => document.querySelector('#full').shadowRoot.querySelectorAll('img').length),
    0,
  );
  await check(component);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Content-Security-Policy forbids eval and inline script, and the app runs under it', async () => {
  const response = await fetch(session.url);
  const csp = response.headers.get('content-security-policy');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, / 'unsafe-eval'| 'unsafe-inline'/);
  assert.match(csp, /default-src 'self'/);
  const engineJs = await readFile(new URL('../../dist/engine/attention-engine.mjs', import.meta.url), 'utf8');
  assert.doesNotMatch(engineJs, /\beval\(|new Function\(/, 'the Emscripten glue has no eval (-sDYNAMIC_EXECUTION=0)');

  // Every page test above records securitypolicyviolation events and console errors as
  // problems and asserts there are none; here, one full step-through under the policy.
  const { page, problems } = await plainPage({ view: 'softmax', step: 1 });
  for (let step = 2; step <= 10; step++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector('.step-button[data-step="10"][aria-current="step"]');
  for (const [view, drawn] of [
    ['links', '[data-role=links] text.token'],
    ['heatmap', '[data-role=heatmaps] g.cell'],
    ['matrices', '[data-role=matrices] rect.picture'],
  ]) {
    await page.click(`[role=tab][data-view=${view}]`);
    await page.waitForSelector(drawn);
  }
  await transitionsDone(page);
  assert.deepEqual(problems, [], 'no CSP violation, no console error');
});

test("an engine that refuses a trace: the message gives the engine's reason, and the next sentence draws again", async () => {
  const { page, problems } = await plainPage();
  // The worker answers this one trace with a refusal, as it would an input it cannot run.
  await page.evaluate(() => {
    const { engine } = window.attentionExplorer;
    const open = engine.open.bind(engine);
    engine.open = (options, requests) => {
      engine.open = open;
      const opening = open(options, requests);
      opening.ready = Promise.reject(new Error('the worker refused this trace'));
      return opening;
    };
  });
  await page.fill('[data-role=sentence]', 'one two three');
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.equal(
    await page.locator('[data-role=message]').textContent(),
    'The engine could not run this input: the worker refused this trace',
  );
  assert.equal(await page.locator('[data-role=stage] g.cell').count(), 0, 'no trace is drawn');
  await page.fill('[data-role=sentence]', 'one two three four');
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.equal(await page.locator('[data-role=message]').isHidden(), true);
  assert.equal(await page.locator('[data-role=tokens] li').count(), 4);
  assert.ok((await page.locator('[data-role=stage] g.cell').count()) > 0);
  assert.deepEqual(problems, []);
});
