// The sentence's tokens as chips under the input. Chips already shown are updated at once
// (typing does not flicker); new ones come CHIP_CHUNK per task after each frame, so that the
// first frame at 2,048 tokens lays out the views and 256 chips, not 2,048.
import * as d3 from 'd3';
import { nextFrame } from '../frames.js';

// Past this many chips the list scrolls in a box of its own: 2,048 chips filled screens.
const MANY_CHIPS = 200;
// New chips are added this many per task, one task after each frame: laying out all 2,048 in
// the page's first frame was its longest task (docs/benchmarks.md, "The page at its limits").
const CHIP_CHUNK = 256;

// White space a character-level model reads as a token of its own would make a blank chip.
const VISIBLE = new Map([
  ['\n', '↵'],
  [' ', '␣'],
  ['\t', '⇥'],
]);
const shown = (token) => VISIBLE.get(token) ?? token;

/**
 * The chips of the <ol> `list`: show(tokens, unknown flags, start) resolves once every chip is
 * in; a newer call stops an older one. `start`: chip 0 is not typed but read before the text (a
 * poem model's line break), marked and titled with this text.
 */
export function chipList(list) {
  let run = 0;
  let unknown = null; // a trained model's flags: which tokens it reads as <unk>
  let start = null;
  // Keyed by place and token: a chip that stays is not written again (a keystroke at 2,048
  // tokens would otherwise lay out every chip's new text node).
  const join = (tokens, all) =>
    d3
      .select(list)
      .classed('many', all > MANY_CHIPS)
      .selectAll('li')
      .data(tokens, (d, i) => `${i}:${d}`)
      .join((enter) => enter.append('li').attr('class', 'chip').text(shown))
      // A trained model reads a symbol outside its vocabulary as <unk>.
      .each(function flag(_, i) {
        this.classList.toggle('unknown', Boolean(unknown?.[i]));
        this.classList.toggle('start', i === 0 && Boolean(start));
        this.title = i === 0 && start ? start : `#${i}`;
      });
  return {
    show(tokens, flags = null, startText = null) {
      const mine = ++run;
      unknown = flags;
      start = startText;
      const next = (shown) => {
        if (mine !== run) return undefined;
        join(tokens.slice(0, shown), tokens.length);
        return shown < tokens.length ? nextFrame().then(() => next(shown + CHIP_CHUNK)) : undefined;
      };
      return Promise.resolve(next(Math.max(CHIP_CHUNK, list.childElementCount)));
    },
  };
}
