// What the page benchmarks share: Chromium's flags (no network, no sandbox as root) and
// writing a table between markers in docs/benchmarks.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Puts `text` between `<!-- name:start -->` and `<!-- name:end -->` in docs/benchmarks.md; when
 * the markers are not there yet, appends `heading` and the section (without a heading: nothing).
 */
export function writeDocSection(name, text, heading = '') {
  const file = path.join(root, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${text}\n${end}`;
  if (doc.includes(start))
    writeFileSync(
      file,
      doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), () => section),
    );
  else if (heading) writeFileSync(file, `${doc.trimEnd()}\n\n${heading}\n\n${section}\n`);
}
