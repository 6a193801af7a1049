// The canon (the poems learners type, docs/models.md) as training/prepare-corpora.mjs builds it, on
// hand-made poems and text (the corpora themselves are not in git): the anthology's wording
// replaces the Quan Tang Shi's, the held-out split never holds a canon poem (nor a copy of one,
// nor a copy of any training poem) and is otherwise the every-50th rule, the canon repeats as many times as documented, the popularity
// order skips what hit counts cannot rank, and the committed lists follow their rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BigramIndex, popularOrder, tangSplit } from '../../training/tang-canon.mjs';
import { brownPhrases, poemLines, quatrainList } from '../../training/canon-lists.mjs';
import { root } from './support.mjs';

// 100 distinct filler poems: two lines of five characters from a pool of 50 characters.
const POOL = Array.from(
  '天地人和山水风云日月花草木石鸟鱼虫龙虎马牛羊春夏秋冬东西南北红黄青白黑金银铜铁江河湖海田园城乡',
);
const filler = (i) => {
  const c = (k) => POOL[(i * 7 + k * 13 + Math.floor(i / 3) * k) % POOL.length];
  return `${c(0)}${c(1)}${c(2)}${c(3)}${c(4)}，${c(5)}${c(6)}${c(7)}${c(8)}${c(9)}。`;
};
const JING_YE_SI_QTS = '床前看月光，疑是地上霜。举头望山月，低头思故乡。';
const JING_YE_SI = '床前明月光，疑是地上霜。举头望明月，低头思故乡。';
const DENG = '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。';

function corpus() {
  const poems = Array.from({ length: 100 }, (_, i) => ({ author: `甲${i}`, title: `题${i}`, text: filler(i) }));
  poems[49] = { author: '李白', title: '静夜思', text: JING_YE_SI_QTS }; // held out by index
  poems[10] = { author: '王之涣', title: '登鹳雀楼', text: DENG };
  poems[99] = { author: '某', title: '又一首', text: DENG }; // a copy under another name, held out by index
  const anthology = [
    { form: '五言绝句', author: '李白', title: '静夜思', text: JING_YE_SI },
    { form: '五言绝句', author: '王之涣', title: '登鹳雀楼', text: DENG },
  ];
  return { poems, anthology };
}

const count = (lines, text) => lines.filter((line) => line === text).length;

test('tangSplit: the anthology wording, no canon held out, the documented repeats', () => {
  const { poems, anthology } = corpus();
  const popular = [20, 10, 30]; // 10 is an anthology poem: skipped, so 20 and 30 with popularCount 2
  const split = tangSplit({ poems, anthology, popular, popularCount: 2, anthologyTimes: 4, popularTimes: 2 });
  assert.equal(count(split.train, JING_YE_SI_QTS), 0, 'the Quan Tang Shi wording is replaced');
  assert.equal(count(split.train, JING_YE_SI), 4);
  assert.equal(count(split.train, DENG), 4 + 1, '4 for the anthology poem, 1 for its copy (moved from held out)');
  assert.equal(count(split.train, poems[20].text), 2);
  assert.equal(count(split.train, poems[30].text), 2);
  assert.equal(count(split.train, poems[0].text), 1);
  // Held out: index 49 (a canon poem) and 99 (a copy of one) moved to training; nothing else.
  assert.deepEqual(split.heldOut, []);
  assert.equal(split.stats.heldOutBefore, 2);
  assert.equal(split.stats.heldOutMovedCanon, 1);
  assert.equal(split.stats.heldOutMovedCopies, 1);
  // Every other poem trains once, in file order, before the repeats.
  assert.deepEqual(
    split.train.slice(0, 100),
    poems.map((p, i) => (i === 49 ? JING_YE_SI : p.text)),
  );
  assert.equal(split.train.length, 100 + 3 * 2 + 1 * 2);
  assert.deepEqual(split.trainBeforeCopies, split.train, 'no copy of a training poem was held out');
  // The repeats never put a poem next to itself, and the split is deterministic.
  for (let i = 101; i < split.train.length; i++) assert.notEqual(split.train[i], split.train[i - 1]);
  assert.deepEqual(
    tangSplit({ poems, anthology, popular, popularCount: 2, anthologyTimes: 4, popularTimes: 2 }),
    split,
  );
});

