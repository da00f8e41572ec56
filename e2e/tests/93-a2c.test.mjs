// @ts-check
// A2C on CartPole in the book (lesson 4): a whole smoke run in the browser equals the CLI's,
// update for update and bit for bit, seed by seed, and the page's JSON lines are the CLI's.
import { it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { forEachBrowser, assert, cliLines, compareReports, CLI } from '../harness.mjs';

forEachBrowser((env) => {
  it('a whole A2C smoke run equals the CLI’s, seed by seed, update for update', { timeout: 240_000 }, async (t) => {
    await env.withTab('gae.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.select('#a2c-profile', 'smoke');
      await tab.fill('#a2c-seeds', '11, 37');
      await tab.clickButton('#trainer-a2c', 'Старт');
      await tab.waitStatus('#trainer-a2c', ['finished', 'failed'], 200_000);
      assert((await tab.status('#trainer-a2c')) === 'finished', (await tab.text('#trainer-a2c .figure-error')) ?? '');
      assert((await tab.count('#a2c-summary tbody tr')) === 2, 'two summaries');
      const curve = await tab.canvas('#canvas-a2c-curve');
      assert(curve.inked > 0.02, 'the learning curve is empty');
      const runs = await tab.eval(() => window.pgbookRuns.a2c);
      /** @type {string[]} */
      const notes = [];
      for (const run of runs) {
        const native = cliLines(['train', 'a2c', '--profile', 'smoke', '--seeds', String(run.seed), '--json']);
        const updates = native.filter((l) => l.kind === 'update');
        assert(run.reports.length === updates.length, `seed ${run.seed}: ${run.reports.length} updates in the browser, ${updates.length} in the CLI`);
        const c = compareReports(run.reports, updates, `a2c seed ${run.seed}`);
        assert(c.identical === c.compared, `seed ${run.seed}: only ${c.identical}/${c.compared} updates bit-identical (worst ${c.worst})`);
        const summary = native.find((l) => l.kind === 'summary');
        assert(summary.final_evaluation_mean === run.summary.final_evaluation_mean, `seed ${run.seed}: summaries differ`);
        notes.push(`seed ${run.seed}: ${c.identical}/${c.compared} updates identical, final ${run.summary.final_evaluation_mean}`);
      }
      // The JSON download's update lines are the CLI's, byte for byte (--threads 1: seed after seed).
      const lines = /** @type {string} */ (await tab.eval(() => /** @type {any} */ (window.pgbookPanels.a2c).board.json_lines()));
      const cli = execFileSync(CLI, ['train', 'a2c', '--profile', 'smoke', '--seeds', '11,37', '--json', '--threads', '1'], { encoding: 'utf8' });
      /** @param {string} text */
      const updates = (text) => text.split('\n').filter((l) => l.includes('"kind":"update"'));
      assert(updates(lines).length > 0 && updates(lines).join('\n') === updates(cli).join('\n'), 'the update lines differ from the CLI’s');
      assert(lines.split('\n').filter((l) => l.includes('"kind":"summary"')).length === 2, 'two summary lines');
      t.diagnostic(`${env.name}: ${notes.join('; ')}`);
    });
  });
});
