// GPT-2 checkpoints: a Hugging Face folder's config.json and model.safetensors as a TrainedModel
// of token ids (the engine reads them: attention/train/gpt2_checkpoint.hpp). Its vocabulary is
// the ids in decimal until a tokenizer names them, so `{ tokens: [15496, 995] }` and
// `{ text: '15496 995' }` both read ids.
//
//   const model = engine.loadCheckpoint({ config: readFileSync('config.json', 'utf8'),
//                                         safetensors: readFileSync('model.safetensors') });
//   model.trace({ tokens: [15496, 995] }).layers[0].step('weights', 0)
//   model.dispose();
import { AttentionError, describe, invalid } from './errors.js';
import { get } from './read.js';
import { ownKeys } from './call_options.js';
import { TrainedModel, open } from './training.js';

const KEYS = ['config', 'safetensors'];
// A config.json is about 1 KB; the model file's configuration has the same bound.
const MAX_CONFIG_BYTES = 1 << 20;

/** config.json as text: a string, its UTF-8 bytes, or the parsed object. */
function configText(config) {
  let text = config;
  if (config instanceof ArrayBuffer || config instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(config);
    } catch {
      throw new AttentionError('INVALID_UTF8', 'config', 'config (config.json) is not UTF-8');
    }
  } else if (config && typeof config === 'object' && !Array.isArray(config)) {
    text = JSON.stringify(config);
  }
  if (typeof text !== 'string') {
    throw invalid('config', `config (${describe(config)}) must be config.json's text, its bytes or its object`);
  }
  // A string of at most a third as many code units is within the bound unmeasured.
  if (text.length > MAX_CONFIG_BYTES / 3 && new TextEncoder().encode(text).length > MAX_CONFIG_BYTES) {
    throw new AttentionError(
      'LIMIT_EXCEEDED',
      'config',
      `config (config.json) must be at most ${MAX_CONFIG_BYTES} bytes`,
    );
  }
  return text;
}

/** `{ config, safetensors }` → a TrainedModel; `maxBytes` bounds the safetensors' length. */
export function loadCheckpoint(call, onDispose, checkpoint, maxBytes) {
  if (!checkpoint || typeof checkpoint !== 'object' || Array.isArray(checkpoint)) {
    throw invalid('checkpoint', `the checkpoint (${describe(checkpoint)}) must be { config, safetensors }`);
  }
  for (const key of ownKeys(checkpoint, 'checkpoint', 'the checkpoint')) {
    if (!KEYS.includes(key))
      throw invalid(key, `unknown field ${describe(key)}; the checkpoint is { config, safetensors }`);
  }
  const config = configText(get(checkpoint, 'config', 'config'));
  let bytes = get(checkpoint, 'safetensors', 'safetensors');
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) {
    throw invalid('safetensors', `safetensors (${describe(bytes)}) must be a Uint8Array or an ArrayBuffer`);
  }
  // Refused before it is copied into WASM memory, which never shrinks.
  if (bytes.length > maxBytes) {
    throw new AttentionError(
      'LIMIT_EXCEEDED',
      'safetensors',
      `safetensors (${bytes.length} bytes) must be at most ${maxBytes} bytes (the largest model the engine's limits allow)`,
    );
  }
  return open(
    call,
    (handle) => handle.loadCheckpoint(config, bytes),
    (handle) => new TrainedModel(handle, call, onDispose),
  );
}
