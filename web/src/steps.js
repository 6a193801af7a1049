// The ten steps of the computation: which terms of the formula they are, the shapes they
// produce, and the matrices the stage draws for them (operands joined by operators).
import { headColor, stepMaxAbs, signedScale, weightScale } from './scales.js';

export const FORMULA =
  String.raw`\mathrm{Attention}(\htmlClass{t-q}{Q},\htmlClass{t-k}{K},\htmlClass{t-v}{V})=` +
  String.raw`\htmlClass{t-softmax}{\mathrm{softmax}}\!\left(\frac{\htmlClass{t-q}{Q}\htmlClass{t-k}{K^{\top}}}` +
  String.raw`{\htmlClass{t-scale}{\sqrt{d_k}}}\htmlClass{t-mask}{+\,M}\right)\htmlClass{t-v}{V}`;

export const FORMULA_CONTEXT = String.raw`\begin{aligned}
  &\htmlClass{t-x}{X'=X+PE} \\
  &\htmlClass{t-qkv}{Q=X'W_Q,\;K=X'W_K,\;V=X'W_V} \\
  &\htmlClass{t-out}{O}=\htmlClass{t-concat}{\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)}\,\htmlClass{t-wo}{W_O}
\end{aligned}`;

const shape = (r, c) => String.raw`[${r}\times ${c}]`;

const signed = (step, domainFrom = step) => {
  const scale = signedScale(stepMaxAbs(domainFrom));
  return (v) => scale(v);
};
const weights = () => {
  const scale = weightScale();
  return (v) => scale(v);
};
const isMasked = (mask) => (i, j) => mask.data[i * mask.cols + j] === 0;
const op = (text) => ({ op: text });

/** Column colours of a [n × heads·dK] matrix: one band per head. */
const headBands = (trace) => (j) => headColor(Math.floor(j / trace.dK));

/**
 * The one table of steps; step n of the page (URL `step=n`, 1-based) is STEPS[n - 1]. Each row:
 * { key: also the web component's step name and the i18n texts' key (i18n.js steps[key]),
 *   heatmap: the n×m matrix the heatmap view shows, extra: what the stage adds under the
 *   equation (views/stage-extras.js EXTRAS) or null, terms: formula classes to highlight,
 *   detail(trace, h, state): TeX, operands(trace, h): the stage's matrices and operators }.
 */
