// @ts-check
// The GRPO family in the sequence panel: runs on the copy task started from a link equal the
// native CLI's runs iteration for iteration, to the bit (every field, the per-level success
// rates and the new length and KL fields included). The first is GRPO with clip-higher, the
// sequence-level ratio (GSPO) and the KL to the reference in the loss; the others cover the
// remaining estimators, constant_length and the KL in the reward.
import { it } from 'node:test';
import { forEachBrowser, assert, cliLines, compareReports } from '../harness.mjs';

/** The page's error text for a panel. @param {import('../harness.mjs').Tab} tab @param {string} root */
const panelError = async (tab, root) => (await tab.text(`${root} .figure-error`)) ?? '';

/** Each run: a profile, a seed and its settings (as `--set` pairs and as the link's query). */
const RUNS = [
  {
    profile: 'grpo',
    seed: 3,
    settings: { iterations: '25', clip_epsilon_high: '0.28', ratio_level: 'sequence', kl_placement: 'loss', kl_coef: '0.05', kl_estimator: 'k2' },
  },
  {
    profile: 'rloo',
    seed: 2,
    settings: { iterations: '20', reduction: 'constant_length', advantage_estimator: 'mean_std_population', kl_coef: '0.1' },
  },
  {
    profile: 'dr_grpo',
    seed: 4,
    settings: { iterations: '20', advantage_estimator: 'none', kl_placement: 'loss', kl_coef: '0.1', kl_estimator: 'k1' },
  },
];

forEachBrowser((env) => {
  for (const { profile, seed, settings } of RUNS) {
    const label = `${profile} ${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`;
    it(`${label}: the browser equals the CLI`, { timeout: 240_000 }, async (t) => {
      const set = Object.entries(settings).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const native = cliLines(['train', 'sequence', '--profile', profile, '--seed', String(seed), '--json', ...set]).filter((l) => l.kind === 'iteration');
      assert(native.length === Number(settings.iterations), `the CLI printed ${native.length} iterations`);
      assert(
        native.every((r) => r.success_by_level.length === 4 && typeof r.kl_to_reference === 'number' && 'mean_length_incorrect' in r),
        'the CLI lines lack the new fields',
      );
      assert(
        native.some((r) => r.kl_to_reference > 0),
        'the policy never left its reference',
      );
      const query = Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      await env.withTab(`lesson-08.html?run=sequence&profile=${profile}&seed=${seed}&${query}`, null, async (tab) => {
        await tab.waitReady();
        await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 180_000);
        assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
        const reports = await tab.eval(() => window.pgbookRuns.sequence.reports);
        const c = compareReports(reports, native, profile);
        assert(c.identical === c.compared, `${label}: only the first ${c.identical} of ${c.compared} iterations are bit-identical (worst relative difference ${c.worst})`);
        for (const [i, r] of reports.entries()) {
          assert(JSON.stringify(r.success_by_level) === JSON.stringify(native[i].success_by_level), `iteration ${i + 1}: success by level differs`);
          assert(r.mean_length_incorrect === native[i].mean_length_incorrect, `iteration ${i + 1}: mean_length_incorrect differs`);
        }
        t.diagnostic(`${label}: ${c.identical}/${c.compared} iterations bit-identical`);
      });
    });
  }
});
