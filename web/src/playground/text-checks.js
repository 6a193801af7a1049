// The checks of "Your text" that run on the page before a text reaches the text box or the
// worker: each reads at most what it must and costs milliseconds at 16 MiB, so that no input,
// however large or binary, holds up the page (the engine in the worker checks everything again,
// naming byte offsets). No DOM: tests/node/text-checks.test.mjs runs them in node.

/**
 * A file or a paste up to this many bytes goes into the text box; a longer one is kept aside as
 * bytes and named (the box says so). Laying out a text box of 1 MB blocked the page 1.7–5.6 s
 * (a binary file's, full of replacement characters, the longest); 32 KiB stays near 100 ms.
 */
export const SHOWN_BYTES = 1 << 15;
/** The part of a file read before the rest, to refuse a binary one at once and on the spot. */
export const PREFIX_BYTES = 1 << 16;

/**
 * The UTF-8 length of `text`, counted without encoding it; stops counting past `most` (returns
 * more than `most`). 16 MiB of text is counted in about 20 ms.
 */
export function utf8Length(text, most = Infinity) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
    if (bytes > most) return bytes;
  }
  return bytes;
}

/**
 * What is wrong with a typed or pasted text that the page can say where it is (in characters,
 * from 1): { kind, args } for textRefused, or null. A string cannot be invalid UTF-8, but it can
 * hold a lone surrogate (the engine would name a UTF-16 index) or a NUL (the engine would say
 * "a NUL byte at byte offset N", and "the file").
 */
export function typedTextFault(text) {
  const position = (index) => Array.from(text.slice(0, index)).length + 1;
  if (!text.isWellFormed()) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i += 1;
      else if (c >= 0xd800 && c < 0xe000) return { kind: 'textRefused', args: ['surrogate', [position(i)]] };
    }
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) return { kind: 'textRefused', args: ['nulText', [position(nul)]] };
  return null;
}

/**
 * Whether the first bytes of a file look like text to show in the box: valid UTF-8 (a sequence
 * cut at the prefix's end aside), no NUL, control characters within the engine's share. A file
 * that fails goes to the worker unshown, and the engine names the byte at fault.
 */
export function looksLikeText(prefix) {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(prefix, { stream: true });
    let controls = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0) return false;
      if ((c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || (c >= 0x7f && c < 0xa0)) controls += 1;
    }
    return controls <= 0.01 * text.length;
  } catch {
    return false;
  }
}
