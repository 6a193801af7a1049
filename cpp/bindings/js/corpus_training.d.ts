// Type declarations of a language model trained on a user's own text (corpus_training.js),
// re-exported by engine.d.ts.
import type { LanguageModel, LanguageModelInput } from './language_model.js';
import type { AttentionSnapshot, CorpusFields, StepMetrics, TrainerConfig } from './training.js';
import type { VocabularyLevel } from './catalog.js';

/** The engine's vocabulary levels (its level row, generated into catalog.d.ts). */
export type { VocabularyLevel };

/** The limits of createCorpusTrainer's text (cpp/bindings/corpus_text.hpp). */
export interface CorpusLimits {
  /** The longest text in UTF-8 bytes (16 MiB); a longer one is refused before it is copied. */
  maxTextBytes: number;
  /** The most vocabulary ids, <pad> <unk> <bos> <eos> included (8192). */
  maxVocabulary: number;
  /** The fewest tokens of a text (24). */
  minTokens: number;
  /** The held-out tail is at most this many tokens (4096). */
  maxHeldOutTokens: number;
  /** Control characters (tab, line breaks and form feed aside) beyond this share mark a binary file (0.01). */
  maxControlShare: number;
  minContextLength: number;
  /** 256. */
  maxContextLength: number;
}

export interface CorpusProgress {
  /** Counting the symbols (fraction 0 … 0.5), then encoding them (0.5 … 1). */
  phase: 'count' | 'encode';
  /** Bytes of the phase done, of `total`. */
  done: number;
  total: number;
  fraction: number;
}

/** createCorpusTrainer's options: the text's, then every trainer field but the task's. */
export interface CorpusTrainerOptions
  extends Omit<TrainerConfig, 'task' | 'length' | 'alphabet' | 'modulus'>, CorpusFields {
  // The text's options: their defaults and bounds are the engine's rows, CORPUS_TEXT_FIELDS of
  // catalog.js (min, pageMax, fallback); the figures below are theirs when written.
  /** Character level: every code point a token. Word level: the engine's tokenizer. Required. */
  level: VocabularyLevel;
  /** The model's context T: 2–256. Default 64. */
  contextLength?: number;
  /** The most ids (5 – maxVocabulary); a text with more distinct symbols is refused. Default maxVocabulary. */
  vocabularySize?: number;
  /** Symbols seen fewer times read as <unk>: 1 – 1e6. Default 1. */
  minCount?: number;
  /** The share of the tokens held out at the end: (0, 0.5]; at least 2, at most maxHeldOutTokens. Default 0.1. */
  heldOut?: number;
  /** The text goes into the engine in pieces of this many bytes; onProgress is told after each. Default 1 MiB. */
  chunkBytes?: number;
  onProgress?: (progress: CorpusProgress) => void;
  /** Recorded in the saved model file. */
  corpus?: string;
  title?: string;
  titleZh?: string;
}

export interface CorpusSummary {
  level: VocabularyLevel;
  bytes: number;
  /** Tokens of the whole text. */
  tokens: number;
  /** Distinct symbols in the vocabulary (the specials aside). */
  distinct: number;
  /** Tokens read as <unk> (minCount). */
  unknown: number;
  trainTokens: number;
  heldOutTokens: number;
  vocabSize: number;
}

/** Baselines on the held-out tail, nats per token (cpp/include/attention/train/corpus.hpp). */
export interface NgramBaselines {
  /** Add-one unigram of the training text. */
  unigram: number;
  /** Bigram interpolated with that unigram, λ the best of 0.05 … 0.95 on the held-out tail. */
  bigram: number;
  bigramLambda: number;
  /** Held-out targets scored. */
  targets: number;
}

/** A LanguageModel that trains: generate() samples from a prompt; save() writes a corpus model file. */
export interface CorpusTrainer extends LanguageModel {
  readonly summary: Readonly<CorpusSummary>;
  readonly baselines: Readonly<NgramBaselines>;
  /** Every trainer field (defaults filled in) and contextLength. */
  readonly trainerConfig: Readonly<Required<Omit<TrainerConfig, 'task'> & CorpusFields> & { contextLength: number }>;
  /** Updates done so far. */
  readonly steps: number;
  /** `count` updates (1–10⁶) on random windows of the training text. */
  step(count?: number): StepMetrics;
  /** Mean loss in nats per token on the held-out tail (the baselines' targets). */
  heldOutLoss(): number;
  /** Every head's attention on a text (its first contextLength tokens) or { tokens }. */
  attention(input: LanguageModelInput): AttentionSnapshot;
}
