// The texts that depend on what the run computes (step-texts.js picks them from the engine's
// options): the embedding's source, positional encoding on or off, one head or several, scaling
// on or off, no mask, no W_O. i18n.js merges them into its tables.

export const MODES = {
  en: {
    embedHash: 'Each token becomes a vector of d_model numbers: the same word gets the same vector in every sentence.',
    embedStream:
      'Each token becomes a vector of d_model numbers, drawn in order from the seeded random stream as NumPy’s np.random.randn(n, d_model) does: row i belongs to position i, not to the word, so the same word at another position gets other numbers.',
    peOn: 'A sinusoidal positional encoding is added so that order is visible — attention itself has no notion of position.',
    peOff:
      'No positional encoding is added in this run (PE is zero, X′ = X): attention itself has no notion of position.',
    splitOne: (dK) =>
      `This run has one head: Q, K and V pass to it whole, with d_k = ${dK} columns. With h heads they would be cut along the feature axis into h slices, each head attending in its own subspace with its own weights. Here the weights are random and untrained: the pattern shows the mechanism, not meaning.`,
    splitTitleOne: 'One head',
    embeddingOriginStream: (i) =>
      `Given, not computed: row ${i} of X, the next d_model numbers of the seeded random stream (NumPy’s np.random.randn order), so it belongs to position ${i}, not to its word.`,
    scaleOffTitle: 'No scaling (÷√d_k off)',
    temperatureOnlyTitle: 'Divide by the temperature T',
    scaleOffText:
      'Scaling is switched off: the scores go on as they are. A dot product of d_k random terms has variance d_k: for large d_k the scores spread far apart and softmax saturates towards 0 and 1. Switch ÷√d_k on to bring the variance back to about 1.',
    maskNoneTitle: 'Mask: none',
    maskNoneText:
      'No mask in this run: M is all zeros, so every query sees every key and the scores pass unchanged. A causal mask would cut the upper triangle (a decoder must not see the future); a sliding window would let each token see only its neighbours.',
    concatTitleOne: 'Concatenate heads (one head)',
    concatOne: 'With one head there is nothing to place side by side: Concat(head₁) is head₁ itself, n × d_k.',
    outputTitleNone: 'Output O = Concat (no W_O)',
    noOutputOperator: '= (no W_O)',
    outputNone:
      'This run has no output projection, as the tutorial’s code stops at A·V: the output is the heads’ concatenation itself. A Transformer layer would add a linear map W_O that mixes the heads’ slices back into d_model features. The cost of attention grows as O(n²·d) with the sentence length n.',
  },
  zh: {
    embedHash: '每个词元变成一个 d_model 维向量：同一个词在任何句子里都是同一个向量。',
    embedStream:
      '每个词元变成一个 d_model 维向量，按顺序从带种子的随机数流中取出，与 NumPy 的 np.random.randn(n, d_model) 相同：第 i 行属于第 i 个位置，而不属于这个词，所以同一个词换个位置就得到别的数字。',
    peOn: '再加上正弦位置编码，让顺序可见——注意力本身不知道位置。',
    peOff: '本次计算不加位置编码（PE 为零，X′ = X）：注意力本身不知道位置。',
    splitOne: (dK) =>
      `本次计算只有一个头：Q、K、V 整个交给它，d_k = ${dK} 列。有 h 个头时，它们会沿特征维度切成 h 份，每个头用自己的权重在自己的子空间里做注意力。这里的权重是随机的、未经训练：图案展示的是机制，不是语义。`,
    splitTitleOne: '只有一个头',
    embeddingOriginStream: (i) =>
      `给定的，不是算出来的：X 的第 ${i} 行，即带种子的随机数流中接下来的 d_model 个数（与 NumPy 的 np.random.randn 顺序相同），所以它属于第 ${i} 个位置，而不属于这个词。`,
    scaleOffTitle: '不缩放（已关闭 ÷√d_k）',
    temperatureOnlyTitle: '除以温度 T',
    scaleOffText:
      '缩放已关闭：分数原样传下去。d_k 个随机项的点积方差约为 d_k：d_k 大时分数差距很大，softmax 输出接近 0 或 1。打开 ÷√d_k，方差就回到 1 左右。',
    maskNoneTitle: '掩码：无',
    maskNoneText:
      '本次计算没有掩码：M 全为 0，每个查询都能看到每个键，分数原样通过。因果掩码会截掉上三角（解码器不能看到未来）；滑动窗口只让每个词看到邻居。',
    concatTitleOne: '拼接多个头（只有一个头）',
    concatOne: '只有一个头，没有什么需要并排拼接：Concat(head₁) 就是 head₁ 本身，n × d_k。',
    outputTitleNone: '输出 O = Concat（没有 W_O）',
    noOutputOperator: '=（没有 W_O）',
    outputNone:
      '本次计算没有输出投影，和教程的代码一样停在 A·V：输出就是各个头拼接的结果。完整的 Transformer 层还会用一个线性变换 W_O 把各个头的特征重新混合回 d_model 维。注意力的计算量随句长 n 按 O(n²·d) 增长。',
  },
};
