// How long each playground preset takes to learn its task in WASM (node, one thread, the built
// engine): steps and seconds until held-out exact match reaches 95%, checked every CHECK steps on
// 200 examples.
//   node bench/playground-presets.mjs [task …]
import { createEngine } from '../dist/engine/engine.js';
import { presetOf, TASK_NAMES, trainerConfig } from '../web/src/playground/presets.js';

const CHECK = 50;
const MAX_SECONDS = 120;
const engine = await createEngine();
const tasks = process.argv.slice(2).length ? process.argv.slice(2) : TASK_NAMES;

for (const task of tasks) {
  const trainer = engine.createTrainer(trainerConfig(task, presetOf(task).knobs));
  const t0 = performance.now();
  let trainMs = 0;
  let reached = null;
  let last;
  while ((performance.now() - t0) / 1000 < MAX_SECONDS) {
    const s = performance.now();
    trainer.step(CHECK);
    trainMs += performance.now() - s;
    last = trainer.evaluate(200);
    if (last.exactMatch >= 0.95) {
      reached = trainer.steps;
      break;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `${task}: ${trainer.parameterCount} parameters; ${reached ? `95% after ${reached} steps` : `not 95% after ${trainer.steps} steps`}, ` +
      `${seconds.toFixed(1)} s (training ${(trainMs / 1000).toFixed(1)} s, ${((trainer.steps * 1000) / trainMs).toFixed(0)} steps/s); ` +
      `exact match ${last.exactMatch.toFixed(3)}, token accuracy ${last.tokenAccuracy.toFixed(3)}`,
  );
  trainer.dispose();
}
