// The playground's drawing, at most once per frame and within a budget, so that the
// page answers input while it trains.
// Parts are drawn in their order, the live heatmaps first; once a frame's drawing has taken
// budgetMs, the parts still dirty wait for the next frame (drawn first there, so that none waits
// for ever), and one frame never pays for heatmaps and curves together.
//
//   const frames = createFrameParts([[name, when(), draw(deadline) → false: not done], …], 4);
//   frames.redraw('curves', 'snapshot');   // those parts, in the next frame
//   frames.soon('curves', 250);            // at most every 250 ms, the last change always drawn

export function createFrameParts(parts, budgetMs) {
  const dirty = new Set();
  let frame = 0;
  let carried = new Set();
  const timers = new Map(); // name → { timer, at }

  function drawFrame() {
    frame = 0;
    const begin = performance.now();
    const order = [...parts.filter(([n]) => carried.has(n)), ...parts.filter(([n]) => !carried.has(n))];
    for (const [name, when, draw] of order) {
      if (!dirty.has(name)) continue;
      if (performance.now() - begin > budgetMs) break;
      dirty.delete(name);
      if (!when()) continue;
      // Each part timed (performance.measure 'playground:draw:<part>', read by
      // bench/playground-responsiveness.mjs): what one redraw costs the main thread.
      const start = performance.now();
      if (draw(begin + budgetMs) === false) dirty.add(name); // the rest next frame
      performance.measure(`playground:draw:${name}`, { start });
    }
    carried = new Set(dirty);
    if (dirty.size) frame = requestAnimationFrame(drawFrame);
  }

  function redraw(...names) {
    names.forEach((n) => dirty.add(n));
    frame ||= requestAnimationFrame(drawFrame);
  }

  function soon(name, minMs) {
    const entry = timers.get(name) ?? { timer: 0, at: 0 };
    timers.set(name, entry);
    if (entry.timer) return;
    entry.timer = setTimeout(
      () => {
        entry.timer = 0;
        entry.at = performance.now();
        redraw(name);
      },
      Math.max(0, minMs - (performance.now() - entry.at)),
    );
  }

  return { redraw, soon };
}
