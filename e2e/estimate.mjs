// @ts-check
// The time estimate beside «Старт» against the time runs really take, in Chromium (a
// measurement, not a test: the machine's load decides the figures). For each trainer's smoke
// and full profile: the estimate a reader without saved runs sees (planned work ÷ this page's
// measured speed), the run's wall time, their ratio, then the estimate for the same settings
// once the run is in the history (the per-trainer correction). One JSON line per case.
// Usage: scripts/build-wasm.sh && node scripts/build-site.mjs && node e2e/estimate.mjs [NAME…]
import { startServer, launch, runEnded } from './harness.mjs';

/** @type {[string, string, string][]} name, page and settings (`form=` shows them without starting), panel */
const CASES = [
  ['reinforce_smoke', 'baselines.html?form=reinforce&profile=smoke', '#trainer-reinforce'],
  ['reinforce_full', 'baselines.html?form=reinforce&profile=full&seeds=11,37', '#trainer-reinforce'],
  ['a2c_smoke', 'gae.html?form=a2c&profile=smoke', '#trainer-a2c'],
  ['a2c_full', 'gae.html?form=a2c&profile=full&seeds=11,37', '#trainer-a2c'],
  ['ppo_smoke', 'ppo.html?form=ppo&profile=smoke', '#trainer-ppo'],
  ['ppo_full', 'ppo.html?form=ppo&profile=full&seeds=11,37', '#trainer-ppo'],
  ['sequence_smoke', 'sequences.html?form=sequence&profile=smoke', '#trainer-sequence'],
  ['sequence_full', 'sequences.html?form=sequence&profile=full', '#trainer-sequence'],
];
const wanted = process.argv.slice(2);

const server = await startServer();
const chromium = await launch('chromium');
try {
  for (const [name, path, root] of CASES) {
    if (wanted.length && !wanted.includes(name)) continue;
    const tab = await chromium.open(`${server.url}/${path}`, { deviceScaleFactor: 1 });
    try {
      await tab.waitReady();
      /** The estimate's seconds once shown (data-seconds), and those before the correction. */
      const estimate = () =>
        tab.waitFor(
          (sel) => {
            const e = /** @type {HTMLElement | null} */ (document.querySelector(`${sel} .run-estimate`));
            return e?.dataset.seconds
              ? { seconds: Number(e.dataset.seconds), planned: Number(e.dataset.planned), text: e.textContent }
              : null;
          },
          root,
          20_000,
        );
      const before = await estimate();
      if (!before) throw new Error(`${name}: no estimate`);
      await tab.eval(() => {
        window.confirm = () => true;
      });
      await tab.clickButton(root, 'Старт');
      const status = await tab.waitFor(runEnded, root, 1_800_000);
      const kind = root.replace('#trainer-', '');
      const timing = await tab.eval((k) => /** @type {any} */ (window).pgbookPanels[k]?.timing ?? null, kind);
      // The history has the run: the same settings' estimate now.
      await tab.waitFor((sel) => document.querySelector(`${sel} .history-list li`) !== null, root, 20_000);
      await tab.eval((k) => /** @type {any} */ (window).pgbookPanels[k]?.showEstimate(), kind);
      const after = await estimate();
      if (!after) throw new Error(`${name}: no estimate after the run`);
      console.log(
        JSON.stringify({
          kind: 'estimate',
          name,
          status,
          planned_s: before.planned,
          actual_s: timing?.seconds,
          actual_over_planned: timing ? timing.seconds / before.planned : null,
          workers: timing?.workers,
          // Work units per second per worker: the measured speed, and the run's own.
          measured_speed: timing?.speed,
          run_speed: timing ? timing.work / timing.seconds / timing.workers : null,
          after_s: after.seconds,
          after_over_actual: timing ? after.seconds / timing.seconds : null,
        }),
      );
    } finally {
      await tab.close();
    }
  }
} finally {
  await chromium.close();
  await server.stop();
}
