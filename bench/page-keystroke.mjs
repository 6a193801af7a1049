// Typing in the page: from a keystroke's `input` event to the painted frame in
// which the open view shows the token it added, in Chromium, for every view at 8, 32 and 64
// tokens (the page's default model otherwise: d_model 8, 2 heads, step 1). Each sample types
// one letter after "… word " with the keyboard, so that it starts a new token, and records
// event.timeStamp → the first frame after the view's DOM holds that token (or changes once the
// trace has it, where the view's labels thin out): a requestAnimationFrame queued once it
// does, then a message task, which runs after that frame's style, layout and paint. Also the
// frame after everything the keystroke writes is written ("all": a keystroke leaves the cells'
// numbers to a task after its frame, web/src/frames.js). Medians over RUNS keystrokes. Needs
// `npm run build` first.
//
//   node bench/page-keystroke.mjs [--runs 15] [--views matrices,links] [--sizes 8,64] [--height 900]
//                                 [--model brown] [--write]
//
// --height: the window's height in CSS px (width 1280). At 900 (a laptop) the views lie below the
// stage, off screen: the frame lays them out but paints only what is on screen. At 3000 the
// whole page but the matrices view's lower half is on screen and painted.
// --model: a trained model (web/src/model-catalog.js) instead of random weights: the word-level
// English prose model reads the same sentences (lower-cased, "z" an unknown word), one token a word.
// The trace of the model's layer 1 is computed on the page's thread (explorer/lazy-trace.js), the
// model panel's view in the engine's worker.
// --views and --sizes measure a part of the table while profiling (--write needs all of it).
// --write puts the table into docs/benchmarks.md between the page-keystroke markers.
import { VIEWS } from '../web/src/views/registry.js';
import { LINKABLE_MODELS } from '../web/src/model-catalog.js';
import { startSite, writeSection } from './page-site.mjs';
import { median } from './timing.mjs';

const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1] : fallback;
};
const RUNS = Number(arg('runs', 15));
const HEIGHT = Number(arg('height', 900));
const MODEL = arg('model', 'random');
// Of the models a link can name, the one whose tokens are the sentence's words (not 唐诗's characters).
const BENCH_MODELS = LINKABLE_MODELS.filter((model) => model !== 'tang');
if (!BENCH_MODELS.includes(MODEL)) throw new Error(`--model: "${MODEL}" is not one of ${BENCH_MODELS.join(', ')}`);
if (MODEL !== 'random' && HEIGHT !== 900) throw new Error('--model is measured at --height 900 only');
if (process.argv.includes('--write') && (process.argv.includes('--views') || process.argv.includes('--sizes')))
  throw new Error('--write records the whole table: leave out --views and --sizes');
const SIZES = arg('sizes', '8,32,64').split(',').map(Number);
const VIEW_NAMES = arg('views', Object.keys(VIEWS).join(',')).split(',');
for (const view of VIEW_NAMES)
  if (!VIEWS[view]) throw new Error(`--views: "${view}" is not one of ${Object.keys(VIEWS).join(', ')}`);
const MARKER = 'z'; // a token no base sentence has
const WORDS = 'the cat sat on a mat and we ate hot pot in it so you can see how far it goes'.split(' ');
/** n - 1 words and a space: the letter typed after it is token n. */
const baseSentence = (n) => `${Array.from({ length: n - 1 }, (_, i) => WORDS[i % WORDS.length]).join(' ')} `;

/**
 * In the page: resolves with the milliseconds from the next `input` event to the frame that
 * shows `marker` (token), and to the frame after the page has written all it writes for it (all).
 */
