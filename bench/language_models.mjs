// The corpus language models' calls in WebAssembly (node, one thread): load, encode, a whole
// trace, headLabels, predict, and generate (per token), each as the median of samples taken by
// bench/timing.mjs, wall clock and CPU time (on a shared machine CPU time counts the work, wall
// clock the waiting too). The input is the model's held-out sample cut to its context.
//   node bench/language_models.mjs [FILE.model …]   (default: every models/*.model)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../dist/engine/engine.js';
import { timeSamples, summarize } from './timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files = process.argv.slice(2);
if (!files.length) {
  const dir = path.join(root, 'models');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.model'))) files.push(path.join(dir, f));
}

/** The held-out sample of models/heldout/<name>.txt, or the model's vocabulary as text. */
function sampleText(file, model) {
  try {
    return readFileSync(path.join(root, 'models/heldout', `${path.basename(file, '.model')}.txt`), 'utf8');
  } catch {
    return model.vocabulary.slice(4).join(model.vocabularyLevel === 'word' ? ' ' : '');
  }
}

const engine = await createEngine();
const GENERATED = 16;
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const model = engine.loadModel(bytes);
  const c = model.config;
  const text = sampleText(file, model);
  const { tokens } = model.encode(text);
  const input = { tokens: model.encode(text).ids };
  const rows = [
    ['load', () => engine.loadModel(bytes).dispose()],
    ['encode', () => model.encode(text)],
    ['trace (every step)', () => model.trace(input)],
    ['headLabels', () => model.headLabels(input)],
    ['predict', () => model.predict(input)],
    [`generate ${GENERATED} (per token)`, () => model.generate(input, { count: GENERATED, greedy: false }), GENERATED],
  ];
  console.log(
    `${path.basename(file)}: ${(bytes.length / 2 ** 20).toFixed(2)} MB, ${model.parameterCount} parameters, ` +
      `${c.layers} layers × ${c.heads} heads, dModel ${c.dModel}, vocabulary ${c.vocabSize} (${c.vocabulary}), ` +
      `${tokens.length} tokens of input`,
  );
  for (const [name, run, per = 1] of rows) {
    const { samples, cpu } = await timeSamples(run, { warmup: 0.5 });
    const wall = summarize(samples).median / per;
    const work = summarize(cpu).median / per;
    console.log(`  ${name.padEnd(28)} ${wall.toFixed(2).padStart(9)} ms wall  ${work.toFixed(2).padStart(9)} ms CPU`);
  }
  model.dispose();
}
