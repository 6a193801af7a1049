// The arithmetic of linear attention's cells (docs/computation.md, "Linear attention"), with
// the engine's numbers beside sums recomputed here in float64 from the engine's φ(Q), φ(K) and
// V: φ(x) = elu(x) + 1 of one entry, the summary S[a, c] = Σⱼ φ(k_j)[a]·v_j[c], Σⱼ φ(k_j)[a],
// the normaliser z_i, an implied weight w_ij = φ(q_i)·φ(k_j) / z_i, and an output cell
// head[i, c] = φ(q_i)ᵀ S[:, c] / z_i term by term. With a causal mask query i reads the sums
// over the keys j ≤ i only (prefix sums), and its arithmetic sums exactly those.
// Each kind: { kind, requests(cell, sizes), draw(trace, s, cell) } (its shape: the catalog's).
import { rowRequest, stepRequest, WHOLE } from '../requests.js';
import { formatValue } from '../format.js';
import { line, num, section, table } from './arithmetic-dom.js';

export const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));

/** The keys query i sees: its row of the mask (1 visible), or every key without one. */
const visibleKeys = (maskRow, m) => Array.from({ length: m }, (_, j) => j).filter((j) => !maskRow || maskRow[j] !== 0);

/** Column `c` of a whole step's rows `rows`. */
const columnOf = (step, c, rows) => rows.map((j) => step.data[j * step.cols + c]);

/** φ(Q) or φ(K) at [i, c]: the entry of Q_h or K_h and its feature. */
function featureKind(name, input, title) {
  return {
    kind: 'feature',
    requests: ({ head, i }) => [rowRequest(input, head, i), rowRequest(name, head, i)],
    draw(trace, s, { head, i, j: c }) {
      const x = trace.row(input, head, i)[c];
      const out = trace.row(name, head, i)[c];
      const token = (name === 'phiQ' ? trace.tokens : trace.kvTokens)[i];
      return {
        title: s.projectionTitle(`φ(${title}${head + 1})[${i}, ${c}]`, token),
        parts: [
          section(
            s.phiFormula,
            line(
              `φ(`,
              num('span', x),
              `) = `,
              x > 0 ? `${formatValue(x)} + 1` : `e^(${formatValue(x)})`,
              ` = ${formatValue(phi(x))} → `,
              num('strong', out, { 'data-term': 'result' }),
            ),
          ),
        ],
      };
    },
  };
}

/** S[a, c] = Σⱼ φ(k_j)[a] · v_j[c] over every key (the summary the stage draws). */
const summary = {
  kind: 'summary',
  requests: ({ head, i }) => [
    stepRequest('phiK', head, WHOLE),
    stepRequest('vHead', head, WHOLE),
    rowRequest('kvSummary', head, i),
  ],
  draw(trace, s, { head, i: a, j: c }) {
    const k = trace.step('phiK', head, WHOLE);
    const v = trace.step('vHead', head, WHOLE);
    const keys = Array.from({ length: k.rows }, (_, j) => j);
    const fk = columnOf(k, a, keys);
    const vc = columnOf(v, c, keys);
    const products = fk.map((f, n) => f * vc[n]);
    return {
      title: `S${head + 1}[${a}, ${c}]`,
      parts: [
        section(
          s.summaryFormula(a, c),
          table([
            { label: 'j', values: keys.map((j) => `${j} ${trace.kvTokens[j]}`), cls: 'index' },
            { label: `φ(k)[j, ${a}]`, values: fk },
            { label: `V[j, ${c}]`, values: vc },
            { label: '×', values: products },
          ]),
          line(
            `${s.sum} (${s.keysSummed(keys.length, k.rows)}): ${formatValue(products.reduce((x, y) => x + y, 0))} → `,
            num('strong', trace.row('kvSummary', head, a)[c], { 'data-term': 'result' }),
          ),
        ),
      ],
    };
  },
};

/** Σⱼ φ(k_j)[a] over every key. */
const keySum = {
  kind: 'keySum',
  requests: ({ head }) => [stepRequest('phiK', head, WHOLE), rowRequest('keySum', head, 0)],
  draw(trace, s, { head, j: a }) {
    const k = trace.step('phiK', head, WHOLE);
    const keys = Array.from({ length: k.rows }, (_, j) => j);
    const fk = columnOf(k, a, keys);
    return {
      title: `Σ φ(k)${head + 1}[${a}]`,
      parts: [
        section(
          s.keySumFormula(a),
          line(
            `${fk.map(formatValue).join(' + ')} = `,
            num('strong', trace.row('keySum', head, 0)[a], { 'data-term': 'result' }),
          ),
        ),
      ],
    };
  },
};

/** Σ_{j visible to i} φ(k_j), the key sum query i reads (a prefix with a causal mask). */
function keySumFor(trace, head, i) {
  const k = trace.step('phiK', head, WHOLE);
  const keys = visibleKeys(trace.row('mask', 0, i), k.rows);
  const sums = Array.from({ length: k.cols }, (_, a) => columnOf(k, a, keys).reduce((x, y) => x + y, 0));
  return { keys, sums, all: k.rows };
}

