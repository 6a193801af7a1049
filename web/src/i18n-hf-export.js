// The texts of "Export for transformers" (hf-export.js), in English and 中文: the button, its
// title, what it says after a download, and why it is off, by the reason exportRefusal gives (the
// model file's key GPT-2 has no switch for, in a learner's words, not the key's name). The
// explorer's model panel (models/i18n.js) and the playground (playground/i18n.js) merge them.

// "so transformers cannot read it as GPT-2", after each reason.
const SO_EN = 'so transformers cannot read it as a GPT-2 model.';
const SO_ZH = '所以 transformers 无法把它当作 GPT-2 模型读入。';

export const HF_EXPORT_TEXT = {
  en: {
    exportHf: 'Export for transformers',
    exportHfTitle:
      'Download this model as a GPT-2 checkpoint for transformers (GPT2LMHeadModel): config.json, model.safetensors, vocab.txt and README.md in one .zip.',
    exportHfBusy: 'Exporting…',
    exportHfDone: (name, megabytes) =>
      `Downloaded ${name} (${megabytes} MB). Unzip it into a folder and open that folder with GPT2LMHeadModel.from_pretrained; its README.md says how text becomes ids.`,
    exportHfFailed: (message) => `The export failed: ${message}`,
    exportHfRefused: {
      none: 'There is no trained model to export yet.',
      checkpoint:
        'This model is already a GPT-2 checkpoint: its config.json and model.safetensors are what the export would write.',
      attentionOnly: `This model is attention only: GPT-2’s blocks also have LayerNorms and a feed-forward layer, ${SO_EN}`,
      tiedEmbeddings: `This model reads its next-token scores from weights of their own; GPT-2 reuses its token embeddings, ${SO_EN}`,
      positionalEncoding: `This model marks positions with fixed sine waves; GPT-2 learns a vector for each position, ${SO_EN}`,
      scale: `This model does not divide its attention scores by √d_k; GPT-2 always does, ${SO_EN}`,
      causal: `In this model a token also looks at later tokens; in GPT-2 a token only looks back, ${SO_EN}`,
      residual: `This model’s blocks do not add their input back; GPT-2’s do, ${SO_EN}`,
      dK: `This model’s heads together are not as wide as the model (d_k · heads ≠ d_model); GPT-2’s are, ${SO_EN}`,
      other: `This model has a setting GPT-2 does not have, ${SO_EN}`,
    },
  },
  zh: {
    exportHf: '导出给 transformers',
    exportHfTitle:
      '把这个模型下载为 transformers 能读的 GPT-2 检查点：config.json、model.safetensors、vocab.txt 和 README.md，打包成一个 zip 文件。',
    exportHfBusy: '正在导出…',
    exportHfDone: (name, megabytes) =>
      `已下载 ${name}（${megabytes} MB）。把它解压到一个文件夹，再用 transformers 打开这个文件夹；其中的 README.md 说明文本如何变成编号。`,
    exportHfFailed: (message) => `导出失败：${message}`,
    exportHfRefused: {
      none: '还没有训练好的模型可以导出。',
      checkpoint: '它本身就是 GPT-2 检查点：导出要写的正是它已有的 config.json 和 model.safetensors。',
      attentionOnly: `这个模型只有注意力；GPT-2 的每个块还有 LayerNorm 和前馈层，${SO_ZH}`,
      tiedEmbeddings: `这个模型用一组单独的权重算下一个词元的分数；GPT-2 复用词元嵌入，${SO_ZH}`,
      positionalEncoding: `这个模型用固定的正弦波标记位置；GPT-2 为每个位置学习一个向量，${SO_ZH}`,
      scale: `这个模型的注意力分数不除以 √d_k；GPT-2 总是除，${SO_ZH}`,
      causal: `这个模型里一个词元也看后面的词元；GPT-2 里一个词元只看前面，${SO_ZH}`,
      residual: `这个模型的块不把输入加回去；GPT-2 的块会加，${SO_ZH}`,
      dK: `这个模型所有头合起来没有模型那么宽（d_k · 头数 ≠ d_model）；GPT-2 的一样宽，${SO_ZH}`,
      other: `这个模型有一个 GPT-2 没有的设置，${SO_ZH}`,
    },
  },
};

/** Why the button is off, in `s`'s language (s: a table HF_EXPORT_TEXT was merged into). */
export const refusalText = (s, reason) => s.exportHfRefused[reason] ?? s.exportHfRefused.other;
