// The engine's training model (cpp/include/attention/train/model_config.hpp) in TensorFlow.js,
// for the training benchmark: learned token and position embeddings; pre-LN blocks
//   x → LN₁ → multi-head causal attention (÷√dK) → + x → LN₂ → FFN (GELU, tanh form) → + x;
// a final LayerNorm; logits tied to the token embedding; mean cross-entropy over every
// position; AdamW as cpp/src/train/optimizer.cpp (β 0.9/0.95, ε 1e-8, decay 0.1 on matrices
// only, global-norm clipping at 1, constant rate). Gradients come from tfjs's autodiff
// (tf.variableGrads): this is how a tfjs user trains.
//
// Two ways to write the attention, both trained the same way:
//   'plain': as a tfjs user writes it: reshape Q, K, V to [B, H, T, dK] and batched matMuls
//            (scores = matMul(q, k, false, true)), logits = matMul(h, E, false, true);
//   'best':  its fair best on tfjs-backend-wasm, where transposeA/B fall to about 1 GFLOP/s
//            (docs/toolchain.md): every product and its gradient with explicit transposes
//            (tf.customGrad), Kᵀ and Eᵀ explicit, attention batched over sequences and heads;
//   'sliced': as 'best' but attention as 2-D matMuls per sequence and head (the forward
//            benchmark's fast path, bench/contenders.mjs): B·H small products per layer.
//
// config: { vocab, layers, dModel, heads, dK, dFF, context, batch, scale }
// layout: [{ name, rows, cols, offset, decay }] and weights (Float32Array), the engine's own
// parameter buffer in layout order (bench/cpp/train_case.hpp).

let trainers = 0; // tfjs variable names are global: each trainer prefixes its own

