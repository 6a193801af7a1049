#!/usr/bin/env node
// Command line for the engine:
//   attention-explorer trace 我 爱 吃 火锅 --heads 2 --json
//   attention-explorer trace "The cat sat" --step weights --head 1 --format csv
// Exit codes: 0 ok (also when the reader stops early, as `| head` does), 1 the engine refused
// the input, 2 bad arguments, 3 the output could not be written.
// The output is written piece by piece (dist/engine/serialize.js, shared with the page's
// export): a full trace of 2,048 tokens is ~700 MB, more than one JS string can hold.
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import {
  ATTENTION_KINDS,
  AttentionError,
  createEngine,
  EMBEDDINGS,
  INITS,
  LIMITS,
  MASK_DEFAULTS,
  TRACE_DEFAULTS,
} from '../dist/engine/engine.js';
import {
  CSV_BOM,
  matrixCSV,
  matrixJSON,
  matricesOf,
  summaryOf,
  traceCSV,
  traceJSON,
} from '../dist/engine/serialize.js';
import { exitQuietlyWhenThePipeCloses } from './stdout.mjs';
import { isTrainingCommand, runTrainingCommand } from './train.mjs';
import { isTokenizeCommand, runTokenizeCommand } from './tokenize.mjs';
import { isExportCommand, runExportCommand } from './export_hf.mjs';

// train, eval, trace --model and generate: bin/train.mjs.
if (isTrainingCommand(process.argv.slice(2))) process.exit(await runTrainingCommand(process.argv.slice(2)));
// tokenize (GPT-2's BPE): bin/tokenize.mjs.
if (isTokenizeCommand(process.argv.slice(2))) process.exit(await runTokenizeCommand(process.argv.slice(2)));
// export-hf (a model as a Hugging Face GPT-2 checkpoint): bin/export_hf.mjs.
if (isExportCommand(process.argv.slice(2))) process.exit(await runExportCommand(process.argv.slice(2)));

// The engine's defaults, and the choices the command line offers: the default init first; no
// "given" embeddings (a command line gives no vectors).
const D = TRACE_DEFAULTS;
const M = MASK_DEFAULTS;
const CLI_INITS = [D.init, ...INITS.filter((name) => name !== D.init)];
const CLI_EMBEDDINGS = EMBEDDINGS.filter((name) => name !== 'given');

const USAGE = `usage: attention-explorer trace <sentence> [options]

Runs self-attention on <sentence> (all the words after "trace", split into words as the page
splits them; or --tokens a,b,c) and prints the trace.

options:
  --d-model N        model width (default ${D.dModel})          --heads N      heads (default ${D.heads})
  --dk N             per-head width (default d-model / heads)
  --seed N           random seed, 0 … ${LIMITS.maxSeed} (default ${D.seed})
  --mask M           none | causal | window | longformer | bigbird | dilated
                     (the last four compute only the scores their pattern allows)
  --window W         half-width of a pattern: |i − j| ≤ W (default ${M.width})
  --causal           a pattern also hides the future (j ≤ i)
  --global i,j       longformer, bigbird: global tokens (default ${M.global.join(',')})
  --dilation D       dilated: every D-th key (default ${M.dilation})
  --block B          bigbird: block size (default ${M.block})
  --random R         bigbird: random key blocks per query block (default ${M.random})
  --mask-seed S      bigbird: seed of the random blocks (default ${M.seed})
  --temperature T    softmax temperature (default ${D.temperature})
  --attention A      softmax (default) | linear: φ(q)ᵀΣφ(k)vᵀ / φ(q)ᵀΣφ(k), φ = elu + 1,
                     no n × n matrix; with --mask none or causal only
  --no-scale         do not divide by √d_k            --no-pe        no positional encoding
  --bias             add biases                       --init I       ${CLI_INITS.join(' | ')}
  --embedding E      ${CLI_EMBEDDINGS.join(' | ')}                    --kv <text>    cross-attention keys/values
  --tokens a,b,c     give the tokens directly (instead of a sentence)
  --tokenizer T      words (default, as the page) | chars | whitespace | engine
  --step NAME        print one step (e.g. weights, scores, output); --head H (1 … heads) for per-head steps
  --format F         json (default) | csv             --json         same as --format json
  --bom              start the CSV with a UTF-8 BOM, so that Excel reads Chinese as UTF-8
  -h, --help

Training and trained models: attention-explorer train | eval | trace --model | generate --model
(attention-explorer train --help). GPT-2's tokenizer: attention-explorer tokenize --help.
A model as a Hugging Face GPT-2 checkpoint: attention-explorer export-hf --help.

exit status: 0 ok, 1 the engine refused the input, 2 bad arguments, 3 the output could not be
written.`;

