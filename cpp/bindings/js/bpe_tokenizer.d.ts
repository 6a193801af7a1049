// Type declarations of GPT-2's tokenizer (bpe_tokenizer.js), re-exported by engine.d.ts.

/** createBpeTokenizer's files: their text (a string) or bytes, and their names for errors. */
export interface BpeTokenizerOptions {
  /** The vocabulary: encoder.json, or a checkpoint's vocab.json ({"token": id, …}). */
  vocab: string | Uint8Array | ArrayBuffer;
  /** The merges: vocab.bpe or merges.txt ("#version" line, then "a b" per line). */
  merges: string | Uint8Array | ArrayBuffer;
  /** The vocabulary's name in error messages. Default 'encoder.json'. */
  vocabName?: string;
  /** The merges' name in error messages. Default 'vocab.bpe'. */
  mergesName?: string;
}

/** What a page shows for a run of tokens that covers whole characters. */
export interface BpeChip {
  /** The text's own characters (a space as a space; a CJK character split into byte tokens whole). */
  text: string;
  /** The tokens [first, first + count) the chip spans (count > 1 only where tokens cut a character). */
  first: number;
  count: number;
  /** [start, end) in UTF-16 code units of the text. */
  start: number;
  end: number;
}

export interface BpePieces {
  ids: number[];
  /** The vocabulary's spellings ('Ġworld'). */
  tokens: string[];
  /** Each token's own text (' world', never 'Ġworld'), or null for a token inside a character. */
  texts: (string | null)[];
  /** Each token's UTF-8 bytes [begin, end) in the text; the tokens cover the text in order. */
  begin: number[];
  end: number[];
  chips: BpeChip[];
}

/** GPT-2's byte-level BPE (cpp/include/attention/bpe.hpp); the caller must dispose() it. */
export interface BpeTokenizer {
  /** Tokens in the vocabulary (GPT-2: 50,257). */
  readonly size: number;
  readonly disposed: boolean;
  /** Text → ids, as OpenAI's encoder.py gives them. */
  encode(text: string): number[];
  /** Ids → text; where the ids cut a character, U+FFFD. */
  decode(ids: ArrayLike<number>): string;
  /** Text → the vocabulary's spellings of its tokens ('Ġworld' for ' world'). */
  tokens(text: string): string[];
  /** Text → ids, spellings, byte spans and the chips a page shows. */
  pieces(text: string): BpePieces;
  /** Frees its WASM memory; later calls throw DISPOSED. */
  dispose(): void;
}

/** Each token's own text from its byte span, or null where it starts or ends inside a character. */
export function tokenTextsOf(text: string, begin: ArrayLike<number>, end: ArrayLike<number>): (string | null)[];

/** The chips of `text` from each token's byte span and character group (pieces() uses it). */
export function chipsOf(
  text: string,
  begin: ArrayLike<number>,
  end: ArrayLike<number>,
  group: ArrayLike<number>,
): BpeChip[];
