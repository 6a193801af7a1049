// Reading what a user passed, once and as plain data. Every value is read exactly once (a
// getter could answer differently the second time), an exception a getter throws becomes an
// AttentionError for its field, and array holes are refused by position (forEach and every
// skip them, and Embind would then meet undefined).
import { AttentionError, describe, invalid } from './errors.js';

/** An exception of any kind, as text for a message. */
export function errorText(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : describe(error);
}

/** object[key], read once; `name` is what the message calls it, `field` the error's field. */
export function get(object, key, name, field = name) {
  try {
    return object[key];
  } catch (error) {
    throw invalid(field, `reading ${name} threw ${errorText(error)}`);
  }
}

/** array[i], read once; a hole (no own element i) is refused. */
export function element(array, i, name, field = name) {
  let present;
  try {
    present = Object.hasOwn(array, i);
  } catch (error) {
    throw invalid(field, `reading ${name} threw ${errorText(error)}`);
  }
  if (!present) throw invalid(field, `${name} is missing: the array has a hole there`);
  return get(array, i, name, field);
}

/** A typed array of numbers (not a DataView, not BigInt64Array). */
export function isNumberArray(data) {
  return (
    ArrayBuffer.isView(data) &&
    !(data instanceof DataView) &&
    !(data instanceof BigInt64Array) &&
    !(data instanceof BigUint64Array)
  );
}

/** The UTF-8 length of a string, without encoding it. */
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) ((bytes += 4), i++);
    else bytes += 3;
  }
  return bytes;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Embind would silently turn a lone UTF-16 surrogate into some other character: refuse it. */
export function checkWellFormed(text, field) {
  const match = LONE_SURROGATE.exec(text);
  if (match) {
    throw new AttentionError(
      'INVALID_UTF8',
      field,
      `${field} is not valid Unicode: a lone UTF-16 surrogate at index ${match.index}`,
    );
  }
  return text;
}
