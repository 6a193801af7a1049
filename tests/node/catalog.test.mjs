// The engine's catalogs cross the C++/JS line once: build-scripts/catalog.mjs writes them from the
// built engine (cpp/bindings/catalog.cpp) into cpp/bindings/js/catalog.{js,d.ts} and
// web/src/catalog.js. Here: the committed files are what the generator makes from dist/engine
// today (a step or task added in C++ only fails this until the build regenerates them), and every
// JS table keyed by a step, block step or task agrees with the catalog both ways, so a new one
// is either placed by the page or listed below as not drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOG_FILES, catalogDocs, catalogFiles, readCatalog } from '../../build-scripts/catalog.mjs';
import {
  BLOCK_STEPS,
  LIMITS,
  MODEL_STEPS,
  ROLE_NAMES,
  ROLES,
  ATTENTION_KINDS,
  EMBEDDINGS,
  INITS,
  MASK_DEFAULTS,
  MASK_TYPES,
  STEPS,
  TASKS,
  TASK_NAMES,
  TEMPERATURE,
  TRACE_DEFAULTS,
} from '../../web/src/catalog.js';
import * as engineCatalog from '../../dist/engine/catalog.js';
import { TEXT_ROLES } from '../../dist/engine/head_roles.js';
import { AXIS_SIZES } from '../../web/src/step-shapes.js';
import { BLOCK_STEPS as PAGE_BLOCK_STEPS, blockStepsOf } from '../../web/src/models/steps.js';
import { modelStrings } from '../../web/src/models/i18n.js';
import { matricesOf } from '../../web/src/views/matrices.js';
import { arithmeticRequests } from '../../web/src/views/arithmetic.js';
import { requestsFor } from '../../web/src/explorer/needs.js';
import {
  ATTENTION_KINDS as PAGE_ATTENTION_KINDS,
  D_MODELS,
  defaultState,
  GLOBAL_TOKENS,
  INITS as PAGE_INITS,
  MASKS,
  parseField,
  SAMPLE_TEMPERATURE,
  TEMPERATURE as PAGE_TEMPERATURE,
} from '../../web/src/state.js';
import { SEED } from '../../web/src/url-fields.js';
import { WHOLE } from '../../web/src/requests.js';
import { DEFAULTS } from '../../dist/engine/engine.js';
import { readGenerateOptions } from '../../dist/engine/call_options.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';
import { STEP_COUNT } from '../../web/src/step-keys.js';
import { LANGUAGES } from '../../web/src/i18n.js';
import { defaultPreset, parseExample, presetConfig, PRESETS } from '../../web/src/playground/presets.js';
import { fixedInput } from '../../web/src/playground/session.js';
import { strings as playgroundStrings } from '../../web/src/playground/i18n.js';
import { createEngine, root } from './support.mjs';
import { LEVELS as PLAYGROUND_LEVELS } from '../../web/src/playground/state.js';
import { parseModelFile } from './corpus_model_support.mjs';
import { MODEL_CONFIG_KEYS } from '../../dist/engine/model_config.js';
import * as engineModelConfig from '../../dist/engine/model_config.js';

const engine = await createEngine();
const names = (rows) => rows.map((row) => row.name);

// Steps the engine serves (engine.run's API, the CLI) that the page never reads: the biases (its
// weights have none drawn), the mask's per-row count and the softmax statistics.
const NOT_DRAWN = ['bQ', 'bK', 'bV', 'rowMasked', 'rowMax', 'rowEntropy', 'bO'];

test('the committed catalog files are what the generator writes from the built engine, byte for byte', async () => {
  const files = await catalogFiles(await readCatalog());
  assert.deepEqual(Object.keys(files), CATALOG_FILES);
  for (const file of CATALOG_FILES) {
    assert.equal(
      readFileSync(path.join(root, file), 'utf8'),
      files[file],
      `${file}: run node build-scripts/catalog.mjs`,
    );
  }
  // The engine's copy in dist is the page's: the same module, the same rows.
  assert.deepEqual(engineCatalog.STEPS, STEPS);
  assert.deepEqual(engineCatalog.TASKS, TASKS);
});

test('the docs’ table of trainer options is the one the generator writes from the rows', async () => {
  for (const [file, text] of Object.entries(catalogDocs(await readCatalog()))) {
    assert.equal(readFileSync(path.join(root, file), 'utf8'), text, `${file}: run node build-scripts/catalog.mjs`);
  }
});

