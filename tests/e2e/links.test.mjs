// What a link, a message or an attribute can do to the page: hostile keys never stop it
// starting, seeds are whole decimal numbers 0 … 2³²−1, a link always stays short enough for
// a server to open, and a failed start says so instead of "Loading the engine…" forever. What
// the parsers make of each value is tests/node/link-values.test.mjs's, without a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../node/support.mjs';
import { openPage, screenshotDir, useBrowser, explorerStarted as started } from './browser.mjs';

const session = useBrowser();
// Names every plain object inherits: looked up in a table that is not own-property only,
// each one finds a function instead of "no such field".
const INHERITED = ['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'];

// The notice under the sentence: what the link's values were refused or repeated.
const noticeText = (page) => page.locator('[data-role=notice]').textContent();

test('a link whose keys and values are inherited names starts the page, applies its own keys and names the rest', async () => {
  // The parser's answer for each name is tests/node/link-values.test.mjs's: here, one link with
  // all of them, that the page starts from it and shows what the parser refused.
  const hostile = INHERITED.flatMap((name) => [`${name}=1`, `lang=${name}`, `view=${name}`, `step=${name}`]);
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?lang=zh&step=7&view=heatmap&${hostile.join('&')}`,
  );
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  assert.equal(await page.locator('.step-button[aria-current="step"]').getAttribute('data-step'), '7');
  assert.equal(await page.locator('h1').textContent(), '注意力探索器');
  assert.ok(await page.locator('[data-role=notice]').isVisible());
  const notice = await noticeText(page);
  for (const query of hostile) assert.ok(notice.includes(query), query);
  assert.match(notice, /不止一次.*：lang, view, step$/m, 'the repeated keys are named');
  assert.equal(await page.locator('#loading').isHidden(), true);
  // The embed page and the offline file read their links alike.
  const names = INHERITED.map((name) => `${name}=1`);
  await page.goto(`${session.url}embed.html?${names.join('&')}`);
  await started(page);
  for (const query of names) assert.ok((await noticeText(page)).includes(query), `embed: ${query}`);
  const file = pathToFileURL(path.join(root, 'dist/attention-explorer.html')).href;
  await page.goto(`${file}?${names.join('&')}&s=我爱吃火锅`);
  await started(page);
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), ['我', '爱', '吃', '火锅']);
  for (const query of names) assert.ok((await noticeText(page)).includes(query), `offline file: ${query}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('an embed message with an inherited key is ignored, and the next good one applies', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  await page.goto(`${session.url}examples/component.html`); // any page of the same server
  await page.evaluate((src) => {
    document.body.innerHTML = `<iframe src="${src}" width="900" height="700"></iframe>`;
  }, `${session.url}embed.html?step=2`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await started(frame);
  const post = (message) => page.locator('iframe').evaluate((f, m) => f.contentWindow.postMessage(m, '*'), message);
  for (const name of INHERITED) {
    await post({ type: 'attention-explorer:set', state: { [name]: '1' } });
    await post({ type: 'attention-explorer:set', state: JSON.parse(`{"${name}": "3"}`) });
    await post({ type: 'attention-explorer:set', state: { lang: name } });
  }
  // Messages arrive in order: once this one shows, every hostile one before it was handled.
  await post({ type: 'attention-explorer:set', state: { step: 5 } });
  await frame.waitForSelector('.step-button[data-step="5"][aria-current="step"]');
  assert.equal(await frame.locator('h2.step-title').textContent(), '5. Scale by √d_k');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Adds an <attention-explorer> with these attributes; resolves to its state once drawn. */
async function addComponent(page, attributes) {
  const id = `c${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ id, attributes }) => {
      const element = document.createElement('attention-explorer');
      element.id = id;
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      element.addEventListener('ready', () => (element.dataset.ready = 'true'));
      document.body.append(element);
    },
    { id, attributes },
  );
  await page.waitForFunction(
    (id) => {
      const element = document.getElementById(id);
      return element.dataset.ready === 'true' && element.shadowRoot.querySelector('[data-role=stage] g.operand');
    },
    id,
    { timeout: 15000 },
  );
  return page.locator(`#${id}`);
}

const componentNotice = (element) =>
  element.evaluate((e) => {
    const notice = e.shadowRoot.querySelector('[data-role=notice]');
    return notice.hidden ? null : notice.textContent;
  });

test('<attention-explorer> with an inherited name as lang or attribute value becomes ready', async () => {
  // Each name's state and notice: tests/node/link-values.test.mjs. Here, that the element starts.
  const { page, context, problems } = await openPage(session.browser, `${session.url}examples/component.html`);
  const name = '__proto__';
  const element = await addComponent(page, { lang: name, sentence: 'a b', view: name, mask: name });
  assert.equal(await element.evaluate((e) => e.explorer.store.get().lang), 'en');
  assert.equal(
    await element.evaluate((e) => e.shadowRoot.querySelector('.step-title').textContent),
    '1. Tokens → embeddings',
  );
  const notice = await componentNotice(element);
  for (const attribute of ['lang', 'view', 'mask']) assert.ok(notice.includes(`${attribute}=${name}`), notice);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a start that fails says so on the page instead of loading forever', async () => {
  for (const entry of ['', 'embed.html']) {
    const context = await session.browser.newContext();
    await context.route('**/attention-engine.wasm', (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${session.url}${entry}?lang=zh`);
    const loading = page.locator('#loading');
    await page.waitForFunction(() => document.getElementById('loading').getAttribute('role') === 'alert');
    const text = await loading.textContent();
    assert.ok(await loading.isVisible(), entry);
    assert.doesNotMatch(text, /Loading the engine/);
    assert.match(text, /could not start/);
    assert.match(text, /无法启动/);
    if (entry === '') await page.screenshot({ path: path.join(screenshotDir, 'startup-error.png') });
    await context.close();
  }
  // The web component: each element says so in its own box and fires 'error'.
  const context = await session.browser.newContext();
  await context.route('**/attention-engine.wasm', (route) => route.abort());
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.componentErrors = 0;
    addEventListener(
      'error',
      (event) => event.target.localName === 'attention-explorer' && window.componentErrors++,
      true,
    );
  });
  await page.goto(`${session.url}examples/component.html`);
  await page.waitForFunction(() => window.componentErrors === 2);
  const boxes = await page.evaluate(() =>
    [...document.querySelectorAll('attention-explorer')].map(
      (e) => e.shadowRoot.querySelector('.startup-error[role=alert]')?.textContent,
    ),
  );
  assert.equal(boxes.length, 2);
  for (const text of boxes) assert.match(text, /could not start/);
  await page.screenshot({ path: path.join(screenshotDir, 'component-startup-error.png') });
  await context.close();
});

test('a module that throws while loading (no Intl.Segmenter) shows the error too', async () => {
  const context = await session.browser.newContext();
  // As in a browser that predates Intl.Segmenter: the tokenizer throws as its module loads.
  await context.addInitScript(() => delete Intl.Segmenter);
  const page = await context.newPage();
  for (const entry of ['', 'embed.html']) {
    await page.goto(`${session.url}${entry}`);
    await page.waitForFunction(() => document.getElementById('loading').getAttribute('role') === 'alert');
    assert.match(await page.locator('#loading').textContent(), /could not start: .*Segmenter/, entry);
  }
  await context.close();
});

test('seed= takes the whole range 0 … 4294967295, and the seed box refuses what a link refuses', async () => {
  // Which texts are seeds: tests/node/link-values.test.mjs. Here, the page's use of them.
  const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=en&seed=4294967295`);
  await started(page);
  const stateSeed = () => page.evaluate(() => window.attentionExplorer.store.get().seed);
  assert.equal(await stateSeed(), 4294967295);
  const box = page.locator('[data-role=seed]');
  assert.equal(await box.inputValue(), '4294967295');
  assert.equal(await page.locator('[data-role=notice]').isHidden(), true);
  for (const [seed, valid] of [
    ['1e3', false],
    ['1.5', false],
    ['4294967296', false],
    ['3000000000', true],
  ]) {
    await box.fill(seed);
    await box.dispatchEvent('change');
    assert.equal(await box.getAttribute('aria-invalid'), String(!valid), seed);
    if (valid) assert.equal(await stateSeed(), Number(seed));
  }
  assert.equal(await stateSeed(), 3000000000);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '3000000000');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the component’s seed attribute: a refused one is named in the element’s language, live too', async () => {
  // Which values are refused: tests/node/link-values.test.mjs. Here, the element's notice.
  const { page, context, problems } = await openPage(session.browser, `${session.url}examples/component.html`);
  const element = await addComponent(page, { sentence: 'a b c', seed: '4294967296', lang: 'zh' });
  assert.equal(await element.evaluate((e) => e.explorer.store.get().seed), 42);
  const notice = await componentNotice(element);
  assert.ok(notice.includes('seed=4294967296') && notice.includes('属性'), notice);
  // Live: a bad value set later is refused too, and a good one clears the notice.
  await element.evaluate((e) => e.setAttribute('lang', 'en'));
  await element.evaluate((e) => e.setAttribute('seed', '1e3'));
  assert.ok((await componentNotice(element)).includes('seed=1e3'));
  assert.equal(await element.evaluate((e) => e.explorer.store.get().seed), 42);
  await element.evaluate((e) => e.setAttribute('seed', '4000000000'));
  assert.equal(await componentNotice(element), null);
  assert.equal(await element.evaluate((e) => e.explorer.store.get().seed), 4000000000);
  assert.deepEqual(problems, []);
  await context.close();
});

// Node's default header limit is 16 KB and many hosts stop at 8 KB: the page keeps links at
// most this long (web/src/explorer/share.js MAX_LINK_CHARS).
const MAX_LINK = 8000;

test('a sentence too long for a link stays out of it, and the page and both copy buttons say so', async () => {
  const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=en&tok=whitespace`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.url).origin });
  await started(page);
  // 1,000 Chinese characters (9,000 once percent-encoded) in ten tokens, so the engine is quick.
  const long = Array.from({ length: 10 }, (_, i) => '我爱吃火锅'.repeat(20) + i).join(' ');
  assert.ok(encodeURIComponent(long).length > MAX_LINK);
  await page.locator('[data-role=sentence]').fill(long);
  await page.waitForFunction(() => document.querySelectorAll('[data-role=tokens] li').length === 10);
  const notice = page.locator('[data-role=notice]');
  await notice.waitFor();
  assert.match(await notice.textContent(), /too long for a link/);
  // The address bar keeps every other setting but not the sentence.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tok') === 'whitespace');
  assert.equal(new URL(page.url()).searchParams.get('s'), null);
  assert.ok(page.url().length <= MAX_LINK);
  await page.screenshot({ path: path.join(screenshotDir, 'link-too-long-en.png') });

  const copied = async (role) => {
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click(`[data-role=${role}]`);
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== ''));
    return page.evaluate(() => navigator.clipboard.readText());
  };
  const link = await copied('copy-link');
  assert.ok(link.length <= MAX_LINK, `${link.length} characters`);
  assert.equal(new URL(link).searchParams.get('s'), null);
  assert.equal(new URL(link).searchParams.get('tok'), 'whitespace');
  assert.match(await notice.textContent(), /too long for a link/);
  const snippet = await copied('copy-embed');
  const src = snippet.match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  assert.ok(src.length <= MAX_LINK);
  assert.equal(new URL(src).searchParams.get('s'), null);
  assert.match(await notice.textContent(), /too long for a link/);

  // The link opens: the bundled server answers it and the page starts.
  const response = await fetch(link);
  assert.equal(response.status, 200);

  await page.click('.language button[data-lang="zh"]');
  await page.waitForFunction(() => document.querySelector('[data-role=notice]').textContent.includes('太长'));
  await page.screenshot({ path: path.join(screenshotDir, 'link-too-long-zh.png') });

  // Short again: the sentence returns to the address bar and the notice goes.
  await page.locator('[data-role=sentence]').fill('猫追着球跑');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('s') === '猫追着球跑');
  await notice.waitFor({ state: 'hidden' });
  assert.equal(new URL(await copied('copy-link')).searchParams.get('s'), '猫追着球跑');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a sentence just within the limit stays in the link, and the link opens', async () => {
  const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=en&tok=whitespace`);
  await started(page);
  const prefix = `${session.url}?s=`.length + '&tok=whitespace'.length;
  const words = Array.from({ length: Math.floor((MAX_LINK - prefix - 20) / 10) }, (_, i) =>
    `w${i % 64}`.padEnd(9, 'x'),
  );
  const sentence = words.join(' ');
  await page.evaluate((s) => window.attentionExplorer.store.set({ sentence: s }), sentence);
  await page.waitForFunction((s) => new URL(location.href).searchParams.get('s') === s, sentence);
  assert.ok(page.url().length <= MAX_LINK && page.url().length > MAX_LINK - 40, `${page.url().length}`);
  assert.equal(await page.locator('[data-role=notice]').isHidden(), true);
  const copy = await context.newPage();
  await copy.goto(page.url());
  await started(copy);
  assert.equal(await copy.evaluate(() => window.attentionExplorer.store.get().sentence), sentence);
  assert.deepEqual(problems, []);
  await context.close();
});