function arm({ role, marker }) {
  const input = document.querySelector('[data-role=sentence]');
  const target = document.querySelector(`[data-role=${role}]`);
  window.__keystroke = new Promise((resolve, reject) => {
    let start = null;
    // Captured on the window, before the page's own listener: a small trace is computed and drawn
    // inside that listener's task, so the view can change before a listener on the input runs.
    window.addEventListener('input', (event) => (start = event.timeStamp), { once: true, capture: true });
    // A label with the token, or (the softmax view, whose key labels thin out) one bar more.
    const bars = () => target.querySelectorAll('.chart-weights rect.bar').length;
    const barsBefore = bars();
    // Or, where labels thin out (the heatmap labels every k-th token), a change to the view
    // made once the page's trace ends with the token: the observer runs after the draw's task.
    const traced = () => window.attentionExplorer.trace?.tokens.at(-1) === marker;
    // The trace first: reading every text of the view (900 in the matrices view at 8 tokens)
    // costs the keystroke's own task 0.3 ms, which is the benchmark's, not the page's.
    const shown = () =>
      traced() ||
      [...target.querySelectorAll('text, span, li, th, label')].some((el) => el.textContent === marker) ||
      (barsBefore > 0 && bars() === barsBefore + 1);
    const observer = new MutationObserver(() => {
      if (start === null || !shown()) return;
      observer.disconnect();
      const afterFrame = (then) =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => then(performance.now() - start);
          channel.port2.postMessage(0);
        });
      afterFrame(async (token) => {
        // And once the page has written all of it (a keystroke leaves the cells' numbers to
        // after its frame, web/src/frames.js): the frame after idle().
        await window.attentionExplorer.idle();
        afterFrame((all) => resolve({ token, all }));
      });
    });
    observer.observe(target, { subtree: true, childList: true, characterData: true });
    setTimeout(() => {
      const state = window.attentionExplorer.store.get();
      reject(new Error(`the view never showed "${marker}" (sentence "${state.sentence}", input "${input.value}")`));
    }, 20_000);
  });
}

/** One keystroke's latency at `n` tokens in `view` (the page is open at that view). */
async function sample(page, view, n) {
  const sentence = baseSentence(n);
  await page.evaluate(async (s) => {
    document.querySelector('[data-role=sentence]').value = s;
    window.attentionExplorer.store.set({ sentence: s });
    await window.attentionExplorer.idle();
  }, sentence);
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.evaluate(arm, { role: VIEWS[view].role, marker: MARKER });
  await page.keyboard.press(MARKER);
  return page.evaluate(() => window.__keystroke);
}

const { browser, base, close } = await startSite();
const rows = []; // { view, n, median, max }
try {
  for (const view of VIEW_NAMES) {
    const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT } });
    const page = await context.newPage();
    await page.goto(`${base}?view=${view}&lang=en&model=${MODEL}`);
    await page.waitForFunction(() => window.attentionExplorer);
    // A trained model is loaded in the worker, then on the page's thread once it is idle.
    await page.evaluate(async () => {
      await window.attentionExplorer.idle();
      await window.attentionExplorer.engine.modelsOnPage();
    });
    for (const n of SIZES) {
      await sample(page, view, n); // warm-up: the first trace of a size allocates
      const times = [];
      for (let r = 0; r < RUNS; r++) times.push(await sample(page, view, n));
      const token = times.map((t) => t.token);
      const all = median(times.map((t) => t.all));
      rows.push({ view, n, median: median(token), max: Math.max(...token), all });
      console.error(
        `${view}, ${n} tokens: median ${median(token).toFixed(1)} ms, max ${Math.max(...token).toFixed(1)} ms, all written ${all.toFixed(1)} ms`,
      );
    }
    await context.close();
  }
} finally {
  await close();
}

const table = [
  `| view | ${SIZES.map((n) => `${n} tokens`).join(' | ')} |`,
  `| --- | ${SIZES.map(() => '---:').join(' | ')} |`,
  ...VIEW_NAMES.map(
    (view) =>
      `| ${view} | ${SIZES.map((n) => {
        const row = rows.find((r) => r.view === view && r.n === n);
        return `${row.median.toFixed(1)} ms (max ${row.max.toFixed(0)}; all ${row.all.toFixed(0)})`;
      }).join(' | ')} |`,
  ),
].join('\n');
console.log(table);

if (process.argv.includes('--write')) {
  const date = new Date().toISOString().slice(0, 10);
  writeSection(
    MODEL !== 'random' ? `page-keystroke-${MODEL}` : HEIGHT === 900 ? 'page-keystroke' : 'page-keystroke-tall',
    `Median of ${RUNS} keystrokes to the frame that shows the token (in brackets: the slowest, and the median to the frame after all is written, numbers included), window 1280 × ${HEIGHT}, ${date}:\n\n${table}`,
  );
}
