// Model files on disk for the training commands: read without trusting the path (a device, a
// FIFO or a huge file must not hang the command or fill memory), written without destroying
// what was there (checked before training, a temporary file beside the target, then a rename).
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { AttentionError } from '../dist/engine/engine.js';
import { Refusal, UsageError, WriteFailure } from './failures.mjs';

// Enough for the engine to check the magic and the version (its header is 20 bytes, 28 with the
// checksum); a smaller file is read whole.
const HEAD_BYTES = 1 << 16;

function kindOf(stats) {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Up to `size` bytes from the current position of `fd` (fewer at the end of the file). */
function readUpTo(fd, buffer, from, size) {
  let done = from;
  while (done < size) {
    const n = readSync(fd, buffer, done, size - done, null);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/**
 * The bytes of the model file at `file`, read through at most `engine.limits.maxModelFileBytes`
 * (the longest file loadModel accepts). `argument` names where the path came from in messages
 * ("--model", "the model file"). Refuses what is not a regular file before opening it, and a file
 * whose first bytes the engine refuses (magic, version) before reading the rest.
 */
export function readModelBytes(engine, file, argument) {
  if (file === '') throw new UsageError(`${argument} must name a file (it is empty)`);
  const regular = (stats) => {
    if (!stats.isFile()) throw new Refusal(`${argument} (${file}) must be a regular file, not ${kindOf(stats)}`);
  };
  let fd;
  try {
    // stat first: opening a FIFO waits for a writer. O_NONBLOCK too, should the path change.
    regular(statSync(file));
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}`);
  }
  try {
    const stats = fstatSync(fd);
    regular(stats);
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    const headBytes = readUpTo(fd, head, 0, HEAD_BYTES);
    if (headBytes < HEAD_BYTES) return head.subarray(0, headBytes);
    refuseUnlessAModelFile(engine, head);
    const max = engine.limits.maxModelFileBytes;
    if (stats.size > max) {
      throw new Refusal(
        `${argument} (${file}) has ${stats.size} bytes; a model file has at most ${max} (the largest model the engine's limits allow)`,
      );
    }
    // One byte more than the file had: a file that grows while it is read is caught, not followed.
    const bytes = Buffer.allocUnsafe(stats.size + 1);
    head.copy(bytes);
    const size = readUpTo(fd, bytes, HEAD_BYTES, bytes.length);
    if (size > stats.size) throw new Refusal(`${argument} (${file}) grew while it was read`);
    return bytes.subarray(0, size);
  } catch (error) {
    if (error instanceof Refusal || error instanceof AttentionError) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}`);
  } finally {
    closeSync(fd);
  }
}

/** Throws the engine's refusal when the first bytes are not a model file's (model.magic, model.version). */
function refuseUnlessAModelFile(engine, head) {
  try {
    engine.loadModel(head).dispose(); // a whole model in exactly HEAD_BYTES: the full read decides
  } catch (error) {
    if (!(error instanceof AttentionError)) throw error;
    // Any other field (model.size: "truncated") is the head being only the head.
    if (error.field === 'model.magic' || error.field === 'model.version') throw error;
  }
}

const temporaryBeside = (out) => path.join(path.dirname(out), `.${path.basename(out)}.${process.pid}.tmp`);

/**
 * Checks, before any training, that a model file can be written to `out`: a regular file or a new
 * one in a folder that takes new files; an existing file only with `force`. A symbolic link counts
 * as the file it names (which is replaced, the link kept); a link to a missing file is refused.
 * Returns whether a file will be replaced, and `target`, the path to write.
 */
export function checkOutput(out, force) {
  if (out === '') throw new UsageError('--out must name a file (it is empty)');
  let stats;
  let target = out;
  try {
    // lstat: stat would take a link to a missing file for a free name, and the link would then
    // refuse the model at the end of the training.
    stats = lstatSync(out);
    if (stats.isSymbolicLink()) {
      try {
        stats = statSync(out);
      } catch (error) {
        if (error.code !== 'ENOENT') throw error;
        throw new WriteFailure(
          `--out (${out}) is a symbolic link to a missing file (${readlinkSync(out)}); name the file itself, or remove the link`,
        );
      }
      target = realpathSync(out);
    }
  } catch (error) {
    if (error instanceof WriteFailure) throw error;
    if (error.code !== 'ENOENT') throw new WriteFailure(`cannot write ${out}: ${error.code ?? error.message}`);
  }
  if (stats && !stats.isFile()) throw new WriteFailure(`--out (${out}) must be a regular file, not ${kindOf(stats)}`);
  if (stats && !force) throw new WriteFailure(`${out} exists; give --force to replace it, or another --out`);
  // The model is written to this temporary file: making it now proves the folder takes it.
  const temporary = temporaryBeside(target);
  try {
    closeSync(openSync(temporary, 'wx'));
    unlinkSync(temporary);
  } catch (error) {
    const folder = path.dirname(target);
    const why = error.code === 'ENOENT' ? ` (no folder ${folder})` : ` (in ${folder})`;
    throw new WriteFailure(`cannot write ${out}: ${error.code ?? error.message}${why}`);
  }
  return { replaces: Boolean(stats), target };
}

/**
 * Writes `bytes` to a temporary file beside `out`, then moves it into place: a failed write leaves
 * the old file whole. Without `force` an existing file is never replaced, even one made since
 * checkOutput (a hard link fails rather than replace; a rename where links are not supported).
 */
export function writeOutput(out, bytes, force) {
  const temporary = temporaryBeside(out);
  try {
    const fd = openSync(temporary, 'wx');
    try {
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (force) renameSync(temporary, out);
    else placeWithoutReplacing(temporary, out);
  } catch (error) {
    rmSync(temporary, { force: true });
    if (error instanceof WriteFailure) throw error;
    throw new WriteFailure(`cannot write ${out}: ${error.code ?? error.message}`);
  }
}

function placeWithoutReplacing(temporary, out) {
  try {
    linkSync(temporary, out);
  } catch (error) {
    if (error.code === 'EEXIST') throw new WriteFailure(`${out} appeared during training; give --force to replace it`);
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(error.code)) throw error;
    renameSync(temporary, out); // a file system without hard links
    return;
  }
  unlinkSync(temporary);
}