export const STEPS = [
  {
    key: 'embed',
    heatmap: 'scores',
    extra: null,
    terms: ['t-x'],
    detail: (t) => String.raw`X' = X + PE \quad ${shape('n', 'd_{model}')} = ${shape(t.nQuery, t.dModel)}`,
    operands: (t) => [
      { id: 'x', step: t.step('x'), title: 'X', color: signed(t.step('x')), animation: 'rows' },
      op('+'),
      {
        id: 'pe',
        step: t.step('pe'),
        title: 'PE',
        color: signed(t.step('pe'), t.step('x')),
        animation: 'rows',
        rowLabels: false,
      },
      op('='),
      {
        id: 'xPe',
        step: t.step('xPe'),
        title: "X'",
        color: signed(t.step('xPe')),
        animation: 'rows',
        rowLabels: false,
      },
    ],
  },
  {
    key: 'project',
    heatmap: 'scores',
    extra: null,
    terms: ['t-qkv'],
    detail: (t) =>
      String.raw`Q = X'W_Q \quad ${shape(t.nQuery, t.dModel)}\cdot${shape(t.dModel, t.projectionWidth)} = ${shape(t.nQuery, t.projectionWidth)}`,
    operands: (t) => [
      { id: 'xPe', step: t.step('xPe'), title: "X'", color: signed(t.step('xPe')), animation: 'none' },
      op('· W_Q ='),
      { id: 'q', step: t.step('q'), title: 'Q', color: signed(t.step('q')), animation: 'cols', rowLabels: false },
      op('· W_K ='),
      { id: 'k', step: t.step('k'), title: 'K', color: signed(t.step('k')), animation: 'cols', rowLabels: false },
      op('· W_V ='),
      { id: 'v', step: t.step('v'), title: 'V', color: signed(t.step('v')), animation: 'cols', rowLabels: false },
    ],
  },
  {
    key: 'split',
    heatmap: 'scores',
    extra: null,
    terms: ['t-q', 't-k', 't-v'],
    detail: (t) =>
      String.raw`Q ${shape(t.nQuery, String.raw`${t.heads}\cdot ${t.dK}`)} \rightarrow ${t.heads}\times Q_i\,${shape(t.nQuery, t.dK)},\;\; d_k = d_{model}/h = ${t.dK}`,
    operands: (t) => [
      {
        id: 'q',
        step: t.step('q'),
        title: 'Q',
        color: signed(t.step('q')),
        animation: 'none',
        columnColor: headBands(t),
      },
      op('→'),
      ...Array.from({ length: t.heads }, (_, h) => ({
        id: `qHead${h}`,
        step: t.step('qHead', h),
        title: `Q${subscript(h + 1)}`,
        color: signed(t.step('q')),
        animation: 'fade',
        rowLabels: false,
        columnColor: () => headColor(h),
      })),
    ],
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
    terms: ['t-scale'],
    detail: (t, h, state) =>
      state.scale
        ? String.raw`S_i / \sqrt{d_k} = S_i / \sqrt{${t.dK}} = S_i \times ${(1 / Math.sqrt(t.dK)).toFixed(3)}${state.temperature !== 1 ? String.raw`\; / \; T{=}${state.temperature}` : ''}`
        : String.raw`\text{scaling off: } S_i${state.temperature !== 1 ? String.raw` / T{=}${state.temperature}` : ''}`,
    operands: (t, h) => [
      {
        id: 'scores',
        step: t.step('scores', h),
        title: `S${subscript(h + 1)}`,
        color: signed(t.step('scores', h)),
        animation: 'none',
      },
      op('÷ √dₖ ='),
      // Same colour domain as the raw scores: the shrinking is visible as paler cells.
      {
        id: 'scaled',
        step: t.step('scaled', h),
        title: 'scaled',
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
    operands: (t, h) => [
      {
        id: 'scaled',
        step: t.step('scaled', h),
        title: 'scaled',
        color: signed(t.step('scaled', h)),
        animation: 'none',
      },
      op('+ M ='),
      {
        id: 'masked',
        step: t.step('masked', h),
        title: 'masked',
        color: signed(t.step('scaled', h)),
        animation: 'fade',
        masked: isMasked(t.step('mask')),
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
    operands: (t, h) => [
      {
        id: 'masked',
        step: t.step('masked', h),
        title: 'masked',
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
    detail: (t) =>
      noOutputProjection(t)
        ? String.raw`O = \mathrm{Concat} \quad \text{(no } W_O\text{)} \quad ${shape(t.nQuery, t.projectionWidth)}`
        : String.raw`O = \mathrm{Concat}\cdot W_O \quad ${shape(t.nQuery, t.projectionWidth)}\cdot${shape(t.projectionWidth, t.dModel)} = ${shape(t.nQuery, t.dModel)}`,
    operands: (t) => [
      {
        id: 'concat',
        step: t.step('concat'),
        title: 'Concat',
        color: signed(t.step('concat')),
        animation: 'none',
        columnColor: headBands(t),
      },
      op(noOutputProjection(t) ? '= (no W_O)' : '· W_O ='),
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

/** True when the trace has no W_O (engine option outputProjection: false): it costs no FLOPs. */
const noOutputProjection = (t) => t.flops.outputProjection === 0;

function subscript(n) {
  return String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
}

export const STEP_COUNT = STEPS.length;
export const STEP_KEYS = STEPS.map((s) => s.key);

/** The row of step n (1-based, as in the state and the URL). */
export const stepAt = (n) => STEPS[n - 1];