test('tangSplit keeps a held-out poem that is not canon, and adds an anthology poem it cannot match', () => {
  const { poems, anthology } = corpus();
  const kept = '甲乙丙丁戊，己庚辛壬癸。';
  poems[49] = { author: '乙', title: '无题', text: kept };
  const extra = { form: '七言绝句', author: '丙', title: '新诗', text: '一二三四五六七，八九十百千万亿。' };
  const split = tangSplit({ poems, anthology: [...anthology, extra], popular: [], anthologyTimes: 2, popularTimes: 1 });
  assert.deepEqual(split.heldOut, [kept]);
  assert.equal(count(split.train, extra.text), 2);
  // 静夜思 lost its Quan Tang Shi poem (index 49) above: it cannot match either.
  assert.deepEqual(split.stats.unmatched, ['李白 静夜思', '丙 新诗']);
});

// The Quan Tang Shi repeats poems under other titles and poets; a held-out copy of a training
// poem (its text, or bigrams at Dice ≥ 0.5) would score the model on what it trained on.
test('tangSplit moves a held-out copy or near copy of a training poem to training, keeps the rest', () => {
  const poems = Array.from({ length: 250 }, (_, i) => ({ author: `甲${i}`, title: `题${i}`, text: filler(i % 100) }));
  poems[10] = { author: '王之涣', title: '登鹳雀楼', text: DENG };
  const exact = { author: '某', title: '又一首', text: filler(3) }; // poems[3]'s text under another name
  // DENG's 19 bigrams (punctuation left out): the first 11 kept, Dice 22 / 38 = 0.58.
  const near = { author: '某', title: '登楼', text: '白日依山尽，黄河入海流。欲穷甲乙丙，丁戊己庚辛。' };
  // The first 9 kept: Dice 18 / 38 = 0.47, below the bar.
  const below = { author: '某', title: '登台', text: '白日依山尽，黄河入海流。甲乙丙丁戊，己庚辛壬癸。' };
  const other = { author: '某', title: '新诗', text: '一二三四五六七，八九十百千万亿。' };
  [exact, near, below, other].forEach((poem, k) => (poems[49 + 50 * k] = poem));
  poems[249] = { author: '某', title: '再一首', text: exact.text }; // a second exact copy
  const split = tangSplit({ poems, anthology: [], popular: [], anthologyTimes: 1, popularTimes: 1 });
  assert.deepEqual(split.heldOut, [below.text, other.text]);
  assert.equal(split.stats.heldOutBefore, 5);
  assert.equal(split.stats.heldOutMovedTrainCopies, 3);
  assert.equal(split.stats.heldOutMovedTrainExact, 2);
  assert.equal(split.stats.heldOutMovedCanon + split.stats.heldOutMovedCopies, 0);
  // The moved poems train once, in their place in file order.
  assert.deepEqual(
    split.train,
    poems.filter((_, i) => i !== 149 && i !== 199).map((p) => p.text),
  );
  // The shipped model's text: the same without the moved copies.
  assert.deepEqual(
    split.trainBeforeCopies,
    poems.filter((_, i) => i % 50 !== 49).map((p) => p.text),
  );
  assert.equal(new BigramIndex([DENG]).best(near.text).dice, 22 / 38);
  assert.equal(new BigramIndex([DENG]).best(below.text).dice, 18 / 38);
});

test('BigramIndex: the best Dice match, punctuation left out, the same author first on a tie', () => {
  const index = new BigramIndex([JING_YE_SI_QTS, DENG, JING_YE_SI_QTS], ['甲', '王之涣', '李白']);
  const match = index.best(JING_YE_SI, '李白');
  assert.equal(match.index, 2);
  // 19 distinct bigrams against 18 (明月 twice), 15 shared: 2·15 / 37.
  assert.equal(match.dice, (2 * 15) / 37);
  assert.equal(index.best('白日依山尽黄河入海流欲穷千里目更上一层楼').dice, 1);
  assert.deepEqual(index.best('无关'), { index: -1, dice: 0 });
});

