// @ts-check
// The benchmarks that run whole lessons' trainings in Chromium (e2e/bench.mjs calls them): this
// book against an earlier commit's, REINFORCE's full profile and lesson 3's prepared
// comparison, the GRPO family's profiles and lesson 9's prepared comparisons. Each prints its
// figures as JSON lines through `out`.
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startServer, percentile, runEnded } from './harness.mjs';

/**
 * What the benchmarks share: the book's server, one Chromium, the JSON-line printer, and a run
 * from a link to its end.
 * @typedef {{
 *   server: import('./harness.mjs').Server,
 *   chromium: import('./harness.mjs').Browser,
 *   out: (kind: string, data: object) => void,
 *   timedRun: (url: string, root: string, timeout: number) => Promise<{ tab: import('./harness.mjs').Tab, t0: number, status: string | false, wall_s: number }>,
 * }} BenchContext
 */

/** Runs in the page: `n` moves of `figure`'s first slider; that figure's redraw times. @param {[string, number]} a */
export const slideFigure = ([name, n]) => {
  window.pgbookTimings[name] = [];
  const el = /** @type {HTMLInputElement} */ (document.querySelector(`figure[data-figure=${name}] input[type=range][data-param]`));
  const steps = Math.round((Number(el.max) - Number(el.min)) / Number(el.step));
  for (let i = 0; i < n; i++) {
    el.value = String(Number(el.min) + ((i * 7) % (steps + 1)) * Number(el.step));
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  return window.pgbookTimings[name];
};

/**
 * A prepared comparison's table in the lesson, once the saved run has filled it: one line per
 * row, cells joined by « | ».
 * @param {import('./harness.mjs').Tab} tab @param {string} block the block's selector
 * @returns {Promise<string[]>}
 */
export async function preparedTable(tab, block) {
  const box = `${block} [data-prepared-result]`;
  await tab.waitFor((sel) => document.querySelectorAll(`${sel} tbody tr`).length > 0, box, 30_000);
  return tab.eval(
    (sel) =>
      [.../** @type {NodeListOf<HTMLTableRowElement>} */ (document.querySelectorAll(`${sel} tr`))].map((tr) =>
        [...tr.cells].map((c) => c.textContent ?? '').join(' | '),
      ),
    box,
  );
}

/**
 * Builds an earlier commit's book once, in a git worktree beside the temporary files with its
 * own target directory; returns the directory to serve (its `site/` if it builds one, else
 * `www/`, which was the book before the site was built).
 * @param {string} commit
 */
function buildCommit(commit) {
  const dir = join(tmpdir(), `pgbook-${commit}`);
  const env = { ...process.env, CARGO_TARGET_DIR: join(dir, 'target') };
  if (!existsSync(dir)) execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(join(dir, 'www', 'pkg', 'pgbook_bg.wasm'))) {
    execFileSync('bash', [join(dir, 'scripts', 'build-wasm.sh')], { cwd: dir, env, stdio: 'inherit' });
  }
  if (!existsSync(join(dir, 'scripts', 'build-site.mjs'))) return join(dir, 'www');
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (!existsSync(join(dir, 'site', 'index.html'))) execFileSync('node', ['scripts/build-site.mjs'], { cwd: dir, stdio: 'inherit' });
  return join(dir, 'site');
}

/**
 * The full five-seed PPO profile of this book against an earlier commit's (`ec1f6b9`, the
 * book before issue 15), alternately in one Chromium session, three rounds: wall time from the
 * page being ready to the panel's `data-status` ending, and this book's per-seed results.
 * @param {BenchContext} ctx @param {string} commit
 */
