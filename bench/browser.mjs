// The keystroke budget in Chromium: the engine as built (dist/engine), engine.run() with every
// step copied into JS at teaching sizes, timed with performance marks in a page of the local
// server (build-scripts/serve.mjs, same origin and Content-Security-Policy as the site).
// Run alone (node bench/browser.mjs) or from bench/run.mjs. Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CSP, startServer } from '../build-scripts/serve.mjs';

const engineDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/engine');
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

const SIZES = [
  { n: 8, d: 64, heads: 4 },
  { n: 16, d: 64, heads: 4 },
  { n: 32, d: 128, heads: 4 },
];
const WARMUP = 50;
const RUNS = 200;

/** { chromium, warmup, rows: [{ n, d, heads, median, max, runs }] } */
export async function measureBrowser() {
  const server = await startServer({ port: 0 });
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const base = `http://localhost:${server.address().port}/`;
    // The site bundles the engine into its app; the benchmark page imports the engine's own
    // module instead, served under bench-engine/ on the same origin with the site's CSP.
    await page.route(`${base}bench-engine/**`, (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop();
      const headers = { 'Content-Security-Policy': CSP };
      if (name === 'index.html') {
        return route.fulfill({ headers, contentType: 'text/html', body: '<!doctype html><title>bench</title>' });
      }
      return route.fulfill({ headers, contentType: TYPES[path.extname(name)], path: path.join(engineDir, name) });
    });
    await page.goto(`${base}bench-engine/index.html`);
    const rows = await page.evaluate(
      async ({ sizes, warmup, runs, engineUrl }) => {
        const { createEngine } = await import(engineUrl);
        const engine = await createEngine();
        const out = [];
        for (const { n, d, heads } of sizes) {
          const options = { tokens: Array.from({ length: n }, (_, i) => `w${i}`), dModel: d, heads };
          for (let i = 0; i < warmup; i++) engine.run(options);
          const times = [];
          for (let i = 0; i < runs; i++) {
            performance.mark('run-start');
            engine.run(options);
            performance.mark('run-end');
            times.push(performance.measure('engine.run', 'run-start', 'run-end').duration);
          }
          performance.clearMarks();
          performance.clearMeasures();
          times.sort((a, b) => a - b);
          out.push({ n, d, heads, median: times[runs >> 1], max: times.at(-1), runs });
        }
        return out;
      },
      { sizes: SIZES, warmup: WARMUP, runs: RUNS, engineUrl: `${base}bench-engine/engine.js` },
    );
    return { chromium: `Chromium ${browser.browser()?.version() ?? ''}`.trim(), warmup: WARMUP, rows };
  } finally {
    await browser.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureBrowser();
  for (const r of result.rows)
    console.log(`n ${r.n} d ${r.d} heads ${r.heads}: median ${r.median.toFixed(3)} ms, max ${r.max.toFixed(3)} ms`);
}
