// The one serializer of traces (cpp/bindings/js/serialize.js, shipped as dist/engine/serialize.js)
// that the CLI and the page's export both use: CSV that a spreadsheet cannot run as a formula,
// JSON that is exactly the trace, both written in pieces so that no string grows with n².
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from './support.mjs';
import {
  csvField,
  LONG_CSV_COLUMNS,
  matricesOf,
  traceCSV,
  traceJSON,
  traceLongCSV,
  summaryOf,
} from '../../dist/engine/serialize.js';

const engine = await createEngine();

/** An RFC 4180 reader, independent of the writer: rows of unquoted fields. */
function readCSV(text) {
  const rows = [[]];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') (rows.at(-1).push(field), (field = ''));
    else if (c === '\n') (rows.at(-1).push(field), (field = ''), rows.push([]));
    else if (c === '\r') assert.fail(`a bare \\r outside quotes at ${i}`);
    else field += c;
  }
  assert.equal(quoted, false, 'every quote is closed');
  if (field !== '' || rows.at(-1).length) rows.at(-1).push(field);
  else rows.pop();
  return rows;
}

test('csvField: text a spreadsheet would run as a formula gets a leading apostrophe (OWASP)', () => {
  for (const text of ['=1+1', '+cmd|calc', '@SUM(1)', '-2+3', '=HYPERLINK("http://x")', '-', '+']) {
    assert.deepEqual(readCSV(csvField(text)), [[`'${text}`]], JSON.stringify(text));
  }
  // A tab or CR starts a formula, and is also where a tab-separated reader starts a cell.
  assert.deepEqual(readCSV(csvField('\t=1')), [["'\t'=1"]], 'a leading tab is guarded, and what follows it');
  assert.deepEqual(readCSV(csvField('\r=1')), [["'\r'=1"]], 'a leading \\r is guarded and quoted');
});

// Formula triggers and what a spreadsheet may skip before one, written here independently of
// the serializer: = + - @ tab CR and their full-width and small forms; spaces of every kind,
// the BOM, zero-width characters and quotes.
const TRIGGERS = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/;
const SKIPPABLE = /^[\s\u180E\u200B-\u200D\u2060"]*/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The cells that could become formulas in `csv` for any reader: split at every , ; tab CR and
 * LF, quotes or not (the harshest reading: a ";" reader sees no quote inside a ","-field), each
 * piece trimmed of what a spreadsheet may skip. Returns the pieces that start with a trigger.
 */
function formulaCells(csv) {
  return csv
    .split(/[,;\t\r\n]/)
    .filter((piece) => !PLAIN_NUMBER.test(piece) && !/^-?inf$|^nan$/.test(piece))
    .filter((piece) => TRIGGERS.test(piece.replace(SKIPPABLE, '')) || TRIGGERS.test(piece));
}

// Labels a forged vocabulary may hold: a formula after a ";" (two cells in a ";" locale), after
// spaces, a BOM, a no-break or ideographic space, a zero-width space, in full width, after CR.
const FORMULA_LABELS = [
  'a;=1+1',
  ' =1+1',
  '\uFEFF=1+1',
  '\u00A0=1',
  '\u3000=1',
  '\u200B=1',
  '＝1＋1',
  '﹦1',
  '\r=1',
  'x\n=1',
  'a,=1',
  'a; \t@SUM(1)',
  '"=1+1"',
  'a;;-2+3',
  'x;＠cmd',
  '=1;=2,=3\t=4',
];

test('csvField: a formula after spaces, a BOM, a ";" or "," or in full width is guarded too', () => {
  // The three a review found passing: each cell a spreadsheet may see starts with an apostrophe.
  assert.equal(csvField('a;=1+1'), "a;'=1+1");
  assert.equal(csvField(' =1+1'), "' =1+1");
  assert.equal(csvField('\uFEFF=1+1'), "'\uFEFF=1+1");
  for (const text of FORMULA_LABELS) {
    const field = csvField(text);
    assert.deepEqual(formulaCells(field), [], `${JSON.stringify(text)} → ${JSON.stringify(field)}`);
    // One cell for an RFC 4180 reader, the text itself but for the apostrophes put in.
    const cells = readCSV(field);
    assert.equal(cells.length, 1, JSON.stringify(text));
    assert.equal(cells[0].length, 1, JSON.stringify(text));
    assert.equal(cells[0][0].replaceAll("'", ''), text.replaceAll("'", ''), JSON.stringify(text));
  }
  // The harsh reader finds these unguarded, so it would find a guard missing.
  assert.ok(formulaCells('a;=1+1').length && formulaCells('\uFEFF=1+1').length && formulaCells('"x,＝1"').length);
  // Text with no formula is left alone, separators and all.
  for (const text of ['a;b', 'a, b', '1;2', 'e-mail', 'x=1', 'a+b', '火锅;麻辣'])
    assert.equal(csvField(text), /,/.test(text) ? `"${text}"` : text);
});

test('csvField: numbers stay numbers, negative ones included; −∞ is -inf', () => {
  assert.equal(csvField(-0.5), '-0.5');
  assert.equal(csvField(0), '0');
  assert.equal(csvField(1e-7), '1e-7');
  assert.equal(csvField(-Infinity), '-inf');
  assert.equal(csvField(Infinity), 'inf');
  // Text that is a plain number is read as that number by a spreadsheet, never as a formula.
  for (const text of ['-0.5', '+3', '-1e-7', '42']) assert.equal(csvField(text), text);
});

test('csvField: commas, quotes, \\r and \\n are quoted; plain text is left alone', () => {
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('a\nb'), '"a\nb"');
  assert.equal(csvField('a\rb'), '"a\rb"');
  assert.equal(csvField('火锅'), '火锅');
  assert.equal(csvField(''), '');
});

