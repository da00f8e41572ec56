// @ts-check
// Issue 43's trial of the book offline, as a new reader meets it: open the contents page in a
// fresh browser context, wait for `navigator.serviceWorker.ready`, reload and wait 3 s, stop
// the server, then open every page the contents links to (the one-file book included). Used
// by e2e/tests/40-offline (10 trials in a row per browser under a CPU load) and by
// `node e2e/offline-trials.mjs` (the loop that measures a failure rate).
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, SITE, startServer } from './harness.mjs';

/**
 * Busy loops at the test's own priority, one per core (or `n`), until stop(): the machine a
 * reader's browser shares with other work. The processes are this module's children; stop()
 * ends exactly them.
 * @param {number} [n]
 */
export function cpuLoad(n = availableParallelism()) {
  const children = Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
  return {
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve(null);
              c.once('exit', resolve);
              c.kill();
            }),
        ),
      );
    },
  };
}

/**
 * @typedef {{ page: string, message: string }} Failure
 * @typedef {{ failures: Failure[], pages: string[], said: string | null, ms: number }} TrialResult
 */

/** Every same-origin page the contents page links to, in its order, once. Runs in the page. */
export const linkedPages = () => [
  ...new Set(
    [...document.querySelectorAll('a[href]')]
      .map((a) => new URL(/** @type {HTMLAnchorElement} */ (a).href))
      .filter((u) => u.origin === location.origin && u.pathname.endsWith('.html'))
      .map((u) => u.pathname.slice(1)),
  ),
];

/**
 * After a failed navigation the browser still commits its error page, and a navigation started
 * before that commit is reported as «interrupted by another navigation» (the next page would
 * fail for the last one's sake): wait until a blank page opens cleanly.
 * @param {import('./harness.mjs').Tab} tab
 */
async function settle(tab) {
  for (let i = 0; i < 5; i++) {
    try {
      await tab.goto('about:blank');
      return;
    } catch {
      /* the error page's commit interrupted it: again */
    }
  }
}

/** The build's file list, as site/sw.js carries it. @param {string} [root] */
export function builtFiles(root = SITE) {
  const m = readFileSync(join(root, 'sw.js'), 'utf8').match(/const BUILD = (\{.*\});/);
  assert(m, `${root}/sw.js is not stamped`);
  return /** @type {{ version: string, files: string[] }} */ (JSON.parse(m[1]));
}

/** How many of the build's files the page's origin has cached, under which cache names. Runs in the page. */
export const cachedCount = async () => {
  const keys = await caches.keys();
  let n = 0;
  for (const k of keys) n += (await (await caches.open(k)).keys()).length;
  return { keys, n };
};

/**
 * One trial. `wait`, before the server stops: 'issue' — the steps, `ready`, a reload
 * and 3 s; 'said' — `ready` (the cache must be complete then), a reload, and the page's own
 * word that the book is saved (its footer line), with no fixed wait. `load`: how each page is
 * checked offline — 'document' (its document arrives: the <main> of a book page, or the
 * one-file book's templates) or 'ready' (also its wasm and figures: <html data-ready>).
 * `skip`: pages not opened; `noSettle`: the next page opens at once after a failed one (as the
 * issue's trial did, which made one failure look like many).
 * @param {import('./harness.mjs').Browser} browser
 * `root`: the built site served (default site/). `full`: with load 'document', the one page
 * loaded as with 'ready'.
 * @param {{ wait?: 'issue' | 'said', load?: 'document' | 'ready', skip?: string[], noSettle?: boolean, root?: string, full?: string }} [options]
 * @returns {Promise<TrialResult>}
 */
