// The training and model commands of the CLI (dispatched from attention-explorer.mjs):
//   attention-explorer train --task sort --steps 3000 --out sort.model
//   attention-explorer eval sort.model
//   attention-explorer trace --model sort.model "3 1 4 2 |"
//   attention-explorer generate --model models/tang.model "床前明月光" --count 5
// Exit codes: 0 ok, 1 the engine refused (or a model file could not be read), 2 bad arguments
// (naming the flag and its allowed values), 3 the model file could not be written.
import { parseArgs } from 'node:util';
import { AttentionError, createEngine, LIMITS, TEMPERATURE } from '../dist/engine/engine.js';
import { matrixCSV, matrixJSON, matricesOf, traceCSV, traceJSON } from '../dist/engine/serialize.js';
import { normalizeTrainerConfig, taskFieldsOf } from '../dist/engine/training_config.js';
import { Refusal, UsageError, WriteFailure } from './failures.mjs';
import { checkOutput, readModelBytes, writeOutput } from './model_files.mjs';
import { checkpointPaths, readCheckpoint, readCheckpointTokenizer, tokenTexts } from './checkpoint_files.mjs';
import { exitQuietlyWhenThePipeCloses } from './stdout.mjs';

/** --d-model for dModel, --batch-size for batchSize, … */
const flagOf = (field) => field.replace(/[A-Z]+/g, (m) => `-${m.toLowerCase()}`);
// The engine's trainer fields (trainer_fields.hpp), one flag each; set by runTrainingCommand.
let FIELDS = [];
let FIELD_FLAGS = new Map();
let USAGE = '';

const usageOf = (fields) => `usage:
  attention-explorer train [--task T] [--steps N] [--out FILE [--force]] [model and optimizer flags]
  attention-explorer eval FILE [--examples N] [--json]
  attention-explorer trace --model FILE "<tokens or text>" [--layer L] [--step NAME] [--head H] (L and H from 1) [--format json|csv]
  attention-explorer generate --model FILE "<text>" [--count N] [--temperature T] [--top-k K] [--greedy|--seed S] [--json]

train: trains a small transformer on a toy task, shows progress and the loss on stderr, then
writes the model file (default <task>.model) and prints held-out accuracy. --out is checked
before training; an existing file is replaced only with --force (never left half-written).
  --steps N            updates (default 1000)        --eval-examples N   held-out examples (default 1000)
  --precision P        float32 (default) | float16   --every N           progress every N steps
${fields.map((f) => `  --${flagOf(f.name)} ${f.kind === 'enum' ? f.values.join('|') : f.kind === 'bool' ? 'true|false' : 'N'} (default ${f.fallback})`).join('\n')}
  Without --total-steps the learning rate decays (cosine) to the last step; without
  --warmup-steps it warms up over the first 5% of steps.

eval: exact-match accuracy (answers generated greedily) and loss on held-out examples.

trace --model: runs the model on the tokens (symbols separated by spaces, e.g. "3 1 4 2 |"; for a
corpus model, text read by its vocabulary: characters or words) and prints every step of every
layer as JSON, or one step with --step (and --layer, --head). Text past the model's context is
cut (a note on stderr says how much); symbols not in the vocabulary are read as <unk>.
--model may also be a GPT-2 checkpoint: a Hugging Face folder with config.json and
model.safetensors (or that model.safetensors). Text is read by the folder's tokenizer (vocab.json
and merges.txt), or by GPT-2's own for a GPT-2 of 50,257 tokens that has none; the tokens are
printed as text, with their ids. --tokens 15496,995 reads token ids.

generate (corpus models): continues the text by --count tokens (default 1) and prints it.
Greedy (the most likely token) unless --seed S samples from softmax(logits / T) (--temperature,
default 1) over the --top-k most likely (default 0: all); the same seed gives the same text.
Past the model's context the window slides. --json prints { tokens, ids, text }.`;

