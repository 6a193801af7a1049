// Every string the page shows, in 中文 and English. Explanations follow the two tutorials;
// each step's texts are keyed by its key in steps.js STEPS. A view's name (`view.<key>`) and
// hint (`<key>Hint`) are in its descriptor, which views/registry.js adds here (addStrings).
import { NUMBERS } from './i18n-numbers.js';
import { MODES } from './i18n-modes.js';
import { FIGURES } from './i18n-figures.js';
import { LINEAR } from './i18n-linear.js';
import { COST } from './i18n-cost.js';
import { SPARSE_TEXT } from './i18n-sparse.js';
import { THREADS_TEXT } from './engine-threads.js';

const STRINGS = {
  en: {
    title: 'Attention Explorer',
    tagline: 'Type a sentence and watch self-attention compute, step by step, with real numbers.',
    language: 'Language',
    copyLink: 'Copy link',
    playgroundLink: 'Training playground',
    // The heatmap's matrices, by the engine's step names.
    matrixNames: { scores: 'scores', scaled: 'scaled', masked: 'masked', weights: 'weights' },
    copyEmbed: 'Copy embed code',
    export: 'Export',
    sentence: 'Sentence',
    presets: 'Examples',
    tokenization: 'Tokens',
    'tokenization.words': 'words',
    'tokenization.chars': 'characters',
    'tokenization.whitespace': 'whitespace',
    tokens: 'Tokens',
    emptyState: 'Type a sentence above: each word becomes a token that asks, offers and mixes information.',
    // The controls' heading: not "Model", the model menu's name beside it (a screen reader heard two).
    controls: 'Attention settings',
    dModel: 'd_model',
    heads: 'heads',
    seed: 'seed',
    mask: 'mask',
    'mask.none': 'none',
    'mask.causal': 'causal (decoder)',
    'mask.window': 'sliding window',
    window: 'window w',
    scale: 'divide by √d_k',
    temperature: 'temperature',
    positionalEncoding: 'positional encoding',
    init: 'weights',
    'init.scaled': 'scaled (÷√fan-in)',
    'init.randn': 'randn (like NumPy)',
    stepper: 'Steps',
    previous: 'Previous step',
    next: 'Next step',
    play: 'Play',
    pause: 'Pause',
    stepOf: (i, n) => `Step ${i} of ${n}`,
    views: 'Views',
    head: 'Head',
    allHeads: 'all heads',
    headN: (h) => `head ${h + 1}`,
    // An exported figure's subtitle and the compact embed's caption (explorer/caption.js).
    figureRandom: (tokens, d, h, seed, mask) =>
      `${tokens} · random weights, d_model ${d}, ${h} ${h === 1 ? 'head' : 'heads'}, seed ${seed}, mask: ${mask}`,
    // `title`: the model's name as the model menu says it (caption.js), not its link key ("tang").
    figureModel: (tokens, title, layer, d, h) =>
      `${tokens} · ${title}, layer ${layer}, d_model ${d}, ${h} ${h === 1 ? 'head' : 'heads'}`,
    query: 'Query',
    queries: 'queries',
    keys: 'keys',
    shape: 'shape',
    masked: 'masked',
    value: 'value',
    showTable: 'Show as table',
    hideTable: 'Hide table',
    legend: 'Legend',
    tooltipCell: (name, row, col, v) => `${name}[${row}, ${col}] = ${v}`,
    // What a view or the stage shows when it is not what the stage's step and head select.
    viewShowsStep: (k, title, stage) => `This view shows step ${k} (${title}); the stage is at step ${stage}.`,
    // `picked`: the head select's "all heads", which the note quotes: it said "head 1" beside it.
    viewShowsHead: (h, picked) =>
      `With “${picked}” picked, this view shows one head at a time: head ${h + 1}. Pick a head above to see another.`,
    stageShowsHead: (h) => `The stage shows head ${h + 1}; the views below show all heads.`,
    rawScores: 'raw scores QKᵀ',
    scaledScores: 'scaled scores',
    weights: 'weights (softmax)',
    spread: 'Spread of scores, with and without ÷√d_k',
    withScaling: 'with ÷√d_k',
    withoutScaling: 'without',
    dkSlider: 'try d_k',
    saturation: (p) => `largest weight ${p}`,
    engineError: 'The engine could not run this input',
    tooLong: (n, max) => `This text has ${n} characters; the page takes at most ${max}.`,
    truncate: (max) => `Keep the first ${max} characters`,
    tooManyTokens: (n, max) => `This sentence has ${n} tokens; the engine takes at most ${max}.`,
    truncateTokens: (max) => `Keep the first ${max} tokens`,
    linksCapped: (shown, all) => `Showing the ${shown} strongest of ${all} links.`,
    tableTooLarge: (cells) => `Too large for a table (${cells} cells): use the heatmap or the CSV export.`,
    // page-perf: the links of a long sentence drawn as one image
    linksImage: (every) =>
      `Too many tokens to follow one by one: the links are one image, every ${every}th token is labelled; pick a query in the softmax view.`,
    ignoredURL: (list) => `Ignored link values (defaults used instead): ${list}`,
    repeatedURL: (list) => `Keys given more than once in the link (the first value of each is used): ${list}`,
    modelGone:
      'The model handed over from the playground is no longer in this browser: train it again or open its file.',
    modelDamaged: (field, message) =>
      `The model handed over from the playground is in this browser, but its record is damaged (${message}): train it again or open its file.`,
    handoffFailed: (message) =>
      `The model handed over from the playground could not be read (${message}): train it again or open its file.`,
    ignoredAttributes: (list) => `Ignored attribute values (defaults used instead): ${list}`,
    linkTooLong: (length, max) =>
      `This sentence is too long for a link (it would make one of ${length.toLocaleString('en')} characters; links keep to ${max.toLocaleString('en')} so that every server opens them). The address bar and Copy link / Copy embed code keep every other setting, with the example sentence.`,
    loading: 'Loading the engine…',
    startupError: (message) => `Attention Explorer could not start: ${message}`,
    // What the count counts: this attention's projections, not a trained model's all.
    // parts: the matrices counted ('W_Q, W_K, W_V' in tutorial mode), biases: whether theirs are.
    summary: (n, h, dk, params, parts = null, biases = false) =>
      `${n} ${n === 1 ? 'token' : 'tokens'} · ${h} ${h === 1 ? 'head' : 'heads'} of d_k = ${dk} · ${params} parameters` +
      (parts ? ` in this attention (${parts}${biases ? ' and their biases' : ''})` : ''),
    cost: (attn, proj) => `attention O(n²·d): ${attn} FLOPs · projections O(n·d²): ${proj} FLOPs`,
    // The threads of the worker's engine, which computes long traces (engine-threads.js).
    engineThreads: (n, reason) => `engine: ${THREADS_TEXT.en(n, reason)}`,
    steps: {
      embed: {
        title: 'Tokens → embeddings',
        short: 'Embed',
        text: 'Each token becomes a vector of d_model numbers: the same word gets the same vector in every sentence. A sinusoidal positional encoding is added so that order is visible — attention itself has no notion of position.',
      },
      project: {
        title: 'Q, K, V projections',
        short: 'Q K V',
        text: 'Every token plays three roles. Its query says what it is looking for, its key is the index others match against, its value is the content it hands over — like a search: a query is matched against book titles (keys) and the matching books (values) are read.',
      },
      split: {
        title: 'Split into heads',
        short: 'Heads',
        text: 'Q, K and V are cut along the feature axis into h slices of d_k = d_model / h. Each head attends in its own smaller subspace with its own weights, so heads can form different patterns. Here the weights are random and untrained: the patterns show the mechanism, not meaning. A trained model would learn which relations each head tracks.',
      },
      scores: {
        title: 'Scores QKᵀ',
        short: 'QKᵀ',
        text: 'Each query row is compared with every key by a dot product: entry (i, j) says how well token i’s question matches token j’s index. All pairs are computed at once — no token has to wait for the one before it.',
      },
      scale: {
        title: 'Scale by √d_k',
        short: '÷√d_k',
        text: 'A dot product of d_k random terms has variance d_k: for large d_k the scores spread far apart, softmax saturates to 0 and 1 and its gradients vanish. Dividing by √d_k brings the variance back to about 1. Switch it off to see the saturation.',
      },
      mask: {
        title: 'Mask',
        short: 'Mask',
        text: 'Masked entries become −∞ so that softmax gives them exactly 0. A causal mask keeps a decoder from seeing the future: the upper triangle is cut. A sliding window lets each token see only its neighbours, as in Longformer.',
      },
      softmax: {
        title: 'Softmax',
        short: 'Softmax',
        text: 'Each row is turned into weights that are positive and sum to 1. Softmax widens gaps: scores 5 and 6 differ by 1, yet e⁶ is 2.7 times e⁵, so the weights become 27% and 73%. These weights are random and untrained: which token a word attends to depends on the seed, not on meaning; a trained model would learn its weights.',
      },
      weighted: {
        title: 'Weighted sum A·V',
        short: 'A·V',
        text: 'Each token’s new vector is the weighted average of all value vectors, using its row of weights: the token now carries information from the tokens it attended to.',
      },
      concat: {
        title: 'Concatenate heads',
        short: 'Concat',
        text: 'The h head outputs, each n × d_k, are placed side by side into one n × (h·d_k) matrix: every head contributes its own slice of features.',
      },
      output: {
        title: 'Output projection W_O',
        short: 'W_O',
        text: 'A final linear map mixes the heads’ slices back into d_model features. The cost of attention grows as O(n²·d) with the sentence length n; the projections as O(n·d²).',
      },
    },
  },
  zh: {
    title: '注意力探索器',
    tagline: '输入一句话，逐步观看自注意力如何计算——每个数字都是真实算出来的。',
    language: '语言',
    copyLink: '复制链接',
    playgroundLink: '训练场',
    matrixNames: { scores: '分数', scaled: '缩放后分数', masked: '加掩码后的分数', weights: '权重' },
    copyEmbed: '复制嵌入代码',
    export: '导出',
    sentence: '句子',
    presets: '示例',
    tokenization: '分词',
    'tokenization.words': '词',
    'tokenization.chars': '字',
    'tokenization.whitespace': '空格',
    tokens: '词元',
    emptyState: '在上面输入一句话：每个词都会成为一个词元，去提问、提供索引、融合信息。',
    controls: '注意力设置',
    dModel: 'd_model',
    heads: '头数',
    seed: '随机种子',
    mask: '掩码',
    'mask.none': '无',
    'mask.causal': '因果（解码器）',
    'mask.window': '滑动窗口',
    window: '窗口 w',
    scale: '除以 √d_k',
    temperature: '温度',
    positionalEncoding: '位置编码',
    init: '权重',
    'init.scaled': '缩放（÷√fan-in）',
    'init.randn': 'randn（与 NumPy 相同）',
    stepper: '步骤',
    previous: '上一步',
    next: '下一步',
    play: '播放',
    pause: '暂停',
    stepOf: (i, n) => `第 ${i} 步，共 ${n} 步`,
    views: '视图',
    head: '注意力头',
    allHeads: '全部头',
    headN: (h) => `头 ${h + 1}`,
    figureRandom: (tokens, d, h, seed, mask) =>
      `${tokens} · 随机权重，d_model ${d}，${h} 个头，随机种子 ${seed}，掩码：${mask}`,
    figureModel: (tokens, title, layer, d, h) => `${tokens} · ${title}，第 ${layer} 层，d_model ${d}，${h} 个头`,
    query: '查询',
    queries: '查询',
    keys: '键',
    shape: '形状',
    masked: '已屏蔽',
    value: '数值',
    showTable: '以表格显示',
    hideTable: '隐藏表格',
    legend: '图例',
    tooltipCell: (name, row, col, v) => `${name}[${row}, ${col}] = ${v}`,
    viewShowsStep: (k, title, stage) => `此视图显示第 ${k} 步（${title}）；舞台在第 ${stage} 步。`,
    viewShowsHead: (h, picked) => `选择“${picked}”时，此视图一次只显示一个头：头 ${h + 1}。可在上方选择其他头。`,
    stageShowsHead: (h) => `舞台显示头 ${h + 1}；下方视图显示全部头。`,
    rawScores: '原始分数 QKᵀ',
    scaledScores: '缩放后分数',
    weights: '权重（softmax）',
    spread: '分数的分布：有无 ÷√d_k 对比',
    withScaling: '有 ÷√d_k',
    withoutScaling: '无缩放',
    dkSlider: '试试 d_k',
    saturation: (p) => `最大权重 ${p}`,
    engineError: '引擎无法处理这个输入',
    tooLong: (n, max) => `这段文字有 ${n} 个字符，本页最多接受 ${max} 个。`,
    truncate: (max) => `只保留前 ${max} 个字符`,
    tooManyTokens: (n, max) => `这句话有 ${n} 个词元，引擎最多接受 ${max} 个。`,
    truncateTokens: (max) => `只保留前 ${max} 个词元`,
    linksCapped: (shown, all) => `只显示最强的 ${shown} 条连线（共 ${all} 条）。`,
    tableTooLarge: (cells) => `表格太大（${cells} 个格子）：请使用热力图或导出 CSV。`,
    // page-perf: the links of a long sentence drawn as one image
    linksImage: (every) =>
      `词元太多，无法逐个查看：连线画成一张图，每 ${every} 个词元标注一次；可在 softmax 视图中选择查询。`,
    ignoredURL: (list) => `链接中的这些值无效，已改用默认值：${list}`,
    repeatedURL: (list) => `链接中这些键出现了不止一次（每个键只用第一个值）：${list}`,
    modelGone: '训练场交来的模型已不在此浏览器中：请重新训练，或打开它的模型文件。',
    // The detail is in English: here the field alone names what is damaged.
    modelDamaged: (field, _detail) =>
      `训练场交来的模型还在此浏览器中，但它的记录已损坏（${field} 不对）：请重新训练，或打开它的模型文件。`,
    handoffFailed: (message) => `无法读取训练场交来的模型（${message}）：请重新训练，或打开它的模型文件。`,
    ignoredAttributes: (list) => `这些属性值无效，已改用默认值：${list}`,
    linkTooLong: (length, max) =>
      `这句话太长，放不进链接（链接会有 ${length.toLocaleString('zh-CN')} 个字符；为了让任何服务器都能打开，链接最多 ${max.toLocaleString('zh-CN')} 个字符）。地址栏和“复制链接”“复制嵌入代码”保留其他所有设置，句子换成示例句。`,
    loading: '正在加载引擎…',
    startupError: (message) => `注意力探索器无法启动：${message}`,
    summary: (n, h, dk, params, parts = null, biases = false) =>
      `${n} 个词元 · ${h} 个头，每头 d_k = ${dk} · ` +
      (parts
        ? `这一注意力层的参数 ${params} 个（${parts.replaceAll(', ', '、')}${biases ? ' 及其偏置' : ''}）`
        : `参数 ${params} 个`),
    cost: (attn, proj) => `注意力 O(n²·d)：${attn} 次浮点运算 · 投影 O(n·d²)：${proj} 次`,
    engineThreads: (n, reason) => `引擎：${THREADS_TEXT.zh(n, reason)}`,
    steps: {
      embed: {
        title: '词元 → 词向量',
        short: '嵌入',
        text: '每个词元变成一个 d_model 维向量：同一个词在任何句子里都是同一个向量。再加上正弦位置编码，让顺序可见——注意力本身不知道位置。',
      },
      project: {
        title: 'Q、K、V 投影',
        short: 'QKV',
        text: '每个词同时扮演三种角色：查询（Query）表示“我在找什么”，键（Key）是被匹配的索引，值（Value）是真正被提取的内容——就像拿着“人工智能”的纸条去图书馆，对照书名（键），读相关的书（值）。',
      },
      split: {
        title: '拆分成多个头',
        short: '多头',
        text: 'Q、K、V 沿特征维度切成 h 份，每份 d_k = d_model / h。每个头用自己的权重在自己的子空间里做注意力，所以不同的头会形成不同的模式。这里的权重是随机的、未经训练：这些模式展示的是机制，不是语义。训练过的模型才会学到每个头关注什么关系。',
      },
      scores: {
        title: '分数 QKᵀ',
        short: 'QKᵀ',
        text: '每个查询行与所有键做点积：第 (i, j) 个数表示词 i 的问题与词 j 的索引有多匹配。所有词对一次性并行算出，不必像 RNN 那样逐词等待。',
      },
      scale: {
        title: '除以 √d_k',
        short: '÷√d_k',
        text: 'd_k 个随机项的点积方差约为 d_k：d_k 大时分数差距很大，softmax 输出接近 0 或 1，梯度变得极小。除以 √d_k 让方差回到 1 左右。关掉缩放就能看到饱和。',
      },
      mask: {
        title: '掩码',
        short: '掩码',
        text: '被屏蔽的位置设为 −∞，softmax 之后恰好为 0。因果掩码让解码器看不到未来：上三角被截断，未来位置的连线消失。滑动窗口只让每个词看到邻居，如 Longformer。',
      },
      softmax: {
        title: 'Softmax',
        short: 'Softmax',
        text: '每一行变成和为 1 的正权重。softmax 会拉大差距：分数 5 和 6 只差 1，但 e⁶ 是 e⁵ 的 2.7 倍，权重变成 27% 和 73%。这里的权重是随机的、未经训练：一个词关注哪个词取决于随机种子，而不是语义；训练过的模型才会学到有意义的权重。',
      },
      weighted: {
        title: '加权求和 A·V',
        short: 'A·V',
        text: '每个词的新向量是所有值向量按它那一行权重的加权平均：这个词融合了它所关注的词的信息。',
      },
      concat: {
        title: '拼接多个头',
        short: '拼接',
        text: 'h 个头的输出（每个 n × d_k）并排拼成一个 n × (h·d_k) 的矩阵：每个头贡献自己的一段特征。',
      },
      output: {
        title: '输出投影 W_O',
        short: 'W_O',
        text: '最后一个线性变换把各个头的特征重新混合回 d_model 维。注意力的计算量随句长 n 按 O(n²·d) 增长，投影按 O(n·d²) 增长。',
      },
    },
  },
};

