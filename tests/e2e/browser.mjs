// Starts the page's own server and Debian's Chromium (never a downloaded browser).
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../../build-scripts/serve.mjs';
import { root } from '../node/support.mjs';
import { defaultState, stateFromURL, stateToURL } from '../../web/src/state.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

export const screenshotDir = path.join(root, 'tests/e2e/screenshots');

/** A full-page screenshot: tests/e2e/screenshots/<name>.png. */
export const screenshot = (page, name) =>
  page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });

/** Resolves once the explorer's stage has drawn its first matrix. */
/**
 * The explorer at `?lang=en&s=<text>` with a GPT-2 checkpoint opened as a person opens it: its
 * files in the model file input (`files`) or its folder in the folder input (`folder`), until the
 * grid of heads is drawn and the page is idle. Returns openPage's { page, problems, context };
 * the context is closed if opening fails.
 */
export async function openWithCheckpoint(session, text, { files, folder }) {
  const opened = await openPage(session.browser, `${session.url}?lang=en&s=${encodeURIComponent(text)}`);
  const { page } = opened;
  const idle = () => page.evaluate(() => window.attentionExplorer.idle());
  try {
    await page.waitForFunction(() => window.attentionExplorer);
    await idle();
    await page.setInputFiles(folder ? '[data-role=model-folder]' : '[data-role=model-file]', folder ?? files);
    await page.waitForSelector('.model-cell');
    await idle();
  } catch (error) {
    await opened.context.close();
    throw error;
  }
  return opened;
}

export const explorerStarted = (page) => page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });

export async function startBrowser() {
  const server = await startServer({ port: 0, host: '127.0.0.1' });
  const { port } = server.address();
  // Playwright gives every launch a fresh, empty profile of its own.
  const browser = await chromium
    .launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .catch((error) => {
      server.close();
      throw error;
    });
  return {
    browser,
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The browser and the site for a test file: started before its tests and closed after them
 * (node:test hooks registered here). Returns the session object, { browser, url, close }, which
 * the hook fills in: read its fields inside tests, not at import.
 */
export function useBrowser() {
  const session = {};
  before(async () => Object.assign(session, await startBrowser()));
  after(async () => session.close?.());
  return session;
}

/** A page that records console messages, page errors, CSP violations and requests. */
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (message) => {
    if (['error', 'warning'].includes(message.type())) problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  await page.goto(url);
  return { page, context, problems, requests };
}

/**
 * Waits until no d3 transition is scheduled or running in the page or frame (d3 keeps them
 * in `node.__transition` and deletes it when the last one ends): the DOM is in its final state.
 */
export function transitionsDone(pageOrFrame, timeout = 10000) {
  return pageOrFrame.waitForFunction(
    () => {
      const busy = (root) =>
        [...root.querySelectorAll('*')].some((node) => node.__transition || (node.shadowRoot && busy(node.shadowRoot)));
      return !busy(document);
    },
    null,
    { timeout },
  );
}

/**
 * The lines the links view painted on its canvas, as it keeps them beside it
 * (web/src/views/link-lines.js): [{ h, i, j, weight, width, opacity, pair, color }] in paint
 * order, [] before it has drawn. `host`: a selector of an <attention-explorer> whose shadow root
 * holds the view (default: the page's own).
 */
export const linkLines = (pageOrFrame, host = null) =>
  pageOrFrame.evaluate((host) => {
    const root = host ? document.querySelector(host)?.shadowRoot : document;
    const holder = root?.querySelector('[data-role=links] foreignObject.link-lines');
    const plain = ({ h, i, j, weight, width, opacity, pair, color }) => ({
      h,
      i,
      j,
      weight,
      width,
      opacity,
      pair,
      color,
    });
    return ((holder && attentionLinkLines(holder)?.lines) ?? []).map(plain);
  }, host);

/**
 * Waits until the links view has painted at least `min` lines (of head `head`, if given; that
 * are the marked pair, if `pair`).
 */
export const linksPainted = (pageOrFrame, { min = 1, head = null, pair = false, host = null } = {}) =>
  pageOrFrame.waitForFunction(
    ({ min, head, pair, host }) => {
      const root = host ? document.querySelector(host)?.shadowRoot : document;
      const holder = root?.querySelector('[data-role=links] foreignObject.link-lines');
      const lines = (holder && attentionLinkLines(holder)?.lines) ?? [];
      return lines.filter((line) => (head === null || line.h === head) && (!pair || line.pair)).length >= min;
    },
    { min, head, pair, host },
  );

/** Polls `check()` (in node) until it returns a truthy value; throws `what` after `timeout` ms. */
export async function waitUntil(check, what, timeout = 10000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A context in which the site at `siteUrl` comes without its two isolation headers (COOP, COEP),
 * as from a host that does not send them: { context, page }.
 */
export async function withoutIsolation(browser, siteUrl, contextOptions = { viewport: { width: 1280, height: 800 } }) {
  const context = await browser.newContext(contextOptions);
  await context.route(`${siteUrl}**`, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
  return { context, page: await context.newPage() };
}

/**
 * A context for the single offline file (dist/attention-explorer.html) with every request but
 * the file itself refused: { context, page, attempted (the refused URLs), file (its file:// URL),
 * problems (the page's uncaught errors, collected from the start) }.
 */
export async function offlineSingleFile(browser, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const attempted = [];
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    attempted.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const problems = []; // the page's uncaught errors
  page.on('pageerror', (e) => problems.push(e.message));
  const file = pathToFileURL(path.join(root, 'dist/attention-explorer.html')).href;
  return { context, page, attempted, file, problems };
}

/**
 * One explorer page for the tests of a file that need no fresh page (a new context and a page
 * load cost seconds; a change of state a tenth of one). `show(query)` resolves to openPage's
 * { page, context, problems, requests }, problems emptied, showing what a link with `query`
 * (e.g. 'lang=en&step=4') shows: the page is opened on it the first time, and later brought
 * there through its store, every other field at its default and the views' own state (picked
 * cell, locked token, tables) let go, the pointer, focus and scroll back at the start. `close()`
 * closes it (an after() hook of the file).
 */
export function sharedExplorer(session, options = {}) {
  let opened = null;
  const base = defaultState('en');
  return {
    async show(query) {
      const { state } = stateFromURL(query, base, VIEW_KEYS);
      if (!opened) {
        opened = await openPage(session.browser, `${session.url}?${query}`, options);
        await explorerStarted(opened.page);
      } else {
        await opened.page.mouse.move(0, 0);
        await opened.page.evaluate(async (s) => {
          document.activeElement?.blur?.();
          window.scrollTo(0, 0);
          window.attentionExplorer.store.set(s);
          await window.attentionExplorer.idle();
        }, state);
      }
      // The address bar follows a change a moment later (its language always written): wait
      // until it is this state's link, which tests read (engine-trace.mjs).
      const search = stateToURL(state, { ...base, lang: undefined });
      await opened.page.waitForFunction((search) => location.search === search, search);
      await opened.page.evaluate(() => window.attentionExplorer.idle());
      opened.problems.length = 0;
      return opened;
    },
    close: () => opened?.context.close(),
  };
}
