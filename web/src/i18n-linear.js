// The texts of linear attention (attention: 'linear', docs/computation.md): its control, the
// five steps it does instead of scores … A·V (step-texts.js picks them), the heatmap's two
// kinds of weights side by side, and its cells' arithmetic (views/arithmetic-linear.js).
// i18n.js merges them into its tables.

export const LINEAR = {
  en: {
    attention: 'attention',
    'attention.softmax': 'softmax',
    'attention.linear': 'linear (φ = elu + 1)',
    // Why a control is off with linear attention: the engine refuses these (engine-api.md).
    linearNoWindow:
      'Linear attention sums every visible key into one summary: a sliding window would need one per query.',
    linearNoScale: 'Linear attention never forms QKᵀ: there is no score to divide by √d_k.',
    linearNoTemperature: 'Linear attention never forms QKᵀ: there is no score to divide by T.',
    linearOff:
      'Linear attention: no sliding window, no temperature, ÷√d_k not applicable (hover a greyed control for why).',
    costLinear: (attn, proj) => `linear attention O(n·d_k²): ${attn} FLOPs · projections O(n·d²): ${proj} FLOPs`,
    softmaxKind: 'softmax',
    linearKind: 'linear',
    heatmapLinearHint:
      'Per head: softmax’s weights (left) and the weights linear attention implies (right), for the same Q and K. Both rows sum to 1; the linear ones are flatter.',
    linearWeightsName: 'implied weights',
    linksKind: 'Weights drawn',
    softmaxLinearNote:
      'This run is linear attention: these are the softmax weights of the same Q and K, shown to compare with the implied weights (step 7), not the weights its output used.',
    // Added to an exported figure's subtitle (explorer/caption.js).
    figureLinear: ' · linear attention (φ = elu + 1)',
    linearSteps: {
      scores: {
        title: 'Feature maps φ(Q), φ(K)',
        short: 'φ(Q) φ(K)',
        text: 'Linear attention (Katharopoulos et al., 2020) never compares every query with every key. It first passes every entry of Q and K through φ(x) = elu(x) + 1 (x + 1 where x > 0, eˣ elsewhere), so that every feature is positive. φ(q)·φ(k) then plays the part that e^(q·k/√d_k) plays in softmax.',
      },
      scale: {
        title: 'Summary S = φ(K)ᵀV',
        short: 'φ(K)ᵀV',
        text: 'Because φ(q)·φ(k) is a plain dot product, the products can be regrouped: the keys and values are summed once into a d_k × d_k summary S = Σⱼ φ(kⱼ)vⱼᵀ, and the keys into one row Σⱼ φ(kⱼ). Their size does not grow with the sentence: no n × n matrix is formed, and there is no score to divide by √d_k.',
      },
      mask: {
        title: 'Normaliser z',
        short: 'z',
        text: 'Each query’s weights must sum to 1, as softmax’s do: zᵢ = φ(qᵢ)·Σⱼ φ(kⱼ) is the sum that divides them — one dot product of length d_k per query instead of a row of n scores.',
      },
      softmax: {
        title: 'Implied weights beside softmax',
        short: 'weights',
        text: 'Linear attention never forms this matrix; it is drawn only to compare. Its weights wᵢⱼ = φ(qᵢ)·φ(kⱼ) / zᵢ sum to 1 in each row, beside softmax’s A for the same Q and K. Gained: no n × n matrix, so a head costs O(n·d_k²) instead of O(n²·d_k), linear in the length of the text. Lost: the weights are not a softmax. φ grows polynomially where eˣ grows exponentially, so a query cannot put nearly all its weight on one key: the rows are flatter, with no sharp peaks, and every visible key keeps some weight.',
      },
      weighted: {
        title: 'Output φ(Q)·S / z',
        short: 'φ(Q)S/z',
        text: 'Each query reads the summary: headᵢ = φ(qᵢ)ᵀS / zᵢ, a row of d_k times a d_k × d_k matrix. It equals the implied weights times V, without the weights ever being formed.',
      },
    },
    // Added to steps 5, 6 and 8 with a causal mask: how the mask acts without −∞.
    linearCausal:
      'With the causal mask, query i reads running sums over the keys j ≤ i only (a prefix sum, like an RNN’s state); the summary drawn is the last one, over every key.',
    // The arithmetic panels of linear attention's cells.
    phiFormula: 'φ(x) = x + 1 if x > 0, else eˣ',
    summaryFormula: (a, c) => `S[${a}, ${c}] = Σⱼ φ(k)[j, ${a}] × V[j, ${c}]`,
    keySumFormula: (a) => `Σⱼ φ(k)[j, ${a}]`,
    normaliserFormula: (i) => `z[${i}] = φ(q[${i}]) · Σⱼ φ(kⱼ)`,
    impliedFormula: (i, j) => `w[${i}, ${j}] = φ(q[${i}]) · φ(k[${j}]) / z[${i}]`,
    linearOutputFormula: (i, c) => `head[${i}, ${c}] = φ(q[${i}])ᵀ S[:, ${c}] / z[${i}]`,
    keysSummed: (count, all) =>
      count === all ? `summed over all ${all} keys` : `summed over the ${count} keys j ≤ i (causal: a prefix sum)`,
    maskedZero: 'masked (j > i): exactly 0',
    numerator: 'numerator',
    divideByZ: 'divide by z',
    summaryRow: 'S[a, c]',
    featureIndex: 'a',
  },
  zh: {
    attention: '注意力',
    'attention.softmax': 'softmax',
    'attention.linear': '线性（核化）',
    linearNoWindow: '线性注意力把所有可见的键加成一个摘要：滑动窗口需要每个查询各有一个摘要。',
    linearNoScale: '线性注意力从不计算 QKᵀ：没有分数可以除以 √d_k。',
    linearNoTemperature: '线性注意力从不计算 QKᵀ：没有分数可以除以温度 T。',
    linearOff: '线性注意力：不能用滑动窗口和温度，也不需要 ÷√d_k（把鼠标悬停在灰色控件上可看原因）。',
    costLinear: (attn, proj) => `线性注意力 O(n·d_k²)：${attn} 次浮点运算 · 投影 O(n·d²)：${proj} 次`,
    softmaxKind: 'softmax',
    linearKind: '线性',
    heatmapLinearHint:
      '每个头：左边是 softmax 的权重，右边是线性注意力隐含的权重，用的是同一组 Q 和 K。两者每行都和为 1；线性的更平。',
    linearWeightsName: '隐含权重',
    linksKind: '显示的权重',
    softmaxLinearNote:
      '本次计算是线性注意力：这里是同一组 Q、K 的 softmax 权重，用来与隐含权重（第 7 步）对比，并不是输出所用的权重。',
    figureLinear: ' · 线性注意力',
    linearSteps: {
      scores: {
        title: '特征映射 φ(Q)、φ(K)',
        short: 'φ(Q) φ(K)',
        text: '线性注意力（论文《Transformers are RNNs》，2020）不再把每个查询与每个键逐一比较。它先把 Q 和 K 的每个数送进 φ：x > 0 时 φ(x) = x + 1，否则 φ(x) = eˣ，所以每个特征都是正数。φ(q)·φ(k) 就扮演 softmax 中 e^(q·k/√d_k) 的角色。',
      },
      scale: {
        title: '摘要 S = φ(K)ᵀV',
        short: 'φ(K)ᵀV',
        text: '因为 φ(q)·φ(k) 只是普通的点积，乘法可以换个顺序：所有键和值先一次性加成一个 d_k × d_k 的摘要 S = Σⱼ φ(kⱼ)vⱼᵀ，所有键加成一行 Σⱼ φ(kⱼ)。它们的大小不随句长增长：从不形成 n × n 矩阵，也没有分数需要除以 √d_k。',
      },
      mask: {
        title: '归一化因子 z',
        short: 'z',
        text: '每个查询的权重要和为 1，就像 softmax 一样：zᵢ = φ(qᵢ)·Σⱼ φ(kⱼ) 就是用来除的那个和——每个查询只做一次长度为 d_k 的点积，而不是一整行 n 个分数。',
      },
      softmax: {
        title: '隐含权重与 softmax 对比',
        short: '权重',
        text: '线性注意力从不形成这个矩阵，这里画出来只是为了对比：它的权重 wᵢⱼ = φ(qᵢ)·φ(kⱼ) / zᵢ 每行和为 1，旁边是同一组 Q、K 的 softmax 权重 A。得到的：没有 n × n 矩阵，每个头的计算量是 O(n·d_k²) 而不是 O(n²·d_k)，随句长线性增长。失去的：权重不再是 softmax。φ 只按多项式增长，而 eˣ 按指数增长，所以一个查询无法把几乎全部权重放在一个键上：每行更平，没有尖锐的峰，每个可见的键都保留一些权重。',
      },
      weighted: {
        title: '输出 φ(Q)·S / z',
        short: 'φ(Q)S/z',
        text: '每个查询读取摘要：headᵢ = φ(qᵢ)ᵀS / zᵢ，一行 d_k 个数乘以 d_k × d_k 矩阵。结果等于隐含权重乘以 V，但那些权重从未被形成。',
      },
    },
    linearCausal:
      '使用因果掩码时，查询 i 只读取键 j ≤ i 的累加和（前缀和，就像 RNN 的状态）；这里画出的摘要是最后一个，包含所有键。',
    phiFormula: 'x > 0 时 φ(x) = x + 1，否则 φ(x) = eˣ',
    summaryFormula: (a, c) => `S[${a}, ${c}] = Σⱼ φ(k)[j, ${a}] × V[j, ${c}]`,
    keySumFormula: (a) => `Σⱼ φ(k)[j, ${a}]`,
    normaliserFormula: (i) => `z[${i}] = φ(q[${i}]) · Σⱼ φ(kⱼ)`,
    impliedFormula: (i, j) => `w[${i}, ${j}] = φ(q[${i}]) · φ(k[${j}]) / z[${i}]`,
    linearOutputFormula: (i, c) => `head[${i}, ${c}] = φ(q[${i}])ᵀ S[:, ${c}] / z[${i}]`,
    keysSummed: (count, all) =>
      count === all ? `对全部 ${all} 个键求和` : `只对 j ≤ i 的 ${count} 个键求和（因果：前缀和）`,
    maskedZero: '已屏蔽（j > i）：恰好为 0',
    numerator: '分子',
    divideByZ: '除以 z',
    summaryRow: 'S[a, c]',
    featureIndex: 'a',
  },
};
