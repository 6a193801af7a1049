// The store-only ZIP writer of the pages' "Export for transformers" button (web/src/zip.js),
// read by an independent reader: Python's zipfile (tests/reference/read_zip.py, which also checks
// every entry's CRC-32) and, where it is installed, Info-ZIP's `unzip -t`. CRC-32 against the
// check value of the standard and against Python's zlib.crc32.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './support.mjs';
import { crc32, zipStored } from '../../web/src/zip.js';

const PYTHON = '/usr/bin/python3';
const utf8 = (text) => new TextEncoder().encode(text);
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Python zipfile's reading of `bytes` (read_zip.py's JSON); the temporary file is removed. */
function readWithPython(bytes) {
  const dir = mkdtempSync(path.join(tmpdir(), 'zip-test-'));
  try {
    const file = path.join(dir, 'a.zip');
    writeFileSync(file, bytes);
    const run = spawnSync(PYTHON, [path.join(root, 'tests/reference/read_zip.py'), file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const unzip = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
    return { ...JSON.parse(run.stdout), unzip: unzip.error ? null : unzip };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('crc32 gives the standard check value and zlib.crc32 on bytes of every value', () => {
  assert.equal(crc32(utf8('123456789')), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
  const bytes = Uint8Array.from({ length: 70000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff);
  const python = spawnSync(PYTHON, ['-c', 'import sys, zlib; print(zlib.crc32(sys.stdin.buffer.read()))'], {
    input: bytes,
    encoding: 'utf8',
  });
  assert.equal(python.status, 0, python.stderr);
  assert.equal(crc32(bytes), Number(python.stdout.trim()));
});

test('zipStored: Python zipfile (and unzip -t) read every file back byte for byte, stored, CRCs right', () => {
  const files = [
    { name: 'config.json', bytes: utf8('{"n_layer": 2}\n') },
    { name: 'empty.txt', bytes: new Uint8Array(0) },
    // Bytes of every value, and more than 64 KiB (the 16-bit fields stay unused for sizes).
    { name: 'weights.bin', bytes: Uint8Array.from({ length: 200003 }, (_, i) => (i * 31 + 7) & 0xff) },
    { name: '唐诗/vocab.txt', bytes: utf8('床\n前\n明\n') },
  ];
  const read = readWithPython(zipStored(files, { date: new Date(2024, 4, 17, 13, 45, 30) }));
  assert.equal(read.bad, null, 'a CRC-32 that does not match its bytes');
  assert.deepEqual(
    read.entries.map((e) => [e.name, e.size, e.compressed, e.method, e.utf8]),
    files.map((f) => [f.name, f.bytes.length, f.bytes.length, 0, true]),
  );
  for (const f of files) assert.equal(read.sha256[f.name], sha256(f.bytes), f.name);
  assert.deepEqual(
    read.entries.map((e) => e.crc),
    files.map((f) => crc32(f.bytes)),
  );
  if (read.unzip) {
    assert.equal(read.unzip.status, 0, read.unzip.stdout + read.unzip.stderr);
    assert.match(read.unzip.stdout, /No errors detected/);
  }
});

test('zipStored: an empty archive is one Python reads; a repeated or empty name is refused by name', () => {
  assert.deepEqual(readWithPython(zipStored([])).entries, []);
  assert.throws(
    () =>
      zipStored([
        { name: 'a', bytes: new Uint8Array(1) },
        { name: 'a', bytes: new Uint8Array(1) },
      ]),
    /zip: file name "a" must be a non-empty name used once/,
  );
  assert.throws(() => zipStored([{ name: '', bytes: new Uint8Array(1) }]), /zip: file name "" must be/);
});
