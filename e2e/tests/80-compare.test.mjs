// @ts-check
// The lab's comparisons: up to four configurations of a trainer on the same seeds, on one pool
// of workers; one figure with a band per configuration, a results table and what it says; any
// run in detail; the share link carries every configuration; each configuration's runs equal
// the CLI's with the same --set, bit for bit (an overridden one included); bad configurations
// are refused before any worker starts.
import { it } from 'node:test';
import { forEachBrowser, assert, assertEqualsCli, canvasHash, countWorkers } from '../harness.mjs';


/** Configuration B of the first test: lesson 4's and 5's mistakes, and an override of each kind. */
const B = { truncation: 'terminal', clip_coef: 'off', boundary_trace_cut: 'false', hidden_sizes: '32,16', ent_coef: '0.01' };

/** Whether the page has made a run's worker (pool.js counts them; the worker that measures the speed at load is not one). @param {import('../harness.mjs').Tab} tab */
const runWorkerMade = (tab) => tab.eval(() => (window.pgbookRunWorkers ?? 0) > 0);

forEachBrowser((env) => {
  it('two PPO configurations on the same seeds: one pool, a band each, the results table, any run in detail, the CLI bit for bit', { timeout: 240_000 }, async (t) => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11, 37');
      // B: a copy of A with the lesson 4 and 5 mistakes, and other settings overridden (each of
      // a different kind: a flag, a list, a number).
      await tab.click('#trainer-ppo .config-add');
      await tab.setSettings('ppo', B);
      const chips = await tab.eval(() => [...document.querySelectorAll('#trainer-ppo .config-chip')].map((b) => b.textContent ?? ''));
      assert(chips.length === 2 && chips[1].includes('ε: 0,2 → нет') && chips[1].includes('bootstrap → terminal'), `chips ${chips}`);
      // A is still the profile itself.
      await tab.click('#trainer-ppo .config-chip[data-config="0"]');
      assert((await tab.value('#ppo-clip_coef')) === '0.2', 'A took B’s settings');
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.runToEnd('#trainer-ppo', 200_000);
      assert(await runWorkerMade(tab), 'the run made no worker that the refusals below could be told apart from');
      const cores = await tab.eval(() => navigator.hardwareConcurrency || 2);
      const max = await tab.eval(() => /** @type {any} */ (window).pgbookWorkersMax);
      assert(max <= cores && max >= 1, `${max} workers at once on ${cores} cores`);
      assert((await tab.count('#ppo-summary tbody tr')) === 4, 'four summaries (two configurations × two seeds)');
      const rows = await tab.eval(() =>
        [...document.querySelectorAll('#ppo-comparison tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      assert(rows.length === 2 && rows.every((r) => r[3] !== null && /из 2$/.test(r[3] ?? '')), `results ${JSON.stringify(rows)}`);
      // The table's medians are the summaries' (two seeds: the mean of the two).
      const runs = await tab.eval(() => window.pgbookRuns.ppo);
      const finals = [0, 1].map((c) => runs.filter((/** @type {any} */ r) => r.config === c).map((/** @type {any} */ r) => r.summary.final_evaluation_mean));
      for (const c of [0, 1]) {
        const median = ((finals[c][0] + finals[c][1]) / 2).toFixed(1).replace('.', ',').replace(',0', '');
        assert((rows[c][1] ?? '').replace(/\s/g, '').startsWith(median.replace(/\s/g, '')), `config ${c}: «${rows[c][1]}» vs median ${median}`);
      }
      const text = (await tab.text('#trainer-ppo [data-comparison-text]')) ?? '';
      assert(/^B: /.test(text) && /Всего 2 начальных значения на конфигурацию/.test(text), `comparison text «${text}»`);
      // Each configuration equals the CLI with its settings (seed 37: the second job of each).
      for (const [c, set] of [
        [0, []],
        [1, Object.entries(B).flatMap(([k, v]) => ['--set', `${k}=${v}`])],
      ]) {
        const reports = runs.filter((/** @type {any} */ r) => r.config === c && r.seed === 37)[0].reports;
        const args = ['train', 'ppo', '--profile', 'smoke', '--seeds', '37', '--json', .../** @type {string[]} */ (set)];
        const cmp = assertEqualsCli(reports, args, `config ${c}`);
        t.diagnostic(`config ${c}: ${cmp.identical}/${cmp.compared} updates bit-identical`);
      }
      const unclipped = runs.filter((/** @type {any} */ r) => r.config === 1).flatMap((/** @type {any} */ r) => r.reports);
      assert(unclipped.every((/** @type {any} */ r) => r.clip_epsilon === null), 'B clipped: clip_epsilon in its reports');
      // The JSON download of the chosen run's configuration holds that configuration's lines.
      const lines = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.ppo).board.json_lines_of(1));
      const updates = lines.trim().split('\n').filter((/** @type {string} */ l) => l.includes('"kind":"update"'));
      assert(updates.length === 2 * runs[2].reports.length, `B's lines: ${updates.length}`);
      // Another run in detail: its diagnostics (and its CartPole) are drawn.
      const before = await tab.canvas('#canvas-ppo-diagnostics');
      await tab.select('#ppo-chosen', '3');
      await tab.waitFor(
        ([src, h]) => /** @type {(c: HTMLCanvasElement) => { hash: number }} */ ((0, eval)(`(${src})`))(/** @type {HTMLCanvasElement} */ (document.querySelector('#canvas-ppo-diagnostics'))).hash !== h,
        /** @type {[string, number]} */ ([String(canvasHash), before.hash]),
        10_000,
      ).catch(() => null);
      const after = await tab.canvas('#canvas-ppo-diagnostics');
      assert(before.hash !== after.hash && after.inked > 0.01, 'choosing another run did not redraw the diagnostics');
      // The share link carries both configurations and the seeds.
      const share = new URL((await tab.eval(() => /** @type {HTMLAnchorElement} */ (document.querySelector('#trainer-ppo a.share')).href)) ?? '');
      const cfg = share.searchParams.getAll('cfg');
      const bSet = (cfg[1] ?? '').split(';');
      const bWants = Object.entries(B).map(([k, v]) => `${k}=${v}`);
      assert(
        cfg.length === 2 && cfg[0] === 'smoke' && bSet[0] === 'smoke' && bSet.length === bWants.length + 1 && bWants.every((w) => bSet.includes(w)),
        `share ${share.search}`,
      );
      assert(share.searchParams.get('seeds') === '11,37', `share seeds ${share.search}`);
      await tab.screenshot(`compare-ppo`, '#trainer-ppo');
      t.diagnostic(`${env.name}: ${max} workers at once; results ${JSON.stringify(rows)}`);
    });
  });

  it('a comparison link starts on load and the sequence panel compares the three reductions', { timeout: 240_000 }, async () => {
    const link =
      'sequences.html?run=sequence&seed=5&cfg=smoke;reduction=token_mean&cfg=smoke;reduction=sequence_mean&cfg=smoke;reduction=sequence_sum_mean';
    await env.withTab(link, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.runToEnd('#trainer-sequence', 200_000);
      assert((await tab.count('#seq-comparison tbody tr')) === 3, 'three rows');
      assert((await tab.count('#trainer-sequence .config-chip')) === 3, 'three configurations');
      const runs = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).runs());
      const reductions = runs.map((/** @type {any} */ r) => r.summary.reduction);
      assert(JSON.stringify(reductions) === '["token_mean","sequence_mean","sequence_sum_mean"]', `reductions ${reductions}`);
      for (const [c, reduction] of reductions.entries()) {
        assertEqualsCli(runs[c].reports, ['train', 'sequence', '--profile', 'smoke', '--seed', '5', '--reduction', reduction, '--json'], reduction);
      }
      // The chosen run's greedy answers are shown.
      await tab.select('#seq-chosen', '2');
      assert((await tab.count('#seq-greedy tbody tr')) > 0, 'no greedy answers for the chosen run');
    });
  });

  it('bad comparisons are refused with the setting named, before any worker starts', { timeout: 60_000 }, async () => {
    const five = Array.from({ length: 5 }, () => 'cfg=smoke').join('&');
    for (const [query, words] of [
      [`run=ppo&seeds=11&${five}`, 'не больше 4'],
      ['run=ppo&seeds=11&cfg=smoke&cfg=smoke;gama=0.9', '«gama»'],
      ['run=ppo&seeds=11&cfg=smoke&cfg=smoke;gamma=2', 'γ'],
      ['run=ppo&seeds=11&cfg=smoke&cfg=warp', 'warp'],
      ['run=ppo&seeds=11&cfg=smoke&cfg=full&gamma=0.9', 'внутри каждой конфигурации'],
    ]) {
      await env.withTab(`ppo.html?${query}`, null, async (tab) => {
        await tab.waitReady();
        const message = (await tab.text('#trainer-ppo .figure-error')) ?? '';
        assert(message.includes(words), `${query}: message «${message}»`);
        assert((await tab.status('#trainer-ppo')) === 'idle', `${query}: a run started`);
        assert(!(await runWorkerMade(tab)), `${query}: a worker was made`);
      });
    }
  });

  it('two configurations × five course seeds: ten runs queue on the pool and all finish', { timeout: 300_000 }, async (t) => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      // Ten runs of a few updates turn the queue over as often (the benchmark times full ones,
      // and traces the main thread meanwhile: e2e/bench.mjs compare).
      await tab.select('#ppo-profile', 'smoke');
      await tab.setSettings('ppo', { num_updates: '3' });
      await tab.fill('#ppo-seeds', '11, 37, 71, 101, 131');
      await tab.click('#trainer-ppo .config-add');
      await tab.setSettings('ppo', { gamma: '0.98' });
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.runToEnd('#trainer-ppo', 280_000);
      const cores = await tab.eval(() => navigator.hardwareConcurrency || 2);
      const max = await tab.eval(() => /** @type {any} */ (window).pgbookWorkersMax);
      assert(max >= 1 && max <= cores, `${max} workers at once on ${cores} cores`);
      const rows = await tab.count('#ppo-summary tbody tr');
      assert(rows === 10, `ten summaries: ${rows} rows; ${await tab.text('#trainer-ppo .progress-text')}`);
      const configs = await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => `${r.config}:${r.seed}:${r.reports.length}`));
      assert(
        JSON.stringify(configs) === JSON.stringify([0, 1].flatMap((c) => [11, 37, 71, 101, 131].map((s) => `${c}:${s}:3`))),
        `jobs (configuration:seed:updates): ${configs}`,
      );
      t.diagnostic(`${env.name}: ${max} workers at once`);
    });
  });
});
