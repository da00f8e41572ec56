// @ts-check
// `node e2e/bench.mjs transformer`: the transformer policy's speed, native and in Chromium side
// by side — `pgbook bench transformer` (tokens per second sampled through the KV cache and
// trained forward + backward, GFLOP/s) for f32 and f64 natively on the widest SIMD path and on
// the portable one (the code wasm runs), the same procedure in a Web Worker, the ratio of the
// browser to native per core — then the `transformer` profile's five course seeds in the
// sequence panel (wall time from the page being ready to the run's end, each seed's final
// success) against the CLI's five seeds on two threads. Each line carries the load average.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './harness.mjs';

const CLI = join(ROOT, 'target', 'release', 'pgbook');
const SEEDS = '1,2,3,4,5';

/** Runs in the page: the CLI's `bench transformer` in a fresh Web Worker. @param {string} precision */
const benchInWorker = (precision) =>
  new Promise((resolve, reject) => {
    const w = new Worker('js/worker.js', { type: 'module' });
    w.onmessage = (e) => {
      if (e.data.type === 'ready') w.postMessage({ type: 'bench', which: 'transformer', repeats: 3, precision });
      else if (e.data.type === 'bench') {
        resolve(e.data.result);
        w.terminate();
      } else if (e.data.type === 'error') reject(new Error(e.data.message));
    };
  });

/** Runs in the page: each seed's final success (the panel's board holds every job's summary). */
const seedResults = () =>
  /** @type {any} */ (window.pgbookPanels.sequence.board?.summaries() ?? []).map((/** @type {any} */ r) => ({
    seed: r.seed,
    final_success_rate: r.final_success_rate ?? null,
    final_success_by_level: r.final_success_by_level ?? null,
  }));

/** @param {import('./bench-runs.mjs').BenchContext} ctx */
export async function transformer({ server, chromium, out, timedRun }) {
  /** @param {string[]} args */
  const native = (args) => JSON.parse(execFileSync(CLI, ['bench', 'transformer', '--json', ...args], { encoding: 'utf8' }));
  const tab = await chromium.open(server.url + 'sequences.html', { deviceScaleFactor: 1 });
  try {
    await tab.waitReady();
    for (const precision of ['f32', 'f64']) {
      const load_before = loadavg();
      const widest = native(['--precision', precision]);
      const portable = native(['--precision', precision, '--kernels', 'portable']);
      const browser = /** @type {any} */ (await tab.eval(benchInWorker, precision));
      /** @param {string} key */
      const ratio = (key) => browser[key] / widest[key];
      out('transformer_bench', {
        precision,
        load_before,
        shape: widest.shape,
        params: widest.params,
        native: widest,
        native_portable: portable,
        chromium: browser,
        chromium_to_native_sampling: ratio('sampling_tokens_per_s'),
        chromium_to_native_training: ratio('training_tokens_per_s'),
        chromium_to_portable_training: browser.training_tokens_per_s / portable.training_tokens_per_s,
      });
    }
  } finally {
    await tab.close();
  }
  // The profile's course seeds: the CLI on two threads, then the panel (a worker per core).
  let load_before = loadavg();
  const t0 = performance.now();
  const lines = execFileSync(CLI, ['train', 'sequence', '--profile', 'transformer', '--seeds', SEEDS, '--threads', '2', '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const cli_s = (performance.now() - t0) / 1000;
  const summaries = lines
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.kind === 'summary')
    .map((s) => ({ seed: s.seed, final_success_rate: s.final_success_rate, wall_s: s.wall_s }));
  out('transformer_profile_cli', { seeds: SEEDS, wall_s: cli_s, load_before, summaries });
  load_before = loadavg();
  const url = server.url + `sequences.html?run=sequence&profile=transformer&seed=${SEEDS}`;
  const run = await timedRun(url, '#trainer-sequence', 1_800_000);
  out('transformer_profile_chromium', {
    seeds: SEEDS,
    status: run.status,
    wall_s: run.wall_s,
    load_before,
    results: await run.tab.eval(seedResults),
  });
  await run.tab.close();
}
