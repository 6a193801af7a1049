// What a screen reader and a dark screen get of the explorer: a cell's name in the page's
// language (a 中文 page read "row 3 (masked)"), the model menu and the controls' heading named
// apart (both were "模型"), the softmax view's note agreeing with its head select (it said
// "此视图显示头 1" beside "全部头"), and every text at least 4.5:1 against its background in
// dark mode (a header was 3.7:1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, transitionsDone, useBrowser } from './browser.mjs';

const session = useBrowser();
const started = (page) => page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });

test('a cell’s screen-reader name speaks the page’s language', async () => {
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?s=${encodeURIComponent('猫追着球跑')}&step=2&mask=causal&lang=zh`,
  );
  try {
    await started(page);
    await transitionsDone(page);
    // Step 2's W_Q has no token axis: its cells are named by row and column.
    const names = [];
    for (const selector of [
      '[data-role=stage] g.operand[data-step="wQ"] g.cell',
      '[data-role=stage] g.operand[data-step="wQ"] [tabindex="0"]',
    ]) {
      const cell = page.locator(selector).first();
      if (!(await cell.count())) continue;
      await cell.focus();
      names.push(await cell.getAttribute('aria-label'));
    }
    assert.ok(names.length > 0 && names.every(Boolean), `names: ${names}`);
    for (const name of names) {
      assert.doesNotMatch(name, /\b(row|col|masked|mean of)\b/, name);
      assert.match(name, /第 \d+ 行 → 第 \d+ 列/, name);
    }
    // A masked cell of step 6 says so in Chinese.
    await page.goto(`${session.url}?s=${encodeURIComponent('猫追着球跑')}&step=6&mask=causal&lang=zh`);
    await started(page);
    await transitionsDone(page);
    const masked = page.locator('[data-role=stage] g.cell.masked').first();
    await masked.focus();
    const name = await masked.getAttribute('aria-label');
    assert.match(name, /已屏蔽/, name);
    assert.doesNotMatch(name, /masked/, name);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the model menu and the controls’ heading have different names, in both languages', async () => {
  const { page, context } = await openPage(session.browser, `${session.url}?lang=zh`);
  try {
    await started(page);
    for (const lang of ['zh', 'en']) {
      await page.click(`.language button[data-lang="${lang}"]`);
      await page.waitForFunction((lang) => document.documentElement.lang.startsWith(lang), lang);
      const menu = await page.getByRole('combobox', { name: lang === 'zh' ? '模型' : 'Model', exact: true }).count();
      assert.equal(menu, 1, `${lang}: one control named as the model menu`);
      const heading = await page.locator('.controls h2').textContent();
      const label = await page.locator('[data-role=model-label]').textContent();
      assert.notEqual(heading.trim(), label.trim(), `${lang}: both "${label}"`);
      assert.equal(await page.getByRole('heading', { name: label.trim(), exact: true }).count(), 0);
    }
  } finally {
    await context.close();
  }
});

test('the softmax view’s note follows its head select', async () => {
  const { page, context } = await openPage(session.browser, `${session.url}?view=softmax&step=7&lang=zh`);
  try {
    await started(page);
    const note = page.locator('[data-role=softmax-shows]');
    const picked = () => page.locator('[data-role=head]').evaluate((s) => s.selectedOptions[0].textContent);
    assert.equal(await picked(), '全部头');
    const text = await note.textContent();
    assert.ok(text.includes('全部头'), `the note quotes the select: ${text}`);
    await page.selectOption('[data-role=head]', { index: 2 });
    await page.waitForFunction(() => document.querySelector('[data-role=softmax-shows]').hidden);
  } finally {
    await context.close();
  }
});

// In the page: every visible text's contrast against the background it is drawn on, where
// that is a page colour (not a cell's fill: cells choose their ink by their fill, readable.test).
const lowContrast = () => {
  const rgba = (css) => {
    const m = css.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1]
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return { r, g, b, a };
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a),
    a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement ?? node.getRootNode().host ?? null) {
      if (node instanceof SVGElement && !(node instanceof SVGSVGElement)) continue;
      const c = rgba(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) {
        layers.push(c);
        if (c.a >= 1) break;
      }
    }
    layers.push({ r: 255, g: 255, b: 255, a: 1 });
    return layers.reduceRight((below, top) => over(top, below));
  };
  const luminance = ({ r, g, b }) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (l1 + 0.05) / (l2 + 0.05);
  };
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.getClientRects().length || el.closest('[hidden], g.cell, .numbers-layer, .tooltip, option')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    const ink = rgba(el instanceof SVGElement ? style.fill : style.color);
    if (!ink) continue;
    const bg = background(el);
    const r = ratio(over(ink, bg), bg);
    if (r < 4.5)
      found.push(
        `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${el.textContent.trim().slice(0, 30)}" ${r.toFixed(2)}:1`,
      );
  }
  return found;
};

for (const colorScheme of ['dark', 'light'])
  test(`${colorScheme} mode: every text of the page and its four views is at least 4.5:1 against its background`, async () => {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    try {
      const page = await context.newPage();
      const failures = [];
      for (const [view, lang] of [
        ['links', 'zh'],
        ['heatmap', 'en'],
        ['matrices', 'zh'],
        ['softmax', 'en'],
      ]) {
        await page.goto(`${session.url}?view=${view}&step=6&mask=causal&lang=${lang}`);
        await started(page);
        await transitionsDone(page);
        // A token in the focus colour: hovered in the links view.
        if (view === 'links') {
          await page.locator('[data-role=links] text.token').first().hover();
          await page.waitForSelector('[data-role=links] text.token.focused');
        }
        failures.push(...(await page.evaluate(lowContrast)).map((f) => `${view}: ${f}`));
      }
      // A trained model's panel, the heatmap's tables, the stage's arithmetic and the playground.
      // (Latin letters are outside 唐诗's vocabulary: their chips are marked "?".)
      await page.goto(`${session.url}?model=tang&view=heatmap&step=7&lang=zh&s=${encodeURIComponent('床前明月光ab')}`);
      await page.waitForSelector('[data-role=model-grid] *', { timeout: 30000 });
      await started(page);
      await transitionsDone(page);
      await page.waitForSelector('.chip.unknown');
      await page.click('[data-role=table-toggle]');
      await page.locator('[data-role=stage] g.cell').first().click();
      failures.push(...(await page.evaluate(lowContrast)).map((f) => `tang: ${f}`));
      await page.goto(`${session.url}playground.html?lang=zh`);
      await page.waitForTimeout(3000);
      failures.push(...(await page.evaluate(lowContrast)).map((f) => `playground: ${f}`));
      await page.goto(`${session.url}?view=heatmap&step=7&lang=en`);
      await started(page);
      // The embed code's choices too.
      await page.click('[data-role=copy-embed]');
      await page.locator('[data-role=embed-choices]').waitFor({ state: 'visible' });
      failures.push(...(await page.evaluate(lowContrast)).map((f) => `embed choices: ${f}`));
      assert.deepEqual([...new Set(failures)], []);
    } finally {
      await context.close();
    }
  });
