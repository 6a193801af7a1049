// How the commands treat their standard output, one place for `trace` and the training commands.

/** A reader that stops early (`| head`) closes the pipe: exit 0; any other write error exits 3. */
export function exitQuietlyWhenThePipeCloses() {
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    process.stderr.write(`attention-explorer: cannot write the output: ${error.message}\n`);
    process.exit(3);
  });
}
