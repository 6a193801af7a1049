// Type declarations of training in the engine (training.js), re-exported by engine.d.ts.
import type { Step, StepName } from './engine.js';
// Generated from the engine's catalogs (catalog.d.ts; engine.d.ts re-exports them).
import type { BlockStepName, ModelStepName } from './catalog.js';

// TrainerConfig and CorpusFields: each field's type, bounds, default and meaning from its row of
// trainer_fields.cpp (generated: training_fields.d.ts).
import type { CorpusFields, TrainerConfig } from './training_fields.js';
export type { CorpusFields, TrainerConfig } from './training_fields.js';

export interface StepMetrics {
  /** Updates done so far. */
  step: number;
  /** Mean training loss (cross-entropy over the answer tokens) of this call's batches. */
  loss: number;
  /** Share of their answer tokens the model ranked first. */
  accuracy: number;
  /** ‖g‖₂ of the last update, before clipping. */
  gradientNorm: number;
  /** Of the last update. */
  learningRate: number;
  tokensPerSecond: number;
  /** Mean softmax entropy (nats) over every attention row, layer and head of the last batch. */
  attentionEntropy: number;
  /** ‖∂L/∂scores‖₂ of the last batch, scores = q·kᵀ before ÷√dK, over every layer, head and sequence. */
  scoreGradientNorm: number;
  /** ‖∂L/∂(softmax input)‖₂ of the last batch: scoreGradientNorm · √dK when scaled, else the same. */
  softmaxGradientNorm: number;
}

/**
 * Mean attention weights of each head [layers][heads] on held-out examples. previousToken: from
 * each position t ≥ 1 to t − 1. induction: from each answer position to the input position that
 * holds its answer (Olsson et al.'s induction score on the induction task; on copy, reverse and
 * sort the weight on the symbol being copied); null for modular addition (no answer has one).
 */
export interface HeadScores {
  induction: number[][] | null;
  previousToken: number[][];
}

/** Every head's attention weights for one example: a compact, transferable copy. */
export interface AttentionSnapshot {
  tokens: string[];
  layers: number;
  heads: number;
  /** T, the example's tokens. */
  length: number;
  /** [layers × heads × T × T] row-major: weights[((l · heads + h) · T + i) · T + j], query i, key j. */
  weights: Float32Array;
}

/** The model's greedy answer to a task input. */
export interface Prediction {
  /** What the model read before answering: the input, then "|" (copy, reverse, sort); for
   * induction the input and the repeat's first symbol; for modular the tokens a + b =. */
  input: string[];
  /** What it generated: one symbol per answer position of the task. */
  answer: string[];
}

/** What a task asks of a prompt typed by a person (taskPrompt), from the engine's task table. */
export interface TaskPrompt {
  /** What the model reads: the input, then "|" (copy, reverse, sort); the tokens a + b =
   * (modular); the input itself (induction). */
  prompt: string[];
  /** Tokens to generate after the prompt: `length` (copy, reverse, sort), 1 (modular),
   * contextLength − the input's count (induction). */
  answerLength: number;
  /** The task's answer, at most answerLength symbols. Induction: after each token the token that
   * followed all its earlier occurrences, until a token has none or they disagree. */
  expected: string[];
}

export interface Evaluation {
  examples: number;
  /** Share of held-out examples whose whole answer, generated greedily, is right. */
  exactMatch: number;
  tokenAccuracy: number;
  /** Cross-entropy over the held-out answer tokens. */
  loss: number;
}

/** A step of a model trace: run()'s Step plus its layer (null for model-wide steps). */
export interface ModelStep extends Omit<Step, 'name' | 'rowsAxis' | 'colsAxis'> {
  name: StepName | BlockStepName | ModelStepName;
  layer: number | null;
  rowsAxis: Step['rowsAxis'] | 'ffn' | 'vocabulary';
  colsAxis: Step['colsAxis'] | 'ffn' | 'vocabulary';
}

/** One layer: its attention steps (as engine.run()) and the block's steps. Plain data. */
export interface LayerTrace {
  layer: number;
  tokens: string[];
  heads: number;
  stepNames: (StepName | BlockStepName)[];
  steps: Partial<Record<StepName | BlockStepName, ModelStep | ModelStep[]>>;
  step(name: StepName | BlockStepName, head?: number): ModelStep;
}

