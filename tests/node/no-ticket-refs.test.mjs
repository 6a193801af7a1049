// No reference to a tracker the repository does not hold: an issue, a stop (a work session) or a
// ticket named by its number, "(§3)", or a section "of the issue" tell a reader nothing without
// that tracker. A comment, a test's name or a document says why instead; a measurement names its
// date or commit. This scans every tracked text file but itself (not the data: models/,
// tests/fixtures/, the fuzz corpus, the lock file) and names each file:line that holds one; the
// patterns are checked on strings first, the ticket words in them built from the words below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SELF = 'tests/node/no-ticket-refs.test.mjs';
const [ISSUE, CAPITAL_ISSUE, STOP, TICKET] = ['issue', 'Issue', 'stop', 'ticket'];

// Data, not prose: a corpus may use those words with a number in its own sense.
const SKIPPED = [
  /^models\//,
  /^tests\/fixtures\//,
  /^tests\/fuzz\/corpus\//,
  /^package-lock\.json$/,
  /^node_modules\//,
];

// Where a line ends inside a comment, the reference may go on after its leader (//, #, *).
const BREAK = String.raw`(?:[ \t]*\n[ \t]*(?:\/\/|#|\*)?)?[ \t]*`;
// Between the word and its number: spaces, a line break into the next comment line, or "#"
// (never nothing: `stop1` is a name).
const SEP = String.raw`(?:(?:[ \t]*\n[ \t]*(?:\/\/|#|\*)?[ \t]*|[ \t]+)#?|#)`;
const UNIT = String.raw`[ \t]*(?:(?:s|ms|µs|min|h|px|seconds?|minutes?|hours?|steps?|times|tokens?|bytes?)\b|%)`;
const PATTERNS = [
  // The word, then its number: after spaces, "#", or a line break into the next comment line.
  // Not a quantity: a number followed by a unit (seconds, steps, tokens, %).
  new RegExp(String.raw`\b(?:issue|stop|ticket)s?${SEP}\d+\b(?!${UNIT})`, 'gi'),
  // §2 of the issue (of this ticket …).
  new RegExp(String.raw`§[ \t]*\d+(?:\.\d+)*${BREAK}of${BREAK}(?:the|this|that|an?)${BREAK}(?:issue|ticket)\b`, 'gi'),
  // A section with nothing to be a section of: "(§11)", "(§3, …" opening a parenthesis, or "§4:"
  // opening a sentence. A citation names its source first: RFC 9112 §3.2, (Chen & Goodman, §3.5).
  /\(§[ \t]*\d+/g,
  /(?:^|[.;]\s+|(?:\/\/|#|\*)[ \t]*)§[ \t]*\d+[ \t]*[:,]/gm,
];

/** Each reference in `text` as { line (1-based), match }, in order. */
export function ticketReferences(text) {
  const found = [];
  for (const pattern of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const start = m.index + m[0].search(/\S/);
      found.push({ line: text.slice(0, start).split('\n').length, match: m[0].trim().replace(/\s+/g, ' ') });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

const refs = (text) => ticketReferences(text).map((r) => r.match);

test('the patterns find ticket references, also split over two comment lines', () => {
  assert.deepEqual(refs(`// The engine pool (${ISSUE} 27 §2): a fixed pool`), [`${ISSUE} 27`]);
  assert.deepEqual(refs(`Measured at ${STOP} 22: 744 elements`), [`${STOP} 22`]);
  assert.deepEqual(refs(`${STOP} 21's main`), [`${STOP} 21`]);
  assert.deepEqual(refs(`${CAPITAL_ISSUE} 25 §4: the keys`), [`${CAPITAL_ISSUE} 25`]);
  assert.deepEqual(refs(`as ${ISSUE}s 24 and 27 asked`), [`${ISSUE}s 24`]);
  assert.deepEqual(refs(`see ${TICKET} #7`), [`${TICKET} #7`]);
  assert.deepEqual(refs(`fixed in ${ISSUE}#3`), [`${ISSUE}#3`]);
  assert.deepEqual(refs(`(-pthread, ${ISSUE}\n// 27 §2). The threaded`), [`${ISSUE} // 27`]);
  assert.deepEqual(refs(`# the canon lists of ${ISSUE}\n# 25 §3`), [`${ISSUE} # 25`]);
  assert.deepEqual(refs(`as §2 of the ${ISSUE} asks`), [`§2 of the ${ISSUE}`]);
  assert.deepEqual(refs('the API used to ignore (§11): a large'), ['(§11']);
  assert.deepEqual(refs('no pair picked (§4), no arithmetic'), ['(§4']);
  assert.deepEqual(refs('panel. §3: *continue* writes'), ['. §3:']);
  assert.deepEqual(refs(' * §4: the block'), ['* §4:']);
  assert.deepEqual(
    ticketReferences(`one\ntwo (${ISSUE} 5)\nthree`).map((r) => r.line),
    [2],
  );
});

test('the patterns leave ordinary prose, code and citations alone', () => {
  for (const text of [
    'or absolute-form "http://host/a/b" (RFC 9112 §3.2); percent-encoding',
    'Kneser–Ney (Chen & Goodman 1998, §3.5 and §4.1.6: continuation counts',
    'smoothing techniques for language modeling" (TR-10-98), §3.5 (interpolated',
    'no size issue for a few MB',
    'the racial issue , pleading that',
    'a second round trip to the worker',
    `the training ${STOP}s 3 s later`,
    `a ${STOP} 2 steps in`,
    `it ${STOP}s 30 ms after`,
    `a ${STOP} 5 % short`,
    'it stops, then 12 steps',
    'trainer.stop(); issues.push(1); const stop1 = 2;',
    'the issue’s wording',
    'tissue 5 and nonstop 7',
  ]) {
    assert.deepEqual(refs(text), [], text);
  }
});

/** Tracked text files: not data, not binary (a NUL byte in the first 8 KiB). */
function trackedTextFiles() {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 })
    .split('\0')
    .filter((file) => file && file !== SELF && !SKIPPED.some((skip) => skip.test(file)));
  const texts = [];
  for (const file of files) {
    let bytes;
    try {
      bytes = readFileSync(path.join(root, file));
    } catch {
      continue; // tracked but deleted in this working tree
    }
    if (bytes.subarray(0, 8192).includes(0)) continue;
    texts.push([file, bytes.toString('utf8')]);
  }
  return texts;
}

test('no tracked file refers to an issue, a stop or a ticket by number', () => {
  const files = trackedTextFiles();
  assert.ok(files.length > 100, `only ${files.length} tracked text files found: is this a git checkout?`);
  const found = files.flatMap(([file, text]) => ticketReferences(text).map((r) => `${file}:${r.line}: ${r.match}`));
  assert.deepEqual(found, [], `say why instead of naming a ticket:\n${found.join('\n')}`);
});
