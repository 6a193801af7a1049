// The ten steps of the computation: which terms of the formula they are, the shapes they
// produce, and the matrices the stage draws for them (operands joined by operators).
import { headColor, signedColor, stepMaxAbs, weightColor } from './scales.js';
import { formatShort } from './format.js';
import { strings } from './i18n.js';
import { STEP_COUNT, STEP_KEYS } from './step-keys.js';
import { takesSetting } from './state.js';

/**
 * The attention formula as this state computes it: ÷√d_k only when scaling is on, ÷T (its
 * own term, never called √d_k) only when the temperature is not 1.
 */
export function formulaFor({ scale = true, temperature = 1, ...state } = {}) {
  if (isLinear(state)) return LINEAR_FORMULA;
  const qk = String.raw`\htmlClass{t-q}{Q}\htmlClass{t-k}{K^{\top}}`;
  const divisors = [
    scale ? String.raw`\htmlClass{t-scale}{\sqrt{d_k}}` : '',
    temperature !== 1 ? String.raw`\htmlClass{t-temperature}{\,T}` : '',
  ].join('');
  return (
    String.raw`\mathrm{Attention}(\htmlClass{t-q}{Q},\htmlClass{t-k}{K},\htmlClass{t-v}{V})=` +
    String.raw`\htmlClass{t-softmax}{\mathrm{softmax}}\!\left(${divisors ? String.raw`\frac{${qk}}{${divisors}}` : qk}` +
    String.raw`\htmlClass{t-mask}{+\,M}\right)\htmlClass{t-v}{V}`
  );
}

/** The stage's name for the scores after step 5: what was done to them, never "scaled" when nothing was. */
function scaledTitle(state, h) {
  const s = `S${subscript(h + 1)}`;
  const t = state.temperature !== 1;
  if (state.scale) return t ? `${s}/(√dₖ·T)` : `${s}/√dₖ`;
  return t ? `${s}/T` : s;
}

/** The scores after the mask: "masked" only when the mask hides a cell (else they are the scaled scores). */
function maskedTitle(t, state, h) {
  return isMasked(t.step('mask')) ? strings(state.lang).masked : scaledTitle(state, h);
}

/** Step 5's operator: the divisions the state applies. */
function scaleOperator(state) {
  const parts = [state.scale ? '÷ √dₖ' : '', state.temperature !== 1 ? `÷ T` : ''].filter(Boolean);
  return parts.length ? `${parts.join(' ')} =` : '=';
}

// d_k = d_model / h unless the run sets it (tutorial mode: d_k 4 with d_model 8 and one head).
const dKOf = (t) => (t.dK * t.heads === t.dModel ? String.raw`d_k = d_{model}/h = ${t.dK}` : String.raw`d_k = ${t.dK}`);

const shape = (r, c) => String.raw`[${r}\times ${c}]`;

// Colour functions carry their domain: the stage draws one legend per distinct scale.
const signed = (step, domainFrom = step) => signedColor(stepMaxAbs(domainFrom));
const weights = () => weightColor();
// Longformer's and BigBird's global tokens, whose whole row and column the pattern keeps: the
// masked matrix marks their labels (null for any other mask).
const globalTokensOf = (state) =>
  takesSetting(state.mask, 'global') && (state.model ?? 'random') === 'random' ? state.global : null;

// null when nothing is masked: then no hatch and no "masked" key in the legend.
const isMasked = (mask) => (mask.data.includes(0) ? (i, j) => mask.data[i * mask.cols + j] === 0 : null);
const op = (text) => ({ op: text });
// Ends a line of the equation (views/stage.js layout).
const lineBreak = { lineBreak: true };

/** X + PE = X' of the queries' sentence (or, with names …Kv, of cross-attention's second one). */
function embedding(t, names, suffix) {
  return [
    { id: names.x, step: t.step(names.x), title: `X${suffix}`, color: signed(t.step(names.x)), animation: 'rows' },
    op('+'),
    {
      id: names.pe,
      step: t.step(names.pe),
      title: `PE${suffix}`,
      color: signed(t.step(names.pe), t.step(names.x)),
      animation: 'rows',
      rowLabels: false,
    },
    op('='),
    {
      id: names.xPe,
      step: t.step(names.xPe),
      title: `X'${suffix}`,
      color: signed(t.step(names.xPe)),
      animation: 'rows',
      rowLabels: false,
    },
  ];
}

