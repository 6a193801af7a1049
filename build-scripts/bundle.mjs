// Bundles the page into dist/site/: the app (D3 and the engine's JS API included), its CSS,
// index.html and the engine's .wasm beside the bundle. Nothing is loaded from a CDN.
import { build } from 'esbuild';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const site = path.join(root, 'dist/site');
// Start clean: a file removed from web/public must not linger in the site.
await rm(site, { recursive: true, force: true });
await mkdir(site, { recursive: true });

await build({
  entryPoints: { app: path.join(root, 'web/src/main.js') },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  outdir: site,
  // KaTeX's fonts are copied beside the CSS that names them.
  loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
  assetNames: 'fonts/[name]-[hash]',
  // Only reached under node (engine.js reads the .wasm from disk there), never in a browser.
  external: ['node:fs/promises'],
  sourcemap: true,
  minify: true,
  logLevel: 'warning',
});

for (const file of await readdir(path.join(root, 'web/public'))) {
  await copyFile(path.join(root, 'web/public', file), path.join(site, file));
}
await copyFile(path.join(root, 'dist/engine/attention-engine.wasm'), path.join(site, 'attention-engine.wasm'));
console.log(`bundle: ${path.relative(root, site)}/ ready`);
