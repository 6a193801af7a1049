// "Measure roles" in the page, in Debian's Chromium: a GPT-2 checkpoint (it has no roles sidecar)
// opened through the folder picker, measured in the engine's worker on the bundled English sample
// with a progress bar; Stop midway shows no roles and says so; then a whole measurement names
// the two heads' roles built into the checkpoint (tests/node/gpt2_support.mjs
// writeGpt2RolesCheckpoint: first token, previous token) with × chance, as a shipped model's grid
// does, and the one-layer note; another checkpoint opened while measuring ends the measurement.
// Both languages; a screenshot of the grid.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openWithCheckpoint, screenshotDir, useBrowser } from './browser.mjs';
import { writeGpt2RolesCheckpoint } from '../node/gpt2_support.mjs';
import { english } from '../node/latin-words.mjs';

const session = useBrowser();
let scratch;

before(() => {
  mkdirSync(screenshotDir, { recursive: true });
  scratch = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-roles-page-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());

test('a checkpoint’s head roles measured in the page: progress, stop, then roles with × chance in the grid', async () => {
  const folder = path.join(scratch, 'gpt2-roles');
  mkdirSync(folder);
  writeGpt2RolesCheckpoint(folder);
  const text = 'The cat sat. The cat ran.';
  const { page, problems, context } = await openWithCheckpoint(session, text, { folder });
  try {
    assert.ok(await page.isVisible('[data-role=model-roles-measure]'));
    assert.match(await page.textContent('[data-role=model-roles-status]'), /comes without stored head roles/);
    assert.equal(await page.locator('.model-cell[data-head-role]').count(), 0);

    // Stop in the same task as the press: nothing is measured, and the page says so.
    await page.evaluate(() => {
      document.querySelector('[data-role=model-roles-measure]').click();
      document.querySelector('[data-role=model-roles-stop]').click();
    });
    await page.waitForFunction(() =>
      /Measuring stopped/.test(document.querySelector('[data-role=model-roles-status]').textContent),
    );
    assert.ok(await page.isHidden('[data-role=model-roles-progress]'));
    assert.equal(await page.locator('.model-cell[data-head-role]').count(), 0);

    // A whole measurement: the bar is shown and moves, then the grid names the roles.
    await page.evaluate(() => {
      window.__bar = [];
      const bar = document.querySelector('[data-role=model-roles-progress]');
      new MutationObserver(() => window.__bar.push({ hidden: bar.hidden, value: bar.value })).observe(bar, {
        attributes: true,
      });
    });
    await page.click('[data-role=model-roles-measure]');
    await page.waitForSelector('.model-cell[data-head-role]', { timeout: 60000 });
    await idle(page);
    const bar = await page.evaluate(() => window.__bar);
    assert.ok(
      bar.some((b) => !b.hidden),
      'the progress bar was shown',
    );
    assert.ok(
      bar.some((b) => b.value > 0 && b.value < 1),
      `the bar moved: ${JSON.stringify(bar.slice(0, 6))}`,
    );
    assert.ok(await page.isHidden('[data-role=model-roles-progress]'));
    const cells = await page.$$eval('.model-cell', (all) =>
      all.map((c) => ({
        head: Number(c.dataset.head),
        role: c.dataset.headRole ?? null,
        label: c.querySelector('.model-cell-label')?.textContent,
        ratio: c.querySelector('.model-cell-ratio')?.textContent ?? '',
        title: c.title,
      })),
    );
    assert.deepEqual(
      cells.map((c) => c.role),
      ['first', 'previous'],
    );
    assert.equal(cells[0].label, 'first token');
    assert.equal(cells[1].label, 'previous token');
    for (const c of cells) {
      const ratio = Number(/^([\d.]+)× chance$/.exec(c.ratio)?.[1]);
      assert.ok(ratio >= 3, `${c.role}: ${c.ratio}`);
    }
    // The position-matched figure in the title, as for a shipped model (previous: a distance).
    assert.match(cells[0].title, /× what it puts on any token at the same distance back/);
    assert.match(cells[1].title, /previous token is a distance/);
    const status = await page.textContent('[data-role=model-roles-status]');
    assert.match(status, /Roles measured on 16 windows of 64 tokens of held-out English text/);
    assert.match(status, /induction on 16 repeated random sequences/);
    assert.match(status, /With one layer no head can be an induction head/);
    assert.ok(!/NaN|undefined/.test(status + cells.map((c) => c.title).join(' ')));
    await page.locator('[data-role=models]').screenshot({ path: path.join(screenshotDir, 'gpt2-roles-en.png') });

    // 中文: the same roles in Chinese, the note too.
    await page.click('.language button[data-lang=zh]');
    await idle(page);
    const zhStatus = await page.textContent('[data-role=model-roles-status]');
    assert.match(zhStatus, /角色在 16 个各含 64 个词元的英文留出文本窗口上测得/);
    assert.match(zhStatus, /。只有一层时/); // 中文 sentences joined without a space
    // No English left in the 中文 texts of the measure (tests/node/latin-words.mjs's allow-list).
    const zhTexts = await page.$$eval('[data-role=model-roles] button, .model-cell', (all) =>
      all.map((e) => e.title || e.textContent),
    );
    assert.deepEqual(english([zhStatus, ...zhTexts]), []);
    assert.match(await page.textContent('.model-cell[data-head="0"] .model-cell-ratio'), /随机水平的 [\d.]+ 倍/);
    await page.locator('[data-role=models]').screenshot({ path: path.join(screenshotDir, 'gpt2-roles-zh.png') });

    // Another checkpoint opened while measuring: the measurement ends with the model it read, the
    // new one shows no roles and offers to measure; nothing breaks.
    const revision = (await page.evaluate(() => window.attentionExplorer.store.get())).modelRevision;
    await page.click('[data-role=model-roles-measure]');
    await page.setInputFiles('[data-role=model-folder]', folder);
    await page.waitForFunction((r) => window.attentionExplorer.store.get().modelRevision > r, revision);
    await idle(page);
    assert.equal(await page.locator('.model-cell[data-head-role]').count(), 0);
    assert.ok(await page.isHidden('[data-role=model-roles-progress]'));
    assert.match(await page.textContent('[data-role=model-roles-status]'), /这个检查点没有附带存好的头角色/);
    assert.equal(await page.isDisabled('[data-role=model-roles-measure]'), false);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
