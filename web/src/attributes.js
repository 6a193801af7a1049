// The web component's attributes: each is a URL key of state.js under another name, read by
// the same parser, so an attribute refuses exactly what a link would. `step` also takes the
// step's key from steps.js (step="softmax").
import { stateFromURL } from './state.js';
import { VIEW_KEYS } from './views/registry.js';
import { STEP_KEYS } from './step-keys.js';

// attribute → URL key of state.js (the same parser checks both)
export const ATTRIBUTES = {
  sentence: 's',
  'kv-sentence': 'kv',
  tokenization: 'tok',
  'd-model': 'd',
  heads: 'h',
  seed: 'seed',
  mask: 'mask',
  window: 'w',
  'global-tokens': 'g',
  dilation: 'dil',
  block: 'blk',
  'random-blocks': 'rnd',
  'mask-seed': 'mseed',
  'mask-causal': 'mc',
  attention: 'attn',
  scale: 'scale',
  temperature: 't',
  'positional-encoding': 'pe',
  init: 'init',
  step: 'step',
  view: 'view',
  head: 'head',
  lang: 'lang',
  tutorial: 'tutorial',
  model: 'model',
  layer: 'layer',
};
const FLAGS = ['scale', 'positional-encoding', 'mask-causal', 'tutorial'];

/** 'zh' or 'en' for a language tag such as zh-CN, zh-Hans or en-GB; null for any other. */
export function languageOf(tag) {
  const match = /^(zh|en)(?:-|$)/i.exec(tag ?? '');
  return match ? match[1].toLowerCase() : null;
}

/**
 * { state, notices } from an element's attributes (anything with getAttribute) over `base`.
 * Without a lang of its own the element speaks `hostLang`, the page's around it (<html lang>).
 */
export function stateFromAttributes(element, base, hostLang = null) {
  const query = new URLSearchParams();
  for (const [attribute, key] of Object.entries(ATTRIBUTES)) {
    let value = element.getAttribute(attribute);
    if (attribute === 'lang') value = value === null ? hostLang : (languageOf(value) ?? value);
    if (value === null) continue;
    if (attribute === 'step' && STEP_KEYS.includes(value)) value = String(STEP_KEYS.indexOf(value) + 1);
    if (FLAGS.includes(attribute)) value = value === 'false' || value === '0' ? '0' : '1';
    query.set(key, value);
  }
  return stateFromURL(query.toString(), base, VIEW_KEYS);
}
