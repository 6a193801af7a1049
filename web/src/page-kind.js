// What kind of page the bundle runs in. single.js (dist/attention-explorer.html) sets
// singleFile before a page's module starts: that file is both pages (the playground at
// ?page=playground) and has no embed.html beside it to point at. In it, the playground's worker
// starts from its code inside the file (playgroundWorker) with the engine's bytes (wasmBinary).
export const pageKind = { singleFile: false, wasmBinary: null, playgroundWorker: null };

/** The two pages as links from either: the site's files, or the single file itself. */
export function pageLinks() {
  if (!pageKind.singleFile) return { explorer: 'index.html', playground: 'playground.html' };
  const file = location.pathname.split('/').pop();
  return { explorer: file, playground: `${file}?page=playground` };
}