function fail(message, code = 2) {
  process.stderr.write(`attention-explorer: ${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    tokens: true,
    options: {
      'd-model': { type: 'string' },
      heads: { type: 'string' },
      dk: { type: 'string' },
      seed: { type: 'string' },
      mask: { type: 'string' },
      window: { type: 'string' },
      causal: { type: 'boolean' },
      global: { type: 'string' },
      dilation: { type: 'string' },
      block: { type: 'string' },
      random: { type: 'string' },
      'mask-seed': { type: 'string' },
      temperature: { type: 'string' },
      attention: { type: 'string' },
      'no-scale': { type: 'boolean' },
      'no-pe': { type: 'boolean' },
      bias: { type: 'boolean' },
      init: { type: 'string' },
      embedding: { type: 'string' },
      kv: { type: 'string' },
      tokens: { type: 'string' },
      tokenizer: { type: 'string' },
      step: { type: 'string' },
      head: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' },
      bom: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(`${error.message}\n\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
// parseArgs keeps the last of a repeated flag: a silently ignored value.
const given = new Set();
for (const token of parsed.tokens) {
  if (token.kind !== 'option') continue;
  if (given.has(token.name)) fail(`--${token.name} is given twice`);
  given.add(token.name);
}

const show = (text) => JSON.stringify(text);

/** A flag with a fixed set of values; `allowed` is an array, so "__proto__" is just a string. */
function oneOf(flag, allowed) {
  const text = values[flag];
  if (text !== undefined && !allowed.includes(text))
    fail(`--${flag} (${show(text)}) must be one of ${allowed.join(', ')}`);
  return text;
}

function integer(flag) {
  const text = values[flag];
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    fail(`--${flag} (${show(text)}) must be an integer`);
  return Number(text);
}

const [command, ...words] = positionals;
if (command !== 'trace') fail(`unknown command ${show(command ?? '')}; the command is "trace"\n\n${USAGE}`);
// `trace 我 爱 吃` without quotes: the shell gives three words of one sentence.
const sentence = words.length ? words.join(' ') : undefined;
if (sentence !== undefined && values.tokens !== undefined) fail('give a sentence or --tokens, not both');
if (sentence === undefined && values.tokens === undefined)
  fail('give a sentence: attention-explorer trace "我 爱 吃 火锅"');

const format = oneOf('format', ['json', 'csv']) ?? 'json';
if (values.json && format !== 'json') fail(`--json and --format ${format} conflict`);
if (values.bom && format !== 'csv') fail('--bom is for --format csv (JSON has no BOM)');
const PATTERNS = ['window', 'longformer', 'bigbird', 'dilated'];
const mask = oneOf('mask', ['none', 'causal', ...PATTERNS]);
/** The pattern options and the masks that take them (every other flag of a pattern is refused). */
const PATTERN_FLAGS = {
  window: PATTERNS,
  causal: PATTERNS,
  global: ['longformer', 'bigbird'],
  dilation: ['dilated'],
  block: ['bigbird'],
  random: ['bigbird'],
  'mask-seed': ['bigbird'],
};
for (const [flag, masks] of Object.entries(PATTERN_FLAGS)) {
  if (values[flag] !== undefined && !masks.includes(mask)) fail(`--${flag} needs --mask ${masks.join(' | ')}`);
}
if (values.head !== undefined && values.step === undefined) fail('--head needs --step (a per-head step)');

const tokenizer = oneOf('tokenizer', ['words', 'chars', 'whitespace', 'engine']);
if (tokenizer !== undefined && values.tokens !== undefined) fail('--tokenizer splits a sentence: not with --tokens');

const options = {};
if (values.tokens !== undefined) options.tokens = values.tokens.split(',');
else options.text = sentence;
if (tokenizer !== undefined) options.tokenizer = tokenizer;
if (values.kv !== undefined) options.kvText = values.kv;
const set = (key, value) => value !== undefined && (options[key] = value);
set('dModel', integer('d-model'));
set('heads', integer('heads'));
set('dK', integer('dk'));
if (values.seed !== undefined) {
  // The full range of NumPy's seeds, 0 … 2³² − 1; the digits keep "1e3" and "-0" out.
  if (!/^\d{1,10}$/.test(values.seed) || Number(values.seed) > LIMITS.maxSeed)
    fail(`--seed (${show(values.seed)}) must be an integer from 0 to ${LIMITS.maxSeed}`);
  options.seed = Number(values.seed);
}
if (values.temperature !== undefined) {
  // Number("") is 0 and Number("0x10") is 16: only a decimal number is a temperature.
  const t = Number(values.temperature);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(values.temperature) || !Number.isFinite(t))
    fail(`--temperature (${show(values.temperature)}) must be a number`);
  options.temperature = t;
}
if (PATTERNS.includes(mask)) {
  // Absent options are left to the engine's defaults; each present one is checked there by name.
  const pattern = { type: mask, width: integer('window') ?? 1, causal: values.causal ?? false };
  if (values.global !== undefined) {
    pattern.global = values.global.split(',').map((text) => {
      if (!/^\d+$/.test(text)) fail(`--global (${show(values.global)}) must be token positions like 0,5`);
      return Number(text);
    });
  }
  const numbers = { dilation: 'dilation', block: 'block', random: 'random', 'mask-seed': 'seed' };
  for (const [flag, key] of Object.entries(numbers)) if (values[flag] !== undefined) pattern[key] = integer(flag);
  options.mask = pattern;
} else if (mask !== undefined) options.mask = mask;
if (values['no-scale']) options.scale = false;
if (values['no-pe']) options.positionalEncoding = false;
if (values.bias) options.bias = true;
set('init', oneOf('init', CLI_INITS));
set('embedding', oneOf('embedding', CLI_EMBEDDINGS));
// What linear cannot take (a window mask, --no-scale, a temperature) the engine refuses, by field.
set('attention', oneOf('attention', ATTENTION_KINDS));
const head = integer('head');

/** The engine refusing the input (an AttentionError, when running or reading a step): exit 1. */
async function refusedBy(work) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AttentionError) fail(`${error.field}: ${error.message} [${error.code}]`, 1);
    throw error;
  }
}