export async function offlineTrial(browser, { wait = 'issue', load = 'ready', skip = [], noSettle = false, root = SITE, full = '' } = {}) {
  const start = Date.now();
  const { files } = builtFiles(root);
  const server = await startServer({ root });
  /** @type {Failure[]} */
  const failures = [];
  let said = null;
  const tab = await browser.open(server.url + 'index.html');
  try {
    await tab.waitFor(() => document.readyState !== 'loading', null, 60_000);
    const pages = (await tab.eval(linkedPages)).filter((p) => !skip.includes(p));
    await tab.eval(async () => void (await navigator.serviceWorker.ready));
    if (wait === 'said') {
      const atReady = await tab.eval(cachedCount);
      if (atReady.n !== files.length)
        failures.push({ page: '(ready)', message: `ready with ${atReady.n} of ${files.length} files cached (${atReady.keys.join(', ')})` });
    }
    // The evaluation may end with the page it ran in.
    await tab.eval(() => void location.reload()).catch(() => {});
    if (wait === 'issue') await new Promise((r) => setTimeout(r, 3000));
    else {
      said = (await tab.waitFor(() => document.querySelector('.offline-status[data-offline="saved"]')?.textContent, null, 60_000)) ?? null;
      const atSaid = await tab.eval(cachedCount);
      if (atSaid.n !== files.length)
        failures.push({ page: '(said)', message: `«${said}» with ${atSaid.n} of ${files.length} files cached` });
    }
    await server.stop();
    for (const page of pages) {
      const url = server.url + page;
      try {
        const whole = load === 'ready' || page === full;
        await tab.goto(url, whole ? 'load' : 'domcontentloaded');
        if (page === 'pgbook.html') {
          const n = await tab.eval(() => document.querySelectorAll('script[data-page]').length); // its pages, gzipped
          if (!n) failures.push({ page, message: `no page of the book in it: ${(await tab.text('body'))?.slice(0, 200)}` });
          continue;
        }
        // Going to the page it is on, Firefox under load may report 'domcontentloaded' before the
        // evaluation reaches the new document (a CI run saw index.html «without» its h1): wait a
        // little for either a lesson or the worker's page of what is missing, never a browser error.
        const state = await tab
          .waitFor(
            () =>
              document.documentElement.hasAttribute('data-offline-missing')
                ? 'missing'
                : document.querySelector('main h1')
                  ? 'lesson'
                  : null,
            null,
            10_000,
          )
          .catch(() => 'neither');
        if (state !== 'lesson') {
          failures.push({ page, message: `no lesson in it: ${(await tab.text('body'))?.replace(/\s+/g, ' ').slice(0, 300)}` });
          continue;
        }
        if (whole) {
          await tab.waitReady(60_000);
          const fatal = await tab.text('.fatal');
          if (fatal) failures.push({ page, message: `fatal: ${fatal}` });
        }
      } catch (e) {
        failures.push({ page, message: String(/** @type {Error} */ (e)?.message ?? e).split('\n')[0] });
        if (!noSettle) await settle(tab);
      }
    }
    // Firefox reports a request of the page being left, which it cancels, as a service worker's
    // «unexpected error» (the build before issue 43 too: 4 trials in 10 with load 'document',
    // none in 60 with 'ready'); the reader sees nothing of it.
    const left = /A ServiceWorker intercepted the request and encountered an unexpected error/;
    const problems = tab.problems.filter((p) => !(load === 'document' && left.test(p)));
    if (problems.length) failures.push({ page: '(console)', message: problems.slice(0, 5).join(' | ') });
    return { failures, pages, said, ms: Date.now() - start };
  } finally {
    await tab.close().catch(() => {});
    await server.stop();
  }
}

/**
 * A proxy in front of the book's server, on a loopback port of its own: it holds the responses
 * to the paths in `hold` until release(), and after cut() refuses every new connection (the
 * network gone) while a held request stays pending until drop(); restore() listens again on
 * the same port (the same origin, so the same service worker registration), holding nothing.
 * `seen` lists every path asked for since the last restore().
 * @param {string} upstream the server's URL @param {string[]} hold
 */
export async function holdingProxy(upstream, hold) {
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @type {Set<import('node:net').Socket>} */
  const holding = new Set();
  /** @type {string[]} */
  const seen = [];
  let cut = false;
  /** @type {() => void} */
  let release = () => {};
  let released = new Promise((r) => (release = () => r(null)));
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.slice(1);
    seen.push(path);
    if (hold.includes(path)) {
      holding.add(req.socket);
      await released;
      holding.delete(req.socket);
    }
    if (cut) return void req.socket.destroy();
    const up = request(new URL(req.url ?? '/', upstream), { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => req.socket.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  /** @param {number} port */
  const listen = (port) => new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(null)));
  await listen(0);
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    seen,
    release: () => release(),
    /** The network goes: new connections are refused, open ones but the held closed. */
    cut() {
      cut = true;
      // Stops listening at once; the held connection stays open until drop().
      server.close();
      for (const s of sockets) if (!holding.has(s)) s.destroy();
    },
    /** The held requests fail too. */
    drop() {
      for (const s of holding) s.destroy();
    },
    /** The network is back, on the same origin, holding nothing. */
    async restore() {
      hold = [];
      cut = false;
      seen.length = 0;
      released = Promise.resolve(null);
      await listen(port);
    },
    close() {
      cut = true;
      release();
      if (server.listening) server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
