// The tokenize command of the CLI (dispatched from attention-explorer.mjs): GPT-2's byte-level
// BPE, the engine's (engine.createBpeTokenizer), so that the command, node and the page give the
// same ids.
//   attention-explorer tokenize --vocab encoder.json --merges vocab.bpe "Hello world"
//     {"ids":[15496,995],"tokens":["Hello","Ġworld"],"chips":["Hello"," world"]}
//   attention-explorer tokenize --vocab vocab.json --merges merges.txt --decode 15496,995
//     Hello world
// Exit codes: 0 ok, 1 the engine refused a file, the text or the ids, 2 bad arguments (or a file
// that cannot be read).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AttentionError, createEngine } from '../dist/engine/engine.js';
import { exitQuietlyWhenThePipeCloses } from './stdout.mjs';

const USAGE = `usage:
  attention-explorer tokenize --vocab FILE --merges FILE "<text>"
  attention-explorer tokenize --vocab FILE --merges FILE --decode ID,ID,…

GPT-2's tokenizer: --vocab is encoder.json (or a checkpoint's vocab.json), --merges is vocab.bpe
(or merges.txt). Prints { ids, tokens (the vocabulary's spellings, Ġ for a space), chips (the
text over each run of tokens that covers whole characters) } as JSON; with --decode, the text of
the ids.

exit status: 0 ok, 1 the engine refused a file, the text or the ids, 2 bad arguments.`;

export const isTokenizeCommand = (argv) => argv[0] === 'tokenize';

class UsageError extends Error {}

function readText(file, flag) {
  if (file === undefined) throw new UsageError(`--${flag} FILE is required`);
  try {
    return readFileSync(file);
  } catch (error) {
    throw new UsageError(`--${flag} ${JSON.stringify(file)} cannot be read: ${error.message}`);
  }
}

function idsOf(text) {
  if (!/^\d+(,\d+)*$/.test(text)) {
    throw new UsageError(`--decode (${JSON.stringify(text)}) must be token ids separated by commas, e.g. 15496,995`);
  }
  return text.split(',').map(Number);
}

/** Runs `attention-explorer tokenize …` (argv without the node and script paths); the exit code. */
export async function runTokenizeCommand(argv) {
  let tokenizer;
  try {
    const { values, positionals } = parseArgs({
      args: argv.slice(1),
      allowPositionals: true,
      options: {
        vocab: { type: 'string' },
        merges: { type: 'string' },
        decode: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const text = positionals.length ? positionals.join(' ') : undefined;
    if ((text === undefined) === (values.decode === undefined)) {
      throw new UsageError('give a text to tokenize or --decode ids, one of them');
    }
    const ids = values.decode === undefined ? undefined : idsOf(values.decode);
    const vocab = readText(values.vocab, 'vocab');
    const merges = readText(values.merges, 'merges');
    const engine = await createEngine();
    tokenizer = engine.createBpeTokenizer({
      vocab,
      merges,
      vocabName: path.basename(values.vocab),
      mergesName: path.basename(values.merges),
    });
    exitQuietlyWhenThePipeCloses();
    if (ids !== undefined) {
      process.stdout.write(`${tokenizer.decode(ids)}\n`);
    } else {
      const { ids: encoded, tokens, chips } = tokenizer.pieces(text);
      process.stdout.write(`${JSON.stringify({ ids: encoded, tokens, chips: chips.map((c) => c.text) })}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AttentionError) {
      process.stderr.write(`attention-explorer: ${error.field}: ${error.message} [${error.code}]\n`);
      return 1;
    }
    if (error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`attention-explorer: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  } finally {
    tokenizer?.dispose();
  }
}