const engine = await createEngine();
const trace = await refusedBy(() => engine.open(options));

exitQuietlyWhenThePipeCloses();

/** Writes the pieces in ~64 KiB writes, waiting whenever the reader is behind. */
async function write(pieces) {
  let buffer = '';
  for (const piece of pieces) {
    buffer += piece;
    if (buffer.length >= 1 << 16) {
      if (!process.stdout.write(buffer)) await once(process.stdout, 'drain');
      buffer = '';
    }
  }
  process.stdout.write(buffer);
}

function* withBOM(pieces) {
  yield CSV_BOM;
  yield* pieces;
}

const isPerHead = (name) => trace.info(name).perHead;
let pieces;
if (values.step !== undefined) {
  const name = values.step;
  // stepNames is an array: "__proto__" or "constructor" is no step.
  if (!trace.stepNames.includes(name)) fail(`--step (${show(name)}) must be one of ${trace.stepNames.join(', ')}`);
  if (head !== undefined && !isPerHead(name))
    fail(`--head (${head}): step ${show(name)} is not per head; leave --head out`);
  // Heads are numbered from 1, as in the page and the CSV (until 2026-11-30 --head 0 was the first).
  if (head !== undefined && (head < 1 || head > trace.heads))
    fail(
      `--head (${head}) must be from 1 to ${trace.heads}: heads are numbered from 1${head === 0 ? ' (the first head is --head 1)' : ''}`,
    );
  const step = await refusedBy(() => trace.step(name, head === undefined ? 0 : head - 1));
  pieces = format === 'csv' ? matrixCSV(step) : [...matrixJSON(step), '\n'];
} else {
  const matrices = matricesOf(trace, isPerHead); // read one by one as they are written
  pieces = format === 'csv' ? traceCSV(matrices) : traceJSON(summaryOf(trace), matrices);
}
// Only when asked: stdout goes to pipes and tools that would read a BOM as part of a label.
if (values.bom) pieces = withBOM(pieces);
await refusedBy(() => write(pieces));
trace.dispose();
