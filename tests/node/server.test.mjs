// The bundled static server (build-scripts/serve.mjs) under hostile requests: it runs as its
// own process, as `npm start` runs it, so a request that crashed it would end that process.
// Requests go through a raw socket so that the exact request-target is sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './support.mjs';
import { MAX_SENTENCE_CHARS, defaultState, stateToURL } from '../../web/src/state.js';
import { CSP, ISOLATION } from '../../build-scripts/serve.mjs';

const site = path.join(root, 'dist/site');
let server;
let port;
let outside;

before(async () => {
  server = spawn(process.execPath, [path.join(root, 'build-scripts/serve.mjs')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout.setEncoding('utf8');
  for await (const chunk of server.stdout) {
    out += chunk;
    const match = /http:\/\/localhost:(\d+)\//.exec(out);
    if (match) {
      port = Number(match[1]);
      break;
    }
  }
  assert.ok(port > 0, `the server printed its port: ${out}`);
  // A link inside the site pointing at a file outside it must not be followed.
  outside = mkdtempSync(path.join(tmpdir(), 'serve-outside-'));
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(path.join(outside, 'secret.txt'), path.join(site, 'leak.txt'));
});

after(() => {
  server.kill();
  rmSync(path.join(site, 'leak.txt'), { force: true });
  rmSync(path.join(site, 'pipe.txt'), { force: true });
  rmSync(outside, { recursive: true, force: true });
});

/**
 * Sends `raw` as is and reads the whole response: { status, headers, body }. `halfClose`: then
 * end the client's side (shutdown(SHUT_WR)), as some clients do once their request is sent.
 */
async function send(raw, { halfClose = false } = {}) {
  const socket = connect(port, '127.0.0.1');
  const chunks = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  await once(socket, 'connect'); // rejects when the server is gone
  // A server that answers before reading the whole request (431) may reset the connection
  // while the rest is still being sent: the answer read by then is what counts.
  socket.on('error', () => {});
  if (halfClose) socket.end(raw);
  else socket.write(raw);
  await new Promise((resolve) => socket.on('close', resolve)); // once() would reject on the reset
  const text = Buffer.concat(chunks).toString('latin1');
  const split = text.indexOf('\r\n\r\n');
  assert.ok(split > 0, `a complete response to ${JSON.stringify(raw.slice(0, 80))}: ${JSON.stringify(text)}`);
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}

/** Sends `raw` and returns every byte the server sent until it closed the connection. */
async function sendRaw(raw) {
  const socket = connect(port, '127.0.0.1');
  const chunks = [];
  socket.on('data', (chunk) => chunks.push(chunk));
  socket.on('error', () => {});
  socket.write(raw);
  await new Promise((resolve) => socket.on('close', resolve));
  return Buffer.concat(chunks);
}

const request = (target, method = 'GET', extra = '') =>
  send(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`);

function assertHardened(response, what) {
  assert.equal(response.headers['content-security-policy'], CSP, `${what}: the CSP`);
  assert.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  // Cross-origin isolation (the threaded engine's SharedArrayBuffer), on every response too.
  for (const [name, value] of Object.entries(ISOLATION)) {
    assert.equal(response.headers[name.toLowerCase()], value, `${what}: ${name}`);
  }
}

async function assertStillServing() {
  const response = await request('/');
  assert.equal(response.status, 200, 'the server still answers a normal request');
  assert.match(response.body, /<!doctype html>/i);
}

test('a normal request gets the page with the CSP and nosniff', async () => {
  const response = await request('/index.html');
  assert.equal(response.status, 200);
  assert.match(response.headers['content-type'], /^text\/html/);
  assertHardened(response, '200');
});

test('malformed percent-encoding and request-targets get 400, and the server stays up', async () => {
  for (const target of ['/%', '/%ZZ', '/%E4%BD', '/%ff', '/a%00b', 'http://[', 'http://', '*', 'index.html']) {
    const response = await request(target);
    assert.equal(response.status, 400, `${target} is a bad request`);
    assertHardened(response, target);
    await assertStillServing();
  }
});

test('requests node refuses to parse get 400 (431 when too long) with the CSP and nosniff', async () => {
  for (const raw of ['GET / HTTP/1.1\r\nNo colon here\r\n\r\n', 'GET / HTTP/9\r\n\r\n', 'NONSENSE\r\n\r\n']) {
    const response = await send(raw);
    assert.equal(response.status, 400, JSON.stringify(raw));
    assertHardened(response, JSON.stringify(raw));
  }
  const tooLong = await request(`/?s=${'x'.repeat(400 * 1024)}`);
  assert.equal(tooLong.status, 431, 'far beyond any link the page writes');
  assertHardened(tooLong, '431');
  await assertStillServing();
});

test('requests node would answer itself (no Host, an unmet Expect) get the same headers', async () => {
  const noHost = await send('GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
  assert.equal(noHost.status, 400, 'HTTP/1.1 requires Host');
  assertHardened(noHost, 'no Host');
  const emptyHost = await send('GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n');
  assert.equal(emptyHost.status, 400, 'an empty Host');
  assertHardened(emptyHost, 'empty Host');
  const http10 = await send('GET /index.html HTTP/1.0\r\n\r\n');
  assert.equal(http10.status, 200, 'HTTP/1.0 has no Host to require');
  const expect = await request('/index.html', 'GET', 'Expect: the-impossible\r\n');
  assert.equal(expect.status, 417);
  assertHardened(expect, 'Expect');
  await assertStillServing();
});

test('a malformed request pipelined after a file waits for the file: whole, then 400', async () => {
  const file = readFileSync(path.join(site, 'models/brown.model'));
  const raw = await sendRaw(`GET /models/brown.model HTTP/1.1\r\nHost: localhost\r\n\r\nBAD REQUEST\r\n\r\n`);
  const split = raw.indexOf('\r\n\r\n');
  assert.match(raw.subarray(0, split).toString('latin1'), /^HTTP\/1\.1 200 /, 'the file is answered first');
  const body = raw.subarray(split + 4, split + 4 + file.length);
  assert.ok(body.equals(file), 'the file arrives whole, nothing written inside it');
  const rest = raw.subarray(split + 4 + file.length).toString('latin1');
  assert.match(rest, /^HTTP\/1\.1 400 /, 'then the malformed request is refused');
  assert.ok(rest.includes(`Content-Security-Policy: ${CSP}\r\n`), rest);
});

test('a trailing slash or dot segment after a file, or an empty segment, is no page: 404', async () => {
  // Served as the page, its relative scripts would resolve under /playground.html/.
  const targets = ['/playground.html/', '/index.html/.', '/index.html/x', '/index.html/%2e', '/index.html/..'];
  targets.push(
    '/./index.html',
    '//index.html',
    '/models//brown.model',
    '/fonts/../index.html',
    '/models%2Fbrown.model',
  );
  targets.push('http://localhost/index.html/.', 'http://localhost/x/../index.html', '/index.html%2F');
  for (const target of targets) {
    const response = await request(target);
    assert.equal(response.status, 404, target);
    assertHardened(response, target);
  }
  for (const target of ['/', '/index.html', '/playground.html', '/models/brown.model', 'http://localhost/']) {
    assert.equal((await request(target, 'HEAD')).status, 200, target);
  }
});

test('an absolute-form target is served by its path', async () => {
  const response = await request('http://localhost/index.html');
  assert.equal(response.status, 200);
});

test('methods other than GET and HEAD get 405 with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE']) {
    const response = await request('/', method, 'Content-Length: 0\r\n');
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.allow, 'GET, HEAD');
    assertHardened(response, method);
  }
  await assertStillServing();
});

test('HEAD gets the headers of GET and no body', async () => {
  const get = await request('/index.html');
  const head = await request('/index.html', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  assert.equal(head.headers['content-length'], get.headers['content-length']);
  assertHardened(head, 'HEAD');
});

test('missing files get 404, paths out of the site 403 or 404, all with the CSP and nosniff', async () => {
  const missing = await request('/no-such-file.js');
  assert.equal(missing.status, 404);
  assertHardened(missing, '404');
  for (const target of ['/../package.json', '/..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/leak.txt']) {
    const response = await request(target);
    assert.ok([403, 404].includes(response.status), `${target}: ${response.status}`);
    assert.doesNotMatch(response.body, /secret|"name"/, `${target} leaks nothing`);
    assertHardened(response, target);
  }
  const directory = await request('/fonts/');
  assert.equal(directory.status, 404, 'a directory is not a file');
  assertHardened(directory, 'directory');
  await assertStillServing();
});

test('a Range header is ignored: the whole file, never a crash', async () => {
  for (const range of ['bytes=0-10', 'bytes=999999999-', 'bytes=-0', 'nonsense']) {
    const response = await request('/index.html', 'GET', `Range: ${range}\r\n`);
    assert.equal(response.status, 200, range);
  }
});

test('the longest link the page writes (a sentence of its maximum length) gets 200', async () => {
  const base = defaultState();
  const state = { ...base, sentence: '我'.repeat(MAX_SENTENCE_CHARS), dModel: 512, heads: 16, mask: 'causal' };
  const link = `/${stateToURL(state, base)}`;
  assert.ok(link.length > 180000, `${link.length} bytes`);
  const response = await request(link);
  assert.equal(response.status, 200);
  await assertStillServing();
});

test('a client that half-closes its side after the request still gets the file', async () => {
  // Several times: whether the file is read before the server sees the end is a matter of timing.
  for (let i = 0; i < 5; i += 1) {
    for (const file of ['index.html', 'favicon.svg', 'app.css']) {
      const response = await send(`GET /${file} HTTP/1.1\r\nHost: localhost\r\n\r\n`, { halfClose: true });
      assert.equal(response.status, 200, file);
      assert.equal(response.body, readFileSync(path.join(site, file), 'latin1'), file);
    }
  }
  const bad = await send('GET /%ZZ HTTP/1.1\r\nHost: localhost\r\n\r\n', { halfClose: true });
  assert.equal(bad.status, 400);
});

test('a FIFO in the site gets 404 at once instead of a read that never ends', { timeout: 20000 }, async () => {
  const fifo = path.join(site, 'pipe.txt');
  rmSync(fifo, { force: true });
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  // Twice the threads libuv reads files with (4): a read waiting on each would starve the rest.
  for (let i = 0; i < 8; i += 1) {
    const response = await request('/pipe.txt');
    assert.equal(response.status, 404);
    assertHardened(response, 'a FIFO');
  }
  await assertStillServing();
});
