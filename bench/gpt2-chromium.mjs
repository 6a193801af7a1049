// GPT-2 small in the explorer page, in Debian's Chromium: the checkpoint of bench/make_gpt2_small.py
// (548 MB, random weights, never committed) opened the way a person does (its two files chosen in
// the model selector's file input), on the site as served by build-scripts/serve.mjs (cross-origin
// isolated, so the page's worker runs the threaded engine, dist/site/engine-mt). Each run is a
// fresh browser, so that its memory is its own. Needs `bash build-scripts/build.sh` first.
//   open     from choosing the files to the painted frame that shows the grid of every layer and
//            head (reading the file, loading it in the worker, the first trace, drawing)
//   trace    a sentence of 32 tokens typed: from the keystroke to the painted grid of the new
//            trace (the worker's modelView: every layer's attention, the block's steps, the
//            logits), wall time, and the CPU time of Chromium's renderer meanwhile (page, worker
//            and the engine's threads all live in it); and the worker's part alone: the model
//            panel's request (modelView) for the same sentence asked from the page, median of 5
//   memory   from /proc: the renderer's peak resident set (VmHWM, the kernel's high-water mark)
//            and the peak of the sum of every Chromium process's VmRSS, sampled every 50 ms (a
//            sum of RSS counts pages shared between processes twice: an upper bound); and the
//            renderer's VmRSS before opening, once opened and after the trace
//   node bench/gpt2-chromium.mjs [--runs 5] [--tokens 32] [--folder DIR]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../build-scripts/serve.mjs';
import { median } from './timing.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const RUNS = Number(option('--runs', 5));
const TOKENS = Number(option('--tokens', 32));
const CLK_TCK = 100; // Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

const folder =
  option('--folder') ??
  execFileSync('/usr/bin/python3', [path.join(here, 'make_gpt2_small.py')], { encoding: 'utf8' }).trim();
const FILES = ['config.json', 'model.safetensors'].map((f) => path.join(folder, f));

/** Each GPT-2 token of " the" is one token: "The" and then " the" until there are `n`. */
const sentenceOf = (n) => ['The', ...Array.from({ length: n - 1 }, () => ' the')].join('');

const statusField = (pid, field) => {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0; // the process has gone
  }
};
const cpuSeconds = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime + stime
  } catch {
    return 0;
  }
};

/** Chromium's processes by type, from the browser's own DevTools protocol. */
async function processes(browser) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  return processInfo.map((p) => ({ type: p.type, pid: p.id }));
}

async function once(server, sentence) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'ae-gpt2-chromium-'));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  let peakSum = 0;
  let pids = [];
  const sample = setInterval(() => {
    peakSum = Math.max(
      peakSum,
      pids.reduce((sum, p) => sum + statusField(p.pid, 'VmRSS'), 0),
    );
  }, 50);
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const base = `http://127.0.0.1:${server.address().port}/`;
    await page.goto(`${base}?lang=en&s=${encodeURIComponent('The the')}`);
    await page.waitForFunction(() => window.attentionExplorer, null, { timeout: 60_000 });
    await page.evaluate(() => window.attentionExplorer.idle());
    pids = await processes(browser);
    const renderers = pids.filter((p) => p.type === 'renderer');
    const rendererRss = () => renderers.reduce((sum, p) => sum + statusField(p.pid, 'VmRSS'), 0);
    const baseline = rendererRss();
    const isolated = await page.evaluate(() => crossOriginIsolated);
    const threads = await page.evaluate(() => document.querySelector('[data-role=engine-threads]')?.dataset.threads);
    // The goal is the threaded engine's: a page that fell back to one thread measures something else.
    if (!isolated || !(Number(threads) > 1))
      throw new Error(`the page runs ${threads} thread(s), isolated: ${isolated}`);
    const painted = (t0) =>
      page.evaluate((t) => new Promise((done) => requestAnimationFrame(() => done(performance.now() - t))), t0);
    // Opening: the two files chosen, until the grid of 12 × 12 heads is painted.
    const t0 = await page.evaluate(() => performance.now());
    await page.setInputFiles('[data-role=model-file]', FILES);
    await page.waitForFunction(() => document.querySelectorAll('.model-cell').length === 144, null, {
      timeout: 300_000,
      polling: 100,
    });
    const open = await painted(t0);
    await page.evaluate(() => window.attentionExplorer.idle());
    const opened = rendererRss();
    // The trace: a sentence of TOKENS tokens, until its grid is painted.
    const cpu0 = renderers.reduce((s, p) => s + cpuSeconds(p.pid), 0);
    const t1 = await page.evaluate(() => performance.now());
    await page.fill('[data-role=sentence]', sentence);
    await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence === t, sentence, {
      polling: 'raf',
    });
    await page.evaluate(() => window.attentionExplorer.idle());
    const trace = await painted(t1);
    const tokens = await page.evaluate(() => window.attentionExplorer.trace.tokens.length);
    const traceCpu = (renderers.reduce((s, p) => s + cpuSeconds(p.pid), 0) - cpu0) * 1000;
    // Memory before the requests below, whose answers would add to it.
    const peakSoFar = peakSum;
    const rendererPeak = Math.max(...renderers.map((p) => statusField(p.pid, 'VmHWM')));
    const traced = rendererRss();
    // The worker's part alone: the model panel's own request (models/service.js modelView) for
    // the same sentence, asked 5 times from the page, the median round trip.
    const worker = await page.evaluate(async (text) => {
      const times = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        await window.attentionExplorer.engine.ask('modelView', { name: 'file', text, layer: 0 });
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[2];
    }, sentence);
    await context.close();
    return {
      open,
      trace,
      traceCpu,
      worker,
      tokens,
      rendererPeak,
      peakSum,
      baseline,
      opened,
      traced,
      isolated,
      threads,
    };
  } finally {
    clearInterval(sample);
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const server = await startServer({ port: 0 });
const version = await chromium
  .launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
  .then(async (b) => [b.version(), await b.close()][0]);
const load0 = os.loadavg()[0];
const runs = [];
try {
  for (let r = 0; r < RUNS; r++) {
    runs.push(await once(server, sentenceOf(TOKENS)));
    const x = runs.at(-1);
    console.log(
      `run ${r + 1}: open ${x.open.toFixed(0)} ms, ${x.tokens}-token trace ${x.trace.toFixed(0)} ms (renderer CPU ${x.traceCpu.toFixed(0)} ms; the worker's modelView alone ${x.worker.toFixed(0)} ms), renderer RSS before ${(x.baseline / 2 ** 20).toFixed(0)}, opened ${(x.opened / 2 ** 20).toFixed(0)}, traced ${(x.traced / 2 ** 20).toFixed(0)}, peak ${(x.rendererPeak / 2 ** 20).toFixed(0)} MB, all processes ${(x.peakSum / 2 ** 20).toFixed(0)} MB, isolated ${x.isolated}, threads ${x.threads}`,
    );
  }
} finally {
  server.close();
}
const mb = (b) => (b / 2 ** 20).toFixed(0);
const m = (key) => median(runs.map((x) => x[key]));
console.log(
  `Chromium ${version}, load average ${load0.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}, ${RUNS} runs (medians): open ${(m('open') / 1000).toFixed(2)} s; ${TOKENS}-token trace ${m('trace').toFixed(0)} ms wall, ${m('traceCpu').toFixed(0)} ms renderer CPU, the worker's modelView alone ${m('worker').toFixed(0)} ms; renderer peak ${mb(m('rendererPeak'))} MB; every Chromium process ${mb(m('peakSum'))} MB`,
);