// A number as JSON writes one, in decimal: Number() alone takes " 0.5", "0x10", "0b1" and ""
// (as 0). Numbers outside the normal range of a double are refused too: 1e-320 (subnormal),
// 1e-400 (0 once read), 1e400 (Infinity).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const MIN_NORMAL = 2.2250738585072014e-308;

/** The number `text` spells in decimal, in the normal range of a double; undefined if not. */
export function decimalNumber(text) {
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || (n !== 0 && Math.abs(n) < MIN_NORMAL)) return undefined;
  // 1e-400 is not 0: it underflowed.
  if (n === 0 && /[1-9]/.test(text.split(/[eE]/)[0])) return undefined;
  return n;
}

function integerFlag(values, flag, min, max, fallback) {
  const text = values[flag];
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) {
    throw new UsageError(`--${flag} (${text}) must be an integer from ${min} to ${max}`);
  }
  return n;
}

function oneOfFlag(values, flag, allowed, fallback) {
  const text = values[flag] ?? fallback;
  if (!allowed.includes(text)) throw new UsageError(`--${flag} (${text}) must be one of ${allowed.join(', ')}`);
  return text;
}

function parse(args, options, positionals) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: positionals,
      tokens: true,
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  // parseArgs keeps the last of a repeated flag: a silently ignored value.
  const given = new Set();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (given.has(token.name)) throw new UsageError(`--${token.name} is given twice`);
    given.add(token.name);
  }
  return parsed;
}

/** A trainer configuration from the field flags; bad values are UsageErrors naming the flag. */
function trainerConfig(values, steps) {
  const config = {};
  const typed = new Map(); // field → the text a number was read from, echoed as typed
  for (const [flag, f] of FIELD_FLAGS) {
    const text = values[flag];
    if (text === undefined) continue;
    if (f.kind === 'enum') config[f.name] = text;
    else if (f.kind === 'bool') config[f.name] = text === 'true' ? true : text === 'false' ? false : text;
    // Integers in decimal digits only: Number("1.0000000000000001") is 1, and a refusal of
    // Number("9007199254740993") would show 9007199254740992. Other numbers in decimal, normal.
    else if (f.kind === 'int' ? /^\d+$/.test(text) : DECIMAL.test(text)) {
      // Decimal but outside the normal range (1e-320, 1e-400, 1e400): NaN, refused below.
      config[f.name] = f.kind === 'int' ? Number(text) : (decimalNumber(text) ?? NaN);
      typed.set(f.name, text);
    } else config[f.name] = text; // refused below, quoted
  }
  config.totalSteps ??= steps;
  config.warmupSteps ??= Math.round(steps / 20);
  try {
    return normalizeTrainerConfig(FIELDS, config);
  } catch (error) {
    if (!(error instanceof AttentionError)) throw error;
    const flag = `--${flagOf(error.field)}`;
    // "seed (9007199254740992) must be …" → "--seed (9007199254740993) must be …"
    const { message } = error;
    const end = message.lastIndexOf(') must be ');
    if (typed.has(error.field) && message.startsWith(`${error.field} (`) && end > 0) {
      throw new UsageError(`${flag} (${typed.get(error.field)})${message.slice(end + 1)}`);
    }
    throw new UsageError(message.replace(new RegExp(`^${error.field}\\b`), flag));
  }
}

