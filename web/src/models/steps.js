// The steps of one transformer block around attention, in order: the engine's one list
// (kBlockSteps, its traced rows), read from the generated catalog. The worker copies them, the
// page draws them.
import { BLOCK_STEPS as ACTIVATIONS } from '../catalog.js';

export const BLOCK_STEPS = Object.freeze(ACTIVATIONS.filter((step) => step.traced).map((step) => step.name));