export async function versus({ server, out, timedRun }, commit) {
  const old = await startServer({ root: buildCommit(commit) });
  const path = 'ppo.html?run=ppo&profile=full&seeds=11,37,71,101,131';
  /** @type {Record<string, number[]>} */
  const walls = { [commit]: [], now: [] };
  try {
    for (let round = 0; round < 3; round++) {
      for (const [build, url] of [
        [commit, old.url],
        ['now', server.url],
      ]) {
        const load_before = loadavg();
        const { tab, status, wall_s } = await timedRun(url + path, '#trainer-ppo', 900_000);
        walls[build].push(wall_s);
        const summaries =
          build === 'now' ? await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => r.summary)) : undefined;
        out('versus_run', { build, round, status, wall_s, load_before, summaries });
        await tab.close();
      }
    }
  } finally {
    await old.stop();
  }
  const best = (/** @type {number[]} */ xs) => Math.min(...xs);
  out('versus', {
    commit,
    [`${commit}_s`]: walls[commit],
    now_s: walls.now,
    ratio_of_best: best(walls.now) / best(walls[commit]),
    ratios_per_round: walls.now.map((w, i) => w / walls[commit][i]),
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

/** REINFORCE's full profile in workers, then lesson 3's prepared comparison from its button. @param {BenchContext} ctx */
export async function reinforce({ server, chromium, out, timedRun }) {
  for (const seeds of ['11', '11,37,71,101,131']) {
    const load_before = loadavg();
    const url = server.url + `baselines.html?run=reinforce&profile=full&seeds=${seeds}`;
    const { tab, status, wall_s } = await timedRun(url, '#trainer-reinforce', 1_800_000);
    const runs = await tab.eval(reinforceRuns);
    const workers = await tab.eval(() => Math.min(navigator.hardwareConcurrency || 2, window.pgbookRuns.reinforce.length));
    const env_steps = runs.reduce((n, r) => n + r.env_steps, 0);
    out('reinforce_full', { seeds, status, wall_s, env_steps, env_steps_per_s: env_steps / wall_s, workers, load_before, runs });
    await tab.close();
  }
  const load_before = loadavg();
  const tab = await chromium.open(server.url + 'baselines.html', { deviceScaleFactor: 1 });
  await tab.waitReady();
  const t0 = await tab.eval(() => performance.now());
  await tab.click('#prepared-reinforce button.prepared-run');
  const status = await tab.waitFor(runEnded, '#trainer-reinforce', 3_600_000);
  const wall_s = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
  // The lesson's own table, filled from the saved run.
  const table = await preparedTable(tab, '#prepared-reinforce');
  const configs = await tab.eval(() =>
    [...document.querySelectorAll('#prepared-reinforce .prepared-configs li')].map((li) => li.textContent),
  );
  out('reinforce_prepared', { status, wall_s, load_before, configs, table, runs: await tab.eval(reinforceRuns) });
  await tab.close();
}

/** Runs in the page: the sequence panel's results table and its redraw times. */
const sequenceResults = () => ({
  table: [
    .../** @type {NodeListOf<HTMLTableRowElement>} */ (
      document.querySelectorAll('#trainer-sequence .comparison tr, #seq-summary-table tr')
    ),
  ].map((tr) => [...tr.cells].map((c) => c.textContent ?? '').join(' | ')),
  results: /** @type {any} */ (window.pgbookPanels).sequence.board?.results() ?? [],
  redraw_ms: window.pgbookTimings['trainer-sequence'] ?? [],
});

/** @param {number[]} xs */
const redrawFigures = (xs) => ({ redraws: xs.length, p95_ms: percentile(xs, 95), max_ms: Math.max(0, ...xs) });

/**
 * The GRPO family: each profile on its five seeds, lesson 9's prepared comparisons from their
 * links (the lesson's tables filled from the saved runs), and lesson 9's figures' redraws.
 * @param {BenchContext} ctx
 */
export async function grpo({ server, chromium, out, timedRun }) {
  for (const profile of ['grpo', 'dr_grpo', 'rloo']) {
    const load_before = loadavg();
    const url = server.url + `sequences.html?run=sequence&profile=${profile}&seed=1,2,3,4,5`;
    const { tab, status, wall_s } = await timedRun(url, '#trainer-sequence', 1_800_000);
    const r = await tab.eval(sequenceResults);
    out('grpo_profile', { profile, status, wall_s, load_before, results: r.results, redraw: redrawFigures(r.redraw_ms) });
    await tab.close();
  }
  for (const id of ['prepared-recipes', 'prepared-kl', 'prepared-clip']) {
    // One tab (one browser context, one IndexedDB): the lesson's link starts the run on lesson
    // 8, and back on the lesson its table is filled from the saved run.
    const tab = await chromium.open(server.url + 'grpo.html', { deviceScaleFactor: 1 });
    await tab.waitReady();
    const href = /** @type {string} */ (
      await tab.eval((sel) => /** @type {HTMLAnchorElement} */ (document.querySelector(sel)).href, `#${id} a.prepared-run`)
    );
    const load_before = loadavg();
    await tab.goto(href);
    await tab.waitReady();
    const t0 = await tab.eval(() => performance.now());
    const status = await tab.waitFor(runEnded, '#trainer-sequence', 3_600_000);
    const wall_s = /** @type {number} */ (await tab.eval((t) => (performance.now() - Number(t)) / 1000, String(t0)));
    const r = await tab.eval(sequenceResults);
    // The run is saved once it has ended; the panel's history lists it then.
    await tab.waitFor(
      () => (document.querySelector('#seq-history summary')?.textContent ?? '').match(/\((\d+)\)/)?.[1] !== '0',
      null,
      30_000,
    );
    await tab.goto(server.url + 'grpo.html');
    await tab.waitReady();
    const box = `#${id} [data-prepared-result]`;
    const table = await preparedTable(tab, `#${id}`);
    const text = await tab.text(`${box} .comparison-text`);
    out('grpo_prepared', { id, status, wall_s, load_before, table, text, redraw: redrawFigures(r.redraw_ms) });
    await tab.close();
  }
  const tab = await chromium.open(server.url + 'grpo.html');
  await tab.waitReady();
  for (const fig of ['difficulty', 'length_weights', 'kl_estimators']) {
    const times = /** @type {number[]} */ (await tab.eval(slideFigure, [fig, 200]));
    out('redraw', { figure: fig, moves: times.length, p50_ms: percentile(times, 50), p95_ms: percentile(times, 95), dpr: 2 });
  }
  await tab.close();
}
