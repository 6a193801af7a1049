// GPT-2 checkpoints on disk for `trace --model` (and every command that reads --model): a
// Hugging Face folder holding config.json and model.safetensors, or the model.safetensors file
// with its config.json beside it. Read as model files are: what is not a regular file is refused
// unopened, and nothing past the engine's bound is read.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { Refusal } from './failures.mjs';

// config.json is about 1 KB; the engine's model file bounds its configuration the same way.
const MAX_CONFIG_BYTES = 1 << 20;

/**
 * { config, safetensors } paths when `file` names a checkpoint: a folder holding either file, or
 * a *.safetensors file. Else null, and the model file reader says what `file` is.
 */
export function checkpointPaths(file) {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return null; // not there: the model file reader says so
  }
  if (stats.isDirectory()) {
    const paths = { config: path.join(file, 'config.json'), safetensors: path.join(file, 'model.safetensors') };
    return existsSync(paths.config) || existsSync(paths.safetensors) ? paths : null;
  }
  if (file.endsWith('.safetensors')) return { config: path.join(path.dirname(file), 'config.json'), safetensors: file };
  return null;
}

/** The bytes of the regular file `file`, at most `max` of them. */
function readBounded(file, max, what) {
  const why = ' (a GPT-2 checkpoint is a folder with config.json and model.safetensors)';
  let fd;
  try {
    if (!statSync(file).isFile()) throw new Refusal(`${what} (${file}) must be a regular file${why}`);
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}${why}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Refusal(`${what} (${file}) must be a regular file${why}`);
    if (stats.size > max) throw new Refusal(`${what} (${file}) has ${stats.size} bytes; at most ${max} are read`);
    // One byte more than the file had: a file that grows while it is read is caught, not followed.
    const bytes = Buffer.allocUnsafe(stats.size + 1);
    let done = 0;
    for (let n = 1; n > 0 && done < bytes.length; done += n) n = readSync(fd, bytes, done, bytes.length - done, null);
    if (done > stats.size) throw new Refusal(`${what} (${file}) grew while it was read`);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, done);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}`);
  } finally {
    closeSync(fd);
  }
}

/** The checkpoint at `paths` (checkpointPaths) as the engine's model; `argument` names the flag. */
export function readCheckpoint(engine, paths, argument) {
  const config = readBounded(paths.config, MAX_CONFIG_BYTES, `${argument}'s config.json`);
  const safetensors = readBounded(
    paths.safetensors,
    engine.limits.maxModelFileBytes,
    `${argument}'s model.safetensors`,
  );
  return engine.loadCheckpoint({ config, safetensors });
}
