// Serves dist/site/ on http://localhost:8080/ (PORT to change it) with a strict
// Content-Security-Policy (no inline script, no eval; WebAssembly allowed to compile) and
// cross-origin isolation (the threaded engine's shared memory).
import { STATUS_CODES, createServer } from 'node:http';
import { readFile, realpath, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { MAX_SENTENCE_CHARS } from '../web/src/limits.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/site');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:", // the web component carries KaTeX's fonts inline
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

// Cross-origin isolation: with these two headers the browser grants the page
// SharedArrayBuffer, and the playground trains on the threaded engine (dist/site/engine-mt/).
// require-corp admits only same-origin subresources (or ones sent with CORP/CORS): the site
// loads nothing from elsewhere. Without them the page runs the single-threaded engine.
export const ISOLATION = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Headers on every response, errors included: a 404 page must not be sniffed as HTML either.
const HARDENING = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', ...ISOLATION };
const ALLOW = 'GET, HEAD';
// The longest link the page writes: every character of its longest sentence percent-encoded
// as three UTF-8 bytes (9 characters, e.g. 我 → %E6%88%91), plus the other fields and headers.
// Node's default (16 KiB) would answer such a link with 431.
const MAX_HEADER_BYTES = MAX_SENTENCE_CHARS * 9 + 16 * 1024;

function reply(response, status, extra = {}) {
  const body = `${STATUS_CODES[status]}\n`;
  response.writeHead(status, {
    ...HARDENING,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...extra,
  });
  response.end(body);
}

/**
 * The decoded path of a request-target, or null when it is malformed: origin-form "/a/b?q"
 * or absolute-form "http://host/a/b" (RFC 9112 §3.2); percent-encoding must decode to UTF-8
 * without NUL.
 */
function targetPath(target) {
  let pathname;
  if (target.startsWith('/')) pathname = target.replace(/[?#][^]*$/, '');
  else if (/^https?:\/\//i.test(target) && URL.canParse(target)) pathname = new URL(target).pathname;
  else return null;
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null; // "%", "%ZZ", a truncated or invalid UTF-8 sequence
  }
  return decoded.includes('\0') ? null : decoded;
}

const inside = (file, folder) => file.startsWith(folder + path.sep);

async function serve(request, response, siteRoot) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, { Allow: ALLOW });
  const decoded = targetPath(request.url);
  if (decoded === null) return reply(response, 400);
  const file = path.resolve(root, decoded.replace(/^\/+/, '') || 'index.html');
  if (!inside(file, root)) return reply(response, 403);
  let body;
  try {
    // A symbolic link in the site must not lead out of it.
    const real = await realpath(file);
    if (!inside(real, siteRoot)) return reply(response, 403);
    // Regular files only: a folder is no page, and reading a FIFO would wait for a writer,
    // holding one of libuv's four file threads for good.
    if (!(await stat(real)).isFile()) return reply(response, 404);
    body = await readFile(real);
  } catch {
    return reply(response, 404);
  }
  response.writeHead(200, {
    ...HARDENING,
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': body.length,
    'Cache-Control': 'no-cache',
  });
  response.end(body); // HEAD: node sends the headers only
}

export async function startServer({ port: listenPort = port, host: listenHost = host } = {}) {
  const siteRoot = await realpath(root).catch(() => root);
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
    serve(request, response, siteRoot).catch(() => {
      if (response.headersSent) response.destroy();
      else reply(response, 500);
    });
  });
  // A client may half-close its side once it has sent its request (`shutdown(SHUT_WR)`, a
  // socket's end()): answer it, then close. Node's default ends the connection as soon as the
  // client's side ends, before a response read asynchronously from disk is written.
  server.httpAllowHalfOpen = true;
  // Requests node's parser refuses (bad header lines, too long): the same headers as the rest.
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const headers = Object.entries(HARDENING).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.join('')}Connection: close\r\nContent-Length: 0\r\n\r\n`,
    );
    // Read and drop what the client is still sending (the rest of a too-long request): a
    // socket closed with unread data answers with a reset, which can discard the response
    // before the client reads it. Clients that never stop are cut off after 5 s.
    socket.resume();
    socket.setTimeout(5000, () => socket.destroy());
  });
  await new Promise((resolve) => server.listen(listenPort, listenHost, resolve));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  console.log(`Attention Explorer: http://localhost:${server.address().port}/  (Ctrl+C to stop)`);
}
