// Type declarations of the attention engine's public API (engine.js).
import type { CorpusFields, TrainedModel, Trainer, TrainerConfig, TrainerField } from './training.js';
import type { LanguageModel } from './language_model.js';
import type { CorpusLimits, CorpusTrainer, CorpusTrainerOptions } from './corpus_training.js';
import type { BpeTokenizer, BpeTokenizerOptions } from './bpe_tokenizer.js';
// StepName, BlockStepName, ModelStepName and TaskName are generated from the engine's own
// catalogs (build-scripts/catalog.mjs): catalog.d.ts, re-exported below.
import type { StepName } from './catalog.js';
export * from './training.js';
export * from './language_model.js';
export * from './corpus_training.js';
export * from './bpe_tokenizer.js';
export * from './catalog.js';

export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'SHAPE_MISMATCH'
  | 'NON_FINITE'
  | 'INVALID_UTF8'
  | 'LIMIT_EXCEEDED'
  | 'UNKNOWN_STEP'
  | 'DISPOSED'
  /** A failure inside WebAssembly; the engine replaced its instance, retry the call. */
  | 'INTERNAL';

/** Every failure: a stable code, the field at fault and a sentence naming the allowed values. */
export class AttentionError extends Error {
  readonly name: 'AttentionError';
  readonly code: ErrorCode;
  /** e.g. "heads", "mask.width", "given.wQ", "tokens[3]" */
  readonly field: string;
}

/** A matrix: row-major numbers with a shape, or an array of rows. Biases may be flat arrays. */
export type MatrixInput = { data: ArrayLike<number>; rows: number; cols: number } | number[][] | ArrayLike<number>;

export type MaskOption =
  | 'none'
  | 'causal'
  | { type: 'none' | 'causal' }
  /**
   * The sparse patterns: the engine computes only the scores they allow (docs/computation.md).
   * query i sees key j when |i − j| ≤ width (default 1), and j ≤ i as well when causal.
   */
  | { type: 'window'; width?: number; causal?: boolean }
  /** window, plus global tokens (default [0]) that see every key and that every query sees */
  | { type: 'longformer'; width?: number; causal?: boolean; global?: number[] }
  /**
   * longformer, plus for each block of `block` queries (default 4) `random` key blocks (default
   * 1) drawn by splitmix64(seed) (default 0)
   */
  | {
      type: 'bigbird';
      width?: number;
      causal?: boolean;
      global?: number[];
      block?: number;
      random?: number;
      seed?: number;
    }
  /** |i − j| ≤ width·dilation and dilation divides i − j (dilation default 2) */
  | { type: 'dilated'; width?: number; causal?: boolean; dilation?: number }
  /** key positions nobody may attend to */
  | { type: 'padding'; positions: number[] }
  /** [nQuery × nKey], 1 = may attend, 0 = masked */
  | { type: 'custom'; matrix: MatrixInput };

export interface RunOptions {
  /** Query tokens (and keys/values in self-attention), used as given. Give tokens or text. */
  tokens?: string[];
  /** Text split into tokens by `tokenizer`. */
  text?: string;
  /** Cross-attention: keys and values from these tokens (or kvText). */
  kvTokens?: string[];
  kvText?: string;
  /**
   * How text and kvText are split. 'words' (default): as the page does, whitespace first,
   * then Intl.Segmenter words (小明|在|北京|的|清华大学|读书); 'chars': grapheme clusters;
   * 'whitespace': the pieces between spaces; 'engine': the engine's own tokenizer
   * (engine.tokenize: one token per CJK character).
   */
  tokenizer?: 'words' | 'chars' | 'whitespace' | 'engine';
  /** 1–1024. Default 8. */
  dModel?: number;
  /** 1–dModel; must divide dModel unless dK is set. Default 2. */
  heads?: number;
  /** Width of one head; 0 (default) means dModel / heads. */
  dK?: number;
  /** An integer from 0 to 4294967295, as np.random.seed accepts. Default 42. */
  seed?: number;
  /** Default 'none'. */
  mask?: MaskOption;
  /** Divide scores by √dK. Default true. */
  scale?: boolean;
  /** Scores are divided by it; 0.01–100. Default 1. */
  temperature?: number;
  /** Add b_Q, b_K, b_V (and b_O). Default false. */
  bias?: boolean;
  /** Apply W_O after concatenating heads. Default true. */
  outputProjection?: boolean;
  /** 'randn': raw N(0,1) like the tutorials; 'scaled' (default): N(0,1)/√fanIn. */
  init?: 'randn' | 'scaled';
  /** Add sinusoidal positional encoding to X. Default true. */
  positionalEncoding?: boolean;
  /**
   * 'hash' (default): each token's vector from a hash of its text and the seed;
   * 'stream': np.random.seed(seed); X = randn(n, dModel) first, then the weights;
   * 'given': X (and xKv) from `given`.
   */
  embedding?: 'hash' | 'stream' | 'given';
  /**
   * Matrices that replace generated ones: x, xKv [tokens × dModel], wQ/wK/wV [dModel × heads·dK],
   * wO, biases. A matrix larger than any valid one (a side over 4096, over 4,194,304 values) is
   * refused (LIMIT_EXCEEDED) before its values are read.
   */
  given?: Partial<Record<'x' | 'xKv' | 'wQ' | 'wK' | 'wV' | 'wO' | 'bQ' | 'bK' | 'bV' | 'bO', MatrixInput>>;
  /**
   * 'softmax' (default), or 'linear': φ(q_i)ᵀ(Σ_j φ(k_j) v_jᵀ) / φ(q_i)ᵀΣ_j φ(k_j) with
   * φ = elu + 1 (Katharopoulos et al., 2020), O(n·dK²) per head, no n × n matrix. Linear takes
   * mask 'none' or 'causal' (prefix sums) only, scale true and temperature 1 (INVALID_ARGUMENT
   * naming mask.type, scale or temperature otherwise). Its trace has the steps phiQ, phiK,
   * kvSummary, keySum, normaliser and linearWeights, no rowMax or rowEntropy, and keeps
   * scores … weights: the softmax of the same Q and K, for comparison.
   */
  attention?: 'softmax' | 'linear';
}

