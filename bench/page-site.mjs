// What the page benchmarks share (page-longtask.mjs, page-keystroke.mjs): the built site
// (dist/site) on the local server in Debian's Chromium, and writing a table into
// docs/benchmarks.md between the script's markers (<!-- name:start --> … <!-- name:end -->).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../build-scripts/serve.mjs';

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/benchmarks.md');

/** { browser, base: the site's URL, close() } */
export async function startSite() {
  const server = await startServer({ port: 0 });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  return {
    browser,
    base: `http://127.0.0.1:${server.address().port}/`,
    async close() {
      await browser.close();
      server.close();
    },
  };
}

export function writeSection(name, text) {
  const doc = readFileSync(docs, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  if (!doc.includes(start) || !doc.includes(end))
    throw new Error(`docs/benchmarks.md has no ${start} … ${end} markers`);
  writeFileSync(
    docs,
    doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), () => `${start}\n${text}\n${end}`),
  );
}
