// Browser measurements (not part of the test command: speed is checked by benchmarks, not by
// timed tests). Prints JSON lines:
//  - bench: `bench ppo` in a Web Worker vs the native release CLI on each SIMD path it has
//    (avx512, avx2, portable = the code wasm runs), and the ratios;
//  - ppo_full: the full PPO profile, 5 seeds in parallel workers, wall time and long tasks;
//  - sequence_full: the full sequence profile (seed 5) in a worker, wall time;
//  - redraw: p95 redraw time of every live figure over 200 slider moves;
//  - firefox_*: the bench and both full profiles again in Debian's Firefox ESR.
// Usage: scripts/build-wasm.sh && cargo build --release &&
//        node --experimental-websocket e2e/bench.mjs
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, startServer, launch, openPage, waitReady, percentile, runEnded } from './harness.mjs';
import { startGeckodriver, Session } from './bidi.mjs';

// Runs in the page: the CLI's `bench ppo` in a fresh Web Worker.
const benchInWorker = () => new Promise((resolve, reject) => {
  const w = new Worker('js/worker.js', { type: 'module' });
  w.onmessage = (e) => {
    if (e.data.type === 'ready') w.postMessage({ type: 'bench', updates: 60, repeats: 3 });
    else if (e.data.type === 'bench') { resolve(e.data.result); w.terminate(); } else if (e.data.type === 'error') reject(new Error(e.data.message));
  };
});
const FULL_RUNS = [
  ['ppo_full', 'lesson-06.html?run=ppo&profile=full&seeds=11,37,71,101,131', '#trainer-ppo', 120_000],
  ['sequence_full', 'lesson-08.html?run=sequence&profile=full&seed=5&reduction=token_mean', '#trainer-sequence', 60_000],
];

const server = await startServer();
const browser = await launch();
const out = (kind, data) => console.log(JSON.stringify({ kind, ...data }));
try {
  const cli = (kernels) => JSON.parse(execFileSync(join(ROOT, 'target', 'release', 'pgbook'), ['bench', 'ppo', '--json', '--kernels', kernels], { encoding: 'utf8' }));
  const native = cli('avx512'); // the widest path this CPU has
  const narrower = ['avx2', 'portable'].map(cli).filter((r) => r.kernels !== native.kernels);
  const { page, context } = await openPage(browser, server.url + 'lesson-06.html', { deviceScaleFactor: 1 });
  await waitReady(page);
  const wasm = await page.evaluate(benchInWorker);
  out('bench', { native, browser: wasm, throughput_ratio: wasm.env_steps_per_s / native.env_steps_per_s });
  for (const r of narrower) out('bench_vs_narrower_native', { native: r, browser_ratio: wasm.env_steps_per_s / r.env_steps_per_s });
  await context.close();

  for (const [kind, path, root, timeout] of FULL_RUNS) {
    const { page, context } = await openPage(browser, server.url + path, { deviceScaleFactor: 1 });
    await waitReady(page);
    const t0 = await page.evaluate(() => performance.now());
    await page.waitForFunction(runEnded, root, { timeout });
    const r = await page.evaluate(([t, sel]) => ({
      status: document.querySelector(sel).dataset.status,
      wall_s: (performance.now() - t) / 1000,
      long_tasks_ms: performance.getEntriesByType('longtask').filter((e) => e.startTime >= t).map((e) => Math.round(e.duration)),
      summaries: sel === '#trainer-ppo' ? window.pgbookRuns.ppo.map((s) => s.summary) : [window.pgbookRuns.sequence.summary],
    }), [t0, root]);
    out(kind, r);
    await context.close();
  }

  for (const [path, fig] of [['lesson-03.html', 'baselines'], ['lesson-04.html', 'gae'], ['lesson-05.html', 'clipping'], ['lesson-07.html', 'tokens']]) {
    const { page, context } = await openPage(browser, server.url + path);
    await waitReady(page);
    const id = await page.$eval(`figure[data-figure=${fig}] input[data-param]`, (i) => i.id);
    await page.evaluate((n) => { window.pgbookTimings[n] = []; }, fig);
    await page.evaluate((sel) => {
      const el = document.getElementById(sel);
      const steps = Math.round((el.max - el.min) / el.step);
      for (let i = 0; i < 200; i++) {
        el.value = String(Number(el.min) + ((i * 7) % (steps + 1)) * Number(el.step));
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }
    }, id);
    const t = await page.evaluate((n) => window.pgbookTimings[n], fig);
    out('redraw', { figure: fig, moves: t.length, p50_ms: percentile(t, 50), p95_ms: percentile(t, 95), dpr: 2 });
    await context.close();
  }
  await browser.close();

  // The same in Firefox ESR (it has no Long Tasks API, so wall time only).
  const driver = startGeckodriver();
  const s = await Session.open(await driver.url);
  try {
    await s.load(server.url + 'lesson-06.html');
    const ff = await s.eval(benchInWorker);
    out('firefox_bench', { native, browser: ff, throughput_ratio: ff.env_steps_per_s / native.env_steps_per_s });
    for (const [kind, path, root, timeout] of FULL_RUNS) {
      const t0 = Date.now();
      await s.goto(server.url + path);
      const status = await s.waitRunEnded(root, timeout);
      out(`firefox_${kind}`, { status, wall_s_with_page_load: (Date.now() - t0) / 1000 });
    }
  } finally {
    await s.close();
    driver.stop();
  }
} finally {
  await browser.close();
  server.stop();
}
