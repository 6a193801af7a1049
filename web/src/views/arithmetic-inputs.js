// The arithmetic of the cells before the scores and after the heads: a projection's cell as
// a row times a column, term by term (Q = X'W_Q, its heads' slices, O = Concat·W_O), X' = X + PE,
// PE by its formula, Concat as the head it came from, and the given matrices (X, W) by origin.
// Each kind: { requests(cell, sizes), draw(trace, s, cell) }; a step's shape and whether it has a
// matrix per head are the engine's catalog's (step-shapes.js).
import { computationOf } from '../step-texts.js';
import { rowRequest, stepRequest, WHOLE } from '../requests.js';
import { formatValue } from '../format.js';
import { el, line, num, section, table } from './arithmetic-dom.js';
import { stepInfo } from '../step-shapes.js';

/** A projection: its input row, its weight matrix, the column offset of head h's slice. */
const PROJECTIONS = {
  q: { input: 'xPe', weight: 'wQ', title: 'Q', weightTitle: 'W_Q' },
  k: { input: 'xPe', weight: 'wK', title: 'K', weightTitle: 'W_K' },
  v: { input: 'xPe', weight: 'wV', title: 'V', weightTitle: 'W_V' },
  qHead: { input: 'xPe', weight: 'wQ', title: 'Q', weightTitle: 'W_Q' },
  kHead: { input: 'xPe', weight: 'wK', title: 'K', weightTitle: 'W_K' },
  vHead: { input: 'xPe', weight: 'wV', title: 'V', weightTitle: 'W_V' },
  output: { input: 'concat', weight: 'wO', title: 'O', weightTitle: 'W_O' },
};

const column = (p, cell, sizes) => (p.perHead ? cell.head * sizes.dK + cell.j : cell.j);
/** Without W_O (tutorial mode) the output is Concat itself: the engine's FLOPs say so. */
const noOutputProjection = (trace) => trace.flops?.outputProjection === 0;

/** Keys and values come from the second sentence in cross-attention: its X', rows and tokens. */
const keySide = (name) => ['k', 'v', 'kHead', 'vHead'].includes(name);
const inputOf = (p, name, z) => (z.cross && keySide(name) ? 'xPeKv' : p.input);
const tokensOf = (trace, name) => (keySide(name) ? trace.kvTokens : trace.tokens);

function productKind(name) {
  const p = { ...PROJECTIONS[name], perHead: stepInfo(name).perHead };
  return {
    requests: (cell, z) => [
      rowRequest(inputOf(p, name, z), 0, cell.i),
      ...(name === 'output' && noOutputProjection(z) ? [] : [stepRequest(p.weight, 0, WHOLE)]),
      rowRequest(name, cell.head, cell.i),
    ],
    draw(trace, s, cell) {
      const input = inputOf(p, name, trace);
      const x = trace.row(input, 0, cell.i);
      const token = tokensOf(trace, name)[cell.i];
      const out = trace.row(name, cell.head, cell.i);
      const title = `${p.title}${p.perHead ? cell.head + 1 : ''}[${cell.i}, ${cell.j}]`;
      if (name === 'output' && noOutputProjection(trace)) {
        return {
          title: s.projectionTitle(title, trace.tokens[cell.i]),
          parts: [
            section(s.noOutputProjection, line(`O = Concat = `, num('strong', out[cell.j], { 'data-term': 'result' }))),
          ],
        };
      }
      const w = trace.step(p.weight, 0, WHOLE);
      const c = column(p, cell, trace);
      const weights = Array.from({ length: w.rows }, (_, m) => w.data[m * w.cols + c]);
      const products = Array.from(x, (v, m) => v * weights[m]);
      const inputTitle = { xPe: "X'", xPeKv: "X'_kv", concat: 'Concat' }[input];
      return {
        title: s.projectionTitle(title, token),
        parts: [
          section(
            s.projectionFormula(inputTitle, p.weightTitle, c, x.length),
            table([
              { label: s.termIndex, values: products.map((_, m) => String(m)), cls: 'index' },
              { label: `${inputTitle}[${cell.i}, m]`, values: Array.from(x) },
              { label: `${p.weightTitle}[m, ${c}]`, values: weights },
              { label: '×', values: products },
            ]),
            line(`${s.sum}: ${title} = `, num('strong', out[cell.j], { 'data-term': 'result' })),
          ),
        ],
      };
    },
  };
}

