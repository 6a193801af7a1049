// A trace as CSV or JSON, for the command line (bin/attention-explorer.mjs) and the page's
// export (web/src/explorer/export.js) alike. Both formats come out as a generator of pieces,
// about one matrix row each: a 2,048-token trace is ~700 MB of text, more than one JS string
// can hold, so the CLI writes the pieces as they come and the page joins them.
//
// A matrix here is what LiveTrace.step() returns:
//   { name, head (null for shared steps), rows, cols, data: Float32Array, rowLabels, colLabels }

// What makes Excel read a CSV file as UTF-8 (without it, 火锅 comes out as the system code
// page's mojibake). The page's export starts its file with it; the CLI only with --bom, since
// its stdout goes to pipes and tools (cut, pandas, awk) that would read it as part of a label.
export const CSV_BOM = '\uFEFF';

// A plain decimal number: a spreadsheet reads it as that number, never as a formula.
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
// Formulas in a CSV cell (OWASP, "CSV injection"). What may start one: = + - @ tab CR (OWASP's
// list for Excel, LibreOffice and Google Sheets), and the full-width and small forms of the
// first four, which Excel in East Asian locales takes for them (＝1＋1 is a formula there).
const TRIGGER = '=+\\-@\\t\\r\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B';
// What a spreadsheet may skip before it: spaces of every kind (no-break, ideographic, the BOM;
// LibreOffice trims spaces on import), zero-width characters, and a quote (Excel evaluates
// "=1+1" quoted as well).
const SKIPPED = '\\s\u180E\u200B-\u200D\u2060"';
// A cell starts at the field's start, and also, for a reader that splits where this writer
// did not, after any separator a spreadsheet may use: ";" (Excel's list separator in most of
// Europe: "a;=1+1" is two cells there, the second a formula, and quotes inside a field do not
// protect it, since the ";"-cell does not start with the quote), "," and tab, and a line break
// (a ";" reader that split a quoted field no longer sees the quotes around its line break).
const FORMULA_AT_START = new RegExp(`^[${SKIPPED}]*[${TRIGGER}]`);
const FORMULA_AFTER_SEPARATOR = new RegExp(`([,;\\t\\r\\n])(?=[${SKIPPED}]*[${TRIGGER}])`, 'g');

// −∞ and the like as NumPy writes them; JSON has no such number.
const CSV_NON_FINITE = { '-Infinity': '-inf', Infinity: 'inf', NaN: 'nan' };
const JSON_NON_FINITE = { '-Infinity': 'null', Infinity: 'null', NaN: 'null' };

/**
 * One row of numbers, comma-separated. A typed array's join() writes String(v) of every
 * element in native code, 1.5× as fast as mapping in JS (a 2,048-token trace has 38 million
 * numbers); only the non-finite ones are replaced.
 */
const numbersText = (row, nonFinite) => row.join(',').replace(/-?Infinity|NaN/g, (word) => nonFinite[word]);

/**
 * One CSV field (RFC 4180). Numbers are written as numbers (−∞ as -inf). In text, wherever a
 * spreadsheet may see a cell start (the field's start, or after , ; tab CR LF) and the first
 * character that is not a space, BOM, zero-width character or quote may start a formula
 * (= + - @ tab CR, full-width ＝ ＋ － ＠), an apostrophe goes in front: "=1+1" → '=1+1,
 * " =1" → ' =1, "a;=1+1" → a;'=1+1, "\t=1" → '\t'=1. A spreadsheet shows such a cell as the
 * text after the apostrophe. Text that is a plain number ("-0.5") is left a number. Then text
 * with a comma, quote, \r or \n is quoted.
 */