test('TrainerConfig is the generated one: every row a field, none hand-written in training.d.ts', () => {
  const hand = readFileSync(path.join(root, 'cpp/bindings/js/training.d.ts'), 'utf8');
  assert.doesNotMatch(hand, /interface (TrainerConfig|CorpusFields)\b/);
  const dts = readFileSync(path.join(root, 'cpp/bindings/js/training_fields.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/^\s+(\w+)\?:/gm)].map((m) => m[1]);
  assert.deepEqual(declared, names(engine.trainerFields));
  for (const row of engine.trainerFields) assert.ok(row.about, `${row.name}'s row says what it is`);
});

test('the .d.ts unions are the generated ones only: no hand-written StepName, TaskName or block step names', () => {
  for (const file of ['engine.d.ts', 'training.d.ts']) {
    const text = readFileSync(path.join(root, 'cpp/bindings/js', file), 'utf8');
    for (const union of ['StepName', 'BlockStepName', 'ModelStepName', 'TaskName']) {
      assert.doesNotMatch(text, new RegExp(`type ${union}\\s*=`), `${file} declares ${union}`);
    }
  }
  const dts = readFileSync(path.join(root, 'cpp/bindings/js/catalog.d.ts'), 'utf8');
  const union = (name) =>
    [...dts.match(new RegExp(`type ${name} =([^;]*);`))[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(union('StepName'), names(STEPS));
  assert.deepEqual(union('TaskName'), TASK_NAMES);
});

test('a trace runs every step of the catalog it says it has, with the catalog’s shape and heads', () => {
  const sizes = (trace) => ({ ...trace, nQuery: trace.tokens.length, nKey: (trace.kvTokens ?? trace.tokens).length });
  for (const options of [
    { tokens: ['a', 'b', 'c'], dModel: 8, heads: 2 },
    { tokens: ['a', 'b', 'c'], kvTokens: ['d', 'e'], dModel: 8, heads: 2 },
    { tokens: ['a', 'b', 'c'], dModel: 8, heads: 2, attention: 'linear' },
  ]) {
    const trace = engine.run(options);
    const z = { ...sizes(trace), cross: Boolean(options.kvTokens), attention: options.attention ?? 'softmax' };
    for (const step of STEPS) {
      const has = trace.stepNames.includes(step.name);
      const expected =
        step.presence === 'always' ||
        (step.presence === 'cross' && z.cross) ||
        (step.presence === 'linear' && z.attention === 'linear') ||
        (step.presence === 'softmax' && z.attention !== 'linear');
      assert.equal(has, expected, `${step.name} (${step.presence}) in ${JSON.stringify(options)}`);
      if (!has) continue;
      const got = trace.step(step.name, 0);
      assert.deepEqual(
        [got.rows, got.cols],
        [AXIS_SIZES[step.rowsAxis](z), AXIS_SIZES[step.colsAxis](z)],
        `${step.name}: [${step.rowsAxis} × ${step.colsAxis}]`,
      );
      assert.equal(got.head !== null, step.perHead, `${step.name}: per head`);
    }
    trace.dispose?.();
  }
});

test('every step the page reads is a catalog step, and every catalog step is read by the page or listed as not drawn', () => {
  const read = new Set();
  for (const attention of ['softmax', 'linear']) {
    for (const cross of [false, true]) {
      const sizes = {
        heads: 2,
        nQuery: 5,
        nKey: 4,
        dK: 4,
        dModel: 8,
        cross,
        attention,
        flops: { outputProjection: 1 },
      };
      for (const [name] of matricesOf(sizes)) read.add(name);
      for (const view of VIEW_KEYS) {
        for (let step = 1; step <= STEP_COUNT; step++) {
          const state = { ...defaultState('en'), view, step, attention, kv: cross ? 'd e f g' : '' };
          for (const r of requestsFor(sizes, state)) if (r.name) read.add(r.name);
        }
      }
      for (const name of names(STEPS)) {
        for (const r of arithmeticRequests({ name, head: 0, i: 0, j: 0 }, sizes)) read.add(r.name);
      }
    }
  }
  const catalog = names(STEPS);
  assert.deepEqual(
    [...read].filter((name) => !catalog.includes(name)),
    [],
    'read by the page, not in the catalog',
  );
  const unread = catalog.filter((name) => !read.has(name));
  assert.deepEqual(unread, NOT_DRAWN, 'a catalog step the page neither reads nor lists as not drawn');
});

test('the axes of the catalog are the ones the page can size', () => {
  const axes = new Set(STEPS.flatMap((s) => [s.rowsAxis, s.colsAxis]));
  assert.deepEqual([...axes].sort(), Object.keys(AXIS_SIZES).sort());
});

test('one list of block steps: the page’s are the catalog’s traced ones, each with its strings', async () => {
  assert.deepEqual(PAGE_BLOCK_STEPS, names(BLOCK_STEPS.filter((s) => s.traced)));
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(modelStrings(lang).blockSteps).sort(), [...PAGE_BLOCK_STEPS].sort(), lang);
  }
  // A trained model's trace lists them after the attention layer's own steps, in this order.
  const trainer = engine.createTrainer({ task: 'copy', length: 3, alphabet: 4, layers: 1, heads: 1, dModel: 8 });
  const trace = trainer.trace({ tokens: [0, 1, 2] });
  const blockSteps = trace.layers[0].stepNames.filter((name) => !names(STEPS).includes(name));
  assert.deepEqual(blockSteps, [...PAGE_BLOCK_STEPS]);
  assert.deepEqual(trace.stepNames, names(engineCatalog.MODEL_STEPS));
  trainer.dispose();
});

test('tasks: the engine’s, each with its strings; a tuned preset or the default one; a typed example follows the task’s input shape', () => {
  assert.deepEqual(TASK_NAMES, engine.trainerFields.find((f) => f.name === 'task').values);
  const tuned = Object.keys(PRESETS);
  assert.deepEqual(
    tuned,
    TASK_NAMES.filter((name) => tuned.includes(name)),
    'tuned presets: tasks, in the engine’s order',
  );
  for (const lang of LANGUAGES) {
    for (const name of TASK_NAMES) {
      assert.equal(typeof playgroundStrings(lang)[`task.${name}`], 'string', `${lang} ${name}`);
      assert.equal(typeof playgroundStrings(lang).taskHelp[name], 'string', `${lang} ${name} help`);
    }
  }
  for (const { name, input: shape } of TASKS) {
    // A task added to the engine with no tuned row gets the default preset: the engine trains it.
    const fallback = defaultPreset(name);
    const trainer = engine.createTrainer(presetConfig(fallback, fallback.knobs));
    try {
      const { loss } = trainer.step(1);
      assert.ok(Number.isFinite(loss) && loss > 0, `${name}: the default preset trains (loss ${loss})`);
    } finally {
      trainer.dispose();
    }
    for (const { task: config, input, placeholder } of [PRESETS[name], fallback].filter(Boolean)) {
      const task = { name, length: config.length, alphabet: config.alphabet, modulus: config.modulus };
      assert.deepEqual(parseExample(task, input.join(' '), 64), { input }, `${name}: its preset input`);
      assert.deepEqual(parseExample(task, placeholder, 64).error, undefined, `${name}: its placeholder`);
    }
    const { task: config, input } = PRESETS[name] ?? fallback;
    const task = { name, length: config.length, alphabet: config.alphabet, modulus: config.modulus };
    assert.deepEqual(fixedInput(task), input, name);
    // Another shape of the same task: a fitted input the engine's own prompt check accepts.
    const other = {
      ...task,
      length: (task.length ?? 0) + 2,
      alphabet: (task.alphabet ?? 0) + 3,
      modulus: (task.modulus ?? 0) + 4,
    };
    const fitted = fixedInput(other);
    const counts = { operands: [2, 2], sequence: [other.length, other.length] }[shape];
    if (counts)
      assert.ok(fitted.length >= counts[0] && fitted.length <= counts[1], `${name} (${shape}): ${fitted.length}`);
    else assert.ok(fitted.length >= 2 && fitted.length < 2 * other.length, `${name} (${shape}): ${fitted.length}`);
    const tooMany = [...fitted, 0, 0, 0].join(' ');
    if (shape !== 'prompt') assert.ok(parseExample(other, tooMany, 64).error, `${name}: too many symbols refused`);
  }
});

test('limits and temperature: the engine’s, once; the page’s ranges lie inside them', () => {
  for (const [key, value] of Object.entries(LIMITS)) assert.equal(engine.limits[key], value, key);
  assert.ok(Math.max(...D_MODELS) <= LIMITS.maxDModel, 'the page’s widths are the engine’s');
  assert.deepEqual(TEMPERATURE, { min: engine.limits.minTemperature, max: engine.limits.maxTemperature });
  for (const range of [PAGE_TEMPERATURE, SAMPLE_TEMPERATURE]) {
    assert.ok(range.min >= TEMPERATURE.min && range.max <= TEMPERATURE.max, JSON.stringify(range));
  }
  assert.throws(
    () => engine.run({ tokens: ['a'], dModel: 4, heads: 1, temperature: TEMPERATURE.min / 2 }),
    /temperature/,
  );
  engine.run({ tokens: ['a'], dModel: 4, heads: 1, temperature: TEMPERATURE.max }).dispose?.();
});

test('the seed’s and generate’s bounds: the engine’s limits, read by the page, the API and the CLI', () => {
  // A seed is a uint32 (np.random.seed's range); generate adds at most 1,024 tokens a call.
  assert.equal(LIMITS.maxSeed, 2 ** 32 - 1);
  assert.equal(LIMITS.maxGenerate, 1024);
  assert.deepEqual(SEED, { min: 0, max: LIMITS.maxSeed });
  assert.equal(engine.trainerFields.find((f) => f.name === 'seed').max, LIMITS.maxSeed);
  engine.run({ tokens: ['a'], seed: LIMITS.maxSeed });
  assert.throws(() => engine.run({ tokens: ['a'], seed: LIMITS.maxSeed + 1 }), /seed .* from 0 to 4294967295/);
  const generate = (options) => readGenerateOptions({ greedy: false, ...options }, 10);
  assert.equal(generate({ count: LIMITS.maxGenerate }).count, LIMITS.maxGenerate);
  assert.throws(() => generate({ count: LIMITS.maxGenerate + 1 }), /count .* from 1 to 1024/);
  assert.throws(() => generate({ seed: LIMITS.maxSeed + 1 }), /seed .* to 4294967295/);
});

test('the seed’s maximum is written once, in C++ (Limits::kMaxSeed): no source restates it', () => {
  const generated = new Set(['cpp/bindings/js/catalog.js', 'cpp/bindings/js/catalog.d.ts', 'web/src/catalog.js']);
  const files = (dir) =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(`${dir}/${e.name}`) : /\.(m?js|cpp|hpp)$/.test(e.name) ? [`${dir}/${e.name}`] : [],
    );
  const restating = ['cpp', 'web/src', 'bin'].flatMap(files).filter((file) => {
    if (generated.has(file) || file === 'cpp/include/attention/config.hpp') return false;
    const code = readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n');
    return /4294967295|2 \*\* 32\b/.test(code);
  });
  assert.deepEqual(restating, []);
});

test('a run’s option names and defaults: the engine’s tables, read by engine.run and the page', () => {
  assert.deepEqual(DEFAULTS, { ...TRACE_DEFAULTS, tokenizer: 'words' });
  // Every name of each table runs, and a wrong one is refused with the table's names.
  const run = (options) => engine.run({ tokens: ['a', 'b'], dModel: 4, heads: 1, ...options });
  for (const attention of ATTENTION_KINDS) run({ attention });
  for (const init of INITS) run({ init });
  for (const embedding of EMBEDDINGS) {
    run({
      embedding,
      ...(embedding === 'given'
        ? {
            given: {
              x: [
                [1, 0, 0, 0],
                [0, 1, 0, 0],
              ],
            },
          }
        : {}),
    });
  }
  for (const type of MASK_TYPES)
    run({
      mask:
        type === 'custom'
          ? {
              type,
              matrix: [
                [1, 0],
                [1, 1],
              ],
            }
          : type,
    });
  for (const [field, options, allowed] of [
    ['mask.type', { mask: 'diagonal' }, MASK_TYPES],
    ['attention', { attention: 'sparse' }, ATTENTION_KINDS],
    ['init', { init: 'xavier' }, INITS],
    ['embedding', { embedding: 'onehot' }, EMBEDDINGS],
  ]) {
    assert.throws(() => run(options), { field, message: new RegExp(`must be one of ${allowed.join(', ')}$`) });
  }
  // A pattern's settings left out are the engine's MaskSpec defaults: the same weights as written out.
  const pattern = { type: 'bigbird', width: 1 };
  const weights = (mask) => Array.from(run({ tokens: 'abcdefghij'.split(''), mask }).step('weights', 0).data);
  const { width, causal, global, block, random, seed } = MASK_DEFAULTS;
  assert.deepEqual(weights({ ...pattern }), weights({ type: 'bigbird', width, causal, global, block, random, seed }));
  // The page: its masks are the engine's but two it has no control for; the rest are the engine's names.
  assert.deepEqual(
    MASK_TYPES.filter((type) => !MASKS.includes(type)),
    ['padding', 'custom'],
  );
  assert.deepEqual(PAGE_ATTENTION_KINDS, ATTENTION_KINDS);
  assert.deepEqual(PAGE_INITS, INITS);
  for (const init of INITS) assert.equal(parseField('init', init), init);
  assert.equal(GLOBAL_TOKENS.max, LIMITS.maxTokens - 1, 'a global token is a position of the longest sentence');
  // The arithmetic panel reads a matrix whole: no side of any trace matrix is longer.
  assert.ok(WHOLE >= Math.max(LIMITS.maxTokens, LIMITS.maxDModel, LIMITS.maxProjectionWidth));
});

test('a model file’s keys from trainer fields: the JS check (MODEL_CONFIG_KEYS) has each, of its kind, never narrower than the engine’s bounds', () => {
  const trainer = engine.createTrainer({ task: 'copy', length: 3, alphabet: 4, layers: 1, heads: 1, dModel: 8 });
  const { config } = parseModelFile(trainer.save());
  trainer.dispose();
  const KIND = { int: 'integer', number: 'number', bool: 'boolean' };
  const written = engine.trainerFields.filter((field) => Object.hasOwn(config, field.name));
  assert.ok(written.length >= 10, `the file records the model's rows: ${written.map((f) => f.name)}`);
  for (const field of written) {
    const rule = MODEL_CONFIG_KEYS[field.name];
    assert.ok(rule, `${field.name}: no rule in MODEL_CONFIG_KEYS`);
    if (field.kind === 'enum') {
      assert.ok(rule.type === 'string' || field.values.every((v) => rule.values.includes(v)), field.name);
      continue;
    }
    assert.equal(rule.type, KIND[field.kind], field.name);
    if (rule.type !== 'boolean') {
      assert.ok(
        rule.min <= field.min && rule.max >= field.max,
        `${field.name}: [${rule.min}, ${rule.max}] ⊇ [${field.min}, ${field.max}]`,
      );
    }
  }
  // A model the engine builds with more heads than the JS once allowed (64) loads.
  const wide = engine.createTrainer({ task: 'copy', length: 3, alphabet: 4, layers: 1, heads: 128, dModel: 128 });
  const model = engine.loadModel(wide.save());
  wide.dispose();
  assert.equal(model.config.heads, 128);
  model.dispose();
});

test('a task model’s task keys and the two sizes: written from the task rows (TaskFileKey), checked by the JS with the engine’s bounds', () => {
  const trainer = engine.createTrainer({ task: 'modular', modulus: 7, layers: 1, heads: 1, dModel: 8 });
  const bytes = trainer.save();
  const { config } = parseModelFile(bytes);
  trainer.dispose();
  // Every task row is in the file under its key, with the trainer's value.
  const taskRows = engine.trainerFields.filter((f) => f.taskFileKey);
  assert.deepEqual(
    taskRows.map((f) => f.taskFileKey),
    ['task', 'taskLength', 'taskAlphabet', 'taskModulus'],
  );
  assert.equal(config.task, 'modular');
  assert.equal(config.taskModulus, 7);
  for (const f of taskRows) {
    assert.ok(Object.hasOwn(config, f.taskFileKey), f.taskFileKey);
    const rule = MODEL_CONFIG_KEYS[f.taskFileKey];
    if (f.kind === 'enum') assert.deepEqual(rule.values, f.values);
    else assert.deepEqual([rule.min, rule.max], [f.min, f.max], f.taskFileKey);
  }
  // The sizes the text or task sets: the engine's bounds, not a looser JS guess.
  assert.deepEqual([MODEL_CONFIG_KEYS.contextLength.min, MODEL_CONFIG_KEYS.contextLength.max], [1, 2048]);
  assert.equal(MODEL_CONFIG_KEYS.vocabSize.max, 65536);
  // A forged task key past the engine's bound is refused by the JS check, naming it.
  const { checkModelConfig } = engineModelConfig;
  assert.throws(
    () => checkModelConfig({ ...config, taskModulus: 5000 }),
    (error) => error.field === 'model.config.taskModulus' && /from 2 to 1024/.test(error.message),
  );
  assert.throws(() => checkModelConfig({ ...config, task: 'juggle' }), /model\.config\.task .* must be one of copy/);
  // The file loads back with its task.
  const model = engine.loadModel(bytes);
  assert.equal(model.config.taskModulus, 7);
  model.dispose();
});

// The head roles and their marks (kRoles, kLineMarks in cpp/src/train/head_roles.cpp).
test('the head roles are the engine’s rows: the .d.ts unions generated, each role with the page’s words', () => {
  assert.deepEqual(engineCatalog.ROLES, ROLES);
  assert.equal(new Set(ROLE_NAMES).size, ROLE_NAMES.length, 'a role twice');
  const text = readFileSync(path.join(root, 'cpp/bindings/js/language_model.d.ts'), 'utf8');
  for (const union of ['RoleName', 'TextRole']) {
    assert.doesNotMatch(text, new RegExp(`type ${union}\\s*=`), `language_model.d.ts declares ${union}`);
  }
  const dts = readFileSync(path.join(root, 'cpp/bindings/js/catalog.d.ts'), 'utf8');
  const union = (name) =>
    [...dts.match(new RegExp(`type ${name} =([^;]*);`))[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(union('RoleName'), ROLE_NAMES);
  assert.deepEqual(union('TextRole'), [...TEXT_ROLES]);
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(modelStrings(lang).role).sort(), [...ROLE_NAMES].sort(), lang);
  }
});

// A trained model's steps: which an attention-only model has, and each step's width, as one row.
test('an attention-only model’s trace has the block steps its catalog rows mark, and the page asks for those', () => {
  for (const attentionOnly of [false, true]) {
    const trainer = engine.createTrainer({
      task: 'copy',
      length: 3,
      alphabet: 4,
      layers: 1,
      heads: 1,
      dModel: 8,
      attentionOnly,
    });
    const trace = trainer.trace({ tokens: [0, 1, 2] });
    const kept = trace.layers[0].stepNames.filter((name) => !names(STEPS).includes(name));
    assert.deepEqual(kept, blockStepsOf({ attentionOnly }), `attentionOnly ${attentionOnly}`);
    assert.deepEqual(
      trace.stepNames,
      names(MODEL_STEPS.filter((s) => !attentionOnly || s.attentionOnly)),
      `attentionOnly ${attentionOnly}: model steps`,
    );
    // Each traced step's columns are its row's width, named as the catalog names it.
    for (const name of kept) {
      const row = BLOCK_STEPS.find((s) => s.name === name);
      assert.equal(trace.layers[0].step(name).colsAxis, row.width, name);
    }
    for (const row of MODEL_STEPS.filter((s) => trace.stepNames.includes(s.name))) {
      assert.equal(trace.step(row.name).colsAxis, row.width, row.name);
    }
    trainer.dispose();
  }
  assert.ok(blockStepsOf({ attentionOnly: true }).length < PAGE_BLOCK_STEPS.length);
});
// The vocabulary levels are the engine's level row (corpus_fields.hpp): the API, a model file's
// "vocabulary" and the playground's level read VOCABULARY_LEVELS; none of them lists the levels.
test('the vocabulary levels are the engine level row, listed nowhere else', () => {
  const level = engineCatalog.CORPUS_TEXT_FIELDS.find((f) => f.name === 'level');
  assert.deepEqual(engineCatalog.VOCABULARY_LEVELS, level.values);
  assert.deepEqual(MODEL_CONFIG_KEYS.vocabulary.values, ['task', ...level.values]);
  assert.deepEqual(PLAYGROUND_LEVELS, ['auto', ...level.values]);
  const files = [
    'cpp/bindings/js/corpus_training.js',
    'cpp/bindings/js/corpus_training.d.ts',
    'cpp/bindings/js/language_model.d.ts',
    'cpp/bindings/js/model_config.js',
    'web/src/playground/state.js',
  ];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    assert.doesNotMatch(text, /'character',\s*'word'|'character' \| 'word'/, `${file} lists the levels`);
  }
});
