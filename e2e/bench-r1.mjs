// @ts-check
// `node e2e/bench.mjs r1 [SEED]`: one seed's whole R1-Zero pipeline (pass@k of the untrained
// net, SFT, pass@k, 200 RL iterations with pass@k every 50) of the `r1_grpo` profile, from the
// link lesson 10 gives (lesson 8's sequence panel, the form filled, one seed), in Chromium and
// in Firefox: the time estimate shown beside «Старт» before the start (a reader without saved
// runs: planned work ÷ this page's measured speed), the run's wall time (pauses left out) and
// their ratio; then the CLI's CPU time for the same seed. Each line carries the load average.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, launch, runEnded } from './harness.mjs';
import { preparedTable } from './bench-runs.mjs';

const ROOT_SEL = '#trainer-sequence';

/** Runs in the page: the estimate's seconds once shown. @param {string} sel */
const shownEstimate = (sel) => {
  const e = /** @type {HTMLElement | null} */ (document.querySelector(`${sel} .run-estimate`));
  return e?.dataset.seconds ? { seconds: Number(e.dataset.seconds), planned: Number(e.dataset.planned), text: e.textContent } : null;
};

/** @param {import('./bench-runs.mjs').BenchContext} ctx @param {number} seed */
export async function r1({ server, chromium, out }, seed) {
  const path = `sequences.html?form=sequence&profile=r1_grpo&seed=${seed}`;
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {const} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      const tab = await browser.open(server.url + path, { deviceScaleFactor: 1 });
      try {
        await tab.waitReady();
        const estimate = await tab.waitFor(shownEstimate, ROOT_SEL, 60_000);
        if (!estimate) throw new Error(`${name}: no estimate`);
        const load_before = loadavg();
        await tab.eval(() => {
          window.confirm = () => true;
        });
        await tab.clickButton(ROOT_SEL, 'Старт');
        const status = await tab.waitFor(runEnded, ROOT_SEL, 1_800_000);
        const timing = /** @type {any} */ (await tab.eval(() => /** @type {any} */ (window).pgbookPanels.sequence?.timing ?? null));
        out('r1_pipeline', {
          browser: name,
          profile: 'r1_grpo',
          seed,
          status,
          estimate_s: estimate.planned,
          estimate_text: estimate.text,
          wall_s: timing?.seconds ?? null,
          wall_over_estimate: timing ? timing.seconds / estimate.planned : null,
          measured_speed: timing?.speed ?? null,
          load_before,
          load_after: loadavg(),
        });
      } finally {
        await tab.close();
      }
    }
  } finally {
    await firefox.close();
  }
  // The CLI's time for the same seed, one thread (wall time with the load beside it), when the
  // release CLI is built.
  const cli = join(ROOT, 'target', 'release', 'pgbook');
  if (!existsSync(cli)) return out('r1_pipeline', { browser: 'cli', skipped: `${cli} not built` });
  const load_before = loadavg();
  const t0 = performance.now();
  execFileSync(cli, ['train', 'sequence', '--profile', 'r1_grpo', '--seeds', String(seed), '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  out('r1_pipeline', {
    browser: 'cli',
    profile: 'r1_grpo',
    seed,
    wall_s: (performance.now() - t0) / 1000,
    load_before,
    load_after: loadavg(),
  });
}

/**
 * `node e2e/bench.mjs r1-prepared [ID]`: lesson 10's prepared comparison ID (default
 * r1_dynamic, the one with the most sampling) in Chromium, as a reader runs it: its block's
 * link opened with the form filled but not started (`form=` for `run=`), the estimate shown
 * beside «Старт», then the whole comparison (every configuration on the block's seeds, the
 * panel's workers), its wall time (pauses left out) against the estimate; back on the lesson,
 * the block's table and verdict filled from the saved run. The load average before and after.
 * @param {import('./bench-runs.mjs').BenchContext} ctx @param {string} id
 */
export async function r1Prepared({ server, chromium, out }, id) {
  const block = `#prepared-${id.replaceAll('_', '-')}`;
  const tab = await chromium.open(server.url + 'r1zero.html', { deviceScaleFactor: 1 });
  try {
    await tab.waitReady();
    const href = /** @type {string} */ (
      await tab.eval((sel) => /** @type {HTMLAnchorElement | null} */ (document.querySelector(sel))?.href ?? '', `${block} a.prepared-run`)
    );
    if (!href) throw new Error(`${block}: no link to the trainer`);
    const url = new URL(href);
    url.searchParams.set('form', url.searchParams.get('run') ?? '');
    url.searchParams.delete('run');
    await tab.goto(url.href);
    await tab.waitReady();
    const estimate = await tab.waitFor(shownEstimate, ROOT_SEL, 120_000);
    if (!estimate) throw new Error(`${id}: no estimate`);
    const configs = await tab.eval(() => /** @type {any} */ (window).pgbookPanels.sequence?.configs?.length ?? 0);
    const load_before = loadavg();
    await tab.eval(() => {
      window.confirm = () => true;
    });
    await tab.clickButton(ROOT_SEL, 'Старт');
    const status = await tab.waitFor(runEnded, ROOT_SEL, 3_600_000);
    const timing = /** @type {any} */ (await tab.eval(() => /** @type {any} */ (window).pgbookPanels.sequence?.timing ?? null));
    const load_after = loadavg();
    // The run is saved once it has ended; the panel's history lists it then.
    await tab.waitFor(
      () => (document.querySelector('#seq-history summary')?.textContent ?? '').match(/\((\d+)\)/)?.[1] !== '0',
      null,
      30_000,
    );
    await tab.goto(server.url + 'r1zero.html');
    await tab.waitReady();
    const table = await preparedTable(tab, block);
    const verdict = await tab.text(`${block} .prediction-verdict`);
    out('r1_prepared', {
      browser: 'chromium',
      id,
      configs,
      seeds: url.searchParams.get('seed'),
      status,
      estimate_s: estimate.planned,
      estimate_text: estimate.text,
      wall_s: timing?.seconds ?? null,
      wall_over_estimate: timing ? timing.seconds / estimate.planned : null,
      workers: timing?.workers ?? null,
      measured_speed: timing?.speed ?? null,
      load_before,
      load_after,
      table,
      verdict,
    });
  } finally {
    await tab.close();
  }
}