/** Column colours of a [n × heads·dK] matrix: one band per head. */
const headBands = (trace) => (j) => headColor(Math.floor(j / trace.dK));

/**
 * The one table of steps; step n of the page (URL `step=n`, 1-based) is STEPS[n - 1]. Each row:
 * { key: also the web component's step name and the i18n texts' key (i18n.js steps[key]),
 *   heatmap: the n×m matrix the heatmap view shows, extra: what the stage adds under the
 *   equation (views/stage-extras.js EXTRAS) or null, terms: formula classes to highlight,
 *   detail(trace, h, state): TeX, operands(trace, h, state): the stage's matrices and operators }.
 */
export const STEPS = [
  {
    key: 'embed',
    heatmap: 'scores',
    extra: 'pe', // positional encoding's waves, when it is on
    terms: ['t-x'],
    // PE is zero where it is not added (switched off, tutorial mode, a trained layer's input).
    detail: (t, h, state) =>
      String.raw`X' = X + PE${state.positionalEncoding && (state.model ?? 'random') === 'random' ? '' : String.raw` = X\;(PE = 0)`} \quad ${shape('n', 'd_{model}')} = ${shape(t.nQuery, t.dModel)}`,
    // Cross-attention embeds the second sentence the same way, on a line of its own.
    operands: (t) => [
      ...embedding(t, { x: 'x', pe: 'pe', xPe: 'xPe' }, ''),
      ...(t.cross ? [lineBreak, ...embedding(t, { x: 'xKv', pe: 'peKv', xPe: 'xPeKv' }, '_kv')] : []),
    ],
  },
  {
    key: 'project',
    heatmap: 'scores',
    extra: null,
    terms: ['t-qkv'],
    detail: (t) =>
      String.raw`Q = X'W_Q \quad ${shape(t.nQuery, t.dModel)}\cdot${shape(t.dModel, t.projectionWidth)} = ${shape(t.nQuery, t.projectionWidth)}`,
    // One line per projection, each weight matrix drawn: X' · W_Q = Q, X' · W_K = K, X' · W_V = V;
    // the three weights share a colour scale, and so do Q, K and V (they are compared).
    operands: (t) => {
      const shared = (names) => signedColor(Math.max(...names.map((n) => stepMaxAbs(t.step(n)))));
      const weightColor = shared(['wQ', 'wK', 'wV']);
      const outputColor = shared(['q', 'k', 'v']);
      return [
        ['q', 'wQ', 'Q', 'W_Q'],
        ['k', 'wK', 'K', 'W_K'],
        ['v', 'wV', 'V', 'W_V'],
      ].flatMap(([out, weight, title, weightTitle], n) => {
        // Cross-attention: K and V come from the second sentence's X'.
        const input = t.cross && out !== 'q' ? 'xPeKv' : 'xPe';
        return [
          ...(n ? [lineBreak] : []),
          {
            id: `xPe-${out}`,
            step: t.step(input),
            title: input === 'xPeKv' ? "X'_kv" : "X'",
            color: signed(t.step(input)),
            animation: 'none',
            rowLabels: true,
          },
          op('·'),
          {
            id: weight,
            step: t.step(weight),
            title: weightTitle,
            color: weightColor,
            animation: 'fade',
            columnColor: headBands(t),
          },
          op('='),
          { id: out, step: t.step(out), title, color: outputColor, animation: 'cols', rowLabels: false },
        ];
      });
    },
  },
  {
    key: 'split',
    heatmap: 'scores',
    extra: null,
    terms: ['t-q', 't-k', 't-v'],
    detail: (t) =>
      String.raw`Q ${shape(t.nQuery, String.raw`${t.heads}\cdot ${t.dK}`)} \rightarrow ${t.heads}\times Q_i\,${shape(t.nQuery, t.dK)},\;\; ${dKOf(t)}`,
    // Q, K and V each cut into heads, one line each, the slices coloured by head.
    operands: (t) =>
      [
        ['q', 'qHead', 'Q'],
        ['k', 'kHead', 'K'],
        ['v', 'vHead', 'V'],
      ].flatMap(([whole, part, title], n) => [
        ...(n ? [lineBreak] : []),
        {
          id: whole,
          step: t.step(whole),
          title,
          color: signed(t.step(whole)),
          animation: 'none',
          columnColor: headBands(t),
        },
        op('→'),
        ...Array.from({ length: t.heads }, (_, h) => ({
          id: `${part}${h}`,
          step: t.step(part, h),
          title: `${title}${subscript(h + 1)}`,
          color: signed(t.step(whole)),
          animation: 'fade',
          rowLabels: false,
          columnColor: () => headColor(h),
        })),
      ]),
  },
  {
    key: 'scores',
    heatmap: 'scores',
    extra: null,
    terms: ['t-q', 't-k'],
    detail: (t) =>
      String.raw`S_i = Q_iK_i^{\top} \quad ${shape(t.nQuery, t.dK)}\cdot${shape(t.dK, t.nKey)} = ${shape(t.nQuery, t.nKey)}`,
    operands: (t, h) => [
      {
        id: 'qHead',
        step: t.step('qHead', h),
        title: `Q${subscript(h + 1)}`,
        color: signed(t.step('qHead', h)),
        animation: 'none',
      },
      op('·'),
      {
        id: 'kHeadT',
        step: t.step('kHead', h),
        title: `K${subscript(h + 1)}ᵀ`,
        color: signed(t.step('kHead', h)),
        transpose: true,
        animation: 'none',
      },
      op('='),
      {
        id: 'scores',
        step: t.step('scores', h),
        title: `S${subscript(h + 1)}`,
        color: signed(t.step('scores', h)),
        animation: 'sweep',
        sweep: true,
      },
    ],
  },
  {
    key: 'scale',
    heatmap: 'scaled',
    extra: 'spread',
    terms: ['t-scale', 't-temperature'],
    detail: (t, h, state) => {
      const temperature = state.temperature !== 1 ? String.raw`\;/\;T,\;\; T = ${formatShort(state.temperature)}` : '';
      return state.scale
        ? String.raw`S_i / \sqrt{d_k} = S_i / \sqrt{${t.dK}} = S_i \times ${formatShort(1 / Math.sqrt(t.dK))}${temperature}`
        : String.raw`\text{scaling off: } S_i${temperature || String.raw`\text{ unchanged}`}`;
    },
    operands: (t, h, state) => [
      {
        id: 'scores',
        step: t.step('scores', h),
        title: `S${subscript(h + 1)}`,
        color: signed(t.step('scores', h)),
        animation: 'none',
      },
      op(scaleOperator(state)),
      // Same colour domain as the raw scores: the shrinking is visible as paler cells.
      {
        id: 'scaled',
        step: t.step('scaled', h),
        title: scaledTitle(state, h),
        color: signed(t.step('scaled', h), t.step('scores', h)),
        animation: 'fade',
      },
    ],
  },
  {
    key: 'mask',
    heatmap: 'masked',
    extra: null,
    terms: ['t-mask'],
    detail: (t) =>
      String.raw`M_{ij} = \begin{cases}0 & \text{visible}\\ -\infty & \text{masked}\end{cases} \quad ${shape(t.nQuery, t.nKey)}`,
    operands: (t, h, state) => [
      {
        id: 'scaled',
        step: t.step('scaled', h),
        title: scaledTitle(state, h),
        color: signed(t.step('scaled', h)),
        animation: 'none',
      },
      op('+ M ='),
      {
        id: 'masked',
        step: t.step('masked', h),
        title: maskedTitle(t, state, h),
        color: signed(t.step('scaled', h)),
        animation: 'fade',
        masked: isMasked(t.step('mask')),
        globalTokens: globalTokensOf(state),
      },
    ],
  },
  {
    key: 'softmax',
    heatmap: 'weights',
    extra: 'bars',
    terms: ['t-softmax'],
    detail: (t) =>
      String.raw`A_{ij} = \frac{e^{s_{ij}-\max_k s_{ik}}}{\sum_k e^{s_{ik}-\max_k s_{ik}}},\;\; \textstyle\sum_j A_{ij} = 1 \quad ${shape(t.nQuery, t.nKey)}`,
    operands: (t, h, state) => [
      {
        id: 'masked',
        step: t.step('masked', h),
        title: maskedTitle(t, state, h),
        color: signed(t.step('scaled', h)),
        animation: 'none',
        masked: isMasked(t.step('mask')),
      },
      op('softmax →'),
      {
        id: 'weights',
        step: t.step('weights', h),
        title: `A${subscript(h + 1)}`,
        color: weights(),
        animation: 'rows',
        masked: isMasked(t.step('mask')),
      },
    ],
  },
  {
    key: 'weighted',
    heatmap: 'weights',
    extra: null,
    terms: ['t-v'],
    detail: (t) =>
      String.raw`\mathrm{head}_i = A_iV_i \quad ${shape(t.nQuery, t.nKey)}\cdot${shape(t.nKey, t.dK)} = ${shape(t.nQuery, t.dK)}`,
    operands: (t, h) => [
      {
        id: 'weights',
        step: t.step('weights', h),
        title: `A${subscript(h + 1)}`,
        color: weights(),
        animation: 'none',
        masked: isMasked(t.step('mask')),
      },
      op('·'),
      {
        id: 'vHead',
        step: t.step('vHead', h),
        title: `V${subscript(h + 1)}`,
        color: signed(t.step('vHead', h)),
        animation: 'none',
      },
      op('='),
      {
        id: 'headOutput',
        step: t.step('headOutput', h),
        title: `head${subscript(h + 1)}`,
        color: signed(t.step('headOutput', h)),
        animation: 'rows',
        rowLabels: false,
      },
    ],
  },
  {
    key: 'concat',
    heatmap: 'weights',
    extra: null,
    terms: ['t-concat'],
    detail: (t) =>
      String.raw`\mathrm{Concat}(\mathrm{head}_1..\mathrm{head}_{${t.heads}}) = ${shape(t.nQuery, String.raw`${t.heads}\cdot ${t.dK}`)} = ${shape(t.nQuery, t.projectionWidth)}`,
    operands: (t) => [
      ...Array.from({ length: t.heads }, (_, h) => ({
        id: `headOutput${h}`,
        step: t.step('headOutput', h),
        title: `head${subscript(h + 1)}`,
        color: signed(t.step('concat')),
        animation: 'none',
        rowLabels: h === 0,
        columnColor: () => headColor(h),
      })),
      op('→'),
      {
        id: 'concat',
        step: t.step('concat'),
        title: 'Concat',
        color: signed(t.step('concat')),
        animation: 'cols',
        rowLabels: false,
        columnColor: headBands(t),
      },
    ],
  },
  {
    key: 'output',
    heatmap: 'weights',
    extra: null,
    terms: ['t-wo', 't-out'],
    // Without an output projection (tutorial mode: the tutorial stops at A·V) O is Concat.
    detail: (t, h, state) =>
      noOutputProjection(t)
        ? String.raw`O = \mathrm{Concat} \quad \text{(${state.lang === 'zh' ? '无' : 'no'} } W_O\text{)} \quad ${shape(t.nQuery, t.projectionWidth)}`
        : String.raw`O = \mathrm{Concat}\cdot W_O \quad ${shape(t.nQuery, t.projectionWidth)}\cdot${shape(t.projectionWidth, t.dModel)} = ${shape(t.nQuery, t.dModel)}`,
    operands: (t, h, state) => [
      {
        id: 'concat',
        step: t.step('concat'),
        title: 'Concat',
        color: signed(t.step('concat')),
        animation: 'none',
        columnColor: headBands(t),
      },
      op(noOutputProjection(t) ? strings(state.lang).noOutputOperator : '· W_O ='),
      {
        id: 'output',
        step: t.step('output'),
        title: 'O',
        color: signed(t.step('output')),
        animation: 'cols',
        rowLabels: false,
      },
    ],
  },
];