const HOSTILE = ['=1+1', '+cmd|calc', '@SUM(1)', '-2+3', 'a,b', 'q"q', 'x\ry', 'n\nl', '\tt', '-0.5', '火锅'];

function textOf(chunks) {
  let text = '';
  let pieces = 0;
  for (const chunk of chunks) {
    assert.equal(typeof chunk, 'string');
    text += chunk;
    pieces++;
  }
  return { text, pieces };
}

test('traceCSV: every matrix of a trace with hostile tokens, read back cell for cell', () => {
  const live = engine.open({ tokens: HOSTILE, heads: 2, mask: 'causal' });
  try {
    const { text } = textOf(traceCSV(matricesOf(live, (name) => live.info(name).perHead)));
    const rows = readCSV(text);
    const guard = (t) => (/^[=+\-@\t\r]/.test(t) && t !== '-0.5' ? `'${t}` : t);
    let r = 0;
    let blocks = 0;
    for (const name of live.stepNames) {
      const heads = live.info(name).perHead ? [0, 1] : [0];
      for (const h of heads) {
        const m = live.step(name, h);
        assert.deepEqual(rows[r++], [
          '# step',
          name,
          'head',
          m.head === null ? '' : String(h + 1), // heads from 1 in CSV
          'shape',
          `${m.rows}x${m.cols}`,
        ]);
        assert.deepEqual(rows[r++], ['', ...m.colLabels.map(guard)]);
        for (let i = 0; i < m.rows; i++) {
          const row = rows[r++];
          assert.equal(row[0], guard(m.rowLabels[i]));
          const values = row.slice(1).map((v) => (v === '-inf' ? -Infinity : Number(v)));
          assert.deepEqual(values, Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)), `${name} row ${i}`);
        }
        assert.deepEqual(rows[r++], [''], 'a blank line after each matrix');
        blocks++;
      }
    }
    assert.equal(r, rows.length);
    assert.ok(blocks > live.stepNames.length);
  } finally {
    live.dispose();
  }
});

