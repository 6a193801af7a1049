// Traces as JS sees them: LiveTrace keeps the trace in WASM memory and copies steps on demand;
// copiedTrace holds every step already copied. Step names and heads are looked up as own
// entries only (a Map; integer heads in range), never through Object.prototype.
import { AttentionError, describe } from './errors.js';
import { WasmHandle } from './wasm_handle.js';

function axisLabels(axis, size, tokens, kvTokens, stepName) {
  switch (axis) {
    case 'query':
      return tokens.slice();
    case 'key':
      return kvTokens.slice();
    case 'one':
      return [stepName];
    default:
      return Array.from({ length: size }, (_, i) => String(i));
  }
}

/** Refuses any head but an integer of 0 … heads − 1 (0 for a step that is not per head). */
function checkHead(info, head, heads) {
  const max = info.perHead ? heads - 1 : 0;
  if (typeof head === 'number' && Number.isInteger(head) && head >= 0 && head <= max) return head;
  throw new AttentionError(
    'UNKNOWN_STEP',
    'head',
    info.perHead
      ? `head (${describe(head)}) must be an integer from 0 to ${max}`
      : `head (${describe(head)}) must be 0: step ${JSON.stringify(info.name)} is not per head`,
  );
}

function unknownStep(name, names, verb) {
  return new AttentionError(
    'UNKNOWN_STEP',
    'step',
    `step ${JSON.stringify(String(name))} ${verb}; steps are: ${names.join(', ')}`,
  );
}

/** A trace that stays in WASM memory; read steps on demand and call dispose() when done. */
export class LiveTrace {
  #life;
  #stepInfo;

  /**
   * @param handle the Embind TraceHandle (owned from now on)
   * @param call runs a function of the handle inside the engine's failure guard
   * @param onDispose told once when the trace is disposed
   */
  constructor(handle, call, onDispose) {
    this.#life = new WasmHandle(handle, call, onDispose, 'trace', 'open the trace again');
    const s = this.#life.run((h) => h.summary());
    this.tokens = s.tokens;
    this.cross = s.cross;
    this.attention = s.attention;
    // Keys and values: the other sentence in cross-attention, the tokens themselves otherwise.
    this.kvTokens = s.kvTokens;
    this.nQuery = s.nQuery;
    this.nKey = s.nKey;
    this.dModel = s.dModel;
    this.heads = s.heads;
    this.dK = s.dK;
    this.projectionWidth = s.projectionWidth;
    this.parameterCount = s.parameterCount;
    this.flops = s.flops;
    this.computedScores = s.computedScores;
    this.computedScoreFraction = s.computedScoreFraction;
    this.stepNames = s.steps.map((step) => step.name);
    this.#stepInfo = new Map(s.steps.map((step) => [step.name, step]));
  }

  /** Metadata of a step: { name, perHead, rowsAxis, colsAxis }. */
  info(name) {
    const info = this.#stepInfo.get(name);
    if (!info) throw unknownStep(name, this.stepNames, 'does not exist');
    return info;
  }

  /**
   * One step as { name, head, rows, cols, data: Float32Array (a copy), rowLabels, colLabels }.
   * `head` is required for per-head steps (0 … heads − 1) and must be 0 or omitted otherwise.
   */
  step(name, head = 0) {
    this.#life.check();
    const info = this.info(name);
    checkHead(info, head, this.heads);
    const { rows, cols, data } = this.#life.run((handle) => {
      const raw = handle.step(name, head);
      if (raw === null) {
        throw new AttentionError(handle.errorCode(), handle.errorField(), handle.errorMessage());
      }
      return { rows: raw.rows, cols: raw.cols, data: raw.data.slice() }; // the one copy out of WASM memory
    });
    return {
      name,
      head: info.perHead ? head : null,
      rows,
      cols,
      data,
      rowsAxis: info.rowsAxis,
      colsAxis: info.colsAxis,
      rowLabels: axisLabels(info.rowsAxis, rows, this.tokens, this.kvTokens, name),
      colLabels: axisLabels(info.colsAxis, cols, this.tokens, this.kvTokens, name),
    };
  }

  /** Frees the WASM memory of this trace. Further step() calls throw. */
  dispose() {
    this.#life.dispose(this);
  }

  /** The engine replaced its WASM instance: this trace's memory went with the old one. */
  orphan() {
    this.#life.orphan();
  }

  get disposed() {
    return this.#life.disposed;
  }
}

/**
 * Reads the steps `infos` into a Map name → step (or, per head, an array of steps by head):
 * every step of head 0, then of head 1, …, because the engine recomputes one head's n×m steps
 * at a time, so each head is computed once. `read(info, head)` copies one step.
 */
export function copyHeadByHead(infos, heads, read) {
  const copied = new Map();
  for (const info of infos) copied.set(info.name, info.perHead ? [] : read(info, 0));
  for (let h = 0; h < heads; h++) {
    for (const info of infos) if (info.perHead) copied.get(info.name).push(read(info, h));
  }
  return copied;
}

/**
 * Copies the steps `names` (every step if undefined; each once) of a live trace into a plain
 * trace with nothing to free.
 */
export function copyTrace(live, names) {
  if (names !== undefined && !Array.isArray(names)) {
    throw new AttentionError('INVALID_ARGUMENT', 'steps', `steps (${describe(names)}) must be an array of step names`);
  }
  const selected = [...new Set(names ?? live.stepNames)];
  const infos = new Map(selected.map((name) => [name, live.info(name)]));
  const copied = copyHeadByHead([...infos.values()], live.heads, (info, h) => live.step(info.name, h));
  const { heads } = live;
  return {
    ...live, // the summary fields (tokens, sizes, parameterCount, flops): plain data
    stepNames: selected,
    steps: Object.fromEntries(copied),
    /** A step by name (and head for per-head steps). */
    step(name, head = 0) {
      const info = infos.get(name);
      if (!info) throw unknownStep(name, selected, 'was not copied');
      checkHead(info, head, heads);
      const s = copied.get(name);
      return Array.isArray(s) ? s[head] : s;
    },
  };
}
