// @ts-check
// REINFORCE on CartPole in the book (lessons 1–3): a whole smoke run in the browser equals the
// CLI's, bit for bit, seed by seed; its panel is the lab's (summary table, curves, policy file);
// the same trainer in a comparison of its variants.
import { it } from 'node:test';
import { forEachBrowser, assert, assertSameLines, cliLines, compareReports } from '../harness.mjs';

forEachBrowser((env) => {
  it('a whole REINFORCE smoke run equals the CLI’s, seed by seed, bit for bit', { timeout: 240_000 }, async (t) => {
    await env.withTab('baselines.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.select('#reinforce-profile', 'smoke');
      await tab.fill('#reinforce-seeds', '11, 37');
      await tab.clickButton('#trainer-reinforce', 'Старт');
      await tab.waitStatus('#trainer-reinforce', ['finished', 'failed'], 200_000);
      assert((await tab.status('#trainer-reinforce')) === 'finished', (await tab.text('#trainer-reinforce .figure-error')) ?? '');
      assert((await tab.count('#reinforce-summary tbody tr')) === 2, 'two summaries');
      const curve = await tab.canvas('#canvas-reinforce-curve');
      assert(curve.inked > 0.02, 'the learning curve is empty');
      const runs = await tab.eval(() => window.pgbookRuns.reinforce);
      /** @type {string[]} */
      const notes = [];
      for (const run of runs) {
        const native = cliLines(['train', 'reinforce', '--profile', 'smoke', '--seeds', String(run.seed), '--json']);
        const updates = native.filter((l) => l.kind === 'update');
        const c = compareReports(run.reports, updates, `reinforce seed ${run.seed}`);
        assert(c.identical === c.compared, `seed ${run.seed}: only ${c.identical}/${c.compared} updates bit-identical (worst ${c.worst})`);
        const summary = native.find((l) => l.kind === 'summary');
        assert(summary.final_evaluation_mean === run.summary.final_evaluation_mean, `seed ${run.seed}: summaries differ`);
        notes.push(`seed ${run.seed}: ${c.identical}/${c.compared} updates identical, final ${run.summary.final_evaluation_mean}`);
      }
      // The JSON download is the CLI's lines (one thread: seed after seed, then the summaries),
      // byte for byte but for the CLI's timings.
      const file = await tab.download('#trainer-reinforce .downloads button:nth-child(2)');
      assert(file.name === 'reinforce-cartpole.jsonl', `download named ${file.name}`);
      assertSameLines(file.text, ['train', 'reinforce', '--profile', 'smoke', '--seeds', '11,37', '--threads', '1', '--json'], file.name);
      t.diagnostic(`${env.name}: ${notes.join('; ')}`);
    });
  });

  it('the REINFORCE panel compares its variants on the same seeds', { timeout: 240_000 }, async () => {
    const link = 'reinforce.html?run=reinforce&seeds=11&cfg=smoke;weight=whole_return;baseline=none&cfg=smoke;baseline=none&cfg=smoke';
    await env.withTab(link, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-reinforce', ['finished', 'failed'], 200_000);
      assert((await tab.status('#trainer-reinforce')) === 'finished', (await tab.text('#trainer-reinforce .figure-error')) ?? '');
      assert((await tab.count('#reinforce-comparison tbody tr')) === 3, 'three rows');
      const runs = await tab.eval(() => window.pgbookRuns.reinforce);
      const weights = ['whole_return', 'reward_to_go', 'reward_to_go'];
      for (const [c, run] of runs.entries()) {
        const set = c === 0 ? ['--set', 'weight=whole_return', '--set', 'baseline=none'] : c === 1 ? ['--set', 'baseline=none'] : [];
        const native = cliLines(['train', 'reinforce', '--profile', 'smoke', '--seeds', '11', '--json', ...set]).filter((l) => l.kind === 'update');
        const cmp = compareReports(run.reports, native, `variant ${weights[c]}`);
        assert(cmp.identical === cmp.compared, `variant ${c}: ${cmp.identical}/${cmp.compared} bit-identical`);
      }
    });
  });
});
