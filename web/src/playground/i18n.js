// Every string the playground shows, in 中文 and English (the explorer's table is ../i18n.js).
import { THREADS_TEXT } from '../engine-threads.js';
import { HF_EXPORT_TEXT } from '../i18n-hf-export.js';

const STRINGS = {
  en: {
    title: 'Attention Playground',
    tagline: 'Train a small transformer in your browser and watch its attention heads form.',
    explorerLink: 'Open the explorer',
    copyLink: 'Copy link',
    linkCopied: 'Link copied',
    setup: 'Task and model',
    task: 'task',
    'task.copy': 'copy',
    'task.reverse': 'reverse',
    'task.sort': 'sort',
    'task.induction': 'induction (repeat a pattern)',
    'task.modular': 'modular addition',
    'task.text': 'your text',
    taskHelp: {
      text: 'A language model learns to continue your text, one token at a time: pick a ready text, paste your own or open a .txt file.',
      copy: 'The model reads 8 digits, then “|”, and must write them again.',
      reverse: 'The model reads 8 digits, then “|”, and must write them backwards.',
      sort: 'The model reads 8 digits, then “|”, and must write them in ascending order.',
      induction:
        'Random tokens, then a segment and its repeat: after the repeat starts, the model must continue it (an induction head).',
      modular: 'a + b = ? with the answer (a + b) mod 13.',
    },
    layers: 'layers',
    heads: 'heads',
    dModel: 'd_model',
    scale: 'divide by √d_k',
    attentionOnly: 'attention only (no FFN, no LayerNorm)',
    learningRate: 'learning rate',
    batchSize: 'batch',
    seed: 'seed',
    preset: 'Reset to the preset',
    training: 'Training',
    play: 'Train',
    pause: 'Pause',
    step: 'One step',
    reset: 'Reset',
    stepCount: (n) => `step ${n}`,
    speed: (steps, tokens) => `${steps} steps/s · ${tokens} tokens/s`,
    // The engine's threads (../engine-threads.js): how many, or why one.
    threads: THREADS_TEXT.en,
    parameters: (n) => `${n} parameters`,
    loss: 'loss (nats)',
    accuracy: 'accuracy',
    trainAccuracy: 'training: answer tokens right',
    heldOut: 'held-out: whole answers right',
    reached: (n) => `reached 95% at step ${n}`,
    inductionCurves:
      'What you see: held-out whole answers stay near 0% while the induction heads form (their score, below, jumps from about 0.1 to 0.9 around step 300–400), then climb to 100% by step 800. Training accuracy counts answer tokens; a whole answer needs all of its 4–9 tokens right, so it rises later. Every symbol of an example is different, so each answer is the token that followed its one earlier occurrence.',
    stopHere: 'Stop training here',
    curves: 'Loss and accuracy',
    heatmaps: 'Attention of every layer and head',
    heatmapsHelp:
      'Rows: the token that asks (query); columns: the tokens it reads (keys). Dark = high weight. Point at a cell, or focus a map and use the arrow keys, to read its weight.',
    layerHead: (l, h) => `layer ${l + 1}, head ${h + 1}`,
    heatmapsPaged: (count, max) => `This model has ${count} heads: ${max} are drawn at a time.`,
    pagerLayer: 'layer',
    previousMaps: 'Previous',
    nextMaps: 'Next',
    heatmapPage: ({ layers: [l0, l1], heads: [h0, h1] }, L, H) =>
      h1 - h0 + 1 < H
        ? `layer ${l0 + 1} of ${L}, heads ${h0 + 1}–${h1 + 1} of ${H}`
        : l0 === l1
          ? `layer ${l0 + 1} of ${L}`
          : `layers ${l0 + 1}–${l1 + 1} of ${L}`,
    snapshot: 'snapshot',
    snapshotAt: (step) => `at step ${step}`,
    live: 'live',
    tryTitle: 'Try your own example',
    example: 'input',
    run: 'Answer',
    modelSays: 'the model answers',
    expected: 'right answer',
    correct: 'right',
    wrong: 'wrong',
    exampleEmpty: () => 'Type some symbols, separated by spaces.',
    exampleSymbol: (piece, max) => `“${piece}” is not a symbol of this task: use whole numbers from 0 to ${max}.`,
    exampleCount: (want, got) => `This task reads exactly ${want} symbols; you typed ${got}.`,
    exampleRange: (min, max, got) => `Type ${min} to ${max} symbols; you typed ${got}.`,
    experiment: 'The √d_k experiment',
    experimentHelp:
      'Three models that differ only in how the attention scores are scaled train side by side on the same batches: one divides q·kᵀ by √d_k, one does not, and a control does not either but starts with W_Q and W_K drawn d_k^(−1/4) as large, so that at step 0 it computes exactly what the scaled model does. What still differs later comes from training, not from the start.',
    experimentRun: 'Run this seed',
    experimentStop: 'Stop',
    dkSetting: 'setting',
    dkSettingName: {
      realistic: 'the playground’s width (2 × 4 heads, d_k 64)',
      textbook: 'the textbook’s (1 head, d_k 128)',
    },
    dkSettingHelp: (c, steps) =>
      `Sort ${c.length} symbols of ${c.alphabet}; ${c.layers} ${c.layers === 1 ? 'layer' : 'layers'} of ${c.heads} ${c.heads === 1 ? 'head' : 'heads'} of width d_k = ${c.dK} (d_model ${c.dModel}); weights drawn with std ${c.initStd} = 1/√d_model, so q and k start with components of variance about 1; AdamW at learning rate ${c.learningRate}, batch ${c.batchSize}; ${steps} steps.`,
    dkArm: { scaled: '÷√d_k', unscaled: 'no scaling', control: 'no scaling, small W_Q, W_K' },
    entropy: 'softmax entropy (nats)',
    gradient: '‖∂L/∂(softmax input)‖',
    dkLinesMedian: 'Lines: the median of the committed seeds.',
    dkLinesLive: (seed, step, steps) => `Lines: your run, seed ${seed}, step ${step} of ${steps}.`,
    dkBands: (seeds) =>
      `Shaded: the range over seeds ${seeds[0]}–${seeds.at(-1)}, trained by bench/train/dk-runs.mjs with this engine.`,
    dkTable: 'Held-out exact match after the run (500 examples)',
    dkCommitted: (seeds) => `seeds ${seeds[0]}–${seeds.at(-1)}: median (range)`,
    dkYourRun: (seed) => `your run, seed ${seed}`,
    dkSays: (f, s) => {
      const pct = (r) => `${Math.round(r.median * 100)}% (${Math.round(r.min * 100)}–${Math.round(r.max * 100)}%)`;
      const n = (v) => (v >= 0.01 ? v.toFixed(2) : v.toExponential(1));
      const ratio = s.scaled.gradient.median / s.unscaled.gradient.median;
      return [
        f.faster
          ? `Dividing by √d_k wins for every seed: ${pct(s.scaled.exactMatch)} of held-out answers right against ${pct(s.unscaled.exactMatch)} without it.`
          : `Over these seeds dividing by √d_k does not win every time: ${pct(s.scaled.exactMatch)} of held-out answers right against ${pct(s.unscaled.exactMatch)} without it.`,
        f.saturated
          ? `Without it the softmax saturates at once: by step ${s.unscaled.earlyStep} its mean entropy is ${n(s.unscaled.earlyEntropy.median)} nats (${n(s.scaled.earlyEntropy.median)} scaled), every row close to one-hot.`
          : `Without it the softmax is sharper, but not saturated: mean entropy ${n(s.unscaled.earlyEntropy.median)} nats at step ${s.unscaled.earlyStep} against ${n(s.scaled.earlyEntropy.median)} scaled, ${n(s.unscaled.entropy.median)} against ${n(s.scaled.entropy.median)} at the end.`,
        f.vanished
          ? `And the gradient reaching the softmax's input vanishes: ${n(s.unscaled.gradient.median)} against ${n(s.scaled.gradient.median)} (geometric means over the run), about ${Math.round(ratio).toLocaleString('en')} times smaller — the tutorials' argument.`
          : `Yet the gradient reaching the softmax's input is of the same order in both (${n(s.unscaled.gradient.median)} unscaled, ${n(s.scaled.gradient.median)} scaled, geometric means over the run): vanishing gradients do not explain the gap here.`,
        f.control === 'unscaled'
          ? `The control starts as the scaled model's very function and still ends like the unscaled one (${pct(s.control.exactMatch)}): what hurts is training without the division — AdamW's steps are the same size at any scale, so they move unscaled scores faster and sharpen the softmax — not where the model starts.`
          : `The control, which starts as the scaled model's very function, ends like the scaled one (${pct(s.control.exactMatch)}): what hurts the unscaled model is where it starts, its too-large first scores.`,
      ];
    },
    headScores: 'Induction and previous-token scores per head',
    headScoresHelp:
      'Induction score: weight from a repeated token to the token after its earlier occurrence; previous-token score: weight to the token just before. They rise suddenly when the heads form (a phase change, Olsson et al. 2022).',
    induction: 'induction',
    previousToken: 'previous token',
    textTitle: 'Your text',
    textSource: 'text',
    'source.poems': 'Tang poems (Chinese)',
    'source.paragraph': 'an English paragraph',
    'source.names': 'repeated names (induction)',
    'source.own': 'your own text',
    textLabel: 'the text to learn',
    textPlaceholder: 'Paste a text here, or open a .txt file (UTF-8, any language).',
    openText: 'Open a .txt file',
    level: 'level',
    levelAuto: (proposed) => `auto (${proposed})`,
    'level.character': 'character',
    'level.word': 'word',
    proposal: {
      chinese: 'Character level is proposed: the text is Chinese.',
      unspaced: 'Character level is proposed: the text has long runs without a space, which are not words.',
      short: 'Character level is proposed: the text is short (a word level sees most words once or twice).',
      long: 'Word level is proposed: the text is long enough for a vocabulary of words.',
    },
    trainText: 'Train on this text',
    building: (percent) => `Building the vocabulary… ${percent}%`,
    textSummary: (tokens, vocabulary, parameters, seconds) =>
      `${tokens} tokens · vocabulary of ${vocabulary} · ${parameters} parameters · about ${seconds} s per 1,000 steps on this machine`,
    // Before training: counted here from the text (word level: about, the engine splits).
    textPreview: (tokens, vocabulary, parameters, exact) =>
      `${exact ? '' : 'about '}${tokens} tokens · vocabulary of ${exact ? '' : 'about '}${vocabulary} · ${parameters} parameters (not trained yet)`,
    textSplit: (train, held, context) =>
      `Training on ${train} tokens; the last ${held} are held out. Context: ${context} tokens.`,
    textUnknown: (count) => `${count} tokens are read as <unk>.`,
    urlNote: (max) =>
      `The link keeps these settings; it keeps your own text only when it has at most ${max} characters (a longer text stays on this computer).`,
    textMissing: 'The link did not carry the text (it was long): paste it again.',
    pastedName: 'The pasted text',
    textHeld: (name, megabytes) =>
      `${name} (${megabytes} MB) is kept as it is, not shown here: a text this long would freeze the box. Typing here replaces it.`,
    textLimits: (mib, vocabulary) =>
      `Limits: ${mib} MiB of UTF-8 text, a vocabulary of ${vocabulary} ids; no binary files.`,
    sampleTitle: 'Sample from a fixed prompt',
    sampleHelp: 'Every few seconds the model continues the same prompt (same seed): watch it learn to write.',
    sampleAt: (step) => `at step ${step}`,
    // A head's role on the excerpt (head_labels.js), after its heatmap's name.
    roles: {
      previous: 'previous token',
      previousLine: 'previous line',
      first: 'first token',
      self: 'itself',
      broad: 'broad',
    },
    trainLoss: 'training loss',
    heldOutLoss: 'held-out loss',
    unigram: 'unigram of the text',
    bigram: 'bigram of the text',
    nextTokenRight: 'training: next token right',
    memorising:
      'The held-out loss has risen above the unigram line while the training loss still falls: the model is memorising this text (the sample recites it) instead of learning what carries over to new text. A longer text generalises.',
    heldOutLine: (loss, unigram, bigram) =>
      `held-out loss ${loss} nats per token (unigram ${unigram}, bigram ${bigram})`,
    fileTooLarge: (name, megabytes, mib, bytes) =>
      `${name} has ${megabytes} MB; the limit is ${mib} MiB (${bytes} bytes): open a part of it.`,
    // The engine's refusals of a text (own-text.js textRefusal reads their kind and numbers).
    textRefused: (kind, v) =>
      ({
        empty: () => `The text is empty: give at least ${v[0]} tokens of UTF-8 text.`,
        utf8: () => `The file is not valid UTF-8 (at byte ${v[0]}): save it as UTF-8 text and open it again.`,
        nul: () => `The file has a NUL byte at byte ${v[0]}: it looks like a binary file, not text.`,
        binary: () =>
          `The text has ${v[0]} control characters among ${v[1]} (at most ${v[2]}%): it looks like a binary file, not text.`,
        one: () => `The text is one symbol (“${v[0]}”) repeated ${v[1]} times: a model learns nothing from it.`,
        short: () => `The text has ${v[0]} tokens; at least ${v[1]} are needed.`,
        large: () => `The text has ${v[0]} bytes; the limit is ${v[1]} MiB: train on a part of it.`,
        // v[2]: 'characters' or 'words', the level in use; character level is advice only for words.
        vocabulary: () =>
          v[2] === 'words'
            ? `The text has ${v[0]} distinct tokens; the vocabulary holds at most ${v[1]} ids: choose character level or a shorter text.`
            : `The text has ${v[0]} distinct characters; the vocabulary holds at most ${v[1]} ids: give a shorter text.`,
        word: () =>
          `The text has a word of ${v[0]} bytes (“${v[1]}…”); a word at word level is at most ${v[2]} bytes: choose character level.`,
        // Typed or pasted text: positions in characters, from 1.
        surrogate: () =>
          `The text has an unpaired surrogate at character ${v[0]} (half of a UTF-16 pair, not a character): delete it and try again.`,
        nulText: () => `The text has a NUL character (U+0000) at character ${v[0]}: delete it and try again.`,
        pasteTooLarge: () =>
          `The pasted text has ${v[0]} MB; the limit is ${v[1]} MiB (${v[2]} bytes): paste a part of it. Nothing was pasted.`,
        context: () => `The training text has ${v[0]} tokens; this model needs at least ${v[1]}.`,
        spaces: () => `The text has long runs without a space: choose character level.`,
      })[kind](),
    model: 'Model file',
    download: 'Download the model',
    load: 'Load a model file',
    openExplorer: 'Open in the explorer',
    loaded: (name) => `Loaded ${name}: a trained model (it cannot train further here).`,
    ignoredURL: (keys) => `Ignored link values: ${keys}.`,
    repeatedURL: (keys) => `Keys given more than once in the link (the first value of each is used): ${keys}.`,
    // What failed, by the worker's request; the message is the engine's (no "Error: " of its own).
    failed: {
      configure: (message) => `This model could not be set up: ${message}`,
      text: (message) => `This text cannot be trained on: ${message}`,
      file: (message) => `This file could not be read: ${message}`,
      load: (message) => `This model file could not be opened: ${message}`,
      play: (message) => `Training stopped: ${message}`,
      step: (message) => `Training stopped: ${message}`,
      example: (message) => `The example could not be answered: ${message}`,
      save: (message) => `The model could not be saved: ${message}`,
      exportHf: (message) => `The export failed: ${message}`,
      experiment: (message) => `The experiment stopped: ${message}`,
      worker: (message) => `The training worker stopped: ${message}`,
      other: (message) => `Something went wrong: ${message}`,
    },
    handoffFailed: (message) => `The model could not be handed to the explorer: ${message}`,
    popupBlocked:
      'The browser did not open the explorer’s tab (pop-ups blocked?): allow pop-ups for this page, or download the model and open it in the explorer.',
  },
  zh: {
    title: '注意力训练场',
    tagline: '在浏览器里训练一个小型 Transformer，看着它的注意力头逐渐成形。',
    explorerLink: '打开注意力探索器',
    copyLink: '复制链接',
    linkCopied: '链接已复制',
    setup: '任务与模型',
    task: '任务',
    'task.copy': '复制',
    'task.reverse': '倒序',
    'task.sort': '排序',
    'task.induction': '归纳（重复一个片段）',
    'task.modular': '模加法',
    'task.text': '你的文本',
    taskHelp: {
      text: '一个语言模型学着续写你的文本，每次一个词元：选一篇现成的文本，粘贴你自己的，或打开一个 .txt 文件。',
      copy: '模型读入 8 个数字和“|”，然后要把它们原样写出。',
      reverse: '模型读入 8 个数字和“|”，然后要把它们倒过来写出。',
      sort: '模型读入 8 个数字和“|”，然后要按从小到大的顺序写出。',
      induction: '先是随机的词元，然后是一个片段和它的重复：重复开始后，模型要把它接着写下去（归纳头）。',
      modular: 'a + b = ?，答案是 (a + b) mod 13。',
    },
    layers: '层数',
    heads: '头数',
    dModel: 'd_model',
    scale: '除以 √d_k',
    attentionOnly: '只有注意力（没有前馈网络和 LayerNorm）',
    learningRate: '学习率',
    batchSize: '批大小',
    seed: '随机种子',
    preset: '恢复预设',
    training: '训练',
    play: '训练',
    pause: '暂停',
    step: '单步',
    reset: '重置',
    stepCount: (n) => `第 ${n} 步`,
    speed: (steps, tokens) => `每秒 ${steps} 步 · 每秒 ${tokens} 个词元`,
    threads: THREADS_TEXT.zh,
    parameters: (n) => `${n} 个参数`,
    loss: '损失（奈特）',
    accuracy: '准确率',
    trainAccuracy: '训练：答对的答案词元',
    heldOut: '留出集：整个答案全对',
    reached: (n) => `第 ${n} 步达到 95%`,
    inductionCurves:
      '你看到的是：归纳头形成之前（下方的分数在第 300–400 步左右从约 0.1 跳到 0.9），留出集的整个答案几乎全错；之后到第 800 步左右升到 100%。训练准确率按答案词元计；整个答案要 4–9 个词元全对，所以上升得更晚。一个例子里的符号各不相同，因此每个答案就是它唯一一次先前出现之后的那个词元。',
    stopHere: '在此停止训练',
    curves: '损失与准确率',
    heatmaps: '每一层、每个头的注意力',
    heatmapsHelp:
      '行：提问的词元（查询）；列：它读取的词元（键）。颜色越深，权重越大。指向一个格子，或聚焦一张图后用方向键，可读出它的权重。',
    layerHead: (l, h) => `第 ${l + 1} 层，第 ${h + 1} 个头`,
    heatmapsPaged: (count, max) => `这个模型有 ${count} 个头：每次画 ${max} 个。`,
    pagerLayer: '层',
    previousMaps: '上一页',
    nextMaps: '下一页',
    heatmapPage: ({ layers: [l0, l1], heads: [h0, h1] }, L, H) =>
      h1 - h0 + 1 < H
        ? `第 ${l0 + 1} 层（共 ${L} 层），第 ${h0 + 1}–${h1 + 1} 个头（共 ${H} 个）`
        : l0 === l1
          ? `第 ${l0 + 1} 层（共 ${L} 层）`
          : `第 ${l0 + 1}–${l1 + 1} 层（共 ${L} 层）`,
    snapshot: '快照',
    snapshotAt: (step) => `第 ${step} 步时`,
    live: '实时',
    tryTitle: '试试你自己的例子',
    example: '输入',
    run: '作答',
    modelSays: '模型的答案',
    expected: '正确答案',
    correct: '正确',
    wrong: '错误',
    exampleEmpty: () => '请输入一些符号，用空格分开。',
    exampleSymbol: (piece, max) => `“${piece}”不是这个任务的符号：请用 0 到 ${max} 的整数。`,
    exampleCount: (want, got) => `这个任务正好读入 ${want} 个符号；你输入了 ${got} 个。`,
    exampleRange: (min, max, got) => `请输入 ${min} 到 ${max} 个符号；你输入了 ${got} 个。`,
    experiment: '√d_k 实验',
    experimentHelp:
      '三个模型只在注意力分数的缩放上不同，用同样的批次并排训练：一个把 q·kᵀ 除以 √d_k，一个不除；对照组也不除，但 W_Q 和 W_K 的初始值缩小为 d_k^(−1/4) 倍，所以在第 0 步它算的与缩放的模型完全相同。之后仍有的差别来自训练，而不是起点。',
    experimentRun: '运行这个种子',
    experimentStop: '停止',
    dkSetting: '设置',
    dkSettingName: {
      realistic: '练习场的宽度（2 层 × 4 个头，d_k 64）',
      textbook: '教科书的设置（1 个头，d_k 128）',
    },
    dkSettingHelp: (c, steps) =>
      `排序：从 ${c.alphabet} 个符号中取 ${c.length} 个；${c.layers} 层，每层 ${c.heads} 个头，每个头宽 d_k = ${c.dK}（d_model ${c.dModel}）；权重的标准差为 ${c.initStd} = 1/√d_model，所以 q 和 k 开始时各分量的方差约为 1；AdamW，学习率 ${c.learningRate}，批大小 ${c.batchSize}；训练 ${steps} 步。`,
    dkArm: { scaled: '÷√d_k', unscaled: '不缩放', control: '不缩放，W_Q、W_K 较小' },
    entropy: 'softmax 熵（奈特）',
    gradient: '‖∂L/∂(softmax 输入)‖',
    dkLinesMedian: '曲线：已提交的各个种子的中位数。',
    dkLinesLive: (seed, step, steps) => `曲线：你的运行，种子 ${seed}，第 ${step} 步，共 ${steps} 步。`,
    dkBands: (seeds) => `阴影：种子 ${seeds[0]}–${seeds.at(-1)} 的范围，由本仓库的基准脚本用这个引擎训练并提交。`,
    dkTable: '训练结束后留出样本的完全正确率（500 个样本）',
    dkCommitted: (seeds) => `种子 ${seeds[0]}–${seeds.at(-1)}：中位数（范围）`,
    dkYourRun: (seed) => `你的运行，种子 ${seed}`,
    dkSays: (f, s) => {
      const pct = (r) => `${Math.round(r.median * 100)}%（${Math.round(r.min * 100)}–${Math.round(r.max * 100)}%）`;
      const n = (v) => (v >= 0.01 ? v.toFixed(2) : v.toExponential(1));
      const ratio = s.scaled.gradient.median / s.unscaled.gradient.median;
      return [
        f.faster
          ? `每个种子都是除以 √d_k 的模型更好：留出样本答对 ${pct(s.scaled.exactMatch)}，不除的只有 ${pct(s.unscaled.exactMatch)}。`
          : `在这些种子上，除以 √d_k 并不是每次都更好：留出样本答对 ${pct(s.scaled.exactMatch)}，不除的 ${pct(s.unscaled.exactMatch)}。`,
        f.saturated
          ? `不除时 softmax 立刻饱和：到第 ${s.unscaled.earlyStep} 步平均熵只有 ${n(s.unscaled.earlyEntropy.median)} 奈特（缩放的为 ${n(s.scaled.earlyEntropy.median)}），每一行都接近只有一个 1。`
          : `不除时 softmax 更尖锐，但没有饱和：第 ${s.unscaled.earlyStep} 步平均熵 ${n(s.unscaled.earlyEntropy.median)} 奈特，缩放的为 ${n(s.scaled.earlyEntropy.median)}；结束时 ${n(s.unscaled.entropy.median)} 对 ${n(s.scaled.entropy.median)}。`,
        f.vanished
          ? `于是到达 softmax 输入端的梯度消失了：${n(s.unscaled.gradient.median)} 对 ${n(s.scaled.gradient.median)}（整个训练过程的几何平均），约小 ${Math.round(ratio).toLocaleString('zh')} 倍——正是教程里的论证。`
          : `但到达 softmax 输入端的梯度在两者中是同一个数量级（不缩放 ${n(s.unscaled.gradient.median)}，缩放 ${n(s.scaled.gradient.median)}，整个训练过程的几何平均）：这里的差距不能用梯度消失来解释。`,
        f.control === 'unscaled'
          ? `对照组开始时与缩放的模型是完全相同的函数，结束时却与不缩放的一样（${pct(s.control.exactMatch)}）：问题在于不除以 √d_k 的训练——AdamW 每一步的大小与尺度无关，所以不缩放的分数变得更快，softmax 变得更尖锐——而不在于起点。`
          : `对照组开始时与缩放的模型是完全相同的函数，结束时也与缩放的一样（${pct(s.control.exactMatch)}）：不缩放的模型吃亏在起点，即它一开始过大的分数。`,
      ];
    },
    headScores: '每个头的归纳分数和前一词元分数',
    headScoresHelp:
      '归纳分数：重复出现的词元对它上次出现位置之后那个词元的权重；前一词元分数：对紧挨着的前一个词元的权重。注意力头形成时它们会突然上升（相变，Olsson 等 2022）。',
    induction: '归纳',
    previousToken: '前一词元',
    textTitle: '你的文本',
    textSource: '文本',
    'source.poems': '唐诗（中文）',
    'source.paragraph': '一段英文',
    'source.names': '重复的人名（归纳）',
    'source.own': '你自己的文本',
    textLabel: '要学习的文本',
    textPlaceholder: '在这里粘贴文本，或打开一个 .txt 文件（UTF-8，任何语言）。',
    openText: '打开 .txt 文件',
    level: '粒度',
    levelAuto: (proposed) => `自动（${proposed}）`,
    'level.character': '字符',
    'level.word': '词',
    proposal: {
      chinese: '建议按字符：这是中文文本。',
      unspaced: '建议按字符：文本中有很长的片段没有空格，它们不是词。',
      short: '建议按字符：文本很短（按词的话，大多数词只出现一两次）。',
      long: '建议按词：文本足够长，可以建立一个词的词表。',
    },
    trainText: '用这段文本训练',
    building: (percent) => `正在建立词表…… ${percent}%`,
    textSummary: (tokens, vocabulary, parameters, seconds) =>
      `${tokens} 个词元 · 词表 ${vocabulary} 个 · ${parameters} 个参数 · 在这台机器上每 1000 步约 ${seconds} 秒`,
    textPreview: (tokens, vocabulary, parameters, exact) =>
      `${exact ? '' : '约 '}${tokens} 个词元 · 词表${exact ? '' : '约'} ${vocabulary} 个 · ${parameters} 个参数（尚未训练）`,
    textSplit: (train, held, context) => `用 ${train} 个词元训练；最后 ${held} 个留作验证。上下文：${context} 个词元。`,
    textUnknown: (count) => `${count} 个词元读作 <unk>。`,
    urlNote: (max) =>
      `链接会记下这些设置；只有当你自己的文本不超过 ${max} 个字符时才记下文本本身（更长的文本只留在这台电脑上）。`,
    textMissing: '链接里没有文本（它太长了）：请再粘贴一次。',
    pastedName: '粘贴的文本',
    textHeld: (name, megabytes) =>
      `${name}（${megabytes} MB）原样保留，不在这里显示：这么长的文本会让文本框卡住。在这里输入会替换它。`,
    textLimits: (mib, vocabulary) =>
      `限制：${mib} MiB 的 UTF-8 文本，词表最多 ${vocabulary} 个编号；不接受二进制文件。`,
    sampleTitle: '从固定开头生成的样例',
    sampleHelp: '每隔几秒，模型都会续写同一个开头（同一个随机种子）：看着它学会写作。',
    sampleAt: (step) => `第 ${step} 步`,
    roles: { previous: '前一个词元', previousLine: '上一行', first: '第一个词元', self: '自身', broad: '广泛' },
    trainLoss: '训练损失',
    heldOutLoss: '验证损失',
    unigram: '文本的一元模型',
    bigram: '文本的二元模型',
    nextTokenRight: '训练：下一个词元正确',
    memorising:
      '验证损失升到了一元线之上，而训练损失还在下降：模型在背这段文本（样本在复述它），而不是学到能用于新文本的规律。更长的文本才能推广。',
    heldOutLine: (loss, unigram, bigram) => `验证损失 每个词元 ${loss} 奈特（一元 ${unigram}，二元 ${bigram}）`,
    fileTooLarge: (name, megabytes, mib, bytes) =>
      `${name} 有 ${megabytes} MB；上限是 ${mib} MiB（${bytes} 字节）：请打开其中一部分。`,
    textRefused: (kind, v) =>
      ({
        empty: () => `文本是空的：至少需要 ${v[0]} 个 UTF-8 词元。`,
        utf8: () => `这个文件不是有效的 UTF-8（第 ${v[0]} 字节）：请另存为 UTF-8 文本后再打开。`,
        nul: () => `这个文件在第 ${v[0]} 字节有一个 NUL 字节：它像是二进制文件，不是文本。`,
        binary: () => `文本的 ${v[1]} 个字符中有 ${v[0]} 个控制字符（最多 ${v[2]}%）：它像是二进制文件，不是文本。`,
        one: () => `文本只是一个符号（“${v[0]}”）重复了 ${v[1]} 次：模型从中学不到任何东西。`,
        short: () => `文本有 ${v[0]} 个词元；至少需要 ${v[1]} 个。`,
        large: () => `文本有 ${v[0]} 字节；上限是 ${v[1]} MiB：请用其中一部分训练。`,
        vocabulary: () =>
          v[2] === 'words'
            ? `文本有 ${v[0]} 个不同的词元；词表最多 ${v[1]} 个编号：请按字符，或用更短的文本。`
            : `文本有 ${v[0]} 个不同的字符；词表最多 ${v[1]} 个编号：请用更短的文本。`,
        word: () => `文本中有一个 ${v[0]} 字节的词（“${v[1]}…”）；按词时一个词最多 ${v[2]} 字节：请按字符。`,
        surrogate: () =>
          `文本在第 ${v[0]} 个字符处有一个不成对的代理项（UTF-16 字符对的一半，不是字符）：请删除它后再试。`,
        nulText: () => `文本在第 ${v[0]} 个字符处有一个 NUL 字符（U+0000）：请删除它后再试。`,
        pasteTooLarge: () =>
          `粘贴的文本有 ${v[0]} MB；上限是 ${v[1]} MiB（${v[2]} 字节）：请粘贴其中一部分。没有粘贴任何内容。`,
        context: () => `训练文本有 ${v[0]} 个词元；这个模型至少需要 ${v[1]} 个。`,
        spaces: () => `文本中有很长的片段没有空格：请按字符。`,
      })[kind](),
    model: '模型文件',
    download: '下载模型',
    load: '载入模型文件',
    openExplorer: '在探索器中打开',
    loaded: (name) => `已载入 ${name}：一个训练好的模型（这里不能继续训练）。`,
    ignoredURL: (keys) => `忽略了链接中的这些值：${keys}。`,
    repeatedURL: (keys) => `链接中这些键出现了不止一次（每个键只用第一个值）：${keys}。`,
    failed: {
      configure: (message) => `无法建立这个模型：${message}`,
      text: (message) => `无法用这段文本训练：${message}`,
      file: (message) => `无法读取这个文件：${message}`,
      load: (message) => `无法打开这个模型文件：${message}`,
      play: (message) => `训练停止了：${message}`,
      step: (message) => `训练停止了：${message}`,
      example: (message) => `无法回答这个例子：${message}`,
      save: (message) => `无法保存模型：${message}`,
      exportHf: (message) => `导出失败：${message}`,
      experiment: (message) => `实验停止了：${message}`,
      worker: (message) => `训练线程停止了：${message}`,
      other: (message) => `出了问题：${message}`,
    },
    handoffFailed: (message) => `无法把模型交给探索器：${message}`,
    popupBlocked:
      '浏览器没有打开探索器的标签页（拦截了弹出窗口？）：请允许此页面弹出窗口，或下载模型后在探索器中打开。',
  },
};

// "Export for transformers" (../hf-export.js), shared with the explorer's model panel.
for (const lang of Object.keys(HF_EXPORT_TEXT)) Object.assign(STRINGS[lang], HF_EXPORT_TEXT[lang]);

export function strings(lang) {
  return STRINGS[lang] ?? STRINGS.en;
}