// Honesty about what the page shows, and tutorial mode (one block, merged into STRINGS).
const HONESTY = {
  en: {
    untrainedNote:
      'These weights are random and untrained: the links show how attention mixes tokens, not what the words mean. Change the seed and they change; a trained model would learn meaningful patterns.',
    tutorialMode: 'tutorial mode',
    tutorialNote:
      'Tutorial mode: the NumPy example of the tutorial “自注意力机制完全指南：让AI学会“察言观色”的终极秘籍” (section 代码实现, “简化版实现（纯 NumPy）”) — np.random.seed(42); X = np.random.randn(n, 8); W_q, W_k, W_v = np.random.randn(8, 4); one head, no positional encoding, no W_O. With 我 爱 吃 火锅 these are NumPy’s exact numbers. The attention matrix printed in the tutorial is illustrative, not computed by its code: trust these.',
  },
  zh: {
    untrainedNote:
      '这些权重是随机的、未经训练：连线展示注意力如何融合词元，而不是词的含义。换一个随机种子，连线就会变；训练过的模型才会学到有意义的模式。',
    tutorialMode: '教程模式',
    tutorialNote:
      '教程模式：教程《自注意力机制完全指南：让AI学会“察言观色”的终极秘籍》“代码实现”一节“简化版实现（纯 NumPy）”的示例——np.random.seed(42)；X = np.random.randn(n, 8)；W_q、W_k、W_v = np.random.randn(8, 4)；一个头，无位置编码，无 W_O。输入“我 爱 吃 火锅”时，这里的数字与 NumPy 完全相同。教程里打印的注意力矩阵只是示意，并不是那段代码算出来的：以这里为准。',
  },
};
for (const lang of Object.keys(HONESTY)) Object.assign(STRINGS[lang], HONESTY[lang]);
for (const lang of Object.keys(NUMBERS)) Object.assign(STRINGS[lang], NUMBERS[lang]);
for (const lang of Object.keys(MODES)) Object.assign(STRINGS[lang], MODES[lang]);
for (const lang of Object.keys(FIGURES)) Object.assign(STRINGS[lang], FIGURES[lang]);
for (const lang of Object.keys(LINEAR)) Object.assign(STRINGS[lang], LINEAR[lang]);
for (const lang of Object.keys(COST)) Object.assign(STRINGS[lang], COST[lang]);
for (const lang of Object.keys(SPARSE_TEXT)) Object.assign(STRINGS[lang], SPARSE_TEXT[lang]);

