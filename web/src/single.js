// The self-contained page (dist/attention-explorer.html): the engine's WASM is inlined into
// this script, so the file works from file:// with no network at all.
import wasmBinary from '../../dist/engine/attention-engine.wasm';
import { sharedEngine } from './explorer/engine.js';
import { pageKind } from './page-kind.js';

pageKind.singleFile = true;
sharedEngine({ wasmBinary });
await import('./main.js');
