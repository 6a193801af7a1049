// The steps of one transformer block around attention, in order: the engine's one list
// (kBlockSteps, its traced rows), read from the generated catalog. The worker copies them, the
// page draws them.
import { BLOCK_STEPS as ACTIVATIONS } from '../catalog.js';

const TRACED = ACTIVATIONS.filter((step) => step.traced);

export const BLOCK_STEPS = Object.freeze(TRACED.map((step) => step.name));
const ATTENTION_ONLY_STEPS = Object.freeze(TRACED.filter((step) => step.attentionOnly).map((step) => step.name));

/** The block steps a model of `config` has: an attention-only one has no LayerNorm and no FFN. */
export function blockStepsOf(config) {
  return config.attentionOnly ? ATTENTION_ONLY_STEPS : BLOCK_STEPS;
}
