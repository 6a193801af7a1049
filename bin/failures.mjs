// Why a training command stops, each with its exit code (bin/train.mjs maps them; the engine's
// own refusals are AttentionErrors, exit 1).

/** Bad arguments: the message names the flag and its allowed values; the usage follows. Exit 2. */
export class UsageError extends Error {}

/** A model file that cannot be read or used, or a model of the wrong kind. Exit 1. */
export class Refusal extends Error {}

/** The model file cannot be written. Exit 3. */
export class WriteFailure extends Error {}
