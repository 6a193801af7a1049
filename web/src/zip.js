// A ZIP archive of a few files, stored (no compression): the pages' "Export for transformers"
// button hands one download for the four files the CLI writes into a folder (a browser cannot
// write a folder). Stored, because model.safetensors is float32 weights, which deflate hardly
// shrinks, and a store-only writer is a few dozen lines with nothing to trust but CRC-32.
// The layout is APPNOTE.TXT's (PKWARE): for each file a local header and its bytes, then the
// central directory and its end record. Names are UTF-8 (flag bit 11). No ZIP64: an archive or
// file of 4 GiB or more is refused (our models are megabytes).
//   zipStored([{ name, bytes }], { date }) → Uint8Array

const LIMIT = 0xffffffff;

let table = null;
/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of `bytes`, as an unsigned number. */
export function crc32(bytes) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** MS-DOS time and date words of `date` (local time, 2-second steps, years 1980…2107). */
function dosTime(date) {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * The archive's bytes: `files` ([{ name, bytes: Uint8Array }], in that order) stored, each with
 * its CRC-32, dated `date` (now by default). Throws naming the file for an empty or repeated name
 * or one of 4 GiB or more.
 */
export function zipStored(files, { date = new Date() } = {}) {
  const encoder = new TextEncoder();
  const { time, day } = dosTime(date);
  const seen = new Set();
  const entries = files.map(({ name, bytes }) => {
    if (typeof name !== 'string' || !name || seen.has(name)) {
      throw new Error(`zip: file name ${JSON.stringify(name)} must be a non-empty name used once`);
    }
    seen.add(name);
    if (bytes.length > LIMIT) throw new Error(`zip: ${name} has ${bytes.length} bytes; stored ZIP holds < 4 GiB`);
    return { name: encoder.encode(name), bytes, crc: crc32(bytes) };
  });
  const local = entries.reduce((n, e) => n + 30 + e.name.length + e.bytes.length, 0);
  const central = entries.reduce((n, e) => n + 46 + e.name.length, 0);
  if (local + central + 22 > LIMIT) throw new Error('zip: the archive would be 4 GiB or more');
  const out = new Uint8Array(local + central + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (v) => (view.setUint16(at, v, true), (at += 2));
  const u32 = (v) => (view.setUint32(at, v, true), (at += 4));
  // The fields a local header and a central record share: version needed 2.0, UTF-8 names,
  // stored (method 0), time, date, CRC-32, both sizes (equal: stored), name length, no extra.
  const common = (e) => {
    (u16(20), u16(0x0800), u16(0), u16(time), u16(day), u32(e.crc), u32(e.bytes.length), u32(e.bytes.length));
    (u16(e.name.length), u16(0));
  };
  for (const e of entries) {
    e.offset = at;
    u32(0x04034b50);
    common(e);
    out.set(e.name, at);
    out.set(e.bytes, (at += e.name.length));
    at += e.bytes.length;
  }
  const directory = at;
  for (const e of entries) {
    u32(0x02014b50);
    u16(20); // made by: MS-DOS attributes, version 2.0
    common(e);
    (u16(0), u16(0), u16(0), u32(0)); // no comment, disk 0, no attributes
    u32(e.offset);
    out.set(e.name, at);
    at += e.name.length;
  }
  const size = at - directory;
  u32(0x06054b50);
  (u16(0), u16(0), u16(entries.length), u16(entries.length)); // disk 0 of 1, the entries
  (u32(size), u32(directory), u16(0)); // the directory's size and offset, no comment
  return out;
}
