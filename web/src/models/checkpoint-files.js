// What the learner opened as a model (the file picker, the folder picker, files or a folder
// dropped on the page): a model file of this project, or a Hugging Face GPT-2 checkpoint —
// config.json and model.safetensors, with its tokenizer's vocab.json and merges.txt when it has
// them (they win over GPT-2's own files, bundled with the page). Read here, on the page; the
// engine's worker checks every key and tensor (models/gpt2.js).
//
//   const opened = sortOpened(files);  // { model: File } | { checkpoint: { name, files } } | { missing: [...] }
//   const payload = await readCheckpoint(opened.checkpoint, { maxBytes, gpt2Files });

export const CHECKPOINT_FILES = ['config.json', 'model.safetensors'];
export const TOKENIZER_FILES = ['vocab.json', 'merges.txt'];

/** A refusal the page words itself (models/i18n.js): `reason` and the file names it is about. */
export class CheckpointRefusal extends Error {
  constructor(reason, files, detail = {}) {
    super(`${reason}: ${files.join(', ')}`);
    this.reason = reason;
    this.files = files;
    this.detail = detail;
  }
}

const baseName = (file) => file.name.split('/').at(-1);

/** The folder the files came from (a folder picker's webkitRelativePath), or ''. */
function folderOf(files) {
  const path = files.find((f) => f.webkitRelativePath)?.webkitRelativePath ?? '';
  return path.includes('/') ? path.split('/').at(-2) : '';
}

/**
 * Files (File objects, or anything with a name) → { model: File } (one *.model file), or
 * { checkpoint: { name, files: { 'config.json': File, … } } } when a checkpoint's file is among
 * them (only the folder's own files count: a folder picker also gives its subfolders'), or
 * { missing: [names] } when a checkpoint lacks config.json or model.safetensors, or null (nothing
 * this page opens: the model file reader says what it is).
 */
export function sortOpened(list) {
  const files = Array.from(list);
  const depth = (f) => (f.webkitRelativePath || f.name).split('/').length;
  const top = Math.min(...files.map(depth));
  const own = new Map(files.filter((f) => depth(f) === top).map((f) => [baseName(f), f]));
  const known = [...CHECKPOINT_FILES, ...TOKENIZER_FILES];
  const named = known.filter((n) => own.has(n));
  const isCheckpoint = named.length > 0 || [...own.keys()].some((n) => n.endsWith('.safetensors'));
  if (!isCheckpoint) {
    if (!files.length) return null;
    return { model: files.find((f) => baseName(f).endsWith('.model')) ?? files[0] };
  }
  // A model.safetensors under another name (a single *.safetensors beside config.json) is read as it.
  if (!own.has('model.safetensors')) {
    const other = [...own.keys()].filter((n) => n.endsWith('.safetensors'));
    if (other.length === 1) own.set('model.safetensors', own.get(other[0]));
  }
  const missing = CHECKPOINT_FILES.filter((n) => !own.has(n));
  if (missing.length) return { missing };
  const name = folderOf(files) || baseName(own.get('model.safetensors'));
  return {
    checkpoint: { name, files: Object.fromEntries(known.filter((n) => own.has(n)).map((n) => [n, own.get(n)])) },
  };
}

/**
 * The checkpoint's payload for the worker's modelLoad: { config, safetensors, vocab, merges,
 * vocabName, mergesName }. `maxBytes`: the engine's bound on model.safetensors (refused unread
 * past it); `gpt2Files()`: GPT-2's own tokenizer files (gpt2-files.js), used for a GPT-2 of
 * GPT-2's vocabulary (model_type gpt2, vocab_size 50257) that brings none; null when this page
 * has none. Refuses (CheckpointRefusal) with the files at fault.
 */
export async function readCheckpoint({ files }, { maxBytes, gpt2Files }) {
  const safetensors = files['model.safetensors'];
  if (safetensors.size > maxBytes) {
    throw new CheckpointRefusal('tooLarge', ['model.safetensors'], { size: safetensors.size, maxBytes });
  }
  const config = await files['config.json'].text();
  const given = TOKENIZER_FILES.filter((n) => files[n]);
  let tokenizer;
  if (given.length === 2) {
    const [vocab, merges] = await Promise.all(TOKENIZER_FILES.map((n) => files[n].text()));
    tokenizer = { vocab, merges, vocabName: 'vocab.json', mergesName: 'merges.txt' };
  } else if (given.length === 1) {
    throw new CheckpointRefusal(
      'tokenizerHalf',
      TOKENIZER_FILES.filter((n) => !files[n]),
    );
  } else {
    let parsed = null;
    try {
      parsed = JSON.parse(config);
    } catch {
      // Not JSON: the engine names it (field config) once the files are there.
    }
    const gpt2 = parsed?.model_type === 'gpt2' && parsed?.vocab_size === 50257;
    if (!gpt2) throw new CheckpointRefusal('tokenizerMissing', TOKENIZER_FILES, { vocabSize: parsed?.vocab_size });
    if (!gpt2Files) throw new CheckpointRefusal('tokenizerNotBundled', TOKENIZER_FILES);
    const { vocab, merges } = await gpt2Files();
    tokenizer = { vocab, merges, vocabName: 'encoder.json', mergesName: 'vocab.bpe' };
  }
  return { config, safetensors: new Uint8Array(await safetensors.arrayBuffer()), ...tokenizer };
}

/** The files of a drop (DataTransfer): a dropped folder's own files (read through its entry), or the dropped files. */
export async function droppedFiles(dataTransfer) {
  const entries = Array.from(dataTransfer.items ?? [])
    .map((item) => item.webkitGetAsEntry?.())
    .filter(Boolean);
  const folder = entries.find((e) => e.isDirectory);
  if (!folder) return Array.from(dataTransfer.files ?? []);
  const reader = folder.createReader();
  const children = [];
  // readEntries gives a folder's entries in batches until an empty one.
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    children.push(...batch);
  }
  const files = await Promise.all(
    children.filter((e) => e.isFile).map((e) => new Promise((resolve, reject) => e.file(resolve, reject))),
  );
  // Named as a folder picker names them (an own property: File's is a getter), so that
  // sortOpened reads the folder's name.
  return files.map((f) => Object.defineProperty(f, 'webkitRelativePath', { value: `${folder.name}/${f.name}` }));
}
