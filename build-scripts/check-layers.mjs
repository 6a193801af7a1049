// The layers of the repository and the directions imports may take (docs/architecture.md draws
// them): reads every JS import and every C++ #include "…", and reports each one that goes up or
// sideways, each cycle, and each relative import of a file that is not there. No dependencies:
// imports are read line by line (an import's `from '…'` ends its statement on one line).
//
//   node build-scripts/check-layers.mjs        prints the problems; exit status 1 if any
//
// tests/node/layers.test.mjs runs it in `npm test`, on this repository and on planted mistakes.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = (names) => names.map((n) => `web/src/${n}.js`);

/**
 * The layers, each { name, match: the repository paths it holds (first matching layer wins), may:
 * the layers it may import besides its own }. A layer never imports one that lists it in `may`.
 */
export const LAYERS = [
  // The engine's JS API: hand-written in cpp/bindings/js, copied with the WASM module into dist/engine.
  { name: 'engine', match: ['cpp/bindings/js/', 'dist/engine/'], may: [] },
  // C++: public headers, then the sources behind them; training sits on the core; the Embind
  // bindings and the tools sit on both. Only cpp/bindings (and the WASM benchmarks) include
  // Emscripten's headers (#include <emscripten/…> reads as an import of 'emscripten'), so the
  // library builds and is tested natively.
  { name: 'emscripten', match: ['emscripten'], may: [] },
  { name: 'cpp/include', match: [/^cpp\/include\/attention\/[^/]+$/], may: [] },
  { name: 'cpp/include/train', match: ['cpp/include/attention/train/'], may: ['cpp/include'] },
  { name: 'cpp/src', match: [/^cpp\/src\/[^/]+$/], may: ['cpp/include'] },
  { name: 'cpp/src/train', match: ['cpp/src/train/'], may: ['cpp/include', 'cpp/include/train', 'cpp/src'] },
  {
    name: 'cpp/bindings',
    match: ['cpp/bindings/'],
    may: ['cpp/include', 'cpp/include/train', 'cpp/src', 'cpp/src/train', 'emscripten'],
  },
  { name: 'cpp/tools', match: ['cpp/tools/'], may: ['cpp/include', 'cpp/include/train', 'cpp/src', 'cpp/src/train'] },
  // The page, bottom up: leaves (no imports: node reads them cheaply), shared modules (state,
  // steps, scales, the request contract, DOM helpers), views, the model panel, then the two
  // pages' controllers, which never import each other, and the entry modules.
  {
    name: 'web/leaves',
    match: web(['limits', 'catalog', 'step-keys', 'chrome-flags', 'model-catalog', 'i18n-numbers', 'page-kind']),
    may: [],
  },
  { name: 'web/views', match: ['web/src/views/'], may: ['web/shared', 'web/leaves'] },
  { name: 'web/models', match: ['web/src/models/'], may: ['web/views', 'web/shared', 'web/leaves', 'engine'] },
  {
    name: 'web/explorer',
    match: ['web/src/explorer/'],
    may: ['web/models', 'web/views', 'web/shared', 'web/leaves', 'engine'],
  },
  {
    name: 'web/playground',
    match: ['web/src/playground/'],
    may: ['web/models', 'web/views', 'web/shared', 'web/leaves', 'engine'],
  },
  {
    name: 'web/entries',
    match: web(['main', 'embed', 'component', 'single', 'attributes']),
    may: ['web/explorer', 'web/playground', 'web/models', 'web/views', 'web/shared', 'web/leaves', 'engine'],
  },
  { name: 'web/shared', match: [/^web\/src\/[^/]+$/], may: ['web/leaves', 'engine'] },
  // Around the product: the CLI and tools use the engine; the server reads the page's leaves.
  { name: 'bin', match: ['bin/'], may: ['engine'] },
  { name: 'training', match: ['training/'], may: ['engine'] },
  { name: 'build-scripts', match: ['build-scripts/'], may: ['web/leaves', 'engine'] },
  // Tests test everything but the benchmarks; benchmarks may borrow the tests' support modules
  // (the browser, the model-file writer), never a test file, and tests never import benchmarks.
  { name: 'test files', match: [/^tests\/.*\.test\.mjs$/, /^tests\/.*_test\.cpp$/], may: ['tests', '*'] },
  { name: 'tests', match: ['tests/'], may: ['*'] },
  { name: 'bench', match: ['bench/'], may: ['tests', '*', 'emscripten'] },
];

/** '*': every layer of the product, that is every layer but the tests', the benchmarks' and Emscripten. */
const PRODUCT = LAYERS.map((l) => l.name).filter((n) => !['test files', 'tests', 'bench', 'emscripten'].includes(n));

/** The folders read (node_modules, build outputs and data are never under them). */
export const SOURCE_DIRS = ['cpp', 'web/src', 'bin', 'build-scripts', 'training', 'tests', 'bench'];
const SKIPPED = new Set(['node_modules', 'corpus', 'fixtures', 'screenshots']);
const JS = /\.(m?js|cjs)$/;
const CPP = /\.(cpp|hpp|h|cc)$/;
// Quoted #include "x" are looked up beside the file, then in the build's include folders.
const INCLUDE_DIRS = ['cpp/include', 'cpp/src'];
// The engine's JS is copied into dist/engine beside the module the build makes (attention-engine.mjs).
const BUILT_BESIDE = { 'cpp/bindings/js': 'dist/engine' };