export const LANGUAGES = ['en', 'zh'];

/** The browser's preferred language if we have it, English otherwise. */
export function defaultLanguage(languages = globalThis.navigator?.languages ?? []) {
  for (const tag of languages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return 'en';
}

/**
 * Adds strings kept beside what they name (a view's name and hint in its descriptor,
 * views/registry.js): `block` is { en: {...}, zh: {...} } with every language and no key the
 * tables already hold, so that a module cannot replace another's string by accident.
 */
export function addStrings(block, source) {
  for (const lang of LANGUAGES) {
    if (!Object.hasOwn(block, lang)) throw new Error(`${source}: no ${lang} strings`);
    for (const key of Object.keys(block[lang])) {
      if (Object.hasOwn(STRINGS[lang], key)) throw new Error(`${source}: the string ${key} exists already`);
    }
  }
  for (const lang of LANGUAGES) Object.assign(STRINGS[lang], block[lang]);
}

/** The strings of a language; English for anything else (own keys only: not `constructor`). */
export function strings(lang) {
  return Object.hasOwn(STRINGS, lang) ? STRINGS[lang] : STRINGS.en;
}

/** Both languages at once, for text shown before the page knows which one to use. */
export function bilingual(key, ...args) {
  return LANGUAGES.map((lang) => STRINGS[lang][key](...args)).join(' · ');
}
