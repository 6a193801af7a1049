// Head colours are graphics the learner must tell apart from the background: every
// light-mode head colour reaches 3:1 on the light page's panel (#ffffff) and background
// (#f7f7f4), and every dark-mode one on the dark panel (#1f2028) (WCAG 1.4.11), each keeping the
// hue of its Okabe–Ito colour (the palette's colour-blind safety is in its hues and lightness order).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as d3 from 'd3';
import { HEAD_COLORS, HEAD_COLORS_DARK, OKABE_ITO } from '../../web/src/scales.js';
import { contrast } from '../e2e/readable.mjs';

test('light-mode head colours: at least 3:1 on the panel and the page', () => {
  for (const [h, colour] of HEAD_COLORS.entries())
    for (const background of ['#ffffff', '#f7f7f4'])
      assert.ok(
        contrast(colour, background) >= 3,
        `head ${h + 1}: ${colour} on ${background} is ${contrast(colour, background)}:1`,
      );
});

test('dark-mode head colours: at least 3:1 on the dark panel', () => {
  for (const [h, colour] of HEAD_COLORS_DARK.entries())
    assert.ok(contrast(colour, '#1f2028') >= 3, `head ${h + 1}: ${colour} is ${contrast(colour, '#1f2028')}:1`);
});

test('each head keeps its Okabe–Ito hue, and the heads stay apart', () => {
  for (const [h, colour] of HEAD_COLORS.entries()) {
    const [a, b] = [d3.hcl(colour), d3.hcl(OKABE_ITO[h])];
    if (!(b.c >= 5)) continue; // black (no hue)
    const turn = Math.abs(((a.h - b.h + 540) % 360) - 180);
    assert.ok(turn <= 4, `head ${h + 1}: ${colour} turns ${turn.toFixed(1)}° from ${OKABE_ITO[h]}`);
  }
  // Neighbouring heads (the ones most often shown together) differ clearly in CIE Lab.
  for (let h = 0; h + 1 < 6; h++) {
    const [a, b] = [d3.lab(HEAD_COLORS[h]), d3.lab(HEAD_COLORS[h + 1])];
    const distance = Math.hypot(a.l - b.l, a.a - b.a, a.b - b.b);
    assert.ok(distance > 20, `heads ${h + 1} and ${h + 2}: ΔE ${distance.toFixed(1)}`);
  }
});
