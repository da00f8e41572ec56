// @ts-check
// Browser measurements (not part of the test command: speed is checked by benchmarks, not by
// timed tests). Prints JSON lines:
//  - page: every page's weight (bytes transferred until it is ready, requests) and first
//    contentful paint (median of 5 fresh loads) in Chromium;
//  - bench_native, bench: `bench ppo` for each precision (f64, f32) natively on each SIMD path
//    the CPU has (avx512, avx2, portable = the code wasm runs) and in a Web Worker, with the
//    GFLOP/s of the matrix products and their share of one core's FLOP limit;
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
//    Each line has the load average just before it;
//  - grpo (`node e2e/bench.mjs grpo` only): the GRPO family on the copy task — each of the
//    profiles grpo, dr_grpo, rloo on its five seeds in the sequence panel (wall time, the
//    results table: final success median [IQR], lengths of incorrect answers, KL, entropy),
//    then lesson 9's three prepared comparisons from their links (wall time, the lesson's own
//    tables, the panel's redraw times), then lesson 9's figures' redraw p95 over 200 moves;
//  - transformer (`node e2e/bench.mjs transformer` only): `bench transformer` natively and in a
//    Web Worker side by side, f32 and f64, then the transformer profile's five seeds in the CLI
//    and in the sequence panel (e2e/bench-transformer.mjs);
//  - r1 (`node e2e/bench.mjs r1 [SEED]` only): one seed (default 11) of the r1_grpo profile's
//    whole pipeline from lesson 10's link, Chromium and Firefox: the estimate shown before the
//    start against the wall time, then the CLI (e2e/bench-r1.mjs);
//  - r1-prepared (`node e2e/bench.mjs r1-prepared [ID]` only): lesson 10's prepared comparison
//    ID (default r1_dynamic) in Chromium from its block's link, the estimate shown before the
//    start against the wall time, then the lesson's table and verdict (e2e/bench-r1.mjs);
//  - versus (`node e2e/bench.mjs versus [COMMIT]` only): the full five-seed PPO profile of this
//    book and of COMMIT's (default ec1f6b9, before issue 15; built once in a git worktree under
//    the temporary directory), alternately in one Chromium session, three rounds each.
//  - onefile (`node e2e/bench.mjs onefile` only): site/pgbook.html's size and its wasm, and
//    every page's first paint and figures drawn from the file opened from disk and served, in
//    both browsers (e2e/bench-onefile.mjs);
//  - load (`node e2e/bench.mjs load [RUNS] [--site DIR]` only): e2e/bench-load.mjs's load
//    figures of every page at 1× and 4× CPU slowdown (first paint, first figure, Total Blocking
//    Time, the longest main-thread task, bytes), then Lighthouse's mobile scores of every page;
//    `lighthouse [--site DIR]`: only Lighthouse. `--site DIR` serves another build (an earlier
//    commit's site, for a before/after table); `--pages a.html,b.html` only those pages;
//    `--no-lighthouse` leaves Lighthouse out; `--cpu 4` measures only at 4× (`--cpu 1,4`: both).
//  - search (`node e2e/bench.mjs search` only): e2e/bench-search.mjs — the search library's and
//    sections' size, the index's build on first use (served, and the one file from disk) against
//    loading a serialised index, and every keystroke of typed queries (p50, p95, most), both browsers;
//  - class (`node e2e/bench.mjs class` only): e2e/bench-class.mjs — thirty class codes pasted
//    into the contents page's #class, from «Собрать» to the band drawn, both browsers;
//  - gates (`node e2e/bench.mjs gates`, run by scripts/bench.sh): the time budgets the page
//    tests used to assert, each a `gate` line with its figure, its budget and ok; the process
//    exits with 1 when one is over budget. First contentful paint of every page (median of 3
//    fresh loads, each browser) ≤ 1 s; every page of the book in one file, opened from disk,
//    with its figures drawn ≤ 1.5 s (median of 3, each browser); every live figure's redraw
//    p95 over 200 moves of its first slider ≤ 16 ms in Chromium (Firefox ESR reported); the PPO
//    panel's redraws during a two-seed smoke run p95 ≤ 16 ms and none ≥ 50 ms (Chromium); the
//    main thread during eight seeds of the full profile and during a comparison of ten smoke
//    runs: no task with over 50 ms of CPU time (Chromium's trace; wall-clock tasks reported);
//    the CLI refuses every out-of-bounds size and bad option of tests/cli.rs within 5 s; every
//    keystroke in the search answered within 50 ms (p95; served and one file, both browsers).
// Usage: scripts/build-wasm.sh && node scripts/build-site.mjs && cargo build --release &&
//        node e2e/bench.mjs [page|gates|compare|reinforce|grpo|transformer|r1|r1-prepared|onefile|search|class|load|lighthouse|versus [COMMIT]]
//        (`page`: only the page weights and first paints)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, SITE, countWorkers, startServer, launch, percentile, runEnded } from './harness.mjs';
import { LESSONS } from '../www/book.mjs';
import { grpo, reinforce, slideFigure, versus } from './bench-runs.mjs';
import { oneFile, oneFileGates } from './bench-onefile.mjs';
import { transformer } from './bench-transformer.mjs';
import { r1, r1Prepared } from './bench-r1.mjs';
import { FLOOR_PAGE, lighthouseBench, loadBench } from './bench-load.mjs';
import { searchBench } from './bench-search.mjs';
import { classBench } from './bench-class.mjs';