export function csvField(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : CSV_NON_FINITE[String(value)];
  let text = String(value);
  if (!NUMBER.test(text)) {
    if (FORMULA_AT_START.test(text)) text = `'${text}`;
    // Most labels hold no separator: skip the scan (a 2,048-token trace writes ~100,000 labels).
    if (/[,;\t\r\n]/.test(text)) text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (fields) => `${fields.map(csvField).join(',')}\n`;

/** One matrix as CSV lines: column labels, then one labelled row per row. */
export function* matrixCSV(m) {
  yield csvLine(['', ...m.colLabels]);
  for (let i = 0; i < m.rows; i++) {
    const row = m.data.subarray(i * m.cols, (i + 1) * m.cols);
    yield `${csvField(m.rowLabels[i])}${m.cols ? ',' : ''}${numbersText(row, CSV_NON_FINITE)}\n`;
  }
}

/**
 * Every matrix as a block: "# step,<name>,head,<h>,shape,<rows>x<cols>", the matrix, a blank
 * line. Heads are numbered from 1 here, as the page and the command number them (a matrix's
 * `head` is the API's 0-based index; JSON keeps that).
 */
export function* traceCSV(matrices) {
  for (const m of matrices) {
    const head = m.head === null || m.head === undefined ? '' : m.head + 1;
    yield csvLine(['# step', m.name, 'head', head, 'shape', `${m.rows}x${m.cols}`]);
    yield* matrixCSV(m);
    yield '\n';
  }
}

/** The columns of the long CSV (traceLongCSV), in order. */
export const LONG_CSV_COLUMNS = ['step', 'head', 'row', 'row_label', 'col', 'col_label', 'value'];

/**
 * Every matrix as ONE long ("tidy") table, the page's CSV export: a header line, then one
 * line per number: step name, head (from 1; empty for a step shared by all heads), row and
 * column (from 0), their labels, the value (−∞ as -inf, as NumPy writes it). A spreadsheet
 * filters it by step and head; pandas pivots it back: `df[df.step == 'weights'].pivot(...)`.
 */
export function* traceLongCSV(matrices) {
  yield csvLine(LONG_CSV_COLUMNS);
  for (const m of matrices) {
    const head = m.head === null || m.head === undefined ? '' : m.head + 1;
    const colLabels = m.colLabels.map(csvField);
    for (let i = 0; i < m.rows; i++) {
      const prefix = `${csvField(m.name)},${head},${i},${csvField(m.rowLabels[i])},`;
      let lines = '';
      for (let j = 0; j < m.cols; j++) lines += `${prefix}${j},${colLabels[j]},${csvField(m.data[i * m.cols + j])}\n`;
      yield lines;
    }
  }
}

/** One matrix as JSON: { name, head, shape, rowLabels, colLabels, data (row-major, −∞ as null) }. */
export function* matrixJSON(m) {
  const { name, head, rows, cols, rowLabels, colLabels } = m;
  yield `${JSON.stringify({ name, head, shape: [rows, cols], rowLabels, colLabels }).slice(0, -1)},"data":[`;
  for (let i = 0; i < rows; i++) {
    yield `${i && cols ? ',' : ''}${numbersText(m.data.subarray(i * cols, (i + 1) * cols), JSON_NON_FINITE)}`;
  }
  yield ']}';
}

/**
 * A trace as one JSON object: the plain `fields` (e.g. summaryOf(trace)), then "steps": each
 * step name → its matrix, or an array of one matrix per head. `matrices` must come step by
 * step, the heads of a step together (as matricesOf gives them).
 */
export function* traceJSON(fields, matrices) {
  const head = JSON.stringify(fields);
  yield `${head.length > 2 ? `${head.slice(0, -1)},` : '{'}"steps":{`;
  let previous = null;
  for (const m of matrices) {
    if (m.name === previous?.name) yield ',';
    else {
      if (previous) yield previous.head !== null ? '],' : ',';
      yield `${JSON.stringify(m.name)}:${m.head !== null ? '[' : ''}`;
    }
    yield* matrixJSON(m);
    previous = m;
  }
  yield `${previous && previous.head !== null ? ']' : ''}}}\n`;
}

/** The sizes and costs of a trace, as plain data. */
export function summaryOf(trace) {
  const { tokens, kvTokens, attention, nQuery, nKey, dModel, heads, dK, parameterCount, flops } = trace;
  const { computedScores, computedScoreFraction } = trace;
  return {
    tokens,
    kvTokens,
    attention,
    nQuery,
    nKey,
    dModel,
    heads,
    dK,
    parameterCount,
    flops,
    computedScores,
    computedScoreFraction,
  };
}

/**
 * Every matrix of a trace, step by step and, within a per-head step, head by head. Each is
 * read when the serializer reaches it, so a LiveTrace needs only one step in JS at a time.
 * @param {{ stepNames: string[], heads: number, step(name: string, head?: number): object }} trace
 * @param {(name: string) => boolean} isPerHead
 */
export function* matricesOf(trace, isPerHead) {
  for (const name of trace.stepNames) {
    if (!isPerHead(name)) yield trace.step(name);
    else for (let h = 0; h < trace.heads; h++) yield trace.step(name, h);
  }
}
