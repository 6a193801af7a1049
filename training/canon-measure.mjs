// How well a corpus model knows the canon, on the engine's JS API:
//
//   measureQuatrains(model, poems)  // tang-quatrains.json's poems
//     top-1: for every line of every quatrain, the model reads the poem as a learner types it
//       (from its first character; encode() puts the model's document start before it, the line
//       break every poem of its training text follows) up to the line's last character, and its
//       most likely next symbol (argmax of the logits, the lowest id on a tie: predict()'s first)
//       is that character. One trace per poem: row j of the logits is the prediction after the
//       first j + 1 tokens (a causal model).
//     continue: for every regular 五言绝句, greedy generate() from the first line and its
//       punctuation mark ("床前明月光，") writes the second line exactly (its 5 characters).
//   measurePhrases(model, phrases)  // brown-phrases.json's phrases
//     top-1: after the context ("the united", lower-cased as the training text), the most
//       likely next word is the phrase's.
//
//   node training/canon-measure.mjs MODEL LIST [--cases]   // prints the result as JSON
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The argmax of row `row` of a [rows × cols] logits step (the lowest index on a tie). */
function topOf(logits, row) {
  const z = logits.data.subarray(row * logits.cols, (row + 1) * logits.cols);
  let best = 0;
  for (let i = 1; i < z.length; i++) if (z[i] > z[best]) best = i;
  return best;
}

const share = (hits, total) => (total ? hits / total : 0);

/** The code-point index of each line's last character in `text` (lines as in the list). */
function lineEnds(text, lines) {
  const chars = Array.from(text);
  const ends = [];
  let at = 0;
  for (const line of lines) {
    const start = chars.indexOf(Array.from(line)[0], at);
    const end = start + Array.from(line).length - 1;
    if (start < 0 || chars.slice(start, end + 1).join('') !== line) {
      throw new Error(`line ${line} is not in the poem ${text}`);
    }
    ends.push(end);
    at = end + 1;
  }
  return ends;
}

/** { lines, hits, share, cases: [{ title, prompt, expected, predicted, hit }] } */
function quatrainTopOne(model, poems) {
  const cases = [];
  for (const poem of poems) {
    const { ids, tokens, cut, start } = model.encode(poem.text);
    if (cut) throw new Error(`${poem.title}: longer than the model's context`);
    const logits = model.trace({ tokens: ids }, { steps: ['logits'] }).step('logits');
    const first = start ? 1 : 0; // the text's first character's token
    for (const end of lineEnds(poem.text, poem.lines).map((e) => e + first)) {
      const predicted = model.vocabulary[topOf(logits, end - 1)];
      const expected = tokens[end];
      cases.push({
        title: poem.title,
        prompt: tokens.slice(first, end).join(''),
        expected,
        predicted,
        hit: predicted === expected,
      });
    }
  }
  const hits = cases.filter((c) => c.hit).length;
  return { lines: cases.length, hits, share: share(hits, cases.length), cases };
}

/** { poems, hits, share, cases: [{ title, prompt, expected, written, hit }] } */
function quatrainContinue(model, poems) {
  const cases = [];
  for (const poem of poems.filter((p) => p.form === '五言绝句' && p.regular)) {
    const chars = Array.from(poem.text);
    const prompt = chars.slice(0, lineEnds(poem.text, poem.lines)[0] + 2).join('');
    const expected = poem.lines[1];
    const { tokens } = model.generate({ text: prompt }, { count: Array.from(expected).length });
    const written = tokens.join('');
    cases.push({ title: poem.title, prompt, expected, written, hit: written === expected });
  }
  const hits = cases.filter((c) => c.hit).length;
  return { poems: cases.length, hits, share: share(hits, cases.length), cases };
}

export function measureQuatrains(model, poems) {
  return { topOne: quatrainTopOne(model, poems), continue: quatrainContinue(model, poems) };
}

/** { phrases, hits, share, unknown (phrases with a word outside the vocabulary), cases } */
export function measurePhrases(model, phrases) {
  const ids = new Map(model.vocabulary.map((symbol, id) => [symbol, id]));
  const cases = phrases.map(({ context, next }) => {
    const encoded = model.encode(context);
    const logits = model.trace({ tokens: encoded.ids }, { steps: ['logits'] }).step('logits');
    const predicted = model.vocabulary[topOf(logits, logits.rows - 1)];
    const unknown = !ids.has(next) || encoded.unknown.some(Boolean);
    return { context, expected: next, predicted, hit: predicted === next, unknown };
  });
  const hits = cases.filter((c) => c.hit).length;
  return {
    phrases: cases.length,
    hits,
    share: share(hits, cases.length),
    unknown: cases.filter((c) => c.unknown).length,
    cases,
  };
}

/** The measurement of a canon list ({ poems } or { phrases }, as committed) on a loaded model. */
export function measureCanon(model, list) {
  if (Array.isArray(list.poems)) return measureQuatrains(model, list.poems);
  if (Array.isArray(list.phrases)) return measurePhrases(model, list.phrases);
  throw new Error('a canon list has "poems" (tang-quatrains.json) or "phrases" (brown-phrases.json)');
}

/** Drops the per-case details: { share, hits, … } of each measurement. */
export function summaryOf(result) {
  return JSON.parse(JSON.stringify(result, (key, value) => (key === 'cases' ? undefined : value)));
}

async function main(argv) {
  const [modelPath, listPath, ...rest] = argv;
  if (!modelPath || !listPath || rest.some((a) => a !== '--cases')) {
    process.stderr.write('usage: node training/canon-measure.mjs MODEL LIST [--cases]\n');
    return 2;
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { createEngine } = await import(path.join(root, 'dist/engine/engine.js'));
  const engine = await createEngine();
  const model = engine.loadModel(readFileSync(modelPath));
  try {
    const result = measureCanon(model, JSON.parse(readFileSync(listPath, 'utf8')));
    process.stdout.write(JSON.stringify(rest.includes('--cases') ? result : summaryOf(result), null, 2) + '\n');
  } finally {
    model.dispose();
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
