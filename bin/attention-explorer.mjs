#!/usr/bin/env node
// Command line for the engine:
//   attention-explorer trace "我 爱 吃 火锅" --heads 2 --json
//   attention-explorer trace "The cat sat" --step weights --head 1 --format csv
// Exit codes: 0 ok, 1 the engine refused the input, 2 bad arguments.
import { parseArgs } from 'node:util';
import { AttentionError, createEngine } from '../dist/engine/engine.js';
import { isTrainingCommand, runTrainingCommand } from './train.mjs';

// train, eval and trace --model: bin/train.mjs.
if (isTrainingCommand(process.argv.slice(2))) process.exit(await runTrainingCommand(process.argv.slice(2)));

const USAGE = `usage: attention-explorer trace <sentence> [options]

Runs self-attention on <sentence> (split by the engine's tokenizer, or --tokens a,b,c) and
prints the trace.

options:
  --d-model N        model width (default 8)          --heads N      heads (default 2)
  --dk N             per-head width (default d-model / heads)
  --seed N           random seed (default 42)         --mask M       none | causal | window
  --window W         window width for --mask window   --temperature T (default 1)
  --no-scale         do not divide by √d_k            --no-pe        no positional encoding
  --bias             add biases                       --init I       scaled | randn
  --embedding E      hash | stream                    --kv <text>    cross-attention keys/values
  --tokens a,b,c     give the tokens directly
  --step NAME        print one step (e.g. weights, scores, output); --head H for per-head steps
  --format F         json (default) | csv             --json         same as --format json
  -h, --help`;

function fail(message, code = 2) {
  process.stderr.write(`attention-explorer: ${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      'd-model': { type: 'string' },
      heads: { type: 'string' },
      dk: { type: 'string' },
      seed: { type: 'string' },
      mask: { type: 'string' },
      window: { type: 'string' },
      temperature: { type: 'string' },
      'no-scale': { type: 'boolean' },
      'no-pe': { type: 'boolean' },
      bias: { type: 'boolean' },
      init: { type: 'string' },
      embedding: { type: 'string' },
      kv: { type: 'string' },
      tokens: { type: 'string' },
      step: { type: 'string' },
      head: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean' },
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
const [command, sentence] = positionals;
if (command !== 'trace') fail(`unknown command ${JSON.stringify(command ?? '')}; the command is "trace"\n\n${USAGE}`);
if (sentence === undefined && values.tokens === undefined)
  fail('give a sentence: attention-explorer trace "我 爱 吃 火锅"');
const format = values.json ? 'json' : (values.format ?? 'json');
if (!['json', 'csv'].includes(format)) fail(`--format (${format}) must be json or csv`);

function integer(flag) {
  const text = values[flag];
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n)) fail(`--${flag} (${text}) must be an integer`);
  return n;
}

const options = {};
if (values.tokens !== undefined) options.tokens = values.tokens.split(',');
else options.text = sentence;
if (values.kv !== undefined) options.kvText = values.kv;
const set = (key, value) => value !== undefined && (options[key] = value);
set('dModel', integer('d-model'));
set('heads', integer('heads'));
set('dK', integer('dk'));
set('seed', integer('seed'));
if (values.temperature !== undefined) {
  const t = Number(values.temperature);
  if (!Number.isFinite(t)) fail(`--temperature (${values.temperature}) must be a number`);
  options.temperature = t;
}
if (values.mask !== undefined)
  options.mask = values.mask === 'window' ? { type: 'window', width: integer('window') ?? 1 } : values.mask;
if (values['no-scale']) options.scale = false;
if (values['no-pe']) options.positionalEncoding = false;
if (values.bias) options.bias = true;
set('init', values.init);
set('embedding', values.embedding);

const engine = await createEngine();
let trace;
try {
  trace = engine.run(options);
} catch (error) {
  if (error instanceof AttentionError) fail(`${error.field}: ${error.message} [${error.code}]`, 1);
  throw error;
}

const plain = (m) => ({
  name: m.name,
  head: m.head,
  shape: [m.rows, m.cols],
  rowLabels: m.rowLabels,
  colLabels: m.colLabels,
  data: Array.from(m.data, (v) => (Number.isFinite(v) ? v : null)),
});
const csv = (m) => {
  const field = (v) => (typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v));
  const rows = [['', ...m.colLabels].map(field).join(',')];
  for (let i = 0; i < m.rows; i++)
    rows.push(
      [
        m.rowLabels[i],
        ...Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), (v) => (Number.isFinite(v) ? v : '-inf')),
      ]
        .map(field)
        .join(','),
    );
  return rows.join('\n');
};

if (values.step !== undefined) {
  let step;
  try {
    step = trace.step(values.step, integer('head') ?? 0);
  } catch (error) {
    fail(error.message);
  }
  process.stdout.write(`${format === 'csv' ? csv(step) : JSON.stringify(plain(step))}\n`);
} else if (format === 'csv') {
  const blocks = [];
  for (const name of trace.stepNames) {
    for (const m of [trace.steps[name]].flat())
      blocks.push(`# ${name}${m.head !== null ? ` head ${m.head}` : ''}\n${csv(m)}`);
  }
  process.stdout.write(`${blocks.join('\n\n')}\n`);
} else {
  const steps = Object.fromEntries(
    trace.stepNames.map((name) => [
      name,
      Array.isArray(trace.steps[name]) ? trace.steps[name].map(plain) : plain(trace.steps[name]),
    ]),
  );
  const { tokens, kvTokens, nQuery, nKey, dModel, heads, dK, parameterCount, flops } = trace;
  process.stdout.write(
    `${JSON.stringify({ tokens, kvTokens, nQuery, nKey, dModel, heads, dK, parameterCount, flops, steps })}\n`,
  );
}
