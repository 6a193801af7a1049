// "Your text" in the playground: the ready texts, the level the page proposes for a
// text, and the corpus trainer's settings of the page's knobs. Plain data and functions: the
// worker and the page both import it.
//
// The Tang poems are public domain (8th–9th century), in simplified characters; the English
// paragraph and the text of repeated names were written for this project.
import { FIXED, knobFields } from './presets.js';
import { CORPUS_TEXT_FIELDS } from '../catalog.js';

const POEMS = `静夜思　李白
床前明月光，疑是地上霜。举头望明月，低头思故乡。

春晓　孟浩然
春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。

登鹳雀楼　王之涣
白日依山尽，黄河入海流。欲穷千里目，更上一层楼。

相思　王维
红豆生南国，春来发几枝。愿君多采撷，此物最相思。

江雪　柳宗元
千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。

鹿柴　王维
空山不见人，但闻人语响。返景入深林，复照青苔上。

悯农　李绅
锄禾日当午，汗滴禾下土。谁知盘中餐，粒粒皆辛苦。

绝句　杜甫
两个黄鹂鸣翠柳，一行白鹭上青天。窗含西岭千秋雪，门泊东吴万里船。

登乐游原　李商隐
向晚意不适，驱车登古原。夕阳无限好，只是近黄昏。

寻隐者不遇　贾岛
松下问童子，言师采药去。只在此山中，云深不知处。

送元二使安西　王维
渭城朝雨浥轻尘，客舍青青柳色新。劝君更尽一杯酒，西出阳关无故人。

凉州词　王翰
葡萄美酒夜光杯，欲饮琵琶马上催。醉卧沙场君莫笑，古来征战几人回。
`;

const PARAGRAPH = `The river town wakes before the sun. Bakers open their doors first, and the smell of bread drifts down to the water, where the ferry waits with its lamps still lit. The ferryman knows every passenger by the sound of their steps: the teacher who hurries, the fisherman who shuffles, the girl who runs because she is always late. He says good morning to each of them, and each of them says good morning back. When the bell rings, the ferry leaves, and the town behind it grows small and quiet. On the far bank the market is already busy. Traders call out the prices of apples and onions, children count coins in their palms, and an old dog sleeps in the only patch of sun. By noon the ferry returns, heavy with baskets, and the town is loud again. In the evening the lamps are lit once more, the bakers sweep their floors, and the river carries the last light of the day out to the sea.
`;

const NAMES = `Marisol Quenby met Tobias Wren at the station. Tobias Wren gave Marisol Quenby a map.
Ingrid Halvorsen waved to Kofi Mensah. Kofi Mensah waved back to Ingrid Halvorsen.
Yuki Tanabe called Marisol Quenby. Marisol Quenby asked Yuki Tanabe about the train.
Tobias Wren found Ingrid Halvorsen by the river. Ingrid Halvorsen showed Tobias Wren a boat.
Kofi Mensah wrote to Yuki Tanabe. Yuki Tanabe read the letter from Kofi Mensah twice.
Marisol Quenby and Kofi Mensah walked home. Kofi Mensah thanked Marisol Quenby for the walk.
Ingrid Halvorsen lent Yuki Tanabe a book. Yuki Tanabe returned the book to Ingrid Halvorsen.
Tobias Wren cooked for Kofi Mensah. Kofi Mensah cooked for Tobias Wren the next day.
Yuki Tanabe painted Tobias Wren. Tobias Wren hung the painting of Yuki Tanabe on the wall.
Ingrid Halvorsen visited Marisol Quenby. Marisol Quenby made tea for Ingrid Halvorsen.
Kofi Mensah sang with Ingrid Halvorsen. Ingrid Halvorsen laughed, and Kofi Mensah sang louder.
Marisol Quenby taught Tobias Wren to swim. Tobias Wren taught Marisol Quenby to sail.
Yuki Tanabe met Kofi Mensah at the market. Kofi Mensah bought apples for Yuki Tanabe.
Tobias Wren ran after Ingrid Halvorsen. Ingrid Halvorsen stopped and waited for Tobias Wren.
`;

/** The ready texts, by the name a link keeps (src=…). */
export const READY_TEXTS = { poems: POEMS, paragraph: PARAGRAPH, names: NAMES };
export const READY_NAMES = Object.keys(READY_TEXTS);

/** A typed text at most this long (UTF-16 code units) is kept in the link; a longer one is not. */
export const MAX_URL_TEXT = 300;

