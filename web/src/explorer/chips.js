// The sentence's tokens as chips under the input. Chips already shown are updated at once
// (typing does not flicker); new ones come CHIP_CHUNK per task after each frame, so that the
// first frame at 2,048 tokens lays out the views and 256 chips, not 2,048.
import * as d3 from 'd3';
import { nextFrame } from '../frames.js';
import { visibleToken } from '../visible-token.js';

// Past this many chips the list scrolls in a box of its own: 2,048 chips filled screens.
const MANY_CHIPS = 200;
// New chips are added this many per task, one task after each frame: laying out all 2,048 in
// the page's first frame was its longest task (docs/benchmarks.md, "The page at its limits").
const CHIP_CHUNK = 256;

// White space, a control or a joiner that a character-level model reads as a token of its own
// would make a blank chip (visible-token.js).
const shown = visibleToken;

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
  // A chip is a token, or with `groups` (a GPT-2 model's: { text, first, count }) the text over
  // tokens [first, first + count): a character split into byte tokens is one chip, never U+FFFD.
  const textOf = (d) => (typeof d === 'string' ? d : d.text);
  const join = (tokens, all) =>
    d3
      .select(list)
      .classed('many', all > MANY_CHIPS)
      .selectAll('li')
      .data(tokens, (d, i) => (typeof d === 'string' ? `${i}:${d}` : `${d.first}+${d.count}:${d.text}`))
      .join((enter) =>
        enter
          .append('li')
          .attr('class', 'chip')
          .text((d) => shown(textOf(d))),
      )
      // A trained model reads a symbol outside its vocabulary as <unk>.
      .each(function flag(d, i) {
        const first = typeof d === 'string' ? i : d.first;
        const count = typeof d === 'string' ? 1 : d.count;
        this.classList.toggle('unknown', Boolean(unknown?.[first]));
        this.classList.toggle('start', first === 0 && Boolean(start));
        this.classList.toggle('piece', typeof d !== 'string');
        this.classList.toggle('tokens', count > 1);
        this.title = first === 0 && start ? start : count > 1 ? `#${first}–#${first + count - 1}` : `#${first}`;
      });
  return {
    show(tokens, flags = null, startText = null, groups = null) {
      const mine = ++run;
      unknown = flags;
      start = startText;
      if (groups) tokens = groups;
      const next = (shown) => {
        if (mine !== run) return undefined;
        join(tokens.slice(0, shown), tokens.length);
        return shown < tokens.length ? nextFrame().then(() => next(shown + CHIP_CHUNK)) : undefined;
      };
      return Promise.resolve(next(Math.max(CHIP_CHUNK, list.childElementCount)));
    },
  };
}
