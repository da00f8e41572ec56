// @ts-check
// Browser measurements (not part of the test command: speed is checked by benchmarks, not by
// timed tests). Prints JSON lines:
//  - page: every page's weight (bytes transferred until it is ready, requests) and first
//    contentful paint (median of 5 fresh loads) in Chromium;
//  - bench: `bench ppo` in a Web Worker vs the native release CLI on each SIMD path it has
//    (avx512, avx2, portable = the code wasm runs), and the ratios;
//  - ppo_full: the full PPO profile, 5 seeds in parallel workers, wall time and long tasks;
//  - sequence_full: the full sequence profile (seed 5) in a worker, wall time;
//  - redraw: p95 redraw time of every live figure over 200 slider moves;
//  - firefox_*: the bench and both full profiles again in Debian's Firefox ESR;
//  - compare (`node e2e/bench.mjs compare` only): a two-configuration comparison of the full
//    PPO profile on the five course seeds against one five-seed full run, alternately, in the
//    same Chromium session: scheduling should add nothing (at most twice the one run's time);
//  - reinforce (`node e2e/bench.mjs reinforce` only): lesson 3's REINFORCE panel on its full
//    profile, one seed and the five course seeds (env steps from the runs, wall time), then
//    lesson 3's prepared comparison of four variants from its button: wall time and its table.
//    Each line has the load average just before it.
// Usage: scripts/build-wasm.sh && node scripts/build-site.mjs && cargo build --release &&
//        node e2e/bench.mjs [page|compare|reinforce]   (`page`: only the page weights and first paints)
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, startServer, launch, percentile, runEnded } from './harness.mjs';
import { LESSONS } from '../www/book.mjs';

/** Runs in the page: the CLI's `bench ppo` in a fresh Web Worker. */
const benchInWorker = () =>
  new Promise((resolve, reject) => {
    const w = new Worker('js/worker.js', { type: 'module' });
    w.onmessage = (e) => {
      if (e.data.type === 'ready') w.postMessage({ type: 'bench', updates: 60, repeats: 3 });
      else if (e.data.type === 'bench') {
        resolve(e.data.result);
        w.terminate();
      } else if (e.data.type === 'error') reject(new Error(e.data.message));
    };
  });
// The time limits only guard against a run that never ends: a busy machine is slow, not wrong.
/** @type {[string, string, string, number][]} */
const FULL_RUNS = [
  ['ppo_full', 'lesson-06.html?run=ppo&profile=full&seeds=11,37,71,101,131', '#trainer-ppo', 600_000],
  ['sequence_full', 'lesson-08.html?run=sequence&profile=full&seed=5&reduction=token_mean', '#trainer-sequence', 300_000],
];
/** Runs in the page once it is ready: what it transferred, and its first contentful paint. */
const pageCost = () => {
  const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
  const res = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
  return {
    bytes: nav.transferSize + res.reduce((n, e) => n + e.transferSize, 0),
    html_bytes: nav.transferSize,
    requests: 1 + res.length,
    fcp_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  };
};

/** @param {string} kind @param {object} data */
const out = (kind, data) => console.log(JSON.stringify({ kind, ...data }));
const onlyPages = process.argv[2] === 'page';
const onlyCompare = process.argv[2] === 'compare';
const onlyReinforce = process.argv[2] === 'reinforce';

const server = await startServer();
const chromium = await launch('chromium');