export function layerOf(file, layers = LAYERS) {
  return layers.find((l) => l.match.some((m) => (typeof m === 'string' ? file.startsWith(m) : m.test(file))));
}

function filesUnder(root, dir) {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(root, rel);
    return JS.test(entry.name) || CPP.test(entry.name) ? [rel] : [];
  });
}

// One import per match: `import … from '…'`, `export … from '…'`, a statement's closing
// `} from '…'`, `import '…'`, `import('…')` with a literal; #include "…". Comment lines are skipped.
const JS_IMPORTS = [
  /^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/,
  /^\s*}\s*from\s*['"]([^'"]+)['"]/,
  /^\s*import\s*['"]([^'"]+)['"]/,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/,
];
const COMMENT = /^\s*(\/\/|\/\*|\*)/;

/** [{ line, spec }] of one file's imports (JS) or quoted includes (C++). */
export function importsOf(file, text) {
  const out = [];
  text.split('\n').forEach((source, i) => {
    if (CPP.test(file)) {
      const m = /^\s*#\s*include\s*(?:"([^"]+)"|<(emscripten)[/.])/.exec(source);
      if (m) out.push({ line: i + 1, spec: m[1] ?? m[2] });
      return;
    }
    if (COMMENT.test(source)) return;
    for (const pattern of JS_IMPORTS) {
      const m = pattern.exec(source);
      if (m) {
        out.push({ line: i + 1, spec: m[1] });
        break;
      }
    }
  });
  return out;
}

/** The repository path an import names, null for a package or a built-in, undefined if missing. */
function resolve(root, file, spec) {
  const dir = path.posix.dirname(file);
  if (CPP.test(file)) {
    if (spec === 'emscripten') return spec; // a system header: the layer, not a file
    for (const base of [dir, ...INCLUDE_DIRS]) {
      const candidate = path.posix.normalize(`${base}/${spec}`);
      if (existsSync(path.join(root, candidate))) return candidate;
    }
    return undefined;
  }
  if (!spec.startsWith('./') && !spec.startsWith('../')) return null; // d3, node:fs, virtual:…
  const target = path.posix.normalize(`${dir}/${spec}`);
  if (target.startsWith('dist/')) return target; // built: present only after the build
  if (existsSync(path.join(root, target)) && statSync(path.join(root, target)).isFile()) return target;
  return BUILT_BESIDE[dir] ? path.posix.normalize(`${BUILT_BESIDE[dir]}/${spec}`) : undefined;
}

/** { edges: Map(file → [{ line, target }]), problems: [text] } for the files under `dirs`. */
export function importGraph(root, dirs = SOURCE_DIRS) {
  const edges = new Map();
  const problems = [];
  for (const file of dirs.flatMap((d) => filesUnder(root, d)).sort()) {
    const list = [];
    for (const { line, spec } of importsOf(file, readFileSync(path.join(root, file), 'utf8'))) {
      const target = resolve(root, file, spec);
      if (target === undefined && JS.test(file)) problems.push(`${file}:${line} → ${spec}: no such file`);
      if (target) list.push({ line, target });
    }
    edges.set(file, list);
  }
  return { edges, problems };
}

/** Each import that goes up or sideways: "file:line → target: rule". */
export function upwardImports(edges, layers = LAYERS) {
  const problems = [];
  for (const [file, list] of edges) {
    const from = layerOf(file, layers);
    if (!from) continue;
    const may = from.may.flatMap((n) => (n === '*' ? PRODUCT : [n]));
    for (const { line, target } of list) {
      const to = layerOf(target, layers);
      if (!to || to === from || may.includes(to.name)) continue;
      const allowed = from.may.length
        ? from.may.join(', ').replace('*', 'any product layer')
        : 'nothing outside itself';
      problems.push(
        `${file}:${line} → ${target}: ${from.name} may not import ${to.name} (${from.name} may import ${allowed})`,
      );
    }
  }
  return problems;
}

/** Each import cycle once, as "a:line → b:line → a: import cycle" (Tarjan's strongly connected components). */
export function importCycles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (edges.get(v) ?? []).some((e) => e.target === v);
      if (component.length > 1 || selfLoop) components.push(new Set(component));
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    // One cycle through the component's first file: a path back to it inside the component.
    const start = [...component].sort()[0];
    const seen = new Set();
    const walk = (v, pathSoFar) => {
      for (const { line, target } of edges.get(v)) {
        if (!component.has(target)) continue;
        const step = [...pathSoFar, `${v}:${line}`];
        if (target === start) return step;
        if (seen.has(target)) continue;
        seen.add(target);
        const found = walk(target, step);
        if (found) return found;
      }
      return null;
    };
    return `${walk(start, []).join(' → ')} → ${start}: import cycle`;
  });
}

/** Every problem in the repository at `root`: missing files, upward imports, cycles. */
export function checkLayers(root, { dirs = SOURCE_DIRS, layers = LAYERS } = {}) {
  const { edges, problems } = importGraph(root, dirs);
  return [...problems, ...upwardImports(edges, layers), ...importCycles(edges)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  console.log(problems.length ? `layers: ${problems.length} problem(s)` : 'layers: no upward import, no cycle');
  process.exitCode = problems.length ? 1 : 0;
}
