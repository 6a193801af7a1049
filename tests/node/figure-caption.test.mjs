// A figure's caption (web/src/explorer/caption.js: the compact embed's and the exported
// figure's) names a trained model as the page's model menu does, in the page's language: the
// compact 唐诗 figure said "模型 tang", the model's link key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figureCaption } from '../../web/src/explorer/caption.js';
import { defaultState } from '../../web/src/state.js';
import { strings } from '../../web/src/i18n.js';
import { modelStrings } from '../../web/src/models/i18n.js';

const trace = { tokens: ['床', '前', '明', '月', '光'], dModel: 64, heads: 4 };

for (const lang of ['zh', 'en']) {
  test(`the caption of a trained model's figure says its title (${lang})`, () => {
    for (const model of ['tang', 'brown']) {
      const state = { ...defaultState(lang), model, view: 'heatmap', step: 7, layer: 1 };
      const { title, subtitle } = figureCaption(state, trace, strings(lang));
      assert.ok(subtitle.includes(modelStrings(lang)[`model.${model}`]), subtitle);
      assert.doesNotMatch(subtitle, new RegExp(`(model|模型) ${model}\\b`), subtitle);
      assert.match(subtitle, lang === 'zh' ? /第 2 层/ : /layer 2/);
      assert.match(title, lang === 'zh' ? /^热力图 · 7\./ : /^Heatmaps · 7\./);
    }
    const file = figureCaption({ ...defaultState(lang), model: 'file', layer: 0 }, trace, strings(lang));
    assert.ok(file.subtitle.includes(strings(lang).figureFileModel), file.subtitle);
  });
}
