// The bundled static server's memory under clients that request a file and never read it:
// the server's RSS before, with the clients stalled, and after they went away.
//   node bench/serve-stalled.mjs [clients (200)] [path (/models/brown.model)] [server module]
// The server runs in its own process (build-scripts/serve.mjs's startServer), so the RSS is its
// alone. docs/benchmarks.md, "The static server", has the figures.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const [clients = '200', target = '/models/brown.model', module = path.join(here, '../build-scripts/serve.mjs')] =
  process.argv.slice(2);

const script = `const { startServer } = await import(${JSON.stringify(pathToFileURL(path.resolve(module)).href)});
const server = await startServer({ port: 0, host: '127.0.0.1' });
console.log('port ' + server.address().port);`;
const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
for await (const chunk of child.stdout) {
  out += chunk;
  if (/port \d+/.test(out)) break;
}
const port = Number(/port (\d+)/.exec(out)[1]);
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;

const before = rss();
const sockets = await Promise.all(
  Array.from({ length: Number(clients) }, async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await once(socket, 'data');
    socket.pause();
    return socket;
  }),
);
await sleep(1000);
const stalled = rss();
for (const socket of sockets) socket.destroy();
await sleep(1000);
const after = rss();
child.kill();
console.log(
  `${clients} stalled clients of ${target}: server RSS ${before.toFixed(0)} MB before, ` +
    `${stalled.toFixed(0)} MB with them, ${after.toFixed(0)} MB once they left`,
);