/** Runs in the page: the CLI's `bench ppo` in a fresh Web Worker. @param {string} precision */
const benchInWorker = (precision) =>
  new Promise((resolve, reject) => {
    const w = new Worker('js/worker.js', { type: 'module' });
    w.onmessage = (e) => {
      if (e.data.type === 'ready') w.postMessage({ type: 'bench', updates: 60, repeats: 3, precision });
      else if (e.data.type === 'bench') {
        resolve(e.data.result);
        w.terminate();
      } else if (e.data.type === 'error') reject(new Error(e.data.message));
    };
  });
// The time limits only guard against a run that never ends: a busy machine is slow, not wrong.
/** @type {[string, string, string, number][]} */
const FULL_RUNS = [
  ['ppo_full', 'ppo.html?run=ppo&profile=full&seeds=11,37,71,101,131', '#trainer-ppo', 600_000],
  ['sequence_full', 'sequences.html?run=sequence&profile=full&seed=5&reduction=token_mean', '#trainer-sequence', 300_000],
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
const onlyGates = process.argv[2] === 'gates';
const onlyCompare = process.argv[2] === 'compare';
const onlyReinforce = process.argv[2] === 'reinforce';
const onlyGrpo = process.argv[2] === 'grpo';
const onlyTransformer = process.argv[2] === 'transformer';
const onlyR1 = process.argv[2] === 'r1';
const onlyR1Prepared = process.argv[2] === 'r1-prepared';
const onlyOneFile = process.argv[2] === 'onefile';
const onlySearch = process.argv[2] === 'search';
const onlyClass = process.argv[2] === 'class';
const versusCommit = process.argv[2] === 'versus' ? (process.argv[3] ?? 'ec1f6b9') : null;
const onlyLoad = process.argv[2] === 'load';
const onlyLighthouse = process.argv[2] === 'lighthouse';
const siteArg = process.argv.indexOf('--site');
/** The built site the server serves (scripts/build-site.mjs's site/, or `--site DIR`). */
const siteRoot = siteArg > 0 ? process.argv[siteArg + 1] : SITE;

const server = await startServer({ root: siteRoot });
const chromium = await launch('chromium');
/** @type {import('./bench-runs.mjs').BenchContext} */
const context = { server, chromium, out, timedRun };

/**
 * One core's FLOP limit in GFLOP/s on a SIMD path of `bits` for a scalar: the clock × the lanes
 * × two FMA pipes × 2 operations per FMA. Zen 4 (AMD family 25) runs AVX-512 on 256-bit pipes;
 * another CPU is taken to have pipes as wide as its widest path. The kernels use no FMA (it
 * would change the bits), so on a CPU whose adds and multiplies share the FMA pipes (Intel) the
 * limit of separate multiplies and adds is half of this; Zen 4 has separate add pipes.
 * @param {number} bits @param {string} precision
 */
function flopLimit(bits, precision) {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  const mhz = Number(info.match(/cpu MHz\s*:\s*([\d.]+)/)?.[1] ?? NaN);
  const zen4 = /vendor_id\s*:\s*AuthenticAMD/.test(info) && /cpu family\s*:\s*25\b/.test(info);
  const width = zen4 ? Math.min(bits, 256) : bits;
  const lanes = width / (precision === 'f32' ? 32 : 64);
  return { gflop_per_s: (mhz / 1000) * lanes * 2 * 2, mhz, pipe_bits: width, simd_bits: bits };
}
/** @type {Record<string, number>} */
const PATH_BITS = { avx512: 512, avx2: 256, portable: 128, wasm: 128 };
const PRECISIONS = ['f64', 'f32'];

/** @param {{ minibatch_gflop_per_s: number }} r @param {number} bits @param {string} precision */
const withLimit = (r, bits, precision) => {
  const limit = flopLimit(bits, precision);
  return { ...r, flop_limit: limit, of_flop_limit: r.minibatch_gflop_per_s / limit.gflop_per_s };
};

/**
 * Opens `url` in Chromium and waits for the trainer panel `root` to end. Returns the tab (still
 * open), the run's start in page time (the page being ready), its status and its wall time.
 * @param {string} url @param {string} root @param {number} timeout
 */
async function timedRun(url, root, timeout) {
  const tab = await chromium.open(url, { deviceScaleFactor: 1 });
  await tab.waitReady();
  const t0 = await tab.eval(() => performance.now());
  const status = await tab.waitFor(runEnded, root, timeout);
  const wall_s = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
  return { tab, t0, status, wall_s };
}

/** The trainers' speed and the figures' redraw times, in Chromium, then in Firefox. */
async function training() {
  /** @param {string} kernels @param {string} precision */
  const cli = (kernels, precision) =>
    JSON.parse(
      execFileSync(join(ROOT, 'target', 'release', 'pgbook'), ['bench', 'ppo', '--json', '--kernels', kernels, '--precision', precision], {
        encoding: 'utf8',
      }),
    );
  /** @type {Record<string, any>} */
  const native = {};
  for (const precision of PRECISIONS) {
    // The widest path this CPU has first, then the narrower ones it also has.
    const widest = cli('avx512', precision);
    native[precision] = widest;
    out('bench_native', { precision, load_before: loadavg(), ...withLimit(widest, PATH_BITS[widest.kernels], precision) });
    for (const k of ['avx2', 'portable'].filter((k) => k !== widest.kernels)) {
      const r = cli(k, precision);
      out('bench_native', { precision, load_before: loadavg(), ...withLimit(r, PATH_BITS[r.kernels], precision) });
    }
  }
  let tab = await chromium.open(server.url + 'ppo.html', { deviceScaleFactor: 1 });
  await tab.waitReady();
  for (const precision of PRECISIONS) {
    const wasm = /** @type {any} */ (await tab.eval(benchInWorker, precision));
    out('bench', {
      precision,
      browser: withLimit(wasm, PATH_BITS.wasm, precision),
      native: native[precision],
      throughput_ratio: wasm.env_steps_per_s / native[precision].env_steps_per_s,
    });
  }
  await tab.close();

  for (const [kind, path, root, timeout] of FULL_RUNS) {
    const run = await timedRun(server.url + path, root, timeout);
    tab = run.tab;
    const r = await tab.eval(
      ([t, sel]) => ({
        long_tasks_ms: performance
          .getEntriesByType('longtask')
          .filter((e) => e.startTime >= Number(t))
          .map((e) => Math.round(e.duration)),
        summaries:
          sel === '#trainer-ppo' ? window.pgbookRuns.ppo.map((/** @type {any} */ s) => s.summary) : [window.pgbookRuns.sequence.summary],
      }),
      [String(run.t0), root],
    );
    out(kind, { status: run.status, wall_s: run.wall_s, ...r });
    await tab.close();
  }

  for (const [path, fig] of [
    ['baselines.html', 'baselines'],
    ['gae.html', 'gae'],
    ['clipping.html', 'clipping'],
    ['tokens.html', 'tokens'],
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
    tab = await firefox.open(server.url + 'ppo.html');
    await tab.waitReady();
    for (const precision of PRECISIONS) {
      const ff = /** @type {any} */ (await tab.eval(benchInWorker, precision));
      out('firefox_bench', {
        precision,
        browser: withLimit(ff, PATH_BITS.wasm, precision),
        throughput_ratio: ff.env_steps_per_s / native[precision].env_steps_per_s,
      });
    }
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
    ['one_run', `ppo.html?run=ppo&profile=full&${seeds}`],
    ['two_configurations', `ppo.html?run=ppo&${seeds}&cfg=full&cfg=full;gamma=0.98`],
  ];
  /** @type {Record<string, number[]>} */
  const walls = { one_run: [], two_configurations: [] };
  for (let round = 0; round < 2; round++) {
    for (const [kind, path] of runs) {
      const { tab, status, wall_s } = await timedRun(server.url + path, '#trainer-ppo', 900_000);
      walls[kind].push(wall_s);
      out('compare_run', { run: kind, round, status, wall_s });
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
 * The redraw budget a figure must keep (p95 of its redraw times, ms), per browser. Chromium
 * keeps one frame at 60 Hz. Firefox ESR is measured and reported, not gated: its canvas calls
 * make the same redraws about twice as slow, and fixing that belongs to the drawing code.
 * @type {Record<string, number | null>}
 */
export const REDRAW_BUDGET_MS = { chromium: 16, firefox: null };
const FCP_BUDGET_MS = 1000;
/** The book's own longest script task while a page loads at 4× CPU (median of 3; the floor page has none). */
const LOAD_SCRIPT_BUDGET_MS = 200;
/** What a page that only draws figures may transfer (the figures-only core, not the trainers). */
const FIGURE_PAGE_BUDGET_BYTES = 1_000_000;
const TASK_CPU_BUDGET_MS = 50;
const PANEL_REDRAW_MAX_MS = 50;
const CLI_REFUSAL_BUDGET_S = 5;

/** @type {{ gate: string, ok: boolean }[]} */
const verdicts = [];
/** One budget's verdict, printed at once. @param {string} gate @param {boolean} ok @param {object} data */
const gate = (gate, ok, data) => {
  verdicts.push({ gate, ok });
  out('gate', { gate, ok, load_before: loadavg(), ...data });
};

/**
 * What the main thread did during a run: from the trace where there is one, else the page's
 * own long-task observer (app.js; none in Firefox).
 * @param {import('./harness.mjs').MainThreadTask[] | null} tasks
 */
const taskFigures = (tasks) => {
  const ts = tasks ?? [];
  const slow = ts.filter((t) => t.wall > 50);
  return {
    tasks: ts.length,
    most_cpu_ms: Math.max(0, ...ts.map((t) => t.cpu)),
    over_50ms_wall: slow.length,
    longest_wall_ms: Math.max(0, ...slow.map((t) => t.wall)),
    over_budget_cpu_ms: ts.filter((t) => t.cpu > TASK_CPU_BUDGET_MS).map((t) => Math.round(t.cpu)),
  };
};

/** The test suite's former time gates, each against its budget. */
async function gates() {
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {[string, import('./harness.mjs').Browser][]} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      // First contentful paint of every page.
      for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
        const fcp = [];
        for (let i = 0; i < 3; i++) {
          const tab = await browser.open(server.url + file, { deviceScaleFactor: 1 });
          await tab.waitReady();
          fcp.push((await tab.eval(pageCost)).fcp_ms);
          await tab.close();
        }
        const median = percentile(fcp, 50);
        gate('fcp', median <= FCP_BUDGET_MS, { browser: name, page: file, fcp_ms: fcp, median_ms: median, budget_ms: FCP_BUDGET_MS });
      }
      // Every page of the book in one file, opened from disk: its figures drawn within 1.5 s.
      await oneFileGates(name, browser, gate);
      // Every live figure's redraws (up to two passes: one stall of a loaded machine is not the figure's).
      for (const lesson of LESSONS) {
        const tab = await browser.open(server.url + lesson.file);
        await tab.waitReady();
        const figures = await tab.eval(() =>
          /** @type {HTMLElement[]} */ ([...document.querySelectorAll('figure.live[data-figure]')])
            .filter((f) => f.querySelector('input[type=range][data-param]'))
            .map((f) => f.dataset.figure ?? ''),
        );
        for (const figure of figures) {
          const budget = REDRAW_BUDGET_MS[name];
          /** @type {number[]} */
          const passes = [];
          /** @type {number[]} */
          let times = [];
          for (let pass = 0; pass < 2; pass++) {
            times = await tab.eval(slideFigure, /** @type {[string, number]} */ ([figure, 200]));
            passes.push(percentile(times, 95));
            if (budget === null || passes[pass] <= budget) break;
          }
          const p95 = Math.min(...passes);
          gate('redraw', times.length >= 100 && (budget === null || p95 <= budget), {
            browser: name,
            page: lesson.file,
            figure,
            moves: times.length,
            p50_ms: percentile(times, 50),
            p95_ms: passes,
            budget_ms: budget,
          });
        }
        await tab.close();
      }
    }
  } finally {
    await firefox.close();
  }

  // The search: every keystroke answered within 50 ms (p95), served and from the one file, both browsers.
  await searchBench(context, gate);

  // While a page loads at 4× CPU (a phone): the book's own scripts hold the main thread at
  // most LOAD_SCRIPT_BUDGET_MS in one task (issue 26 found 351 ms before figures got a task
  // each), and a page without a trainer transfers no trainer code.
  for (const row of await loadBench({ url: server.url, out: () => {}, rates: [4] })) {
    if (row.page === FLOOR_PAGE) continue;
    // The build's choice of core, as the page preloads it (scripts/build-site.mjs's preloads).
    const figuresOnly = readFileSync(join(siteRoot, row.page), 'utf8').includes('<link rel="modulepreload" href="pkg/pgbook_figures.js">');
    gate('load_script', row.longest_script_ms !== null && row.longest_script_ms <= LOAD_SCRIPT_BUDGET_MS, {
      page: row.page,
      longest_script_ms: row.longest_script_ms,
      budget_ms: LOAD_SCRIPT_BUDGET_MS,
    });
    if (figuresOnly)
      gate('figure_page_bytes', row.bytes <= FIGURE_PAGE_BUDGET_BYTES, {
        page: row.page,
        bytes: row.bytes,
        budget_bytes: FIGURE_PAGE_BUDGET_BYTES,
      });
  }

  // The PPO panel's own work per redraw during a two-seed smoke run.
  {
    const tab = await chromium.open(server.url + 'ppo.html?run=ppo&profile=smoke&seeds=11,37', { deviceScaleFactor: 1 });
    await tab.waitReady();
    await tab.waitFor(runEnded, '#trainer-ppo', 300_000);
    const redraws = await tab.eval(() => window.pgbookTimings['trainer-ppo'] ?? []);
    // The first redraw also compiles the drawing code's wasm (lazily, 23–48 ms measured; the run
    // starts before the empty axes are drawn): it is held to the maximum, the p95 to the rest
    // (with 8 redraws a p95 is the largest).
    const [p95, max] = [percentile(redraws.slice(1), 95), Math.max(...redraws)];
    const budget = /** @type {number} */ (REDRAW_BUDGET_MS.chromium);
    gate('panel_redraw', redraws.length >= 5 && p95 <= budget && max < PANEL_REDRAW_MAX_MS, {
      run: 'ppo smoke, seeds 11 and 37',
      redraws: redraws.length,
      first_ms: redraws[0],
      p95_after_first_ms: p95,
      max_ms: max,
      budget_p95_ms: budget,
      budget_max_ms: PANEL_REDRAW_MAX_MS,
    });
    await tab.close();
  }

  // The main thread while workers fill both cores: eight full seeds; ten smoke runs of a comparison.
  for (const [run, setup] of /** @type {[string, (tab: import('./harness.mjs').Tab) => Promise<void>][]} */ ([
    [
      'ppo full, 8 seeds',
      async (tab) => {
        await tab.select('#ppo-profile', 'full');
        await tab.fill('#ppo-seeds', '1, 2, 3, 4, 5, 6, 7, 8');
      },
    ],
    [
      'ppo smoke, 2 configurations × 5 seeds',
      async (tab) => {
        await tab.select('#ppo-profile', 'smoke');
        await tab.fill('#ppo-seeds', '11, 37, 71, 101, 131');
        await tab.click('#trainer-ppo .config-add');
        await tab.eval(() => {
          const input = /** @type {HTMLInputElement} */ (document.querySelector('#ppo-gamma'));
          input.value = '0.98';
          input.dispatchEvent(new Event('change', { bubbles: true }));
        });
      },
    ],
  ])) {
    const tab = await chromium.open(server.url + 'ppo.html', { deviceScaleFactor: 1 });
    await tab.waitReady();
    await countWorkers(tab);
    await setup(tab);
    const t0 = Date.now();
    const { tasks, result: status } = await tab.traceTasks(async () => {
      await tab.clickButton('#trainer-ppo', 'Старт');
      return tab.waitFor(runEnded, '#trainer-ppo', 900_000);
    });
    const redraws = await tab.eval(() => window.pgbookTimings['trainer-ppo'] ?? []);
    const [p95, max] = [percentile(redraws, 95), Math.max(...redraws)];
    const workers = await tab.eval(() => /** @type {any} */ (window).pgbookWorkersMax);
    const figures = taskFigures(tasks);
    // The longest redraw and the redraws' count (a panel that keeps drawing through a whole run)
    // are gated during the full run, as the test it comes from did (p95 on both).
    const full = run.startsWith('ppo full');
    gate(
      'main_thread',
      status === 'finished' &&
        figures.over_budget_cpu_ms.length === 0 &&
        p95 <= 16 &&
        (!full || (max < PANEL_REDRAW_MAX_MS && redraws.length >= 20)),
      {
        run,
        status,
        wall_s: (Date.now() - t0) / 1000,
        workers_at_once: workers,
        ...figures,
        budget_task_cpu_ms: TASK_CPU_BUDGET_MS,
        redraws: redraws.length,
        redraw_p95_ms: p95,
        redraw_max_ms: max,
      },
    );
    await tab.close();
  }

  // The CLI refuses every out-of-bounds size and bad option before any work (tests/cli.rs
  // checks the refusal, that nothing was printed first and that the schema alone refuses the
  // sizes; here, that it is quick).
  const cli = existsSync(join(ROOT, 'target', 'release', 'pgbook'))
    ? join(ROOT, 'target', 'release', 'pgbook')
    : join(ROOT, 'target', 'debug', 'pgbook');
  for (const args of [
    ['train', 'sequence', '--iterations', '10000000000'],
    ['train', 'sequence', '--group-size', '100000000000'],
    ['train', 'sequence', '--set', 'ppo_epochs=100000000'],
    ['train', 'sequence', '--set', 'hidden_dim=1000000'],
    ['train', 'ppo', '--set', 'update_epochs=1000000'],
    ['train', 'ppo', '--set', 'hidden_sizes=100000'],
    ['train', 'ppo', '--set', 'num_envs=4096', '--set', 'num_steps=4096'],
    ['train', 'ppo', '--set', 'num_updates=100000', '--set', 'hidden_sizes=1024,1024'],
    ['train', 'ppo', '--seeds', '1000000000000000000000'],
    ['train', 'reinforce', '--env-step-budget', '100000000000'],
    ['train', 'reinforce', '--set', 'episodes_per_update=100000'],
    ['train', 'reinforce', '--set', 'env_step_budget=100000000', '--set', 'value_steps=1000', '--set', 'hidden_sizes=1024,1024'],
    // The rest of tests/cli.rs's refusals, each timed there before issue 22.
    ['train', 'sequence', '--iterations', '18446744073709551615'],
    ['train', 'ppo', '--seeds', '9007199254740992'],
    ['train', 'reinforce', '--set', 'env_step_budget=3999'],
    ['train', 'ppo', '--profile', 'full', '--sed', '5'],
    ['train', 'ppo', '--profile', 'full', '--threads', 'x'],
    ['train', 'ppo', '--profile', 'full', '--json=false'],
    ['train', 'ppo', '--profile', 'full', '--svg-dir', '/proc/pgbook'],
    ['train', 'ppo', '--profile', 'huge'],
    ['train', 'ppo', '--set', 'gamma'],
    ['train', 'ppo', '--set', 'gama=0.9'],
    ['train', 'reinforcement'],
    ['train', 'reinforce', '--set', 'weight=whole'],
    ['train', 'reinforce', '--baseline', 'critic'],
    ['train', 'sequence', '--seeds', '1,2', '--url'],
    ['train', 'ppo', '--url', '--url-base', 'ftp://x'],
    ['replay', '/nonexistent/policy.json'],
    ['train', 'ppo', '--profile', 'full', '--seeds', '11,37', '--url'],
  ]) {
    const t0 = process.hrtime.bigint();
    let code = 0;
    try {
      execFileSync(cli, args, { stdio: 'ignore', timeout: 60_000 });
    } catch (e) {
      code = /** @type {any} */ (e).status ?? -1;
    }
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    // A link is printed (exit 0) unless its base is refused.
    const wanted = args.includes('--url') && !args.includes('--url-base') ? 0 : 2;
    gate('cli_refusal', code === wanted && s < CLI_REFUSAL_BUDGET_S, {
      args: args.join(' '),
      exit: code,
      wall_s: s,
      budget_s: CLI_REFUSAL_BUDGET_S,
    });
  }
  const failed = verdicts.filter((v) => !v.ok);
  out('gates', { checked: verdicts.length, failed: failed.length, over_budget: [...new Set(failed.map((v) => v.gate))] });
  if (failed.length) process.exitCode = 1;
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
  if (versusCommit) await versus(context, versusCommit);
  else if (onlyLoad || onlyLighthouse) {
    const runs = Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 3;
    const pagesArg = process.argv.indexOf('--pages');
    const pages = pagesArg > 0 ? process.argv[pagesArg + 1].split(',') : undefined;
    const cpuArg = process.argv.indexOf('--cpu');
    const rates = cpuArg > 0 ? process.argv[cpuArg + 1].split(',').map(Number) : undefined;
    if (onlyLoad) await loadBench({ url: server.url, out, runs, pages, rates });
    if (!process.argv.includes('--no-lighthouse')) await lighthouseBench({ url: server.url, out, pages });
  } else if (onlyGates) await gates();
  else if (onlyCompare) await comparison();
  else if (onlyReinforce) await reinforce(context);
  else if (onlyGrpo) await grpo(context);
  else if (onlyTransformer) await transformer(context);
  else if (onlyR1Prepared) await r1Prepared(context, process.argv[3] ?? 'r1_dynamic');
  else if (onlyR1) await r1(context, Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 11);
  else if (onlyOneFile) await oneFile(context);
  else if (onlySearch) await searchBench(context);
  else if (onlyClass) await classBench(context);
  else await pagesAndTraining();
} finally {
  await chromium.close();
  await server.stop();
}
