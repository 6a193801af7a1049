// The self-contained page (dist/attention-explorer.html): the engine's WASM is inlined into
// this script, so the file works from file:// with no network at all. It is both pages: the
// explorer, and at ?page=playground the training playground, whose worker starts
// from its code inside this file and whose styles are added here.
import wasmBinary from '../../dist/engine/attention-engine.wasm';
import playgroundWorker from 'virtual:playground-worker';
import playgroundCss from 'virtual:playground-css';
import { sharedEngine } from './explorer/engine.js';
import { pageKind } from './page-kind.js';

pageKind.singleFile = true;
if (new URLSearchParams(location.search).get('page') === 'playground') {
  Object.assign(pageKind, { wasmBinary, playgroundWorker });
  const style = document.createElement('style');
  style.textContent = playgroundCss;
  document.head.append(style);
  document.title = 'Attention Playground';
  await import('./playground/main.js');
} else {
  sharedEngine({ wasmBinary });
  await import('./main.js');
}
