// @ts-check
// The GRPO family in the sequence panel: a GRPO run on the copy task with clip-higher, the
// sequence-level ratio (GSPO) and the KL to the reference in the loss, started from a link,
// equals the native CLI's run iteration for iteration, to the bit (every field, the
// per-level success rates and the new length and KL fields included).
import { it } from 'node:test';
import { forEachBrowser, assert, cliLines, compareReports } from '../harness.mjs';

/** The page's error text for a panel. @param {import('../harness.mjs').Tab} tab @param {string} root */
const panelError = async (tab, root) => (await tab.text(`${root} .figure-error`)) ?? '';

/** The recipe's settings, as `--set` pairs and as the link's query. */
const SETTINGS = {
  iterations: '25',
  clip_epsilon_high: '0.28',
  ratio_level: 'sequence',
  kl_placement: 'loss',
  kl_coef: '0.05',
  kl_estimator: 'k2',
};

forEachBrowser((env) => {
  it('GRPO with clip-higher, sequence-level ratio and KL in the loss: the browser equals the CLI', { timeout: 240_000 }, async (t) => {
    const set = Object.entries(SETTINGS).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const native = cliLines(['train', 'sequence', '--profile', 'grpo', '--seed', '3', '--json', ...set]).filter((l) => l.kind === 'iteration');
    assert(native.length === 25, `the CLI printed ${native.length} iterations`);
    assert(
      native.every((r) => r.success_by_level.length === 4 && typeof r.kl_to_reference === 'number' && 'mean_length_incorrect' in r),
      'the CLI lines lack the new fields',
    );
    assert(
      native.some((r) => r.kl_to_reference > 0),
      'the policy never left its reference',
    );
    const query = Object.entries(SETTINGS)
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    await env.withTab(`lesson-08.html?run=sequence&profile=grpo&seed=3&${query}`, null, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 180_000);
      assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
      const reports = await tab.eval(() => window.pgbookRuns.sequence.reports);
      const c = compareReports(reports, native, 'grpo');
      assert(c.identical === c.compared, `grpo: only the first ${c.identical} of ${c.compared} iterations are bit-identical (worst relative difference ${c.worst})`);
      for (const [i, r] of reports.entries()) {
        assert(JSON.stringify(r.success_by_level) === JSON.stringify(native[i].success_by_level), `iteration ${i + 1}: success by level differs`);
        assert(r.mean_length_incorrect === native[i].mean_length_incorrect, `iteration ${i + 1}: mean_length_incorrect differs`);
      }
      t.diagnostic(`grpo (clip-higher, sequence ratio, KL k2 in the loss): ${c.identical}/${c.compared} iterations bit-identical`);
    });
  });
});
