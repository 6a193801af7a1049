// Serves dist/site/ on http://localhost:8080/ (PORT to change it) with a strict
// Content-Security-Policy (no inline script, no eval; WebAssembly allowed to compile) and
// cross-origin isolation (the threaded engine's shared memory).
import { STATUS_CODES, createServer } from 'node:http';
import { constants, open, realpath } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
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

// Slow clients. A request's headers must arrive within HEADERS_MS (node's 60 s default let a
// client dripping one byte a second hold a socket for a minute, and node checked only every
// 30 s); the longest link (~200 KB) takes well under that even at 100 KB/s. A connection
// with nothing sent or received for IDLE_MS is closed: a client that stops reading a file
// would otherwise hold its socket, its file and the stream's buffers for good. At most
// MAX_SOCKETS connections at once (a browser opens six); node drops the ones beyond.
const HEADERS_MS = 5000;
const IDLE_MS = 30_000;
export const MAX_SOCKETS = 256;
// After a refused request: how long the rest of it is read and dropped, at most.
const DRAIN_MS = 2000;

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
 * The segments of a request-target's path, decoded; null when the target is malformed (400).
 * Origin-form "/a/b?q" or absolute-form "http://host/a/b" (RFC 9112 §3.2); each segment's
 * percent-encoding must decode to UTF-8 without NUL. The path is taken as sent: an absolute
 * form's dot segments are not resolved here (URL would), so that both forms name files alike.
 */
function targetSegments(target) {
  let pathname;
  if (target.startsWith('/')) pathname = target.replace(/[?#][^]*$/, '');
  else if (/^https?:\/\//i.test(target) && URL.canParse(target)) {
    pathname = /^https?:\/\/[^/?#]*([^?#]*)/i.exec(target)[1] || '/';
  } else return null;
  try {
    const segments = pathname.slice(1).split('/').map(decodeURIComponent);
    return segments.some((segment) => segment.includes('\0')) ? null : segments;
  } catch {
    return null; // "%", "%ZZ", a truncated or invalid UTF-8 sequence
  }
}

/**
 * The file a path names relative to the site, or null when the path is not a file's own
 * (canonical) path: every segment a name, none empty, "." or "..", none holding a slash
 * ("%2F") or a backslash. "/" is index.html. Stripping a trailing "/" or "/." instead served
 * /playground.html/ as the page, whose relative scripts then resolved to /playground.html/app.js.
 */
function canonicalFile(segments) {
  if (segments.length === 1 && segments[0] === '') return 'index.html';
  const name = (segment) => segment !== '' && segment !== '.' && segment !== '..' && !/[/\\]/.test(segment);
  return segments.every(name) ? segments.join('/') : null;
}

const inside = (file, folder) => file.startsWith(folder + path.sep);

async function serve(request, response, siteRoot) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return reply(response, 405, { Allow: ALLOW });
  // HTTP/1.1 requires Host (RFC 9112 §3.2). Node checks it itself, with a bare 400 without
  // this server's headers; here it is turned off (requireHostHeader) and checked instead.
  if (request.httpVersion === '1.1' && !request.headers.host) return reply(response, 400, { Connection: 'close' });
  const segments = targetSegments(request.url);
  if (segments === null) return reply(response, 400);
  const relative = canonicalFile(segments);
  if (relative === null) return reply(response, 404);
  const file = path.resolve(root, relative);
  if (!inside(file, root)) return reply(response, 403);
  let handle;
  let size;
  try {
    // A symbolic link in the site must not lead out of it.
    const real = await realpath(file);
    if (!inside(real, siteRoot)) return reply(response, 403);
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, holding one
    // of libuv's four file threads for good. Regular files only: a folder is no page.
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a regular file');
    size = stats.size;
  } catch {
    await handle?.close();
    return reply(response, 404);
  }
  response.writeHead(200, {
    ...HARDENING,
    'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
    'Content-Length': size,
    'Cache-Control': 'no-cache',
  });
  if (request.method === 'HEAD' || size === 0) {
    await handle.close();
    return response.end();
  }
  // Streamed, never read whole: a client that does not read holds the stream's buffers
  // (about 80 KB), not the file (a model is 2.9 MB). `end` keeps to the Content-Length sent
  // even if the file grows meanwhile; a file that shrank ends the connection, short.
  const stream = handle.createReadStream({ start: 0, end: size - 1 });
  try {
    await pipeline(stream, response);
  } catch {
    response.destroy(); // the client went away or was timed out: its socket is closed
  }
  if (stream.bytesRead < size) response.destroy();
}

/** Per socket: its responses not yet finished, a refusal waiting for them, whether refused. */
const connections = new WeakMap();

function connectionOf(socket) {
  if (!connections.has(socket)) connections.set(socket, { open: new Set(), deferred: null, refused: false });
  return connections.get(socket);
}

function track(request, response) {
  const socket = request.socket;
  const connection = connectionOf(socket);
  connection.open.add(response);
  response.once('close', () => {
    connection.open.delete(response);
    if (connection.open.size === 0 && connection.deferred) refuse(connection.deferred, socket);
  });
}

/**
 * Answers a request node's parser refused (or timed out) with the same headers as every other
 * response, then closes. A response already on its way on this socket (pipelined requests)
 * is finished first: a raw 400 written now would land before or inside it.
 */
function refuse(error, socket) {
  const connection = connectionOf(socket);
  if (connection.refused) return; // node reports a parser in error again for every later chunk
  if (!socket.writable || error.code === 'ECONNRESET') return socket.destroy();
  if (connection.open.size) {
    connection.deferred ??= error;
    return;
  }
  connection.refused = true;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const headers = Object.entries(HARDENING).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers.join('')}Connection: close\r\nContent-Length: 0\r\n\r\n`,
  );
  // Read and drop what the client is still sending (the rest of a too-long request): a
  // socket closed with unread data answers with a reset, which can discard the response
  // before the client reads it. A deadline, not an idle timeout: a client dripping a byte a
  // second is never idle.
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}

export async function startServer({ port: listenPort = port, host: listenHost = host, idleTimeout = IDLE_MS } = {}) {
  const siteRoot = await realpath(root).catch(() => root);
  const options = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requireHostHeader: false, // checked in serve(), with this server's headers
    headersTimeout: HEADERS_MS,
    requestTimeout: HEADERS_MS, // a GET has no body: its headers are the request
    connectionsCheckingInterval: 1000, // how often node checks those two (default: 30 s)
  };
  const server = createServer(options, (request, response) => {
    track(request, response);
    serve(request, response, siteRoot).catch(() => {
      if (response.headersSent) response.destroy();
      else reply(response, 500);
    });
  });
  server.maxConnections = MAX_SOCKETS;
  server.timeout = idleTimeout;
  // A client may half-close its side once it has sent its request (`shutdown(SHUT_WR)`, a
  // socket's end()): answer it, then close. Node's default ends the connection as soon as the
  // client's side ends, before a response read asynchronously from disk is written.
  server.httpAllowHalfOpen = true;
  // Requests node's parser refuses (bad header lines, too long, too slow).
  server.on('clientError', refuse);
  // "Expect: " anything but 100-continue: node's own 417 would lack the headers.
  server.on('checkExpectation', (request, response) => reply(response, 417, { Connection: 'close' }));
  await new Promise((resolve) => server.listen(listenPort, listenHost, resolve));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  console.log(`Attention Explorer: http://localhost:${server.address().port}/  (Ctrl+C to stop)`);
}
