// taskPrompt (training.js, the engine's PromptOf): what the playground reads to split a typed
// input into the prompt the model reads and the answer the task expects. Checked for every task
// the engine lists against each task's rule stated here from its definition
// (cpp/include/attention/train/tasks.hpp), not from the engine's code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';

const engine = await createEngine();
const TASKS = engine.trainerFields.find((field) => field.name === 'task').values;
const SMALL = { layers: 1, heads: 2, dModel: 16 };

/** Induction as its definition says: after the last token, the one that followed all its
 * earlier occurrences, while there is one and they agree; at most `count` tokens. */
function inductionContinuation(input, count) {
  const s = input.slice();
  while (s.length - input.length < count) {
    const followers = new Set();
    for (let j = 0; j + 1 < s.length; j++) if (s[j] === s.at(-1)) followers.add(s[j + 1]);
    if (followers.size !== 1) break;
    s.push(...followers);
  }
  return s.slice(input.length);
}

/** Each task's rule: { low, high } symbols per input, and what an input asks. */
const RULES = {
  copy: separated((x) => x),
  reverse: separated((x) => x.slice().reverse()),
  sort: separated((x) => x.slice().sort((a, b) => a - b)),
  modular: {
    counts: () => [2, 2],
    symbols: (c) => c.modulus,
    asks: ([a, b], c) => ({ prompt: [a, '+', b, '='], answerLength: 1, expected: [(a + b) % c.modulus] }),
  },
  induction: {
    counts: (c) => [1, 2 * c.length - 1], // up to T tokens
    symbols: (c) => c.alphabet,
    asks: (x, c) => {
      const answerLength = 2 * c.length - 1 - x.length;
      return { prompt: x, answerLength, expected: inductionContinuation(x, answerLength) };
    },
  },
};

function separated(order) {
  return {
    counts: (c) => [c.length, c.length],
    symbols: (c) => c.alphabet,
    asks: (x, c) => ({ prompt: [...x, '|'], answerLength: c.length, expected: order(x) }),
  };
}

const strings = ({ prompt, answerLength, expected }) => ({
  prompt: prompt.map(String),
  answerLength,
  expected: expected.map(String),
});

/** A seeded generator of test inputs. */
function lcg(seed) {
  let state = seed >>> 0;
  return (k) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % k;
  };
}

test('every task the engine lists has a rule here, and its prompts follow it (trainer and loaded model alike)', () => {
  assert.deepEqual([...TASKS].sort(), Object.keys(RULES).sort(), 'a task without a stated rule, or a rule of no task');
  const below = lcg(11);
  for (const task of TASKS) {
    // A small alphabet makes induction prompts repeat symbols: its rule then stops early.
    for (const shape of [
      { length: 8, alphabet: 10, modulus: 13 },
      { length: 5, alphabet: 3, modulus: 2 },
    ]) {
      const rule = RULES[task];
      const trainer = engine.createTrainer({ task, ...shape, ...SMALL });
      const model = engine.loadModel(trainer.save());
      try {
        const [low, high] = rule.counts(shape);
        for (let trial = 0; trial < 60; trial++) {
          const input = Array.from({ length: low + below(high - low + 1) }, () => below(rule.symbols(shape)));
          const want = strings(rule.asks(input, shape));
          assert.deepEqual(trainer.taskPrompt({ tokens: input }), want, `${task} ${input}`);
          assert.deepEqual(model.taskPrompt({ tokens: input }), want, `${task} ${input}, loaded`);
        }
        // Counts the input reader passes (1 … contextLength) but the task refuses.
        for (const count of [low - 1, high + 1]) {
          if (count < 1 || count > trainer.contextLength) continue;
          assertAttentionError(() => trainer.taskPrompt({ tokens: Array(count).fill(0) }), {
            code: 'INVALID_ARGUMENT',
            field: 'input',
          });
        }
      } finally {
        model.dispose();
        trainer.dispose();
      }
    }
  }
});

test('taskPrompt reads text as predict() does and names a symbol the task does not take', () => {
  const trainer = engine.createTrainer({ task: 'sort', length: 4, alphabet: 5, ...SMALL });
  try {
    assert.deepEqual(trainer.taskPrompt('3142'), {
      prompt: ['3', '1', '4', '2', '|'],
      answerLength: 4,
      expected: ['1', '2', '3', '4'],
    });
    assert.deepEqual(trainer.taskPrompt('3 1 4 2').prompt, trainer.predict('3 1 4 2').input);
    assertAttentionError(() => trainer.taskPrompt({ tokens: [3, 1, '|', 2] }), {
      code: 'INVALID_ARGUMENT',
      field: 'input[2]',
    });
    // Own properties only, exactly one: an inherited text and { text, tokens } are refused,
    // by taskPrompt and by predict (one reader), and the trainer goes on working.
    for (const input of [{ __proto__: { text: '3 1 4 2' } }, { text: '3 1 4 2', tokens: [3, 1, 4, 2] }, {}]) {
      for (const call of [(i) => trainer.taskPrompt(i), (i) => trainer.predict(i)]) {
        assertAttentionError(() => call(input), { code: 'INVALID_ARGUMENT', field: 'input', message: /exactly one/ });
      }
    }
    assert.deepEqual(trainer.taskPrompt({ tokens: [3, 1, 4, 2] }).expected, ['1', '2', '3', '4']);
  } finally {
    trainer.dispose();
  }
  const modular = engine.createTrainer({ task: 'modular', modulus: 13, ...SMALL });
  try {
    assert.deepEqual(modular.taskPrompt('7 9'), { prompt: ['7', '+', '9', '='], answerLength: 1, expected: ['3'] });
  } finally {
    modular.dispose();
  }
});