/** X' = X + PE of the queries' sentence, or of cross-attention's second one (names …Kv). */
function sumKind(kv) {
  const [x, pe, xPe] = kv ? ['xKv', 'peKv', 'xPeKv'] : ['x', 'pe', 'xPe'];
  return {
    requests: (cell) => [x, pe, xPe].map((name) => rowRequest(name, 0, cell.i)),
    draw(trace, s, { i, j }) {
      const [a, b, out] = [x, pe, xPe].map((name) => trace.row(name, 0, i));
      return {
        title: s.projectionTitle(`X'${kv ? '_kv' : ''}[${i}, ${j}]`, (kv ? trace.kvTokens : trace.tokens)[i]),
        parts: [
          section(
            s.sumFormula,
            line(num('span', a[j]), ' + ', num('span', b[j]), ' = ', num('strong', out[j], { 'data-term': 'result' })),
          ),
        ],
      };
    },
  };
}

/** PE[p, c] by its formula (the same for both sentences: it depends on the position only). */
function positionKind(kv) {
  const name = kv ? 'peKv' : 'pe';
  return {
    requests: (cell) => [rowRequest(name, 0, cell.i)],
    draw(trace, s, { i, j }) {
      const pe = trace.row(name, 0, i);
      const d = pe.length;
      const pair = 2 * Math.floor(j / 2);
      const fn = j % 2 === 0 ? 'sin' : 'cos';
      return {
        title: s.projectionTitle(`PE${kv ? '_kv' : ''}[${i}, ${j}]`, (kv ? trace.kvTokens : trace.tokens)[i]),
        parts: [
          section(
            s.peFormula,
            line(
              `${fn}(${i} / 10000^(${pair}/${d})) = ${fn}(${formatValue(i / 10000 ** (pair / d))}) = `,
              num('strong', pe[j], { 'data-term': 'result' }),
            ),
          ),
        ],
      };
    },
  };
}

const concat = {
  requests: (cell, z) => [rowRequest('concat', 0, cell.i), rowRequest('headOutput', Math.floor(cell.j / z.dK), cell.i)],
  draw(trace, s, { i, j }) {
    const h = Math.floor(j / trace.dK);
    const head = trace.row('headOutput', h, i);
    const out = trace.row('concat', 0, i);
    return {
      title: s.projectionTitle(`Concat[${i}, ${j}]`, trace.tokens[i]),
      parts: [
        section(
          s.concatFormula(h + 1, trace.dK),
          line(
            `head${h + 1}[${i}, ${j % trace.dK}] = `,
            num('span', head[j % trace.dK]),
            ' → ',
            num('strong', out[j], { 'data-term': 'result' }),
          ),
        ),
      ],
    };
  },
};

/** X and the weights are given, not computed: the panel says where they come from. */
function givenKind(name) {
  return {
    requests: () => [],
    draw: (trace, s, { i, j }, state) => ({
      title: `${{ x: 'X', xKv: 'X_kv' }[name] ?? name.replace('w', 'W_')}[${i}, ${j}]`,
      parts: [
        el(
          'p',
          { class: 'arith-line' },
          name.startsWith('x')
            ? computationOf(state).embedding === 'stream'
              ? s.embeddingOriginStream(i)
              : s.embeddingOrigin((name === 'xKv' ? trace.kvTokens : trace.tokens)[i])
            : s.weightOrigin,
        ),
      ],
    }),
  };
}

export const INPUT_KINDS = {
  ...Object.fromEntries(Object.keys(PROJECTIONS).map((name) => [name, productKind(name)])),
  xPe: sumKind(false),
  xPeKv: sumKind(true),
  pe: positionKind(false),
  peKv: positionKind(true),
  concat,
  ...Object.fromEntries(['x', 'xKv', 'wQ', 'wK', 'wV', 'wO'].map((name) => [name, givenKind(name)])),
};
