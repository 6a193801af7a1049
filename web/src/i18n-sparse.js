// The texts of the sparse attention patterns (mask: dilated, longformer, bigbird; docs/computation.md,
// "Sparse and local attention"): their names and settings in the controls, and the mask step's
// text for each, which says why the pattern still lets information reach every word and how many
// of the n² scores it computes (the engine's computedScoreFraction), and a pattern's causal version
// (mc=1: the engine's causal flag). i18n.js merges them.

export const SPARSE_TEXT = {
  en: {
    'mask.dilated': 'dilated window',
    'mask.longformer': 'Longformer',
    'mask.bigbird': 'BigBird',
    globalTokens: 'global tokens',
    globalHint: 'Click a token above to make it global (or not).',
    chipGlobal: 'global token: sees and is seen by every token (click to undo)',
    chipMakeGlobal: 'click to make this token global',
    dilation: 'dilation d',
    block: 'block b',
    randomBlocks: 'random blocks r',
    maskSeed: 'random blocks’ seed',
    maskCausal: 'causal (j ≤ i)',
    maskCausalHint:
      'Causal: each token keeps only the pattern’s keys at or before it, never a later word (a decoder’s local attention, as in Mistral’s sliding window).',
    // The mask step of a causal pattern: its title's ending and the sentence added to its text.
    maskCausalTitle: ' (causal)',
    maskCausalText:
      'Causal here: of these keys only those with j ≤ i are kept, so a token sees the pattern’s past and never a later word, as a decoder must when it writes one word after another (Mistral’s sliding window is such a causal window).',
    linearNoSparse: 'Linear attention sums every key into one summary: a sparse pattern would need one per query.',
    // percent: a text such as '9%'; computed and total: counts of scores.
    sparseFraction: (percent, computed, total) =>
      `This pattern computes ${percent} of the scores (${computed} of ${total}); the others are never formed: they are −∞ here and weigh 0.`,
    maskSteps: {
      window: {
        title: 'Mask: sliding window',
        text: 'Each token sees only its neighbours within w on each side (as in Longformer’s local attention): everything else becomes −∞, so softmax gives it exactly 0. The cost per layer grows with n·(2w + 1), not n²; a word w·k places away is reached only after k layers.',
      },
      dilated: {
        title: 'Mask: dilated window',
        text: 'Each token sees w neighbours on each side, but every d-th one: keys i ± d, i ± 2d, … . It computes as many scores as a plain window, yet reaches d times further, so far words are reached in fewer layers (the gaps are filled by other layers or heads).',
      },
      longformer: {
        title: 'Mask: Longformer (window + global)',
        text: 'A sliding window plus global tokens: a global token’s row and column are whole, it reads every word and every word reads it. So information flows between any two words in two hops through a global token, however far apart, while each ordinary row keeps only about 2w + 1 + g scores.',
      },
      bigbird: {
        title: 'Mask: BigBird (window + global + random)',
        text: 'Longformer’s window and global tokens, plus for each block of b queries r key blocks drawn at random (seeded). Random links are shortcuts: as in a random graph, a few of them make the path between any two words short, without a global token in the way.',
      },
    },
  },
  zh: {
    'mask.dilated': '空洞窗口',
    'mask.longformer': 'Longformer',
    'mask.bigbird': 'BigBird',
    globalTokens: '全局词元',
    globalHint: '点击上面的词元，让它成为（或不再是）全局词元。',
    chipGlobal: '全局词元：它看到所有词元，所有词元也看到它（点击取消）',
    chipMakeGlobal: '点击让这个词元成为全局词元',
    dilation: '空洞间隔 d',
    block: '块大小 b',
    randomBlocks: '随机块数 r',
    maskSeed: '随机块的种子',
    maskCausal: '因果（j ≤ i）',
    maskCausalHint:
      '因果：每个词只保留模式中位于它之前（含自身）的键，看不到后面的词（解码器的局部注意力，如 Mistral 的滑动窗口）。',
    maskCausalTitle: '（因果）',
    maskCausalText:
      '这里是因果版本：这些键中只保留 j ≤ i 的，所以每个词只看到模式中过去的词，看不到后面的词；解码器逐词生成时必须这样（Mistral 的滑动窗口就是这样的因果窗口）。',
    linearNoSparse: '线性注意力把所有键加成一个摘要：稀疏模式需要每个查询各有一个摘要。',
    sparseFraction: (percent, computed, total) =>
      `这个模式只计算 ${percent} 的分数（${total} 个中的 ${computed} 个）；其余的根本不算：这里显示为 −∞，权重为 0。`,
    maskSteps: {
      window: {
        title: '掩码：滑动窗口',
        text: '每个词只看到左右各 w 个邻居（如 Longformer 的局部注意力）：其余位置设为 −∞，softmax 之后恰好为 0。每层的计算量按 n·(2w + 1) 增长，而不是 n²；相隔 w·k 个位置的词要经过 k 层才能传到。',
      },
      dilated: {
        title: '掩码：空洞窗口',
        text: '每个词左右各看 w 个键，但每隔 d 个取一个：i ± d、i ± 2d……。计算的分数和普通窗口一样多，却能看到 d 倍远，远处的词用更少的层就能传到（中间的空隙由其他层或头补上）。',
      },
      longformer: {
        title: '掩码：Longformer（窗口 + 全局）',
        text: '滑动窗口加上全局词元：全局词元的行和列是完整的，它读所有词，所有词也读它。所以任意两个词之间经过全局词元两跳就能传递信息，不论相隔多远；而普通的每一行只保留约 2w + 1 + g 个分数。',
      },
      bigbird: {
        title: '掩码：BigBird（窗口 + 全局 + 随机）',
        text: 'Longformer 的窗口和全局词元，再为每 b 个查询组成的块随机（带种子）挑 r 个键块。随机连接是捷径：就像随机图一样，少量随机边就让任意两个词之间的路径变短，不必都经过全局词元。',
      },
    },
  },
};

/**
 * A fraction as the mask step prints it: whole percents ('9%'), one decimal under 10% where the
 * rounding would hide a difference ('0.4%'), and never '0%' for a pattern that computes something.
 */
export function percentText(fraction) {
  const p = fraction * 100;
  if (p >= 10 || Number.isInteger(p)) return `${Math.round(p)}%`;
  return `${Math.max(0.1, Math.round(p * 10) / 10)}%`;
}