/** The trainers' speed and the figures' redraw times, in Chromium, then in Firefox. */
async function training() {
  /** @param {string} kernels */
  const cli = (kernels) =>
    JSON.parse(
      execFileSync(join(ROOT, 'target', 'release', 'pgbook'), ['bench', 'ppo', '--json', '--kernels', kernels], { encoding: 'utf8' }),
    );
  const native = cli('avx512'); // the widest path this CPU has
  const narrower = ['avx2', 'portable'].map(cli).filter((r) => r.kernels !== native.kernels);
  let tab = await chromium.open(server.url + 'lesson-06.html', { deviceScaleFactor: 1 });
  await tab.waitReady();
  const wasm = /** @type {any} */ (await tab.eval(benchInWorker));
  out('bench', { native, browser: wasm, throughput_ratio: wasm.env_steps_per_s / native.env_steps_per_s });
  for (const r of narrower) out('bench_vs_narrower_native', { native: r, browser_ratio: wasm.env_steps_per_s / r.env_steps_per_s });
  await tab.close();

  for (const [kind, path, root, timeout] of FULL_RUNS) {
    tab = await chromium.open(server.url + path, { deviceScaleFactor: 1 });
    await tab.waitReady();
    const t0 = await tab.eval(() => performance.now());
    await tab.waitFor(runEnded, root, timeout);
    const r = await tab.eval(
      ([t, sel]) => ({
        status: /** @type {HTMLElement} */ (document.querySelector(sel)).dataset.status,
        wall_s: (performance.now() - Number(t)) / 1000,
        long_tasks_ms: performance
          .getEntriesByType('longtask')
          .filter((e) => e.startTime >= Number(t))
          .map((e) => Math.round(e.duration)),
        summaries:
          sel === '#trainer-ppo' ? window.pgbookRuns.ppo.map((/** @type {any} */ s) => s.summary) : [window.pgbookRuns.sequence.summary],
      }),
      [String(t0), root],
    );
    out(kind, r);
    await tab.close();
  }

  for (const [path, fig] of [
    ['lesson-03.html', 'baselines'],
    ['lesson-04.html', 'gae'],
    ['lesson-05.html', 'clipping'],
    ['lesson-07.html', 'tokens'],
  ]) {
    tab = await chromium.open(server.url + path);
    await tab.waitReady();
    const times = await tab.eval((name) => {
      window.pgbookTimings[name] = [];
      const el = /** @type {HTMLInputElement} */ (document.querySelector(`figure[data-figure=${name}] input[data-param]`));
      const steps = Math.round((Number(el.max) - Number(el.min)) / Number(el.step));
      for (let i = 0; i < 200; i++) {
        el.value = String(Number(el.min) + ((i * 7) % (steps + 1)) * Number(el.step));
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }
      return window.pgbookTimings[name];
    }, fig);
    out('redraw', { figure: fig, moves: times.length, p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), dpr: 2 });
    await tab.close();
  }

  // The same in Firefox ESR (it has no Long Tasks API, so wall time only).
  const firefox = await launch('firefox');
  try {
    tab = await firefox.open(server.url + 'lesson-06.html');
    await tab.waitReady();
    const ff = /** @type {any} */ (await tab.eval(benchInWorker));
    out('firefox_bench', { native, browser: ff, throughput_ratio: ff.env_steps_per_s / native.env_steps_per_s });
    await tab.close();
    for (const [kind, path, root, timeout] of FULL_RUNS) {
      const t0 = Date.now();
      tab = await firefox.open(server.url + path);
      const status = await tab.waitFor(runEnded, root, timeout);
      out(`firefox_${kind}`, { status, wall_s_with_page_load: (Date.now() - t0) / 1000 });
      await tab.close();
    }
  } finally {
    await firefox.close();
  }
}

/** A comparison of two full configurations against one full run, twice each, alternately. */
async function comparison() {
  const seeds = 'seeds=11,37,71,101,131';
  const runs = [
    ['one_run', `lesson-06.html?run=ppo&profile=full&${seeds}`],
    ['two_configurations', `lesson-06.html?run=ppo&${seeds}&cfg=full&cfg=full;gamma=0.99`],
  ];
  /** @type {Record<string, number[]>} */
  const walls = { one_run: [], two_configurations: [] };
  for (let round = 0; round < 2; round++) {
    for (const [kind, path] of runs) {
      const tab = await chromium.open(server.url + path, { deviceScaleFactor: 1 });
      await tab.waitReady();
      const t0 = await tab.eval(() => performance.now());
      const status = await tab.waitFor(runEnded, '#trainer-ppo', 900_000);
      const wall = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
      walls[kind].push(wall);
      out('compare_run', { run: kind, round, status, wall_s: wall });
      await tab.close();
    }
  }
  const best = (/** @type {number[]} */ xs) => Math.min(...xs);
  out('compare', {
    one_run_s: walls.one_run,
    two_configurations_s: walls.two_configurations,
    ratio_of_best: best(walls.two_configurations) / best(walls.one_run),
  });
}

