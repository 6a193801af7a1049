// What the playground's long main-thread tasks are made of: a Chromium trace of
// SECONDS of training (the sort preset), then, for every task on the page's main thread longer
// than --over ms, the time of its parts (script, style, layout, paint, GC, …) and of the
// functions it ran, plus the same sums over all tasks. A tool for finding the cause; the figures
// for docs/benchmarks.md come from bench/playground-responsiveness.mjs.
//   node bench/playground-trace.mjs [--seconds 8] [--over 30]
import { openPage, startBrowser } from '../tests/e2e/browser.mjs';
import { mainThreadTasks, TASK_CATEGORIES } from './playground-tasks.mjs';

const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? Number(process.argv[k + 1]) : fallback;
};
const SECONDS = arg('seconds', 8);
const OVER = arg('over', 30);
const CATEGORIES = [...TASK_CATEGORIES, 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'];

const session = await startBrowser();
let events;
try {
  const { page, context } = await openPage(session.browser, `${session.url}playground.html?task=sort&lang=en`);
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 60000 });
  await page.click('[data-role=play]');
  await page.waitForFunction(() => window.attentionPlayground.history.loss.length > 5, null, { timeout: 60000 });
  await session.browser.startTracing(page, { categories: CATEGORIES });
  await page.waitForTimeout(SECONDS * 1000); // a measuring window, not a wait for a condition
  events = JSON.parse((await session.browser.stopTracing()).toString()).traceEvents;
  await context.close();
} finally {
  await session.close();
}

const { events: mine, tasks } = mainThreadTasks(events);
const KINDS = {
  script: ['FunctionCall', 'EvaluateScript', 'v8.callFunction', 'TimerFire', 'FireAnimationFrame', 'EventDispatch'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'],
  layout: ['Layout', 'UpdateLayerTree', 'PrePaint'],
  paint: ['Paint', 'PaintImage', 'RasterTask', 'Layerize', 'UpdateLayer'],
  gc: [
    'MinorGC',
    'MajorGC',
    'V8.GCScavenger',
    'V8.GCFinalizeMC',
    'BlinkGC.AtomicPhase',
    'ThreadState::performIdleLazySweep',
  ],
  message: ['V8.DeserializeMessage', 'HandlePostMessage', 'SerializedScriptValue'],
};

/** Per kind, ms inside a task (outermost matching events only, so nothing counts twice). */
function parts(task) {
  const end = task.ts + task.dur;
  const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= end);
  const sums = {};
  const fns = new Map();
  for (const [kind, list] of Object.entries(KINDS)) {
    const hits = inside.filter((e) => list.includes(e.name));
    const outer = hits.filter((e) => !hits.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
    sums[kind] = outer.reduce((s, e) => s + e.dur / 1000, 0);
  }
  for (const e of inside.filter(
    (x) => x.name === 'FunctionCall' || x.name === 'TimerFire' || x.name === 'FireAnimationFrame',
  )) {
    const data = e.args?.data ?? {};
    const label = `${e.name} ${data.functionName || ''} ${(data.url || '').split('/').pop()}:${data.lineNumber ?? ''}`;
    fns.set(label, (fns.get(label) ?? 0) + e.dur / 1000);
  }
  return { sums, fns };
}

const fmt = (o) =>
  Object.entries(o)
    .filter(([, v]) => v >= 0.5)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
const describe = (task) => {
  const { sums, fns } = parts(task);
  const top = [...fns].sort((a, b) => b[1] - a[1]).slice(0, 3);
  console.log(`${task.ms.toFixed(1)} ms (cpu ${task.cpuMs.toFixed(1)}): ${fmt(sums)}`);
  for (const [label, ms] of top) console.log(`    ${ms.toFixed(1)} ms ${label}`);
};
const long = tasks.filter((t) => t.ms > OVER).sort((a, b) => b.ms - a.ms);
console.log(
  `${tasks.length} tasks on the main thread in ${SECONDS} s; ${long.length} over ${OVER} ms (the longest 10):`,
);
long.slice(0, 10).forEach(describe);
console.log('the 5 with the most CPU time:');
tasks
  .slice()
  .sort((a, b) => b.cpuMs - a.cpuMs)
  .slice(0, 5)
  .forEach(describe);
// Over all tasks: which functions and which event names take the main thread's time.
const allFns = new Map();
const total = {};
for (const task of tasks) {
  const { sums, fns } = parts(task);
  for (const [k, v] of Object.entries(sums)) total[k] = (total[k] ?? 0) + v;
  for (const [k, v] of fns) allFns.set(k, (allFns.get(k) ?? 0) + v);
}
for (const [label, ms] of [...allFns].sort((a, b) => b[1] - a[1]).slice(0, 8))
  console.log(`  all: ${ms.toFixed(1)} ms ${label}`);
console.log(
  `all tasks, ms: ${fmt(total)}; wall ${tasks.reduce((s, t) => s + t.dur / 1000, 0).toFixed(0)}, cpu ${tasks.reduce((s, t) => s + (t.tdur ?? 0) / 1000, 0).toFixed(0)}`,
);
