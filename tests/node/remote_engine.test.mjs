// The page's side of the engine (web/src/explorer/lazy-trace.js) with stand-in transports: which
// trained models it also loads on the page's thread, and where their layers' traces then go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MODEL_PAGE_COST, RemoteEngine, modelFitsOnPage } from '../../web/src/explorer/lazy-trace.js';

// The shipped models' shape (docs/models.md): 30.4 M multiply-adds through their last layer.
const SMALL = { layers: 2, heads: 4, dModel: 128, contextLength: 64, config: { dFF: 0 } };
const LARGE = { layers: 8, heads: 8, dModel: 512, contextLength: 256, config: { dFF: 2048 } };

/** A transport that records its calls and answers `answer(type, payload)` (a value, or throws). */
function transport(answer) {
  const calls = [];
  return {
    calls,
    limits: {},
    worker: true,
    call: async (type, payload) => {
      calls.push([type, payload?.name]);
      return answer(type, payload);
    },
  };
}

const opened = { summary: { info: {} }, results: [] };

test('a model cheap enough is loaded on the page after the worker; its layers are then traced there', async () => {
  assert.equal(modelFitsOnPage(SMALL), true);
  assert.equal(modelFitsOnPage(LARGE), false);
  // The cost counts the default feed-forward width (dFF 0: 4 × d_model) and none without one.
  assert.equal(modelFitsOnPage({ ...SMALL, config: { dFF: 16 * 128 } }), false);
  assert.equal(modelFitsOnPage({ ...SMALL, config: { attentionOnly: true, dFF: 0 } }), true);
  assert.ok(MODEL_PAGE_COST >= 30_400_000);

  const worker = transport((type, { name } = {}) => (type === 'modelLoad' ? (name === 'big' ? LARGE : SMALL) : opened));
  const page = transport(() => opened);
  const engine = new RemoteEngine(worker, page);
  const before = engine.open({ model: { name: 'tang', layer: 0, text: '春' } });
  assert.equal(before.onPage, false, 'not yet loaded on the page: the worker traces it');
  await engine.ask('modelLoad', { name: 'tang', bytes: new Uint8Array(1) });
  await engine.ask('modelLoad', { name: 'big', bytes: new Uint8Array(1) });
  assert.deepEqual(await engine.modelsOnPage(), ['tang']);
  assert.deepEqual(page.calls, [
    ['modelDispose', 'big'], // too costly there: the page keeps no copy
    ['modelLoad', 'tang'],
  ]);
  assert.equal(engine.open({ model: { name: 'tang', layer: 1, text: '春眠' } }).onPage, true);
  assert.equal(engine.open({ model: { name: 'big', layer: 0, text: 'a' } }).onPage, false);
});

test('a newer load of the same name wins, a refused file keeps the page copy, a dispose drops it', async () => {
  let refuse = false;
  const worker = transport((type) => {
    if (type === 'modelLoad' && refuse) throw Object.assign(new Error('not a model file'), { code: 'INVALID_MODEL' });
    if (type === 'open') return opened;
    return type === 'modelLoad' ? SMALL : true;
  });
  const page = transport(() => true);
  const engine = new RemoteEngine(worker, page);
  // Two files in a row: the page loads the second only.
  const first = engine.ask('modelLoad', { name: 'file', bytes: new Uint8Array([1]) });
  const second = engine.ask('modelLoad', { name: 'file', bytes: new Uint8Array([2]) });
  assert.equal(engine.open({ model: { name: 'file', layer: 0, text: 'a' } }).onPage, false, 'none while loading');
  await Promise.all([first, second]);
  assert.deepEqual(await engine.modelsOnPage(), ['file']);
  assert.deepEqual(page.calls, [['modelLoad', 'file']]);
  // A file the worker refuses changes nothing: the page's copy still answers.
  refuse = true;
  await assert.rejects(engine.ask('modelLoad', { name: 'file', bytes: new Uint8Array([3]) }), /not a model file/);
  assert.deepEqual(await engine.modelsOnPage(), ['file']);
  assert.equal(page.calls.length, 1, 'the refused bytes never reach the page');
  // Disposed in the worker, disposed on the page.
  await engine.ask('modelDispose', { name: 'file' });
  assert.deepEqual(await engine.modelsOnPage(), []);
  assert.deepEqual(page.calls.at(-1), ['modelDispose', 'file']);
});

test("a checkpoint's bytes are moved to the worker and back, never copied; the page then loads them too", async () => {
  let detachedDuringLoad = null;
  const worker = transport((type, payload) => {
    if (type !== 'modelLoad') return opened;
    // What postMessage with the transfer list did: the page's buffer is the worker's now.
    detachedDuringLoad = payload.page.byteLength === 0;
    const bytes = payload.moved.checkpoint.safetensors;
    const back = structuredClone({ ...SMALL, safetensors: bytes }, { transfer: [bytes.buffer] });
    return back;
  });
  // The transport as engine.js's: the payload posted with its transfer list.
  const call = worker.call;
  worker.call = (type, payload, transfer = []) => {
    const moved = structuredClone(payload, { transfer });
    const page = payload.checkpoint?.safetensors.buffer;
    return call(type, { ...moved, moved, page });
  };
  const seen = [];
  const page = transport((type, payload) => seen.push(Array.from(payload.checkpoint?.safetensors ?? [])));
  const engine = new RemoteEngine(worker, page);
  const checkpoint = { config: '{}', safetensors: Uint8Array.from([5, 6, 7]) };
  const summary = await engine.ask('modelLoad', { name: 'file', checkpoint });
  assert.equal(detachedDuringLoad, true, 'moved, not copied');
  assert.equal('safetensors' in summary, false, 'the answer holds no bytes');
  assert.deepEqual(Array.from(checkpoint.safetensors), [5, 6, 7], 'handed back');
  assert.deepEqual(await engine.modelsOnPage(), ['file']);
  assert.deepEqual(page.calls, [['modelLoad', 'file']]);
  assert.deepEqual(seen, [[5, 6, 7]], "the page's own load reads the bytes handed back");
});