/** One sequence through the whole model. Plain data, nothing to free. */
export interface ModelTrace {
  tokens: string[];
  vocabulary: string[];
  layerCount: number;
  heads: number;
  dModel: number;
  dK: number;
  stepNames: ModelStepName[];
  steps: Partial<Record<ModelStepName, ModelStep>>;
  layers: LayerTrace[];
  /** A model-wide step; "probabilities" and "logits" have one column per vocabulary symbol. */
  step(name: ModelStepName): ModelStep;
}

/** Symbols or ids as tokens, or text split at white space (pieces not in the vocabulary: by character). */
export type ModelInput = { text: string } | { tokens: ArrayLike<number | string> };

interface ModelCommon {
  readonly parameterCount: number;
  readonly vocabulary: readonly string[];
  readonly contextLength: number;
  /** Exact match and loss on the first `count` (default 1000) held-out examples. */
  evaluate(count?: number): Evaluation;
  /**
   * What the task asks of a prompt typed by a person, text split as ModelInput's: copy, reverse,
   * sort take exactly `length` symbols of the alphabet; modular two numbers below the modulus;
   * induction 1 … contextLength symbols, the prompt itself. Anything else: AttentionError naming
   * "input" or "input[i]". A corpus language model throws INVALID_ARGUMENT naming "model".
   */
  taskPrompt(example: string | ModelInput): TaskPrompt;
  /** The model file (docs/model-format.md). */
  /** Unknown option names and values other than 'float32' / 'float16' throw INVALID_ARGUMENT. */
  save(options?: { precision?: 'float32' | 'float16' }): Uint8Array;
  /**
   * The model as a Hugging Face GPT-2 checkpoint (docs/gpt2.md, "Export ours"): config.json's
   * object, model.safetensors' bytes (float32) and the vocabulary in id order. Throws an
   * AttentionError naming model.config.<key> for what GPT-2 cannot express (attentionOnly,
   * tiedEmbeddings false, sinusoidal positions, scale or causal or residual false, dK · heads ≠ dModel).
   */
  exportCheckpoint(): {
    config: Record<string, unknown>;
    safetensors: Uint8Array;
    vocabulary: string[];
    /** The model file's own config (the exported README reads it). */
    source: Record<string, unknown>;
  };
  /** Frees the WASM memory (not garbage-collected). Further calls throw DISPOSED. */
  dispose(): void;
  readonly disposed: boolean;
}

/** A model training on a toy task. Call dispose() when done. */
export interface Trainer extends ModelCommon {
  /** The complete configuration, defaults filled in. */
  readonly config: Readonly<Required<TrainerConfig>>;
  readonly sequenceLength: number;
  /** Updates done so far. */
  readonly steps: number;
  /** `count` (default 1) updates on fresh batches. */
  /** A loss that is not finite throws NON_FINITE; from then on every call but dispose() throws that same error. */
  step(count?: number): StepMetrics;
  trace(example: ModelInput): ModelTrace;
  trace(example: ModelInput, layer: number): LayerTrace;
  /** Head scores on the first `count` (default 64, at most 4096) held-out examples, the same every call. */
  headScores(count?: number): HeadScores;
  /** Every head's weights for one example (up to contextLength tokens). */
  attention(example: ModelInput): AttentionSnapshot;
  /**
   * The greedy answer to a task input, text split as ModelInput's: copy, reverse, sort take
   * exactly `length` symbols of the alphabet ("3 1 2"); induction `length` … 2·length −
   * max(2, ⌈length/2⌉) symbols, whose last m = 2·length − count the model is to repeat;
   * modular two numbers below the modulus ("3 5"). Anything else: AttentionError naming
   * "input" or "input[i]" and the allowed symbols.
   */
  predict(example: string | ModelInput): Prediction;
}

