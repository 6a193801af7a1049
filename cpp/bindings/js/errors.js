// Every failure of the engine reaches JS as an AttentionError: a stable `code`, the `field`
// at fault and a sentence naming the value and what is allowed.

export class AttentionError extends Error {
  /**
   * @param {string} code e.g. "INVALID_ARGUMENT", "SHAPE_MISMATCH", "NON_FINITE"
   * @param {string} field e.g. "heads", "given.wQ", "tokens[3]"
   * @param {string} message
   */
  constructor(code, field, message) {
    super(message);
    this.name = 'AttentionError';
    this.code = code;
    this.field = field;
  }
}

export function invalid(field, message) {
  return new AttentionError('INVALID_ARGUMENT', field, message);
}

/** A short, safe rendering of any value for an error message. */
export function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value !== 'object' && typeof value !== 'function') return `a ${typeof value}`;
  try {
    if (Array.isArray(value)) return `an array of ${value.length}`;
    return `a ${value.constructor?.name ?? typeof value}`;
  } catch {
    return `a hostile ${typeof value}`; // a Proxy or a getter that throws
  }
}