/** Shorter texts are proposed at character level: a word-level vocabulary of them sees each word once or twice. */
const SHORT_TEXT = 5000;
const HAN = /\p{Script=Han}/gu;
/** A run of this many UTF-16 units without white space is not a word. */
const LONG_RUN = /\S{200}/;

/**
 * The level the page proposes for `text`: { level: 'character' | 'word', reason: 'chinese' |
 * 'unspaced' | 'short' | 'long' }. Chinese (a fifth or more of the non-space characters Han),
 * text with runs of 200 characters without a space, and short texts at character level, longer
 * texts at word level.
 */
export function proposeLevel(text) {
  const sample = text.length > 20000 ? text.slice(0, 20000) : text;
  const letters = sample.replace(/\s+/g, '').length;
  const han = sample.match(HAN)?.length ?? 0;
  if (letters && han / letters >= 0.2) return { level: 'character', reason: 'chinese' };
  // Runs without white space longer than any word (Japanese, Thai, a flood of joiners or
  // combining marks, a one-line dump) make no word level: the engine refuses a word past
  // 1,024 bytes, and such a text would be proposed what it cannot train.
  if (LONG_RUN.test(sample)) return { level: 'character', reason: 'unspaced' };
  if (text.length < SHORT_TEXT) return { level: 'character', reason: 'short' };
  return { level: 'word', reason: 'long' };
}

/** The symbols of `text` as the level reads them, roughly (word level: white-space pieces). */
function roughTokens(text, level, most = Infinity) {
  if (level === 'character') {
    const out = [];
    for (const c of text) {
      if (out.length >= most) break;
      out.push(c);
    }
    return out;
  }
  return text.trim().split(/\s+/).filter(Boolean).slice(0, most);
}

/** The engine's rows of the text's options (corpus_fields.hpp): contextLength, heldOut, …. */
const TEXT_ROW = Object.fromEntries(CORPUS_TEXT_FIELDS.map((f) => [f.name, f]));

/**
 * The context length for a text of about `tokens` tokens: the engine's default (64), or a power
 * of two small enough that the training text (less the held-out share) holds four windows (at
 * least 8).
 */
export function contextLengthFor(tokens) {
  let length = TEXT_ROW.contextLength.fallback;
  while (length > 8 && tokens * (1 - TEXT_ROW.heldOut.fallback) < 4 * (length + 1)) length /= 2;
  return length;
}

/**
 * The first `count` tokens of `text` as the model reads them: at character level its first code
 * points verbatim (white space included: a normalised space may not be in the vocabulary, e.g. a
 * text that spaces with U+3000), at word level its first words joined by spaces.
 */
function opening(text, level, count) {
  const tokens = roughTokens(level === 'character' ? text.trimStart() : text, level, count);
  return tokens.join(level === 'character' ? '' : ' ');
}

/** The fixed excerpt the heatmaps follow: the text's first 24 characters or 12 words (one line's worth). */
export function excerptOf(text, level) {
  return opening(text, level, level === 'character' ? 24 : 12);
}

/** The fixed prompt of the samples: the text's first 4 characters or 3 words. */
export function promptOf(text, level) {
  return opening(text, level, level === 'character' ? 4 : 3);
}

/** Tokens a sample adds to the prompt. */
export const SAMPLE_TOKENS = { character: 60, word: 24 };

/** The knobs of a text model, as the page starts them (the controls change them as for tasks). */
export const TEXT_KNOBS = {
  layers: 2,
  heads: 4,
  dModel: 64,
  scale: true,
  attentionOnly: false,
  learningRate: 0.003,
  batchSize: 16,
  seed: 1,
};

/** createCorpusTrainer's options of the page's knobs, for a text at `level` of about `tokens` tokens. */
export function textTrainerOptions(knobs, level, tokens) {
  return {
    level,
    contextLength: contextLengthFor(tokens),
    ...knobFields(knobs),
    ...FIXED,
    warmupSteps: 50,
  };
}

/** About how many tokens `text` has at `level` (exact at character level). */
export function countTokens(text, level) {
  // Counted without an array of the symbols: at 16 MiB that array took 3.5 s and 55 MB.
  let count = 0;
  if (level === 'character') {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
      count += 1;
    }
    return count;
  }
  const words = /\S+/g;
  while (words.exec(text)) count += 1;
  return count;
}