/** A trainer over `tf` (an initialised tfjs-core with its backend). */
export function tfjsTrainer(tf, { config, layout, weights, variant = 'best', learningRate = 1e-3 }) {
  const { layers, heads, context: T, batch: B, vocab: V } = config;
  const dK = config.dK;
  const N = B * T;
  const prefix = `trainer${++trainers}/`;
  const params = new Map();
  for (const t of layout) {
    const data = weights.subarray(t.offset, t.offset + t.rows * t.cols);
    params.set(t.name, tf.variable(tf.tensor2d(data, [t.rows, t.cols]), true, prefix + t.name));
  }
  const p = (name) => {
    const v = params.get(name);
    if (!v) throw new Error(`tfjs model: no parameter ${name}`);
    return v;
  };
  const alpha = config.scale ? 1 / Math.sqrt(dK) : 1;
  // Additive causal mask [T × T]: 0 where key j ≤ query i, −1e9 above the diagonal.
  const maskData = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) maskData[i * T + j] = -1e9;
  const mask = tf.keep(tf.tensor2d(maskData, [T, T]));

  function layerNorm(x, gain, bias) {
    const mean = tf.mean(x, 1, true);
    const centered = tf.sub(x, mean);
    const variance = tf.mean(tf.square(centered), 1, true);
    return tf.add(tf.mul(tf.mul(centered, tf.rsqrt(tf.add(variance, 1e-5))), gain), bias);
  }
  // x·w, with a gradient of explicit transposes in 'best' (tfjs's own uses transposeA/B).
  const product =
    variant === 'plain'
      ? (x, w) => tf.matMul(x, w)
      : tf.customGrad((x, w, save) => {
          save([x, w]);
          return {
            value: tf.matMul(x, w),
            gradFunc: (dy, [xs, ws]) => [tf.matMul(dy, tf.transpose(ws)), tf.matMul(tf.transpose(xs), dy)],
          };
        });
  function linear(x, w, b) {
    return tf.add(product(x, w), b);
  }
  const geluScale = Math.sqrt(2 / Math.PI);
  function gelu(x) {
    const inner = tf.mul(tf.add(x, tf.mul(tf.pow(x, 3), 0.044715)), geluScale);
    return tf.mul(tf.mul(x, 0.5), tf.add(tf.tanh(inner), 1));
  }

  // q, k, v [N × P] → concat of every head's softmax(α·q·kᵀ + mask)·v [N × P].
  function attentionPlain(q, k, v) {
    const split = (m) => tf.transpose(tf.reshape(m, [B, T, heads, dK]), [0, 2, 1, 3]); // [B, H, T, dK]
    const scores = tf.add(tf.mul(tf.matMul(split(q), split(k), false, true), alpha), mask);
    const out = tf.matMul(tf.softmax(scores), split(v)); // [B, H, T, dK]
    return tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [N, heads * dK]);
  }
  // Per sequence and head 2-D matMuls with an explicit Kᵀ (B·H of them per layer).
  function attentionSliced(q, k, v) {
    const rows = [];
    for (let b = 0; b < B; b++) {
      const outs = [];
      for (let h = 0; h < heads; h++) {
        const at = [b * T, h * dK];
        const qh = tf.slice(q, at, [T, dK]);
        const khT = tf.transpose(tf.slice(k, at, [T, dK]));
        const vh = tf.slice(v, at, [T, dK]);
        const weights = tf.softmax(tf.add(tf.mul(tf.matMul(qh, khT), alpha), mask));
        outs.push(tf.matMul(weights, vh));
      }
      rows.push(tf.concat(outs, 1));
    }
    return tf.concat(rows, 0);
  }
  // Batched over [B·H] with an explicit Kᵀ [B·H × dK × T] (no transposeB).
  function attentionBatched(q, k, v) {
    const split = (m) => tf.reshape(tf.transpose(tf.reshape(m, [B, T, heads, dK]), [0, 2, 1, 3]), [B * heads, T, dK]);
    const kT = tf.transpose(split(k), [0, 2, 1]);
    const scores = tf.add(tf.mul(tf.matMul(split(q), kT), alpha), mask);
    const out = tf.reshape(tf.matMul(tf.softmax(scores), split(v)), [B, heads, T, dK]);
    return tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [N, heads * dK]);
  }
  const attention = { plain: attentionPlain, best: attentionBatched, sliced: attentionSliced }[variant];

  /** Mean cross-entropy of the batch (tokens, targets: Int32Array [B × T]) as a scalar. */
  function loss(tokens, targets) {
    const positions = tf.tile(p('positionEmbedding'), [B, 1]);
    // The embedding lookup as oneHot(tokens) · E [N × V]·[V × C]: tf.gather's gradient needs
    // UnsortedSegmentSum, which tfjs-backend-wasm does not have.
    const oneHot = tf.cast(tf.oneHot(tokens, V), 'float32');
    let x = tf.add(tf.matMul(oneHot, p('tokenEmbedding')), positions); // [N × C]
    for (let l = 0; l < layers; l++) {
      const w = (name) => p(`layers.${l}.${name}`);
      const h = layerNorm(x, w('ln1Gain'), w('ln1Bias'));
      const heads = attention(linear(h, w('wQ'), w('bQ')), linear(h, w('wK'), w('bK')), linear(h, w('wV'), w('bV')));
      x = tf.add(x, linear(heads, w('wO'), w('bO')));
      const h2 = layerNorm(x, w('ln2Gain'), w('ln2Bias'));
      x = tf.add(x, linear(gelu(linear(h2, w('w1'), w('b1'))), w('w2'), w('b2')));
    }
    const final = layerNorm(x, p('lnFinalGain'), p('lnFinalBias'));
    const embedding = p('tokenEmbedding');
    const logits =
      variant === 'plain' ? tf.matMul(final, embedding, false, true) : product(final, tf.transpose(embedding));
    const picked = tf.mul(tf.logSoftmax(logits), tf.oneHot(targets, V));
    return tf.neg(tf.div(tf.sum(picked), N));
  }

  // AdamW state: the two moments per parameter, and the step count.
  const adam = { beta1: 0.9, beta2: 0.95, epsilon: 1e-8, weightDecay: 0.1, clipNorm: 1 };
  const moments = layout.map((t) => ({
    name: t.name,
    decay: t.decay,
    m: tf.variable(tf.zerosLike(p(t.name)), false),
    v: tf.variable(tf.zerosLike(p(t.name)), false),
  }));
  let steps = 0;

  function update(grads) {
    steps++;
    tf.tidy(() => {
      // Global gradient norm, then the clipping factor (as the engine: /(‖g‖ + 1e-6)).
      const squares = moments.map(({ name }) => tf.sum(tf.square(grads[prefix + name])));
      const norm = Math.sqrt(tf.addN(squares).dataSync()[0]);
      const clip = norm > adam.clipNorm ? adam.clipNorm / (norm + 1e-6) : 1;
      const c1 = 1 - adam.beta1 ** steps;
      const c2 = 1 - adam.beta2 ** steps;
      for (const { name, decay, m, v } of moments) {
        const g = clip === 1 ? grads[prefix + name] : tf.mul(grads[prefix + name], clip);
        m.assign(tf.add(tf.mul(m, adam.beta1), tf.mul(g, 1 - adam.beta1)));
        v.assign(tf.add(tf.mul(v, adam.beta2), tf.mul(tf.square(g), 1 - adam.beta2)));
        const step = tf.div(tf.div(m, c1), tf.add(tf.sqrt(tf.div(v, c2)), adam.epsilon));
        const param = p(name);
        const change = decay ? tf.add(step, tf.mul(param, adam.weightDecay)) : step;
        param.assign(tf.sub(param, tf.mul(change, learningRate)));
      }
    });
  }

  return {
    /** The loss of a batch under the current weights (no training). */
    evaluate(tokens, targets) {
      return tf.tidy(() => loss(tf.tensor1d(tokens, 'int32'), tf.tensor1d(targets, 'int32')).dataSync()[0]);
    },
    /** One training step on a batch; returns its loss (before the update). */
    step(tokens, targets) {
      const tokensT = tf.tensor1d(tokens, 'int32');
      const targetsT = tf.tensor1d(targets, 'int32');
      const { value, grads } = tf.variableGrads(() => loss(tokensT, targetsT));
      const lossValue = value.dataSync()[0];
      update(grads);
      tf.dispose([value, tokensT, targetsT, ...Object.values(grads)]);
      return lossValue;
    },
    dispose() {
      tf.dispose([mask, ...params.values(), ...moments.flatMap(({ m, v }) => [m, v])]);
    },
  };
}