/** `argument` names where the path came from: "--model" or "the model file". */
function readModel(engine, path, argument) {
  // A GPT-2 checkpoint: a Hugging Face folder, or its model.safetensors (docs/gpt2.md).
  const checkpoint = checkpointPaths(path);
  if (checkpoint) return readCheckpoint(engine, checkpoint, argument);
  const bytes = readModelBytes(engine, path, argument);
  return engine.loadModel(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

function progressLine(done, total, m) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
  return (
    `[${bar}] ${done}/${total} loss ${m.loss.toFixed(4)} acc ${(100 * m.accuracy).toFixed(1)}% ` +
    `lr ${m.learningRate.toExponential(2)} ${Math.round(m.tokensPerSecond)} tok/s`
  );
}

async function train(args) {
  const fieldOptions = Object.fromEntries([...FIELD_FLAGS.keys()].map((flag) => [flag, { type: 'string' }]));
  const { values } = parse(
    args,
    {
      ...fieldOptions,
      steps: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
      every: { type: 'string' },
      precision: { type: 'string' },
      'eval-examples': { type: 'string' },
    },
    false,
  );
  if (values.help) return process.stdout.write(`${USAGE}\n`);
  const steps = integerFlag(values, 'steps', 1, 10_000_000, 1000);
  const config = trainerConfig(values, steps);
  const every = integerFlag(
    values,
    'every',
    1,
    steps,
    Math.max(1, Math.ceil(steps / (process.stderr.isTTY ? 50 : 10))),
  );
  const evalExamples = integerFlag(values, 'eval-examples', 1, 100_000, 1000);
  const precision = oneOfFlag(values, 'precision', ['float32', 'float16'], 'float32');
  const out = values.out ?? `${config.task}.model`;

  const engine = await createEngine();
  const trainer = engine.createTrainer(config);
  try {
    // Before any training: a path that cannot take the model would waste the whole run.
    const { replaces, target } = checkOutput(out, values.force);
    process.stderr.write(
      `training ${config.task}: ${trainer.parameterCount} parameters, ${steps} steps of ${config.batchSize} sequences\n`,
    );
    const tty = process.stderr.isTTY;
    let metrics;
    for (let done = 0; done < steps;) {
      const count = Math.min(every, steps - done);
      metrics = trainer.step(count);
      done += count;
      const line = progressLine(done, steps, metrics);
      process.stderr.write(tty ? `\r${line}` : `${line}\n`);
    }
    if (tty) process.stderr.write('\n');
    const bytes = trainer.save({ precision });
    writeOutput(target, bytes, values.force);
    const held = trainer.evaluate(evalExamples);
    process.stdout.write(
      `${out}: ${bytes.length} bytes${replaces ? ' (replaced the old file)' : ''}; held-out exact match ${(100 * held.exactMatch).toFixed(1)}% ` +
        `(${held.examples} examples), loss ${held.loss.toFixed(4)}; final training loss ${metrics.loss.toFixed(4)}\n`,
    );
  } finally {
    trainer.dispose();
  }
}

async function evaluate(args) {
  const { values, positionals } = parse(args, { examples: { type: 'string' }, json: { type: 'boolean' } }, true);
  if (values.help) return process.stdout.write(`${USAGE}\n`);
  if (positionals.length !== 1) throw new UsageError('give one model file: attention-explorer eval sort.model');
  const examples = integerFlag(values, 'examples', 1, 100_000, 1000);
  const engine = await createEngine();
  const model = readModel(engine, positionals[0], 'the model file');
  try {
    const result = model.evaluate(examples);
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ task: model.config.task, ...result })}\n`);
    } else {
      process.stdout.write(
        `${positionals[0]}: ${model.config.task}, ${model.parameterCount} parameters\n` +
          `held-out exact match ${(100 * result.exactMatch).toFixed(1)}% (${result.examples} examples), ` +
          `token accuracy ${(100 * result.tokenAccuracy).toFixed(1)}%, loss ${result.loss.toFixed(4)}\n`,
      );
    }
  } finally {
    model.dispose();
  }
}

async function traceModel(args) {
  const { values, positionals } = parse(
    args,
    {
      model: { type: 'string' },
      layer: { type: 'string' },
      step: { type: 'string' },
      head: { type: 'string' },
      format: { type: 'string' },
      tokens: { type: 'string' },
    },
    true,
  );
  if (values.help) return process.stdout.write(`${USAGE}\n`);
  const [command, text] = positionals;
  if (command !== 'trace' || positionals.length > 2)
    throw new UsageError('usage: attention-explorer trace --model FILE "<tokens>"');
  if (text === undefined && values.tokens === undefined)
    throw new UsageError('give the tokens: attention-explorer trace --model sort.model "3 1 4 2 |"');
  const format = oneOfFlag(values, 'format', ['json', 'csv'], 'json');
  const engine = await createEngine();
  const model = readModel(engine, values.model, '--model');
  let tokenizer;
  try {
    // A GPT-2 checkpoint reads text through its BPE tokenizer (--tokens: ids, as they are).
    const checkpoint = values.model === undefined ? null : checkpointPaths(values.model);
    if (checkpoint && values.tokens === undefined) {
      tokenizer = engine.createBpeTokenizer(readCheckpointTokenizer(checkpoint, '--model'));
    }
    // --layer and --head count from 1 (as the page and the CSV do); the API counts from 0.
    const layerFlag = integerFlag(values, 'layer', 1, model.config.layers, undefined);
    const layer = layerFlag === undefined ? undefined : layerFlag - 1;
    const head = integerFlag(values, 'head', 1, model.config.heads, 1) - 1;
    const encoded = tokenizer?.pieces(text);
    const input =
      values.tokens !== undefined ? { tokens: values.tokens.split(',') } : encoded ? { tokens: encoded.ids } : { text };
    const trace = model.trace(input);
    // The checkpoint's tokens as the text they read (a space as a space), their ids beside them.
    if (encoded) Object.assign(trace, { tokens: tokenTexts(encoded), ids: encoded.ids });
    if (trace.unknown) noteReading(trace, model.contextLength);
    const layerOf = (l) => trace.layers[l];
    const perHead = (steps) => (name) => Array.isArray(steps[name]);
    let pieces;
    if (values.step !== undefined) {
      const step = layer === undefined ? trace.step(values.step) : layerOf(layer).step(values.step, head);
      pieces = format === 'csv' ? matrixCSV(step) : [...matrixJSON(step), '\n'];
    } else if (format === 'csv') {
      if (layer === undefined) throw new UsageError('--format csv needs --layer L or --step NAME');
      pieces = traceCSV(matricesOf(layerOf(layer), perHead(layerOf(layer).steps)));
    } else {
      // { model: { tokens, vocabulary, config, steps }, layers: [{ layer, steps }, …] }
      const layers = layer === undefined ? trace.layers : [layerOf(layer)];
      // Corpus models also say which tokens were read as <unk> and how many were cut.
      const { tokens, ids, vocabulary, unknown, cut } = trace;
      pieces = [
        '{"model":',
        ...traceJSON(
          { tokens, ...(encoded && { ids }), ...(unknown && { unknown, cut }), vocabulary, config: model.config },
          matricesOf(trace, () => false),
        ),
        ',"layers":[',
        ...layers.flatMap((l, i) => [i ? ',' : '', ...traceJSON({ layer: l.layer }, matricesOf(l, perHead(l.steps)))]),
        ']}\n',
      ];
    }
    // A model's trace is small (a task's sequence): one write.
    process.stdout.write([...pieces].join(''));
  } finally {
    tokenizer?.dispose();
    model.dispose();
  }
}

/** Notes on stderr about what a corpus model read: unknown symbols, text past its context. */
function noteReading(read, contextLength) {
  const unknown = read.tokens.filter((_, i) => read.unknown[i]);
  if (unknown.length) {
    process.stderr.write(`note: not in the vocabulary, read as <unk>: ${[...new Set(unknown)].join(' ')}\n`);
  }
  if (read.cut) {
    process.stderr.write(
      `note: the text has ${read.total} tokens; the model reads ${contextLength} (${read.cut} cut)\n`,
    );
  }
}

function corpusModel(engine, path) {
  const model = readModel(engine, path, '--model');
  // (A task model generates too, for the page, but reads no text: encode is the corpus API's.)
  if (typeof model.encode !== 'function') {
    model.dispose();
    throw new Refusal(`${path} is a toy-task model: generate needs a corpus language model`);
  }
  return model;
}

function numberFlag(values, flag, min, max, fallback) {
  const text = values[flag];
  if (text === undefined) return fallback;
  const n = decimalNumber(text);
  if (n === undefined || !(n >= min && n <= max)) {
    throw new UsageError(`--${flag} (${text}) must be a decimal number from ${min} to ${max}`);
  }
  return n;
}

async function generate(args) {
  const { values, positionals } = parse(
    args,
    {
      model: { type: 'string' },
      count: { type: 'string' },
      temperature: { type: 'string' },
      'top-k': { type: 'string' },
      greedy: { type: 'boolean' },
      seed: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (values.help) return process.stdout.write(`${USAGE}\n`);
  if (values.model === undefined || positionals.length !== 1) {
    throw new UsageError('give a model and a text: attention-explorer generate --model tang.model "床前明月光"');
  }
  const sampled = values.seed !== undefined;
  if (sampled && values.greedy) throw new UsageError('give --greedy or --seed S, not both');
  if (!sampled && (values.temperature !== undefined || values['top-k'] !== undefined)) {
    throw new UsageError('--temperature and --top-k shape sampling: give --seed S too');
  }
  const count = integerFlag(values, 'count', 1, LIMITS.maxGenerate, 1);
  const temperature = numberFlag(values, 'temperature', TEMPERATURE.min, TEMPERATURE.max, 1);
  const seed = integerFlag(values, 'seed', 0, LIMITS.maxSeed, 1);
  const engine = await createEngine();
  const model = corpusModel(engine, values.model);
  try {
    const topK = integerFlag(values, 'top-k', 0, model.vocabulary.length, 0);
    const [text] = positionals;
    noteReading(model.encode(text, { keep: 'end' }), model.contextLength);
    const result = model.generate({ text }, { count, temperature, topK, greedy: !sampled, seed });
    process.stdout.write(values.json ? `${JSON.stringify(result)}\n` : `${result.text}\n`);
  } finally {
    model.dispose();
  }
}

/** Whether these arguments are a training command (this module's). */
export function isTrainingCommand(args) {
  const [command] = args;
  return (
    command === 'train' ||
    command === 'eval' ||
    command === 'generate' ||
    (command === 'trace' && args.some((a) => a === '--model' || a.startsWith('--model=')))
  );
}

/** Resolves once everything written to `stream` so far has reached the OS (a pipe is asynchronous). */
const flushed = (stream) => new Promise((resolve) => stream.write('', () => resolve()));

/** Runs a training command; resolves to the exit code once stdout and stderr are flushed. */
export async function runTrainingCommand(args) {
  exitQuietlyWhenThePipeCloses();
  FIELDS = taskFieldsOf((await createEngine()).trainerFields);
  FIELD_FLAGS = new Map(FIELDS.map((f) => [flagOf(f.name), f]));
  USAGE = usageOf(FIELDS);
  const code = await exitCodeOf(args);
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  return code;
}

async function exitCodeOf(args) {
  const [command, ...rest] = args;
  try {
    if (command === 'train') await train(rest);
    else if (command === 'eval') await evaluate(rest);
    else if (command === 'generate') await generate(rest);
    else await traceModel(args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`attention-explorer ${command}: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof Refusal || error instanceof WriteFailure) {
      process.stderr.write(`attention-explorer ${command}: ${error.message}\n`);
      return error instanceof Refusal ? 1 : 3;
    }
    if (error instanceof AttentionError) {
      process.stderr.write(`attention-explorer ${command}: ${error.field}: ${error.message} [${error.code}]\n`);
      return 1;
    }
    throw error;
  }
}
