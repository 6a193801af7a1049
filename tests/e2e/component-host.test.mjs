// The web component on a teacher's page: tooltips with a background, the host
// page's language (and its changes), a formula that fits a 900 px column, hosting from
// another origin as docs/embedding.md says (CORS), and a message instead of a 0 px box when
// the script cannot load.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { screenshotDir, useBrowser, transitionsDone } from './browser.mjs';
import { contrast } from './readable.mjs';

const session = useBrowser();
/**
 * A course page at `pageURL` (served by the test, any origin) holding `body`, with the
 * component's script from `scriptURL`; `cors` adds the header docs/embedding.md asks of a
 * host that serves the explorer to other origins.
 */
async function hostPage({
  body,
  lang = 'en',
  pageURL = `${session.url}course.html`,
  scriptURL,
  cors = false,
  width = 1280,
}) {
  const context = await session.browser.newContext({ viewport: { width, height: 900 } });
  const problems = [];
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<script type="module" src="${scriptURL ?? `${session.url}attention-explorer.js`}"></script></head>
<body style="margin: 0; font-family: serif">${body}</body></html>`;
  await context.route(pageURL, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  if (cors) {
    await context.route(`${session.url}**`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
    });
  }
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(pageURL);
  return { page, context, problems };
}

const ready = (page) =>
  page.waitForFunction(
    () => [...document.querySelectorAll('attention-explorer')].every((e) => e.shadowRoot?.querySelector('g.cell')),
    null,
    { timeout: 20000 },
  );
const stepTitle = (element) => element.evaluate((e) => e.shadowRoot.querySelector('.step-title').textContent);

// One course page holds the components of the first three tests (opening one is the slow part):
// a heatmap to hover, two in the page's language or their own, and one in a 900 px column.
let course = null;
after(() => course?.context.close());
async function coursePage() {
  if (!course) {
    course = await hostPage({
      lang: 'zh-CN',
      body: `<attention-explorer id="tip" lang="en" sentence="我 爱 吃 火锅" step="7" view="heatmap"></attention-explorer>
<attention-explorer id="plain" sentence="我 爱 吃 火锅"></attention-explorer>
<attention-explorer id="own" lang="en" sentence="a b"></attention-explorer>
<main style="width: 900px; margin: 0 auto"><attention-explorer id="column" lang="en" sentence="The cat chased the ball" heads="4" d-model="16"></attention-explorer></main>`,
    });
    await ready(course.page);
  }
  return course;
}

test('a tooltip over a component’s cell has a background and readable text', async () => {
  const { page, problems } = await coursePage();
  await transitionsDone(page);
  const cell = page.locator('#tip').locator('[data-role=heatmaps] g.cell').first();
  await cell.scrollIntoViewIfNeeded();
  await cell.hover();
  const tip = page.locator('.tooltip');
  await tip.waitFor();
  const { background, color } = await tip.evaluate((el) => ({
    background: getComputedStyle(el).backgroundColor,
    color: getComputedStyle(el).color,
  }));
  assert.notEqual(background, 'rgba(0, 0, 0, 0)', 'the tooltip is not transparent');
  assert.ok(contrast(color, background) >= 4.5, `${color} on ${background}`);
  await page.screenshot({ path: path.join(screenshotDir, 'component-tooltip.png') });
  assert.deepEqual(problems, []);
});

test('a component without lang speaks the host page’s language and follows its changes', async () => {
  const { page } = await coursePage();
  const plain = page.locator('#plain');
  const own = page.locator('#own');
  assert.match(await stepTitle(plain), /词元/, 'Chinese, as <html lang="zh-CN">');
  assert.equal(await stepTitle(own), '1. Tokens → embeddings', 'its own lang wins');
  await page.evaluate(() => (document.documentElement.lang = 'en-GB'));
  await page.waitForFunction(() =>
    document.querySelector('#plain').shadowRoot.querySelector('.step-title').textContent.includes('Tokens'),
  );
  await page.evaluate(() => (document.documentElement.lang = 'zh'));
  await page.waitForFunction(() =>
    document.querySelector('#plain').shadowRoot.querySelector('.step-title').textContent.includes('词元'),
  );
  assert.equal(await stepTitle(own), '1. Tokens → embeddings');
});

test('in a 900 px column every step’s formula fits without scrolling', async () => {
  const { page, problems } = await coursePage();
  const element = page.locator('#column');
  for (let step = 1; step <= 10; step++) {
    await element.evaluate((e, s) => e.setAttribute('step', String(s)), step);
    await page.waitForFunction(
      (s) =>
        document.querySelector('#column').shadowRoot.querySelector('.step-button[aria-current="step"]')?.dataset
          .step === String(s),
      step,
    );
    const sizes = await element.evaluate((e) =>
      [...e.shadowRoot.querySelectorAll('.explain .formula, .explain .formula-context')].map((f) => ({
        scroll: f.scrollWidth,
        client: f.clientWidth,
      })),
    );
    for (const { scroll, client } of sizes)
      assert.ok(scroll <= client + 1, `step ${step}: ${scroll} px in ${client} px`);
  }
  await transitionsDone(page);
  await element.screenshot({ path: path.join(screenshotDir, 'component-900px.png') });
  assert.deepEqual(problems, []);
});

test('served from another origin with CORS the component works; without its script it shows its fallback, not 0 px', async () => {
  // The course page on localhost, the explorer on 127.0.0.1: two origins.
  const other = session.url.replace('127.0.0.1', 'localhost');
  const body =
    '<attention-explorer sentence="我 爱 吃 火锅"><p class="fallback">The explorer could not load.</p></attention-explorer>';
  {
    const { page, context, problems } = await hostPage({ body, pageURL: `${other}course.html`, cors: true });
    await ready(page);
    assert.equal(await page.locator('.fallback').isVisible(), false, 'the fallback is hidden once it runs');
    assert.deepEqual(problems, []);
    await context.close();
  }
  for (const scriptURL of [`${session.url}missing.js`, `${session.url}attention-explorer.js`]) {
    // A missing script, or the right one from another origin without CORS: the element never runs.
    const { page, context } = await hostPage({ body, pageURL: `${other}course.html`, scriptURL });
    const fallback = page.locator('.fallback');
    await fallback.waitFor();
    const box = await page.locator('attention-explorer').boundingBox();
    assert.ok(box.height > 10, `the element is ${box.height} px high`);
    assert.equal(await fallback.isVisible(), true);
    await context.close();
  }
});

test('while the engine loads the component says so instead of taking 0 px', async () => {
  const context = await session.browser.newContext();
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await context.route('**/attention-engine.wasm', async (route) => {
    await held;
    await route.continue();
  });
  const page = await context.newPage();
  await page.goto(`${session.url}examples/component.html`);
  const loading = page.locator('#full').locator('.startup-loading');
  await loading.waitFor();
  assert.match(await loading.textContent(), /Loading/);
  assert.ok((await page.locator('#full').boundingBox()).height > 10);
  release();
  await ready(page);
  assert.equal(await page.locator('#full').locator('.startup-loading').count(), 0);
  await context.close();
});
