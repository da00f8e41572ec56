// @ts-check
// The book's static server (scripts/serve.py): no folder listings, an answer (400/404) to
// malformed paths instead of a dropped connection, and idle or half-open connections closed,
// so that a pile of them cannot keep a reader's request from being answered within a second;
// text and wasm gzipped for a browser that takes it.
import { describe, it, before, after } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { assert, startServer, SITE } from '../harness.mjs';

/** @type {import('../harness.mjs').Server} */
let server;
/** @type {number} */
let port;
const IDLE_S = 5; // scripts/serve.py's default

/**
 * Sends `raw` on a fresh connection; resolves to the status code of the answer, or to
 * "dropped" when the server closes the connection without answering.
 * @param {string} raw
 * @returns {Promise<{ status: number | 'dropped', body: string }>}
 */
function request(raw) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw, 'latin1'));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', (e) => (/** @type {NodeJS.ErrnoException} */ (e).code === 'ECONNRESET' ? resolve({ status: 'dropped', body: '' }) : reject(e)));
    socket.on('close', () => {
      // A request line without a version gets an HTTP/0.9 answer: the body alone.
      const m = data.match(/^HTTP\/1\.[01] (\d{3})/) ?? data.match(/<h1>Ошибка (\d{3})</);
      resolve({ status: m ? Number(m[1]) : 'dropped', body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(raw.slice(0, 40))} in 10 s`)));
  });
}
/** @param {string} path */
const get = (path) => request(`GET ${path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`);

/**
 * Opens a connection that sends `prefix` (maybe nothing) and then goes quiet; resolves once it
 * is connected, with a promise of the seconds until the server closes it.
 * @param {string} prefix
 * @returns {Promise<{ closed: Promise<number>, destroy: () => void }>}
 */
function quietConnection(prefix) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise((res) => socket.on('close', () => res((Date.now() - t0) / 1000)));
    socket.on('error', () => {});
    socket.on('data', () => {}); // the 408 answer to a half-sent request, if any
    socket.once('connect', () => {
      if (prefix) socket.write(prefix);
      resolve({ closed: /** @type {Promise<number>} */ (closed), destroy: () => socket.destroy() });
    });
    socket.once('error', reject);
  });
}

describe('static server', () => {
  before(async () => {
    server = await startServer();
    port = Number(new URL(server.url).port);
  });
  after(() => server.stop());

  it('binds to 127.0.0.1 only', () => {
    assert(new URL(server.url).hostname === '127.0.0.1', server.url);
    // The kernel's table of listening sockets (no traffic to any other address needed).
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    const listening = ['/proc/net/tcp', '/proc/net/tcp6']
      .filter((f) => existsSync(f))
      .flatMap((f) => readFileSync(f, 'utf8').trim().split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[3] === '0A' && cols[1].endsWith(`:${hexPort}`))
      .map((cols) => cols[1]);
    // The table is read in chunks while the other browser's tests open and close sockets, so a
    // line can come twice: what matters is the set of addresses.
    const addresses = [...new Set(listening)];
    assert(addresses.length === 1 && addresses[0] === `0100007F:${hexPort}`, `listening on ${addresses.join(', ')}`);
  });

  it('lists no folder', async () => {
    for (const path of ['/js/', '/js', '/pkg/', '/css/', '/css']) {
      const r = await get(path);
      assert(r.status === 404, `${path}: ${r.status}`);
      assert(!/app\.js|pgbook_bg|book\.css/.test(r.body), `${path} lists its files: ${r.body.slice(0, 200)}`);
      assert(/Такой страницы в книге нет/.test(r.body), `${path}: the answer is not in Russian: ${r.body.slice(0, 200)}`);
    }
    assert((await get('/')).status === 200, 'the book itself is not served');
    assert((await get('/css/book.css')).status === 200, 'a file is not served');
  });

  it('sends text and wasm gzipped to a browser that accepts it, the same bytes once unpacked; others as they are', async (t) => {
    /** @type {string[]} */
    const sizes = [];
    for (const path of ['/', '/reinforce.html', '/css/book.css', '/js/app.js', '/pkg/pgbook_bg.wasm', '/favicon.svg']) {
      const file = readFileSync(join(SITE, path === '/' ? 'index.html' : path));
      const packed = await fetch(server.url + path.slice(1), { headers: { 'Accept-Encoding': 'gzip' } });
      // fetch unpacks what it is sent: the header says whether it was packed, the length how big.
      const wire = Number(packed.headers.get('content-length'));
      const body = Buffer.from(await packed.arrayBuffer());
      assert(packed.status === 200 && packed.headers.get('content-encoding') === 'gzip', `${path}: ${packed.status} ${packed.headers.get('content-encoding')}`);
      assert(packed.headers.get('vary') === 'Accept-Encoding' && body.equals(file) && wire > 0 && wire < file.length, `${path}: ${wire} bytes sent, ${body.length} unpacked for a file of ${file.length}`);
      sizes.push(`${path} ${file.length} → ${wire}`);
      for (const refuses of ['identity', 'gzip;q=0']) {
        const plain = await fetch(server.url + path.slice(1), { headers: { 'Accept-Encoding': refuses } });
        const same = Buffer.from(await plain.arrayBuffer()).equals(file);
        assert(plain.headers.get('content-encoding') === null && same, `${path} for «${refuses}»: ${plain.headers.get('content-encoding')}`);
      }
    }
    // A reload asks whether the file changed since the version it has: not changed, no body.
    const again = await fetch(server.url + 'reinforce.html', { headers: { 'Accept-Encoding': 'gzip', 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() } });
    assert(again.status === 304, `a conditional request: ${again.status}`);
    t.diagnostic(sizes.join(', '));
  });

  it('answers malformed paths with 400 or 404, never a dropped connection', async () => {
    for (const path of ['/%00', '/js/app.js%00.html', '/%00/', '/%ff', '/%c0%af', '/css/%E0%A4%A', `/${'a'.repeat(5000)}`, '/..%2f..%2fetc%2fpasswd']) {
      const r = await get(path);
      assert(r.status === 400 || r.status === 404, `GET ${path.slice(0, 40)}: ${r.status}`);
    }
    const garbage = await request('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'); // a TLS hello
    assert(garbage.status === 400, `garbage request line: ${garbage.status}`);
  });

  it('closes idle and half-open connections; 300 of them do not delay a request', { timeout: 30_000 }, async (t) => {
    const quiet = await Promise.all(
      Array.from({ length: 300 }, (_, i) => quietConnection(i % 2 ? 'GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n' : '')),
    );
    try {
      const t0 = Date.now();
      const r = await get('/favicon.svg');
      const ms = Date.now() - t0;
      assert(r.status === 200, `request beside 300 quiet connections: ${r.status}`);
      assert(ms < 1000, `request beside 300 quiet connections took ${ms} ms`);
      const closedAfter = await Promise.race([
        Promise.all(quiet.map((q) => q.closed)),
        new Promise((res) => setTimeout(() => res(null), (IDLE_S + 5) * 1000)),
      ]);
      assert(Array.isArray(closedAfter), `quiet connections still open ${IDLE_S + 5} s later`);
      t.diagnostic(`answered in ${ms} ms beside 300 quiet connections; all closed within ${Math.max(...closedAfter).toFixed(1)} s`);
    } finally {
      quiet.forEach((q) => q.destroy());
    }
  });
});