export type Axis = 'query' | 'key' | 'model' | 'projection' | 'headDim' | 'one';

export interface Step {
  name: StepName;
  /** The head of a per-head step, null otherwise. */
  head: number | null;
  rows: number;
  cols: number;
  /**
   * Row-major values, a copy owned by JS. "masked" holds -Infinity where masked; with a sparse
   * pattern "scores" and "scaled" hold NaN where the pattern computes no score.
   */
  data: Float32Array;
  rowsAxis: Axis;
  colsAxis: Axis;
  /** Tokens for token axes, "0", "1", … for feature axes. */
  rowLabels: string[];
  colLabels: string[];
}

export interface Flops {
  qProjection: number;
  kProjection: number;
  vProjection: number;
  scores: number;
  scaling: number;
  mask: number;
  softmax: number;
  weightedSum: number;
  /** Linear attention only (0 with softmax, whose scores … softmax are 0 with linear). */
  featureMap: number;
  summary: number;
  normaliser: number;
  outputProjection: number;
  total: number;
}

interface TraceSummary {
  tokens: string[];
  /** Keys/values: kvTokens in cross-attention, the tokens otherwise. */
  kvTokens: string[];
  cross: boolean;
  attention: 'softmax' | 'linear';
  nQuery: number;
  nKey: number;
  dModel: number;
  heads: number;
  dK: number;
  projectionWidth: number;
  parameterCount: number;
  flops: Flops;
  /** The (query, key) scores a head computes: nQuery × nKey, or a sparse pattern's count. */
  computedScores: number;
  /** computedScores / (nQuery × nKey) */
  computedScoreFraction: number;
  stepNames: StepName[];
}

/** A fully copied trace: plain data, nothing to free. */
export interface Trace extends TraceSummary {
  /** Per-head steps are arrays indexed by head. */
  steps: Partial<Record<StepName, Step | Step[]>>;
  step(name: StepName, head?: number): Step;
}

/**
 * A trace kept in WASM memory. Call dispose() when done (it is not garbage-collected). An
 * engine keeps at most `limits.maxLiveTraces` open, holding at most `limits.maxLiveBytes`; beyond
 * that open() and run() throw LIMIT_EXCEEDED until traces are disposed. After an INTERNAL
 * failure the engine's open traces are dropped (step() throws DISPOSED).
 */
export interface LiveTrace extends TraceSummary {
  info(name: StepName): { name: StepName; perHead: boolean; rowsAxis: Axis; colsAxis: Axis };
  step(name: StepName, head?: number): Step;
  dispose(): void;
  readonly disposed: boolean;
}

export interface Attended {
  rows: number;
  cols: number;
  /** [rows × cols], row-major. */
  output: Float32Array;
  /** The (query, key) scores one head computes; 0 with linear attention. */
  computedScores: number;
  /** The bytes the attention's buffers hold at their peak (one head's): what grows with n beyond Q, K, V. */
  scoreBytes: number;
}