/**
 * Runs in the page: the REINFORCE panel's runs, their env steps and summaries.
 * @returns {{ seed: number, env_steps: number, solved_from_env_steps: number | null, final_evaluation_mean: number | null }[]}
 */
const reinforceRuns = () =>
  window.pgbookRuns.reinforce.map((/** @type {any} */ r) => ({
    seed: r.seed,
    env_steps: r.reports.at(-1)?.env_steps ?? 0,
    solved_from_env_steps: r.summary?.solved_from_env_steps ?? null,
    final_evaluation_mean: r.summary?.final_evaluation_mean ?? null,
  }));

/** REINFORCE's full profile in workers, then lesson 3's prepared comparison from its button. */
async function reinforce() {
  for (const seeds of ['11', '11,37,71,101,131']) {
    const load_before = loadavg();
    const tab = await chromium.open(server.url + `lesson-03.html?run=reinforce&profile=full&seeds=${seeds}`, { deviceScaleFactor: 1 });
    await tab.waitReady();
    const t0 = await tab.eval(() => performance.now());
    const status = await tab.waitFor(runEnded, '#trainer-reinforce', 1_800_000);
    const wall_s = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
    const runs = await tab.eval(reinforceRuns);
    const workers = await tab.eval(() => Math.min(navigator.hardwareConcurrency || 2, window.pgbookRuns.reinforce.length));
    const env_steps = runs.reduce((n, r) => n + r.env_steps, 0);
    out('reinforce_full', { seeds, status, wall_s, env_steps, env_steps_per_s: env_steps / wall_s, workers, load_before, runs });
    await tab.close();
  }
  const load_before = loadavg();
  const tab = await chromium.open(server.url + 'lesson-03.html', { deviceScaleFactor: 1 });
  await tab.waitReady();
  const t0 = await tab.eval(() => performance.now());
  await tab.click('#prepared-reinforce button.prepared-run');
  const status = await tab.waitFor(runEnded, '#trainer-reinforce', 3_600_000);
  const wall_s = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
  // The lesson's own table, filled from the saved run.
  const box = '#prepared-reinforce [data-prepared-result]';
  await tab.waitFor((sel) => document.querySelectorAll(`${sel} tbody tr`).length > 0, box, 30_000);
  const table = await tab.eval(
    (sel) =>
      [.../** @type {NodeListOf<HTMLTableRowElement>} */ (document.querySelectorAll(`${sel} tr`))].map((tr) =>
        [...tr.cells].map((c) => c.textContent ?? '').join(' | '),
      ),
    box,
  );
  const configs = await tab.eval(() =>
    [...document.querySelectorAll('#prepared-reinforce .prepared-configs li')].map((li) => li.textContent),
  );
  out('reinforce_prepared', { status, wall_s, load_before, configs, table, runs: await tab.eval(reinforceRuns) });
  await tab.close();
}

/** Every page's weight and first paint, then the trainers and figures. */
async function pagesAndTraining() {
  for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
    const runs = [];
    for (let i = 0; i < 5; i++) {
      const tab = await chromium.open(server.url + file, { deviceScaleFactor: 1 });
      await tab.waitReady();
      runs.push(await tab.eval(pageCost));
      await tab.close();
    }
    const fcp = runs.map((r) => r.fcp_ms);
    out('page', {
      page: file,
      bytes: runs[0].bytes,
      html_bytes: runs[0].html_bytes,
      requests: runs[0].requests,
      fcp_median_ms: percentile(fcp, 50),
    });
  }
  if (!onlyPages) await training();
}

try {
  if (onlyCompare) await comparison();
  else if (onlyReinforce) await reinforce();
  else await pagesAndTraining();
} finally {
  await chromium.close();
  await server.stop();
}