/** A model read from a model file. Call dispose() when done. */
export interface TrainedModel extends ModelCommon {
  /**
   * The file's flat configuration (docs/model-format.md): the model's keys (dModel, layers,
   * heads, positionalEncoding, vocabSize, contextLength, …) and the task's (task, taskLength,
   * taskAlphabet, taskModulus, vocabulary: 'task').
   */
  readonly config: Readonly<Record<string, number | boolean | string>>;
  trace(input: ModelInput, options?: { steps?: string[] }): ModelTrace;
  trace(input: ModelInput, options: { layer: number; steps?: string[] }): LayerTrace;
  /**
   * What layer `layer`'s attention reads for `input`: the `x` of trace(input, { layer }), with
   * the model run only through that layer (no logits, no attention traced).
   */
  layerInput(input: ModelInput, layer: number): { rows: number; cols: number; data: Float32Array };
  /**
   * engine.open() options that show layer `layer`'s attention on `input` in the explorer: given
   * x (layerInput) and the layer's W_Q … b_O, the model's mask and scaling, no positional
   * encoding; the model run only through that layer.
   */
  layerOptions(input: ModelInput, layer: number): LayerOptions;
  /**
   * Up to count (1–1024, default 1) new symbols, greedy (default) or sampled with `seed` from
   * softmax(logits / temperature) over the topK (0: all) most likely, until the context is full
   * (the engine's one sampler). With greedy, temperature, topK and seed keep their defaults.
   */
  generate(
    input: ModelInput,
    options?: { count?: number; temperature?: number; topK?: number; greedy?: boolean; seed?: number },
  ): { tokens: string[]; ids: number[]; text: string };
  /**
   * Head roles measured on a held-out sample (the native tool's MeasureHeadRoles) in steps: the
   * sample's ids and each id's text; window 0 is the model's context.
   */
  measureRoles(
    sample: { ids: ArrayLike<number>; symbols: string[] },
    options?: { window?: number; repeats?: number; seed?: number; batch?: number; poem?: boolean; maxWindows?: number },
  ): RolesMeasurement;
}

/** A head-roles measurement in progress (TrainedModel.measureRoles). */
export interface RolesMeasurement {
  readonly steps: number;
  readonly done: number;
  /** One batch of windows or repeated sequences; → how many steps are done. */
  step(): number;
  /** Once done: each head's roles and per-role { score, chance, ratio, matched, matchedRatio, queries, holds }. */
  result(): {
    windows: number;
    positional: string[];
    heads: {
      layer: number;
      head: number;
      roles: string[];
      scores: Record<
        string,
        {
          score: number;
          chance: number;
          ratio: number;
          matched: number;
          matchedRatio: number;
          queries: number;
          holds: boolean;
        }
      >;
    }[];
  };
  stop(): void;
}

/** What layerOptions() returns: RunOptions with every field the explorer needs set. */
export interface LayerOptions {
  tokens: string[];
  dModel: number;
  heads: number;
  dK: number;
  mask: 'none' | 'causal';
  scale: boolean;
  bias: true;
  outputProjection: true;
  positionalEncoding: false;
  embedding: 'given';
  given: Record<
    'x' | 'wQ' | 'wK' | 'wV' | 'wO' | 'bQ' | 'bK' | 'bV' | 'bO',
    { rows: number; cols: number; data: Float32Array }
  >;
}

/** One row of the engine's table of trainer fields (cpp/include/attention/train/trainer_fields.hpp): Engine.trainerFields. */
export interface TrainerField {
  name: keyof TrainerConfig | keyof CorpusFields;
  section: 'task' | 'model' | 'optimizer' | 'trainer' | 'corpus';
  kind: 'int' | 'number' | 'bool' | 'enum';
  fallback: number | boolean | string;
  /** int and number: min ≤ value ≤ max (value > min when minOpen). */
  min?: number;
  max?: number;
  minOpen?: boolean;
  /** enum: the allowed names. */
  values?: readonly string[];
  /** A remark on a special value ("0: dModel / heads"), which errors end with. */
  note?: string;
  /** What the field is ("transformer blocks"). */
  about: string;
  /** What the field allows, as errors say it: "an integer from 1 to 12". */
  allowed: string;
  /** A model file records it, under its name (the model's rows but queryKeyInit). */
  inModelFile: boolean;
}
