// @ts-check
// Offline after the first visit: the service worker caches the whole built book, so with the
// server stopped every lesson still opens, every figure redraws and a PPO run completes in
// workers; a new build replaces the cached one as a whole, once the reader agrees.
import { it } from 'node:test';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBrowser, assert, canvasHash, startServer, SITE } from '../harness.mjs';
import { writeServiceWorker } from '../../scripts/build-site.mjs';
import { LESSONS } from '../../www/book.mjs';

/** Waits until the service worker controls the page and its cache is complete. @param {import('../harness.mjs').Tab} tab */
async function waitOffline(tab) {
  await tab.waitFor(() => !!navigator.serviceWorker.controller, null, 30_000);
  return tab.eval(async () => {
    await navigator.serviceWorker.ready;
    return caches.keys();
  });
}

/** Moves the first slider of every live figure; returns the figures that did not redraw. @param {import('../harness.mjs').Tab} tab */
function figuresNotRedrawn(tab) {
  return tab.eval(async ([src]) => {
    const hash = /** @type {(c: HTMLCanvasElement) => { hash: number, inked: number }} */ ((0, eval)(`(${src})`));
    /** @type {string[]} */
    const bad = [];
    for (const f of /** @type {HTMLElement[]} */ ([...document.querySelectorAll('figure.live')])) {
      const canvas = /** @type {HTMLCanvasElement} */ (f.querySelector('canvas'));
      const input = /** @type {HTMLInputElement} */ (f.querySelector('input[data-param]'));
      const before = hash(canvas);
      input.value = String(Number(input.min) + (Number(input.max) - Number(input.min)) * 0.37);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(r));
      const after = hash(canvas);
      if (after.hash === before.hash || after.inked < 0.01 || f.classList.contains('failed')) bad.push(f.dataset.figure ?? '?');
    }
    return bad;
  }, [String(canvasHash)]);
}

forEachBrowser(
  (env) => {
    it('with the server stopped, every lesson opens, every figure redraws, a PPO smoke run completes', { timeout: 240_000 }, async (t) => {
      const server = await startServer();
      const tab = await env.browser.open(server.url);
      try {
        await tab.waitReady();
        const caches = await waitOffline(tab);
        assert(caches.length === 1 && caches[0].startsWith('pgbook-'), `caches: ${caches.join(', ')}`);
        await server.stop();
        assert(!(await fetch(server.url).then(() => true, () => false)), 'the server still answers');
        let figures = 0;
        for (const lesson of LESSONS) {
          await tab.goto(server.url + lesson.file);
          await tab.waitReady();
          const fatal = await tab.text('.fatal');
          assert(!fatal, `${lesson.file}: ${fatal}`);
          const bad = await figuresNotRedrawn(tab);
          assert(bad.length === 0, `${lesson.file}: figures not redrawn offline: ${bad.join(', ')}`);
          figures += await tab.count('figure.live');
        }
        await tab.goto(server.url + 'ppo.html?run=ppo&profile=smoke&seeds=11,37&num_updates=4');
        await tab.waitReady();
        const status = await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 180_000);
        assert(status === 'finished', `PPO offline: ${status}: ${await tab.text('#trainer-ppo .figure-error')}`);
        assert(tab.problems.length === 0, tab.problems.join('\n'));
        t.diagnostic(`${LESSONS.length} lessons and ${figures} figures offline; cache ${caches[0]}`);
      } finally {
        await tab.close();
        await server.stop();
      }
    });

    it('a new build is cached beside the old one and replaces it whole when the reader agrees', { timeout: 120_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pgbook-site-'));
      cpSync(SITE, dir, { recursive: true });
      const server = await startServer({ root: dir });
      const tab = await env.browser.open(server.url + 'clipping.html');
      try {
        await tab.waitReady();
        const [old] = await waitOffline(tab);
        // A new build: one changed module, so a new version of the service worker.
        appendFileSync(join(dir, 'js', 'format.js'), '\n// rebuilt\n');
        const { version } = writeServiceWorker(dir);
        assert(`pgbook-${version}` !== old, 'the version did not change with the build');
        await tab.goto(server.url + 'clipping.html');
        await tab.waitReady();
        await tab.waitFor(() => !!document.querySelector('.update-ready'), null, 30_000);
        /** The module the page gets now (through the service worker). */
        const rebuilt = () => tab.eval(async () => (await (await fetch('js/format.js')).text()).includes('// rebuilt'));
        assert(!(await rebuilt()), 'the new build was served before the reader agreed');
        await tab.eval(() => {
          window.pgbookOldPage = true;
        });
        await tab.clickButton('.update-ready', 'Перейти на новую версию');
        await tab.waitFor(() => !window.pgbookOldPage && document.documentElement?.dataset.ready === '1', null, 30_000);
        const keys = await tab.eval(() => caches.keys());
        assert(keys.length === 1 && keys[0] === `pgbook-${version}`, `caches after the update: ${keys.join(', ')} (want pgbook-${version})`);
        assert(await rebuilt(), 'the new build is not what the page gets');
        assert(!(await tab.visible('.update-ready')), 'the update offer is still shown');
        assert(tab.problems.length === 0, tab.problems.join('\n'));
      } finally {
        await tab.close();
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
  { serviceWorkers: true, fresh: true },
);