/**
 * Linear attention (engine option attention: 'linear', docs/computation.md) in the random-weights
 * explorer: a trained model's layers are softmax attention whatever the link says.
 */
export const isLinear = (state) => state?.attention === 'linear' && (state.model ?? 'random') === 'random';

const phi = (x) => `φ(${x})`;

/** A head's step as an operand, coloured on its own signed scale (the linear steps'). */
const headStep = (t, h, name, title, animation, extra = {}) => ({
  id: name,
  step: t.step(name, h),
  title,
  color: signed(t.step(name, h)),
  animation,
  ...extra,
});

/**
 * What linear attention does at steps 4–8 instead of QKᵀ, ÷√d_k, mask, softmax and A·V, by the
 * same step keys (the URL's step=n and a component's step name stay the same): the feature maps,
 * the d_k × d_k summary, the normaliser, the implied weights beside softmax's, the output. Each
 * row replaces the fields of the softmax row of its key.
 */
const LINEAR_STEPS = {
  scores: {
    heatmap: 'linearWeights',
    extra: null,
    terms: ['t-phi'],
    detail: (t) =>
      String.raw`\phi(x) = \mathrm{elu}(x) + 1 > 0:\;\; \phi(Q_i)\,${shape(t.nQuery, t.dK)},\;\; \phi(K_i)\,${shape(t.nKey, t.dK)}`,
    operands: (t, h) =>
      [
        ['qHead', 'phiQ', 'Q'],
        ['kHead', 'phiK', 'K'],
      ].flatMap(([input, out, title], n) => [
        ...(n ? [lineBreak] : []),
        {
          id: input,
          step: t.step(input, h),
          title: `${title}${subscript(h + 1)}`,
          color: signed(t.step(input, h)),
          animation: 'none',
        },
        op('φ →'),
        {
          id: out,
          step: t.step(out, h),
          title: phi(`${title}${subscript(h + 1)}`),
          color: signed(t.step(out, h)),
          animation: 'fade',
          rowLabels: false,
        },
      ]),
  },
  scale: {
    heatmap: 'linearWeights',
    extra: null,
    terms: ['t-summary'],
    detail: (t) =>
      String.raw`S_i = \phi(K_i)^{\top}V_i \quad ${shape(t.dK, t.nKey)}\cdot${shape(t.nKey, t.dK)} = ${shape(t.dK, t.dK)},\;\; \textstyle\sum_j \phi(k_j)\;${shape(1, t.dK)}`,
    operands: (t, h) => [
      {
        id: 'phiKT',
        step: t.step('phiK', h),
        title: `${phi(`K${subscript(h + 1)}`)}ᵀ`,
        color: signed(t.step('phiK', h)),
        transpose: true,
        animation: 'none',
      },
      op('·'),
      headStep(t, h, 'vHead', `V${subscript(h + 1)}`, 'none'),
      op('='),
      headStep(t, h, 'kvSummary', `S${subscript(h + 1)}`, 'fade'),
      lineBreak,
      op('Σⱼ φ(kⱼ) ='),
      headStep(t, h, 'keySum', `Σ ${phi('k')}`, 'fade', { rowLabels: false }),
    ],
  },
  mask: {
    heatmap: 'linearWeights',
    extra: null,
    terms: ['t-norm'],
    detail: (t) =>
      String.raw`z_i = \phi(q_i)^{\top}\textstyle\sum_j \phi(k_j) \quad ${shape(t.nQuery, t.dK)}\cdot${shape(t.dK, 1)} = ${shape(t.nQuery, 1)}`,
    operands: (t, h) => [
      headStep(t, h, 'phiQ', phi(`Q${subscript(h + 1)}`), 'none'),
      op('·'),
      {
        id: 'keySumT',
        step: t.step('keySum', h),
        title: `(Σ ${phi('k')})ᵀ`,
        color: signed(t.step('keySum', h)),
        transpose: true,
        animation: 'none',
      },
      op('='),
      headStep(t, h, 'normaliser', 'z', 'rows', { rowLabels: false }),
    ],
  },
  softmax: {
    heatmap: 'linearWeights',
    extra: null,
    terms: ['t-phi', 't-norm'],
    // (That it is drawn only to compare, never formed, the step's text says.)
    detail: (t) =>
      String.raw`w_{ij} = \frac{\phi(q_i)\cdot\phi(k_j)}{z_i},\;\; \textstyle\sum_j w_{ij} = 1 \quad ${shape(t.nQuery, t.nKey)}`,
    // Softmax's weights, then the implied ones (the step's result, matrices.js resultOf), as the
    // heatmap draws them.
    operands: (t, h, state) => [
      {
        id: 'weights',
        step: t.step('weights', h),
        title: `A${subscript(h + 1)} (softmax)`,
        color: weights(),
        animation: 'none',
        masked: isMasked(t.step('mask')),
      },
      op('↔'),
      {
        id: 'linearWeights',
        step: t.step('linearWeights', h),
        title: `W${subscript(h + 1)} (${strings(state.lang).linearKind})`,
        color: weights(),
        animation: 'rows',
        result: true,
        masked: isMasked(t.step('mask')),
      },
    ],
  },
  weighted: {
    heatmap: 'linearWeights',
    extra: null,
    terms: ['t-phi', 't-summary', 't-norm'],
    detail: (t) =>
      String.raw`\mathrm{head}_i = \phi(Q_i)\,S_i \,/\, z \quad ${shape(t.nQuery, t.dK)}\cdot${shape(t.dK, t.dK)} = ${shape(t.nQuery, t.dK)}`,
    operands: (t, h) => [
      headStep(t, h, 'phiQ', phi(`Q${subscript(h + 1)}`), 'none'),
      op('·'),
      headStep(t, h, 'kvSummary', `S${subscript(h + 1)}`, 'none'),
      op('÷'),
      headStep(t, h, 'normaliser', 'z', 'none', { rowLabels: false }),
      op('='),
      headStep(t, h, 'headOutput', `head${subscript(h + 1)}`, 'rows', { rowLabels: false }),
    ],
  },
};

