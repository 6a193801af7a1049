// "Export for transformers": a trained model as a Hugging Face GPT-2 folder (docs/gpt2.md,
// "Export ours") in one .zip download, from the explorer's model panel and the playground. The
// four files are the CLI's (hfFolder, dist/engine/hf_export.js); a page cannot write a folder, so
// they go into one stored ZIP (zip.js). The archive is made where the model lives (the page's
// engine worker, the playground's training worker): the page only downloads its bytes (download.js).
//   exportRefusal(config)             → null, or why the button is off (a key of i18n-hf-export.js's exportHfRefused)
//   hfZip(model, fileName, by)        → the .zip's bytes (in the worker)
//   hfZipName(fileName)               → '<model name>-hf.zip'
import { checkExportable, exportCheckpoint, hfFolder } from '../../dist/engine/hf_export.js';
import { zipStored } from './zip.js';

/**
 * Why `config` (a model's config, as model.config gives it) cannot be exported: 'checkpoint' for
 * a GPT-2 checkpoint opened in the page (its files already are one), the model file's key GPT-2
 * has no switch for (attentionOnly, tiedEmbeddings, positionalEncoding, scale, causal, residual,
 * dK), or null when it can.
 */
export function exportRefusal(config) {
  if (!config) return 'none';
  if (config.source === 'gpt2 checkpoint') return 'checkpoint';
  try {
    checkExportable(config);
    return null;
  } catch (error) {
    return String(error.field ?? '').replace(/^model\.config\./, '') || 'other';
  }
}

/** The model's name without its .model ending, and -hf.zip: tang.model → tang-hf.zip. */
export const hfZipName = (fileName) => `${String(fileName).replace(/\.model$/i, '') || 'model'}-hf.zip`;

/**
 * The .zip of the exported folder (config.json, model.safetensors, vocab.txt, README.md) of
 * `model` (a TrainedModel or a Trainer: anything with save(); the export throws, naming the key,
 * for a model GPT-2 cannot express). `fileName` names the model in the README, `by` what wrote
 * it. The README reads the model file's config (a trainer's own config lacks its context length
 * and vocabulary level).
 */
export function hfZip(model, fileName, by) {
  const exported = exportCheckpoint(model.save());
  return zipStored(hfFolder(exported, exported.source, fileName, by));
}
