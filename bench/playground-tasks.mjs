// The page's main-thread tasks in a Chromium trace (playwright's browser.startTracing), with
// wall time and CPU (thread) time each: on a machine shared with other jobs, a task can last
// 100 ms of wall time while the page's own work in it is 5 ms; the CPU time tells them apart.
//   mainThreadTasks(traceEvents) → { events, tasks: [{ ts, dur, tdur, ms, cpuMs }] }
//     events: every complete event of that thread (for attribution), tasks: top-level ones.

/** Categories enough for top-level tasks (the 'toplevel' RunTask events carry tdur). */
export const TASK_CATEGORIES = ['toplevel'];

export function mainThreadTasks(traceEvents) {
  const names = new Map(
    traceEvents.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]),
  );
  // The page's main thread: the CrRendererMain thread with the most complete events.
  const counts = new Map();
  for (const e of traceEvents) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && names.get(key) === 'CrRendererMain') counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const main = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const events = traceEvents.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  // Top-level tasks only (Chromium nests RunTask inside ThreadControllerImpl::RunTask).
  const runs = events
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const tasks = [];
  let end = -Infinity;
  for (const e of runs) {
    if (e.ts + e.dur <= end) continue; // inside the previous top-level task
    end = e.ts + e.dur;
    tasks.push({ ...e, ms: e.dur / 1000, cpuMs: (e.tdur ?? 0) / 1000 });
  }
  return { events, tasks };
}