export interface Limits {
  /** Longest input of a trace (open, run): what a page can show. */
  maxTokens: number;
  /** Longest input of attend(): the output alone, one head's buffers at a time. */
  maxAttendTokens: number;
  /** Longest text tokenize() accepts, in UTF-8 bytes (not UTF-16 code units). */
  maxTextBytes: number;
  /** Longest single token a run accepts, in UTF-8 bytes. */
  maxTokenBytes: number;
  maxDModel: number;
  maxDK: number;
  /** Largest heads × dK. */
  maxProjectionWidth: number;
  minTemperature: number;
  maxTemperature: number;
  /** Largest seed (2³² − 1: a seed is a uint32, as np.random.seed takes). */
  maxSeed: number;
  /** Most tokens one generate() call adds. */
  maxGenerate: number;
  /** Longest model file loadModel can accept (the largest model the limits allow, stored as float32); longer files need not be read. */
  maxModelFileBytes: number;
  /** Open live traces at most (createEngine option; default 256). */
  maxLiveTraces: number;
  /** WASM memory in use beyond which no further trace is opened (createEngine option; default 1 GiB). */
  maxLiveBytes: number;
}

export interface Engine {
  readonly limits: Limits;
  /**
   * The trainer's fields, the engine's one table: defaults, bounds and allowed values of createTrainer's configuration
   * (every section but 'corpus') and createCorpusTrainer's (every section but 'task').
   */
  readonly trainerFields: readonly TrainerField[];
  /** { field: default } of trainerFields. */
  readonly trainerDefaults: Readonly<Required<TrainerConfig & CorpusFields>>;
  /** The engine's own tokenizer: whitespace and punctuation split; one token per CJK character; emoji sequences kept whole. */
  tokenize(text: string): string[];
  /** Runs and copies every step (or only `steps`, each once) into JS, then frees the trace's WASM memory. */
  run(options: RunOptions, selection?: { steps?: StepName[] }): Trace;
  /** Runs and keeps the trace in WASM memory; the caller must dispose() it. */
  open(options: RunOptions): LiveTrace;
  /** The layer's output alone, without a trace: up to limits.maxAttendTokens tokens, one head's buffers at a time. */
  attend(options: RunOptions): Attended;
  /** A trainer for a toy task (training.d.ts); the caller must dispose() it. */
  createTrainer(config?: TrainerConfig): Trainer;
  /** The limits of createCorpusTrainer's text. */
  readonly corpusLimits: Readonly<CorpusLimits>;
  /**
   * The threads this build runs at once: in the threaded build (`dist/engine-mt/engine.js`,
   * which needs SharedArrayBuffer: node, or a cross-origin-isolated page) the cores
   * (`navigator.hardwareConcurrency`), else 1. A trainer's `threads` shards run on that many.
   */
  readonly threads: number;
  /**
   * A language model trained on `text` (a string, or UTF-8 bytes, checked): its vocabulary built
   * in pieces (options.onProgress), a tail held out; the caller must dispose() it. Errors name the
   * field and the limit: an empty, binary, invalid or too large text, one repeated symbol, a
   * vocabulary past the limit.
   */
  createCorpusTrainer(text: string | Uint8Array | ArrayBuffer, options: CorpusTrainerOptions): CorpusTrainer;
  /** A model from a model file's bytes: a LanguageModel for corpus models; the caller must dispose() it. */
  loadModel(bytes: Uint8Array | ArrayBuffer): TrainedModel | LanguageModel;
  /**
   * GPT-2's tokenizer from its vocabulary and merges files; the caller must dispose() it. A
   * malformed file is refused naming the file, the line and the key or merge at fault.
   */
  createBpeTokenizer(options: BpeTokenizerOptions): BpeTokenizer;
  /**
   * A Hugging Face GPT-2 checkpoint (config.json and model.safetensors; docs/gpt2.md) as a model
   * of token ids: its vocabulary is the ids in decimal. The caller must dispose() it.
   */
  loadCheckpoint(checkpoint: {
    /** config.json: its text, its UTF-8 bytes or its parsed object. */
    config: string | Uint8Array | ArrayBuffer | object;
    /** model.safetensors' bytes (F32, F16 or BF16 tensors), at most limits.maxModelFileBytes. */
    safetensors: Uint8Array | ArrayBuffer;
  }): TrainedModel;
  /** malloc'ed bytes in use and the size of WASM memory. */
  heapStats(): { inUse: number; memory: number };
}

export const DEFAULTS: Readonly<Required<Omit<RunOptions, 'tokens' | 'text' | 'kvTokens' | 'kvText' | 'given'>>>;

/** The values of RunOptions.tokenizer. */
export const TOKENIZERS: readonly ['words', 'chars', 'whitespace', 'engine'];

/**
 * Loads the WebAssembly module (from disk in node, from beside engine.js in a browser). It is
 * compiled once; a failure inside WebAssembly replaces the instance with a fresh one.
 */
export function createEngine(options?: {
  wasmBinary?: ArrayBuffer | Uint8Array;
  wasmUrl?: string | URL;
  /** Open live traces at most. Default 256. */
  maxLiveTraces?: number;
  /** WASM memory in use (bytes) beyond which open() refuses while traces are open. Default 2 ** 30. */
  maxLiveBytes?: number;
}): Promise<Engine>;
