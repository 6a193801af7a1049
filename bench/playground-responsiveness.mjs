// The playground's main thread while the sort preset trains: the longest task
// (the largest gap between two animation frames, and PerformanceObserver 'longtask' entries),
// frames per second, how often the heatmaps and curves are redrawn and what one redraw costs;
// from a Chromium trace of the same window, each main-thread task's wall and CPU time.
// Each run opens the built site (dist/site) in headless Chromium, measures SECONDS with the
// page idle (the shared machine's own noise), then SECONDS while it trains.
//   node bench/playground-responsiveness.mjs [--runs 3] [--seconds 8] [--write]
// --write puts the table into docs/benchmarks.md between the playground markers.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPage, startBrowser, withoutIsolation } from '../tests/e2e/browser.mjs';
import { mainThreadTasks, TASK_CATEGORIES } from './playground-tasks.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? Number(process.argv[k + 1]) : fallback;
};
const RUNS = arg('runs', 3);
const SECONDS = arg('seconds', 8);

/** In the page: frame gaps, long tasks and redraws of the snapshot label, over `ms`. */
function measure(ms) {
  return new Promise((resolve) => {
    const tasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push(e.duration))).observe({
      type: 'longtask',
    });
    let redraws = 0;
    new MutationObserver(() => redraws++).observe(document.querySelector('[data-role=scrub-label]'), {
      childList: true,
      characterData: true,
      subtree: true,
    });
    const gaps = [];
    const start = performance.now();
    let last = start;
    const frame = (now) => {
      gaps.push(now - last);
      last = now;
      if (now - start < ms) requestAnimationFrame(frame);
      else {
        const draws = performance
          .getEntriesByType('measure')
          .filter((e) => e.name.startsWith('playground:draw:') && e.startTime >= start)
          .map((e) => e.duration);
        resolve({ frames: gaps.length, gaps, tasks, redraws, draws, ms: now - start });
      }
    };
    requestAnimationFrame(frame);
  });
}

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const summary = (m) => ({
  fps: (m.frames * 1000) / m.ms,
  longestGap: Math.max(...m.gaps),
  longestTask: Math.max(0, ...m.tasks),
  longTasks: m.tasks.length,
  redrawsPerSecond: (m.redraws * 1000) / m.ms,
  medianDraw: median(m.draws),
  longestDraw: Math.max(0, ...m.draws),
});
/**
 * The summary of `measure` run under a Chromium trace, plus the main thread's longest task in
 * wall time and the CPU time of the task with the most: what the page's own work costs,
 * apart from the time the machine's other jobs take the core away.
 */
async function traced(page, run) {
  await session.browser.startTracing(page, { categories: TASK_CATEGORIES });
  const m = await run();
  const { tasks } = mainThreadTasks(JSON.parse((await session.browser.stopTracing()).toString()).traceEvents);
  return {
    ...summary(m),
    traceLongest: Math.max(0, ...tasks.map((t) => t.ms)),
    cpuLongest: Math.max(0, ...tasks.map((t) => t.cpuMs)),
    cpuOver50: tasks.filter((t) => t.cpuMs > 50).length,
  };
}

const session = await startBrowser();
// --single: the site as a host without COOP/COEP serves it (not cross-origin isolated), so the
// worker trains on the single-threaded engine: the same minute, for comparison.
const SINGLE = process.argv.includes('--single');
async function openPlayground(url) {
  if (!SINGLE) return openPage(session.browser, url);
  const { context, page } = await withoutIsolation(session.browser, session.url);
  await page.goto(url);
  return { page, context };
}
const runs = { idle: [], training: [] };
let steps = [];
let threads = [];
try {
  for (let r = 0; r < RUNS; r++) {
    const { page, context } = await openPlayground(`${session.url}playground.html?task=sort&lang=en`);
    await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 60000 });
    // The engine's threads: the served page is cross-origin isolated, so its worker
    // trains on the threaded engine, one thread per core, beside the page's main thread.
    threads.push(await page.getAttribute('[data-role=status]', 'data-threads'));
    runs.idle.push(await traced(page, () => page.evaluate(measure, SECONDS * 1000)));
    await page.click('[data-role=play]');
    await page.waitForFunction(() => window.attentionPlayground.history.loss.length > 5, null, { timeout: 60000 });
    runs.training.push(await traced(page, () => page.evaluate(measure, SECONDS * 1000)));
    steps.push(await page.evaluate(() => window.attentionPlayground.history.loss.at(-1)[0]));
    await context.close();
  }
} finally {
  await session.close();
}

const fmt = (v, digits = 0) => v.toFixed(digits);
const row = (label, key, digits = 0) =>
  `| ${label} | ${['training', 'idle'].map((k) => `${fmt(median(runs[k].map((r) => r[key])), digits)} (${runs[k].map((r) => fmt(r[key], digits)).join(', ')})`).join(' | ')} |`;
const table = [
  `The sort preset in the playground's worker, on ${[...new Set(threads)].join(', ')} engine thread(s) (${SINGLE ? 'served without COOP/COEP: the single-threaded engine' : 'the threaded engine: the page is cross-origin isolated'}); per run ${SECONDS} s with the page idle, then ${SECONDS} s while it trains (${steps.join(', ')} steps done by the end); Chromium headless, ${os.cpus().length} cores shared with other jobs (load average ${os.loadavg()[0].toFixed(1)} at the end), ${RUNS} runs, median (runs). Goal: no main-thread task over 50 ms, drawing at least 10 times per second.`,
  '',
  '| what | training: median (runs) | idle: median (runs) |',
  '| --- | ---: | ---: |',
  row('frames per second', 'fps'),
  row('longest gap between two frames, ms', 'longestGap'),
  row("longest 'longtask' entry, ms (0: none over 50 ms)", 'longestTask'),
  row('long tasks (over 50 ms) in the window', 'longTasks'),
  row('longest main-thread task in the trace, ms of wall time', 'traceLongest'),
  row("longest main-thread task's CPU time, ms (the page's own work)", 'cpuLongest', 1),
  row('tasks with over 50 ms of CPU time', 'cpuOver50'),
  row('heatmap redraws per second', 'redrawsPerSecond', 1),
  row('one part redrawn (curves, heatmaps, head scores), median ms of JS', 'medianDraw', 1),
  row('one part redrawn, longest ms of JS', 'longestDraw', 1),
].join('\n');
console.log(table);

if (process.argv.includes('--write')) {
  const file = path.join(root, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const start = '<!-- playground:start -->';
  const end = '<!-- playground:end -->';
  const section = `${start}\n${table}\n${end}`;
  writeFileSync(file, doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), section));
}
