// The flags that hide parts of an embedded explorer, read alike from the embed page's URL
// (controls=0) and the web component's attributes (controls="false"): each part, and compact,
// the figure-sized form — one view and its caption, nothing else, sized to the frame (a slide
// at 16:9, a 900 px column) — for course material.
//
//   chromeFrom((flag) => params.get(flag)) → { header: false, share: false, controls: false, … }

export const CHROME_FLAGS = ['controls', 'stepper', 'explain', 'views', 'compact'];

/** What shows one view and its caption (explorer.js's chrome). */
const COMPACT = {
  header: false,
  share: false,
  controls: false,
  stepper: false,
  stage: false,
  explain: false,
  viewbar: false,
  views: true,
  caption: true,
  compact: true,
};

/**
 * The explorer's chrome from `get(flag)`: a flag's text, or null when it is not given. A flag
 * is off when it is "0" or "false"; on otherwise ("1", "true", or a bare attribute's "").
 */
export function chromeFrom(get) {
  const on = (flag) => get(flag) !== null && !['0', 'false'].includes(get(flag));
  if (on('compact')) return { ...COMPACT };
  const chrome = { header: false, share: false };
  for (const flag of CHROME_FLAGS) if (flag !== 'compact' && get(flag) !== null) chrome[flag] = on(flag);
  return chrome;
}
