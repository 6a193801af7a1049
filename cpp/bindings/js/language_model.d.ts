// Type declarations of corpus language models (language_model.js, head_labels.js), re-exported
// by engine.d.ts.
import type { LayerOptions, LayerTrace, ModelTrace, TrainedModel } from './training.js';
import type { TextRole } from './catalog.js';
import type { VocabularyLevel } from './catalog.js';

/** Which tokens a language model keeps of a text longer than its context. */
export type Keep = 'start' | 'end';

/** A text, or { text }, or { tokens } (ids or vocabulary symbols, read strictly). */
export type LanguageModelInput = string | { text: string } | { tokens: ArrayLike<number | string> };

/** Text as the model reads it. */
export interface Encoded {
  /**
   * The text's own symbols (characters or words), as typed, at most contextLength; after the
   * model's document start when `start`.
   */
  tokens: string[];
  ids: number[];
  /** Read as <unk>: not in the vocabulary (looked up in lower case when config.lowercase). */
  unknown: boolean[];
  /** Symbols in the whole text (the document start not counted). */
  total: number;
  /** Symbols dropped: from the end (keep 'start') or from the start (keep 'end'). */
  cut: number;
  /**
   * tokens[0] is the model's config.documentStart (the Tang model's "\n": every poem it learned
   * from follows a line break), read before a text that does not begin with it, when the text's
   * start is read (keep 'start', or keep 'end' with the whole text fitting after it).
   */
  start: boolean;
}

/** What a trace of text adds: the ids and flags of encode(). */
export interface ReadFields {
  ids: number[];
  unknown: boolean[];
  total: number;
  cut: number;
  start: boolean;
  /**
   * The last position's logits [V] (what predict() reads). The steps logits and probabilities
   * ([T × V]) exist only when asked for: all steps, or named in `steps` (at most 2²⁴ values).
   */
  nextLogits: Float32Array;
}

export interface Prediction {
  id: number;
  token: string;
  /** Of softmax(logits / temperature) over the whole vocabulary. */
  probability: number;
}

export interface Generated {
  /** The new tokens (an <eos> ends them and is not in `text`). */
  tokens: string[];
  ids: number[];
  /** The input's text followed by the new tokens (words joined by spaces). */
  text: string;
}

export type HeadLabel = 'previous' | 'previousLine' | 'first' | 'self' | 'broad';

export interface HeadScores {
  /** Mean w[i][i−1] over rows 1 … T−1. */
  previous: number | null;
  /** Mean weight on the same position of the previous line (lines end after \n ，。！？；). */
  previousLine: number | null;
  /** Mean w[i][0] over rows 2 … T−1. */
  first: number | null;
  /** Mean w[i][i] over rows 1 … T−1. */
  self: number | null;
  /** Mean row entropy over ln(keys seen), rows 1 … T−1: 1 for uniform rows. */
  broad: number | null;
}

export interface LabelledHead {
  layer: number;
  head: number;
  /** The label whose score clears HEAD_LABEL_THRESHOLDS (highest weight label first), or null. */
  label: HeadLabel | null;
  score: number | null;
  scores: HeadScores;
}

/**
 * A model file whose configuration says vocabulary "character" or "word" (engine.loadModel
 * returns one). Call dispose() when done.
 */
export interface LanguageModel extends Omit<
  TrainedModel,
  'trace' | 'evaluate' | 'taskPrompt' | 'layerInput' | 'layerOptions'
> {
  readonly vocabularyLevel: VocabularyLevel;
  encode(text: string, options?: { keep?: Keep }): Encoded;
  trace(input: LanguageModelInput, options?: { steps?: string[]; keep?: Keep }): ModelTrace & ReadFields;
  trace(input: LanguageModelInput, options: { layer: number; steps?: string[]; keep?: Keep }): LayerTrace & ReadFields;
  /** As TrainedModel.layerInput; text is read with the model's vocabulary (its first contextLength tokens). */
  layerInput(input: LanguageModelInput, layer: number): { rows: number; cols: number; data: Float32Array };
  /** As TrainedModel.layerOptions; text is read with the model's vocabulary and labels the tokens. */
  layerOptions(input: LanguageModelInput, layer: number): LayerOptions;
  /** The next token after the input (text keeps its last contextLength tokens). */
  predict(
    input: LanguageModelInput,
    options?: { temperature?: number; topK?: number },
  ): { tokens: string[]; predictions: Prediction[] };
  /**
   * count (1–1024, default 1) new tokens; greedy (default) or sampled with `seed` from
   * softmax(logits / temperature) over the topK (0: all) most likely; never <pad>, <unk>, <bos>;
   * past contextLength the window slides. temperature, topK and seed shape sampling: with greedy
   * true they must keep their defaults (1, 0, 1), or INVALID_ARGUMENT names the first one.
   */
  generate(
    input: LanguageModelInput,
    options?: { count?: number; temperature?: number; topK?: number; greedy?: boolean; seed?: number },
  ): Generated;
  /** Every head's scores and label on this input, layer by layer. */
  headLabels(input: LanguageModelInput, options?: { keep?: Keep }): LabelledHead[];
}

export const HEAD_LABELS: readonly HeadLabel[];
export const HEAD_LABEL_THRESHOLDS: Readonly<Record<HeadLabel, number>>;
/** The labels of a model trace's heads (its "weights" steps), as headLabels() computes them. */
export function labelHeads(trace: ModelTrace, causal?: boolean): LabelledHead[];
/**
 * predict()'s predictions from the last position's logits [V] (e.g. the last row of a trace's
 * "logits"): the topK (0: all) most likely of softmax(logits / temperature), ties in id order.
 */
export function predictionsOf(
  logits: ArrayLike<number>,
  vocabulary: readonly string[],
  temperature: number,
  topK: number,
): Prediction[];
/** The tokens that end a line for previousLine. */
export const LINE_ENDS: readonly string[];

/** Head roles on one text (head_roles.js; docs/models.md, "Head roles"): TextRole is generated (catalog.d.ts). */
export const TEXT_ROLES: readonly TextRole[];
/** The tokens that end a line for the head roles (a poem's punctuation and an English sentence's). */
export const ROLE_MARKS: readonly string[];
/** For each query of `tokens`, the keys `role` predicts (ascending; empty: not counted); null for another role. */
export function roleKeys(role: string, tokens: readonly string[]): number[][] | null;
/** A head's mean weight on a role's keys and a uniform row's chance; null when no query has a key. */
export function roleScore(
  weights: ArrayLike<number>,
  length: number,
  keys: readonly (readonly number[])[],
): { score: number; chance: number; ratio: number; queries: number } | null;