test('popularOrder: by so360, skipping fragments, unknown authors, one-character titles and repeated names', () => {
  const poems = [
    { author: '李白', title: '静夜思' },
    { author: '张说', title: '句' },
    { author: '無名氏', title: '春' + '日' },
    { author: '无可', title: '松' },
    { author: '杜甫', title: '春望' },
    { author: '杜甫', title: '绝句' },
    { author: '杜甫', title: '绝句' },
    { author: '王维', title: '相思' },
  ];
  const ranks = [
    { author: '李白', title: '静夜思', so360: 1250000 },
    { author: '张说', title: '句', so360: 9e7 },
    { author: '無名氏', title: '春日', so360: 9e7 },
    { author: '无可', title: '松', so360: 9e7 },
    { author: '杜甫', title: '春望', so360: 2000000 },
    { author: '杜甫', title: '绝句', so360: 9e7 },
    { author: '王维', title: '相思', so360: 1450000 },
  ];
  assert.deepEqual(popularOrder(poems, ranks), [4, 7, 0]);
});

test('brownPhrases: contexts of 2 or 3 words, a content word after them, by count', () => {
  const lines = [
    ...Array(6).fill('at the same time we saw the united states'),
    ...Array(2).fill('at the same place , the united states'),
    ...Array(3).fill('the same old story of the united nations'),
  ];
  const phrases = brownPhrases(lines, { minContext: 3, minShare: 0.6, commonWords: 2, count: 10 });
  // Counted by hand: "the" (22) and "same" (11, before "united" alphabetically) are the common
  // words; "the same" → time is 6 of 11 (too few), "at the same" → time 6 of 8; "we saw the" →
  // united adds nothing to "saw the" → united; "of the united" → nations 3 of 3 while "the
  // united" → nations is 3 of 11. Ties by count in alphabetical order.
  assert.deepEqual(
    phrases.map((p) => [p.context, p.next, p.count, p.contextCount]),
    [
      ['the united', 'states', 8, 11],
      ['at the same', 'time', 6, 8],
      ['same time', 'we', 6, 6],
      ['saw the', 'united', 6, 6],
      ['time we', 'saw', 6, 6],
      ['of the', 'united', 3, 3],
      ['of the united', 'nations', 3, 3],
      ['old story', 'of', 3, 3],
      ['same old', 'story', 3, 3],
    ],
  );
  assert.equal(brownPhrases(lines, { minContext: 3, minShare: 0.6, commonWords: 2, count: 2 }).length, 2);
});

test('the committed quatrains: 唐诗三百首 29 五言绝句 and 51 七言绝句, regular, in the popular wording', () => {
  const list = JSON.parse(readFileSync(path.join(root, 'models/canon/tang-quatrains.json'), 'utf8'));
  const forms = list.poems.map((p) => p.form);
  assert.equal(forms.filter((f) => f === '五言绝句').length, 29);
  assert.equal(forms.filter((f) => f === '七言绝句').length, 51);
  for (const poem of list.poems) {
    assert.ok(poem.regular, `${poem.title} has 4 lines of 5 or 7 characters`);
    assert.deepEqual(poemLines(poem.text), poem.lines);
  }
  const jingYeSi = list.poems.find((p) => p.title === '静夜思');
  assert.deepEqual(jingYeSi.lines, ['床前明月光', '疑是地上霜', '举头望明月', '低头思故乡']);
  assert.deepEqual(quatrainList(list.poems), list.poems);
});

test('the committed Brown phrases: at least 30, lower-case words, a content word after a frequent context', () => {
  const list = JSON.parse(readFileSync(path.join(root, 'models/canon/brown-phrases.json'), 'utf8'));
  assert.ok(list.phrases.length >= 30);
  const phrases = list.phrases.map((p) => `${p.context} ${p.next}`);
  assert.ok(phrases.includes('the united states'));
  assert.equal(new Set(phrases).size, phrases.length);
  for (const p of list.phrases) {
    assert.match(`${p.context} ${p.next}`, /^[a-z]+( [a-z]+){2,3}$/);
    assert.ok(p.contextCount >= 10 && p.count / p.contextCount >= 0.6, `${p.context} → ${p.next}`);
  }
  const counts = list.phrases.map((p) => p.count);
  assert.deepEqual(
    counts,
    counts.toSorted((a, b) => b - a),
  );
});

test('the committed held-out sample holds no line of a canon quatrain', () => {
  // The split of 2026-11-30 held 夜雨寄北 and 金陵图 out; the committed sample is its first 40 kB.
  const sample = readFileSync(path.join(root, 'models/heldout/tang.txt'), 'utf8');
  const list = JSON.parse(readFileSync(path.join(root, 'models/canon/tang-quatrains.json'), 'utf8'));
  const found = list.poems.flatMap((p) => p.lines.filter((line) => sample.includes(line)));
  assert.deepEqual(found, []);
});