/** z_i = φ(q_i) · Σ_{j visible} φ(k_j). */
const normaliser = {
  kind: 'normaliser',
  requests: ({ head, i }) => [
    rowRequest('phiQ', head, i),
    stepRequest('phiK', head, WHOLE),
    rowRequest('mask', 0, i),
    rowRequest('normaliser', head, i),
  ],
  draw(trace, s, { head, i }) {
    const q = trace.row('phiQ', head, i);
    const { keys, sums, all } = keySumFor(trace, head, i);
    const products = Array.from(q, (f, a) => f * sums[a]);
    return {
      title: s.projectionTitle(`z${head + 1}[${i}]`, trace.tokens[i]),
      parts: [
        section(
          s.normaliserFormula(i),
          table([
            { label: s.featureIndex, values: products.map((_, a) => String(a)), cls: 'index' },
            { label: `φ(q[${i}])`, values: Array.from(q) },
            { label: `Σ φ(k) (${keys.length}/${all})`, values: sums },
            { label: '×', values: products },
          ]),
          line(
            `${s.sum} (${s.keysSummed(keys.length, all)}): ${formatValue(products.reduce((x, y) => x + y, 0))} → `,
            num('strong', trace.row('normaliser', head, i)[0], { 'data-term': 'result' }),
          ),
        ),
      ],
    };
  },
};

/** w_ij = φ(q_i)·φ(k_j) / z_i, or exactly 0 where the mask hides key j. */
const implied = {
  kind: 'implied',
  requests: ({ head, i, j }) => [
    rowRequest('phiQ', head, i),
    rowRequest('phiK', head, j),
    rowRequest('normaliser', head, i),
    rowRequest('mask', 0, i),
    rowRequest('linearWeights', head, i),
  ],
  draw(trace, s, { head, i, j }) {
    const q = trace.row('phiQ', head, i);
    const k = trace.row('phiK', head, j);
    const z = trace.row('normaliser', head, i)[0];
    const out = trace.row('linearWeights', head, i)[j];
    const hidden = trace.row('mask', 0, i)[j] === 0;
    const products = Array.from(q, (f, a) => f * k[a]);
    const dot = products.reduce((x, y) => x + y, 0);
    return {
      title: s.scoreTitle(head + 1, trace.tokens[i], trace.kvTokens[j]),
      parts: [
        section(
          s.impliedFormula(i, j),
          table([
            { label: s.featureIndex, values: products.map((_, a) => String(a)), cls: 'index' },
            { label: `φ(q[${i}])`, values: Array.from(q) },
            { label: `φ(k[${j}])`, values: Array.from(k) },
            { label: '×', values: products },
          ]),
          hidden
            ? line(`${s.maskedZero} → `, num('strong', out, { 'data-term': 'result' }))
            : line(
                `${formatValue(dot)} ÷ z (${formatValue(z)}) = ${formatValue(dot / z)} → `,
                num('strong', out, { 'data-term': 'result' }),
              ),
        ),
      ],
    };
  },
};

/** head[i, c] = Σ_a φ(q_i)[a] · S_i[a, c] / z_i, S_i over the keys query i sees. */
const output = {
  kind: 'output',
  requests: ({ head, i }) => [
    rowRequest('phiQ', head, i),
    stepRequest('phiK', head, WHOLE),
    stepRequest('vHead', head, WHOLE),
    rowRequest('mask', 0, i),
    rowRequest('normaliser', head, i),
    rowRequest('headOutput', head, i),
  ],
  draw(trace, s, { head, i, j: c }) {
    const q = trace.row('phiQ', head, i);
    const k = trace.step('phiK', head, WHOLE);
    const v = trace.step('vHead', head, WHOLE);
    const keys = visibleKeys(trace.row('mask', 0, i), k.rows);
    const vc = columnOf(v, c, keys);
    // Column c of the summary query i reads: S_i[a, c] = Σ_{j visible} φ(k_j)[a] · v_j[c].
    const column = Array.from({ length: k.cols }, (_, a) =>
      columnOf(k, a, keys).reduce((sum, f, n) => sum + f * vc[n], 0),
    );
    const products = Array.from(q, (f, a) => f * column[a]);
    const numerator = products.reduce((x, y) => x + y, 0);
    const z = trace.row('normaliser', head, i)[0];
    const out = trace.row('headOutput', head, i)[c];
    return {
      title: s.outputTitle(head + 1, trace.tokens[i]),
      parts: [
        section(
          s.linearOutputFormula(i, c),
          table([
            { label: s.featureIndex, values: products.map((_, a) => String(a)), cls: 'index' },
            { label: `φ(q[${i}])`, values: Array.from(q) },
            { label: `S[a, ${c}]`, values: column },
            { label: '×', values: products },
          ]),
          line(`${s.numerator} (${s.keysSummed(keys.length, k.rows)}): ${formatValue(numerator)}`),
          line(
            `${s.divideByZ}: ${formatValue(numerator)} ÷ ${formatValue(z)} = ${formatValue(numerator / z)} → `,
            num('strong', out, { 'data-term': 'output' }),
          ),
        ),
      ],
    };
  },
};

/** Step name → its kind, in a linear trace (headOutput is read through φ(Q), S and z there). */
export const LINEAR_KINDS = {
  phiQ: featureKind('phiQ', 'qHead', 'Q'),
  phiK: featureKind('phiK', 'kHead', 'K'),
  kvSummary: summary,
  keySum,
  normaliser,
  linearWeights: implied,
  headOutput: output,
};