test('traceLongCSV: one table, one line per number, heads from 1, −∞ as -inf, read back cell for cell', () => {
  const live = engine.open({ tokens: HOSTILE, heads: 2, mask: 'causal' });
  try {
    const { text } = textOf(traceLongCSV(matricesOf(live, (name) => live.info(name).perHead)));
    const rows = readCSV(text);
    assert.deepEqual(rows[0], LONG_CSV_COLUMNS);
    assert.deepEqual(LONG_CSV_COLUMNS, ['step', 'head', 'row', 'row_label', 'col', 'col_label', 'value']);
    const guard = (t) => (/^[=+\-@\t\r]/.test(t) && t !== '-0.5' ? `'${t}` : t);
    let r = 1;
    let infinities = 0;
    for (const name of live.stepNames) {
      const heads = live.info(name).perHead ? [0, 1] : [0];
      for (const h of heads) {
        const m = live.step(name, h);
        for (let i = 0; i < m.rows; i++) {
          for (let j = 0; j < m.cols; j++) {
            const [step, head, row, rowLabel, col, colLabel, value] = rows[r++];
            assert.deepEqual(
              [step, head, row, rowLabel, col, colLabel],
              [
                name,
                m.head === null ? '' : String(h + 1),
                String(i),
                guard(m.rowLabels[i]),
                String(j),
                guard(m.colLabels[j]),
              ],
            );
            const expected = m.data[i * m.cols + j];
            if (expected === -Infinity) infinities++;
            assert.equal(value === '-inf' ? -Infinity : Number(value), expected, `${name} head ${h} [${i}, ${j}]`);
          }
        }
      }
    }
    assert.equal(r, rows.length);
    assert.ok(infinities > 0, 'the causal mask wrote −∞ as -inf');
  } finally {
    live.dispose();
  }
});

test('traceCSV and traceLongCSV: no cell of a trace of formula labels is a formula to any reader', () => {
  const live = engine.open({ tokens: FORMULA_LABELS, heads: 2, mask: 'causal' });
  try {
    const matrices = () => matricesOf(live, (name) => live.info(name).perHead);
    for (const text of [textOf(traceCSV(matrices())).text, textOf(traceLongCSV(matrices())).text]) {
      assert.deepEqual(formulaCells(text), []);
      assert.ok(text.includes("a;'=1+1"), 'the labels are in it');
    }
  } finally {
    live.dispose();
  }
});

test('traceJSON: the summary and every step, −∞ as null, written in pieces', () => {
  const live = engine.open({ tokens: HOSTILE, heads: 2, mask: 'causal' });
  try {
    const { text, pieces } = textOf(
      traceJSON(
        { config: { mask: 'causal' }, ...summaryOf(live) },
        matricesOf(live, (n) => live.info(n).perHead),
      ),
    );
    const json = JSON.parse(text);
    assert.deepEqual(json.config, { mask: 'causal' });
    assert.deepEqual(json.tokens, HOSTILE);
    for (const key of ['kvTokens', 'nQuery', 'nKey', 'dModel', 'heads', 'dK', 'parameterCount', 'flops']) {
      assert.deepEqual(json[key], live[key], key);
    }
    assert.deepEqual(Object.keys(json.steps), live.stepNames);
    for (const name of live.stepNames) {
      const expected = (m) => ({
        name,
        head: m.head,
        shape: [m.rows, m.cols],
        rowLabels: m.rowLabels,
        colLabels: m.colLabels,
        data: Array.from(m.data, (v) => (v === -Infinity ? null : v)),
      });
      if (live.info(name).perHead)
        assert.deepEqual(
          json.steps[name],
          [0, 1].map((h) => expected(live.step(name, h))),
        );
      else assert.deepEqual(json.steps[name], expected(live.step(name)));
    }
    assert.equal(json.steps.masked[0].data[1], null, 'causal: −∞ above the diagonal');
    assert.ok(pieces > 100, `${pieces} pieces, no one string of the whole trace`);
  } finally {
    live.dispose();
  }
});
