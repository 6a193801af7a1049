// Matrices a user gives (X, weights, biases, a custom mask) as { data, rows, cols }, an array
// of rows, or a flat array (one row). The shape is read and bounded first; the values are read
// only when asked, once each, so a claim of billions of values costs nothing to refuse.
import { AttentionError, describe, invalid } from './errors.js';
import { element, get, isNumberArray } from './read.js';

function dimension(value, name) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(name, `${name} (${describe(value)}) must be a non-negative integer`);
  }
  return value;
}

/** Any number passes (NaN and ±Infinity too: C++ names their position); anything else not. */
function numberCheck(field) {
  return (v, name) => {
    if (typeof v !== 'number') throw invalid(field, `${name} (${describe(v)}) must be a number`);
    return v;
  };
}

/** Copies `count` values of `array` into out[offset …], each read once and checked. */
function copyValues(array, count, out, offset, name, field, check) {
  const typed = isNumberArray(array);
  for (let i = 0; i < count; i++) {
    out[offset + i] = check(typed ? array[i] : element(array, i, `${name}[${i}]`, field), `${name}[${i}]`);
  }
}

/** A row-major source of `count` values: an array or a typed array (copied natively). */
function flatReader(source, count, name, field) {
  return (check) => {
    if (!check && isNumberArray(source)) return new Float32Array(source);
    const out = new Float32Array(count);
    copyValues(source, count, out, 0, name, field, check ?? numberCheck(field));
    return out;
  };
}

/**
 * The shape of a matrix and a reader of its values, [rows × cols] row-major as a Float32Array.
 * read(check) passes each value through check(value, name), which returns a number or throws;
 * without it any number is accepted.
 * @returns {{ rows: number, cols: number, read(check?: Function): Float32Array }}
 */
export function matrixShape(value, field) {
  if (isNumberArray(value)) return { rows: 1, cols: value.length, read: flatReader(value, value.length, field, field) };
  if (Array.isArray(value)) {
    const rows = value.length;
    const first = rows > 0 ? element(value, 0, `${field}[0]`, field) : undefined;
    // A flat array is one row (a bias).
    if (!Array.isArray(first) && !isNumberArray(first))
      return { rows: 1, cols: rows, read: flatReader(value, rows, field, field) };
    const cols = first.length;
    const read = (check) => {
      const out = new Float32Array(rows * cols);
      for (let r = 0; r < rows; r++) {
        const row = r === 0 ? first : element(value, r, `${field}[${r}]`, field);
        const length = Array.isArray(row) || isNumberArray(row) ? row.length : describe(row);
        if (length !== cols) {
          throw invalid(field, `${field} must be rectangular: row ${r} has ${length} numbers, row 0 has ${cols}`);
        }
        copyValues(row, cols, out, r * cols, `${field}[${r}]`, field, check ?? numberCheck(field));
      }
      return out;
    };
    return { rows, cols, read };
  }
  if (value && typeof value === 'object' && 'data' in value && 'rows' in value && 'cols' in value) {
    const rows = dimension(get(value, 'rows', `${field}.rows`), `${field}.rows`);
    const cols = dimension(get(value, 'cols', `${field}.cols`), `${field}.cols`);
    const data = get(value, 'data', `${field}.data`);
    const read = (check) => {
      if (data instanceof BigInt64Array || data instanceof BigUint64Array) {
        throw invalid(field, `${field}.data holds BigInt values; every value must be a number`);
      }
      if ((!Array.isArray(data) && !isNumberArray(data)) || data.length !== rows * cols) {
        throw invalid(field, `${field}.data must hold rows × cols = ${rows * cols} numbers, got ${describe(data)}`);
      }
      return flatReader(data, rows * cols, `${field}.data`, field)(check);
    };
    return { rows, cols, read };
  }
  throw invalid(field, `${field} (${describe(value)}) must be a matrix: { data, rows, cols } or an array of rows`);
}

/**
 * Refuses a matrix larger than any valid one before its values are read: each side at most
 * `maxSide`, at most `maxValues` values in all.
 */
export function boundShape({ rows, cols }, field, maxSide, maxValues) {
  if (rows > maxSide || cols > maxSide || rows * cols > maxValues) {
    throw new AttentionError(
      'LIMIT_EXCEEDED',
      field,
      `${field} (${rows} × ${cols}) is larger than any valid matrix (at most ${maxSide} rows or columns and ${maxValues} values)`,
    );
  }
}
