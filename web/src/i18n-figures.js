// The strings of figures for teaching (both languages): the embed code's choices (the whole
// explorer, or a compact figure sized for a slide or a column); i18n.js merges them into its tables.

export const FIGURES = {
  en: {
    embedChoices: 'Embed code',
    embedChoicesNote: 'The explorer’s code is copied. A figure instead:',
    embedFull: 'The explorer (grows to its content)',
    embedSlide: 'A figure for a 16:9 slide (1280 × 720)',
    embedColumn: 'A figure for a 900 px column (900 × 506)',
    embedCopy: 'Copy',
    embedPreview: (what) => `Preview: ${what}`,
    embedClose: 'Close',
    figureFileModel: 'a model file',
    // A cell's name (views/cell-words.js) where its axis has no token.
    cellRow: (i) => `row ${i}`,
    cellCol: (j) => `col ${j}`,
    cellMasked: ' (masked)',
    cellBlockMean: (rows, cols) => `(mean of a ${rows} × ${cols} block)`,
  },
  zh: {
    embedChoices: '嵌入代码',
    embedChoicesNote: '已复制整个探索器的代码。也可以只嵌入一张图：',
    embedFull: '整个探索器（高度随内容变化）',
    embedSlide: '一张图，用于 16:9 幻灯片（1280 × 720）',
    embedColumn: '一张图，用于 900 像素宽的栏（900 × 506）',
    embedCopy: '复制',
    embedPreview: (what) => `预览：${what}`,
    embedClose: '关闭',
    figureFileModel: '打开的模型文件',
    cellRow: (i) => `第 ${i} 行`,
    cellCol: (j) => `第 ${j} 列`,
    cellMasked: '（已屏蔽）',
    cellBlockMean: (rows, cols) => `（${rows} × ${cols} 块的平均值）`,
  },
};
