// The words of a cell's screen-reader name and tooltip ("row 3", "(masked)"), in the language of
// the page around it: the explorer's root carries the page's lang (explorer/render.js), and a
// 中文 page read its cells' names in English.
import { strings } from '../i18n.js';

/** strings() of the language of the nearest element with a lang around `node` (English by default). */
export function wordsAt(node) {
  const lang = node?.closest?.('[lang]')?.getAttribute('lang') ?? '';
  return strings(/^zh/i.test(lang) ? 'zh' : 'en');
}