/**
 * The linear attention formula, its terms highlighted by the steps (LINEAR_STEPS terms); φ's own
 * definition is step 4's shapes line (beside this, it overflowed a phone's panel).
 */
const LINEAR_FORMULA = String.raw`\mathrm{head}_i=\frac{\htmlClass{t-phi}{\phi(q_i)}^{\top}\htmlClass{t-summary}{\sum_j \phi(k_j)\,\htmlClass{t-v}{v_j}^{\top}}}{\htmlClass{t-norm}{\phi(q_i)^{\top}\sum_j \phi(k_j)}}`;

/** True when the trace has no W_O (engine option outputProjection: false): it costs no FLOPs. */
const noOutputProjection = (t) => t.flops.outputProjection === 0;

function subscript(n) {
  return String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
}

if (STEPS.map((s) => s.key).join() !== STEP_KEYS.join()) {
  throw new Error(`steps.js has steps ${STEPS.map((s) => s.key)}, step-keys.js lists ${STEP_KEYS}: make them the same`);
}
export { STEP_COUNT, STEP_KEYS };

/**
 * The row of step n (1-based, as in the state and the URL); with a state that computes linear
 * attention, its linear row where it has one (LINEAR_STEPS).
 */
export function stepAt(n, state) {
  const row = STEPS[n - 1];
  const linear = isLinear(state) && LINEAR_STEPS[row?.key];
  return linear ? { ...row, ...linear, linear: true } : row;
}

/** The keys of the steps linear attention replaces (4–8), in order. */
export const LINEAR_STEP_KEYS = Object.keys(LINEAR_STEPS);
