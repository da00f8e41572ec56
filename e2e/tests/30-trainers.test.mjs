// @ts-check
// The live trainers in Web Workers: runs complete, pause/stop/restart, failures are shown
// and recoverable, settings travel in the URL, and the browser computes the same numbers as
// the native CLI. (The panel's redraw times and the main thread's long tasks are measured by
// e2e/bench.mjs: scripts/bench.sh.)
import { it } from 'node:test';
import { forEachBrowser, assert, assertSameLines, axe, cliLines, cliText, compareReports, countWorkers, runEnded, waitWorkersSaid } from '../harness.mjs';

/** The page's error text for a panel. @param {import('../harness.mjs').Tab} tab @param {string} root */
const panelError = async (tab, root) => (await tab.text(`${root} .figure-error`)) ?? '';

forEachBrowser((env) => {
  it('PPO smoke, two seeds in parallel workers: completes, curves drawn, nothing added to <body>, summary table, downloads, the CLI bit for bit', { timeout: 180_000 }, async (t) => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11, 37');
      // What the live figures add to <body> while they redraw (plotters measured each legend
      // label in a <span> of its own there, a reflow each).
      await tab.eval(() => {
        const w = /** @type {any} */ (window);
        w.pgbookBodyAdded = [];
        new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => w.pgbookBodyAdded.push(n.nodeName)))).observe(
          document.body,
          { childList: true },
        );
      });
      await tab.clickButton('#trainer-ppo', 'Старт');
      assert((await tab.eval(() => window.pgbookWorkersCreated)) === 2, 'expected one worker per seed');
      await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 120_000);
      assert((await tab.status('#trainer-ppo')) === 'finished', await panelError(tab, '#trainer-ppo'));
      const rows = await tab.count('#ppo-summary tbody tr');
      assert(rows === 2, `summary has ${rows} rows`);
      const added = await tab.eval(() => /** @type {any} */ (window).pgbookBodyAdded);
      assert(added.length === 0, `drawing the live figures added ${added.length} nodes to <body> (${added.slice(0, 5).join(', ')})`);
      const redraws = await tab.eval(() => window.pgbookTimings['trainer-ppo'] ?? []);
      assert(redraws.length >= 5, `only ${redraws.length} redraws`);
      const runs = await tab.eval(() =>
        window.pgbookRuns.ppo.map((/** @type {any} */ s) => ({
          seed: s.seed,
          updates: s.reports.length,
          final: s.summary.final_evaluation_mean,
          first: s.evaluations[0]?.mean,
          reports: s.reports,
        })),
      );
      await tab.screenshot('trainer-ppo-smoke', '#trainer-ppo');
      // The curves download as CSV (median, quartiles, every seed) and as the JSON lines the CLI
      // prints with --json (one thread: seed after seed, then the summaries): its update lines
      // byte for byte, its summaries but for the timings.
      const args = ['train', 'ppo', '--profile', 'smoke', '--seeds', '11,37', '--threads', '1', '--json'];
      const cli = cliText(args).trim().split('\n');
      /** @type {[string, string, (text: string) => boolean][]} */
      const downloads = [
        ['CSV', 'ppo-cartpole.csv', (text) => text.startsWith('env_steps,median,q25,q75,seed_11,seed_37\n') && text.trim().split('\n').length > 10],
        ['JSON', 'ppo-cartpole.jsonl', (text) => (assertSameLines(text, args, 'ppo-cartpole.jsonl'), true)],
      ];
      for (const [label, name, check] of downloads) {
        const file = await tab.download(`#trainer-ppo .downloads button:nth-child(${label === 'CSV' ? 1 : 2})`);
        assert(file.name === name, `download named ${file.name}`);
        assert(check(file.text), `${name} content: ${file.text.slice(0, 80)}`);
      }
      // Every update of both seeds equals the CLI's, field by field, bit for bit (the same
      // promise in f64 is checked in «same seed, same numbers» below).
      for (const r of runs) {
        const native = cli.map((l) => JSON.parse(l)).filter((l) => l.kind === 'update' && l.seed === r.seed);
        const c = compareReports(r.reports, native, `ppo seed ${r.seed}`);
        assert(c.identical === c.compared, `ppo seed ${r.seed}: ${c.identical}/${c.compared} updates bit-identical, worst ${c.worst}`);
      }
      t.diagnostic(
        `${redraws.length} redraws; ` +
          runs.map((/** @type {any} */ r) => `seed ${r.seed}: ${r.updates} updates, eval ${r.first?.toFixed(1)} → ${r.final.toFixed(1)}`).join('; '),
      );
    });
  });

  it('sequence smoke from a shared link: starts on load and completes', { timeout: 120_000 }, async (t) => {
    await env.withTab('sequences.html?run=sequence&profile=smoke&seed=5&reduction=sequence_mean', null, async (tab) => {
      await tab.waitReady();
      assert((await tab.value('#seq-reduction')) === 'sequence_mean', 'reduction from the URL not applied');
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed']);
      assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
      assert((await tab.count('#seq-first-batch tbody tr')) > 0, 'first batch not shown');
      assert((await tab.count('#seq-greedy tbody tr')) === 3, 'greedy answers not shown');
      const rise = await tab.eval(() => {
        const r = window.pgbookRuns.sequence.reports;
        return [r[0].eval_mean_reward, r.at(-1).eval_mean_reward];
      });
      assert(rise[1] > rise[0] + 0.3, `mean reward did not rise: ${rise}`);
      t.diagnostic(`eval mean reward ${rise[0].toFixed(3)} → ${rise[1].toFixed(3)}`);
    });
  });

  it('pause, resume, stop, and start again after a stop', { timeout: 180_000 }, async () => {
    // Long enough that it cannot end before Stop: the full profile's 120 updates take about a
    // second on a quiet machine, and once ended before the test's Stop in a CI run.
    await env.withTab('ppo.html?form=ppo&profile=full&seeds=11&num_updates=20000', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitFor(() => Number(/** @type {HTMLElement | null} */ (document.querySelector('#trainer-ppo .run-estimate'))?.dataset.seconds) > 30, null, 20_000);
      await countWorkers(tab);
      await tab.eval(() => {
        window.confirm = () => true; // a run of minutes asks first
      });
      await tab.clickButton('#trainer-ppo', 'Старт');
      const reports = () => tab.eval(() => window.pgbookRuns.ppo[0].reports.length);
      await tab.waitFor(() => (window.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 3, null, 60_000);
      await tab.clickButton('#trainer-ppo', 'Пауза');
      assert((await tab.status('#trainer-ppo')) === 'paused', 'not paused');
      // The worker acknowledges the pause; every update it posted before that has arrived (a
      // worker's messages come in order), so none may follow.
      await waitWorkersSaid(tab, 'paused');
      const a = await reports();
      await tab.settle();
      await tab.settle();
      const b = await reports();
      assert(b === a, `updates continued while paused (${a} → ${b})`);
      await tab.clickButton('#trainer-ppo', 'Продолжить');
      await tab.waitFor((n) => window.pgbookRuns.ppo[0].reports.length > n + 2, b, 60_000);
      await tab.clickButton('#trainer-ppo', 'Стоп');
      assert((await tab.status('#trainer-ppo')) === 'stopped', 'not stopped');
      // Stop terminates the workers: nothing more can arrive.
      assert((await tab.eval(() => /** @type {any} */ (window).pgbookWorkersAlive)) === 0, 'a worker is still alive after Stop');
      const c = await reports();
      await tab.settle();
      assert((await reports()) === c, 'updates after stop');
      // The page stays usable: a new run starts and finishes.
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '37');
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 120_000);
      assert((await tab.status('#trainer-ppo')) === 'finished', 'restart after stop failed');
    });
  });

  it('a worker failure (panic inside wasm) is shown and the run can be restarted', { timeout: 120_000 }, async () => {
    await env.withTab('sequences.html', null, async (tab) => {
      await tab.waitReady();
      await tab.select('#seq-profile', 'full');
      await tab.clickButton('#trainer-sequence', 'Старт');
      await tab.waitFor(() => (window.pgbookRuns.sequence?.reports.length ?? 0) >= 2, null, 30_000);
      await tab.eval(() => window.pgbookPanels.sequence.run.sendTo(0, 'fail'));
      await tab.waitStatus('#trainer-sequence', ['failed'], 10_000);
      const msg = await panelError(tab, '#trainer-sequence');
      assert(/Сбой в модуле WebAssembly/.test(msg) && /self-test/.test(msg), `message: ${msg}`);
      // What it was doing: the iteration the failed job was in (two or more were done).
      const during = Number(/шла итерация (\d+) из 200/.exec(msg)?.[1]);
      assert(during >= 3, `the message does not say which iteration failed: ${msg}`);
      tab.expectProblems(/self-test: a deliberate panic|unreachable/);
      await tab.select('#seq-profile', 'smoke');
      await tab.clickButton('#trainer-sequence', 'Старт');
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed']);
      assert((await tab.status('#trainer-sequence')) === 'finished', 'restart after failure did not finish');
      assert(!(await tab.visible('#trainer-sequence .figure-error')), 'old error still shown');
      tab.expectProblems(/self-test: a deliberate panic|unreachable/);
    });
  });

  it('invalid settings are refused with a message before any worker starts', async () => {
    await env.withTab('ppo.html', null, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      for (const seeds of ['abc', '', '11, -3', '1.5']) {
        await tab.fill('#ppo-seeds', seeds);
        await tab.clickButton('#trainer-ppo', 'Старт');
        assert(await tab.visible('#trainer-ppo .figure-error'), `no message for seeds "${seeds}"`);
      }
      assert((await tab.eval(() => window.pgbookWorkersCreated)) === 0, 'a worker was started for invalid settings');
    });
    await env.withTab('sequences.html?run=sequence&profile=huge&seed=5', null, async (tab) => {
      await tab.waitReady();
      assert(/неизвестный профиль/.test(await panelError(tab, '#trainer-sequence')), 'bad profile in URL not refused');
      // The harness's run waits (the tests' and the benchmarks') end at a refusal, with the
      // panel's message, not at their timeout.
      const waited = await tab.waitStatus('#trainer-sequence', ['finished'], 60_000).then(
        (s) => `reached ${s}`,
        (e) => String(e.message),
      );
      assert(/неизвестный профиль/.test(waited), `waitStatus did not end at the refusal: ${waited}`);
      assert((await tab.waitFor(runEnded, '#trainer-sequence', 60_000)) === 'refused', 'runEnded did not see the refusal');
    });
    await env.withTab('sequences.html?run=sequence&profile=smoke&seed=x', null, async (tab) => {
      await tab.waitReady();
      assert(/seed/.test(await panelError(tab, '#trainer-sequence')), 'bad seed in URL not refused');
    });
  });

  it('same seed, same numbers: the browser equals the native CLI', { timeout: 240_000 }, async (t) => {
    /** @type {string[]} */
    const notes = [];
    // Sequence, smoke, seed 5.
    const native = cliLines(['train', 'sequence', '--profile', 'smoke', '--seed', '5', '--json']).filter((l) => l.kind === 'iteration');
    await env.withTab('sequences.html?run=sequence&profile=smoke&seed=5&reduction=token_mean', null, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed']);
      const reports = await tab.eval(() => window.pgbookRuns.sequence.reports);
      const c = compareReports(reports, native, 'sequence');
      assert(c.identical === c.compared, `sequence: ${c.identical}/${c.compared} iterations bit-identical, worst ${c.worst}`);
      notes.push(`sequence: ${c.identical}/${c.compared} iterations bit-identical`);
    });
    // The R1 pipeline (issue 37) from its link: SFT inside the first iteration, pass@k, group
    // statistics and dynamic sampling, against the CLI with the same settings.
    const r1 = cliLines(['train', 'sequence', '--profile', 'r1_smoke', '--seed', '5', '--set', 'dynamic_sampling=true', '--json']).filter((l) => l.kind === 'iteration');
    assert(r1[0].sft?.losses?.length > 0 && r1.some((l) => l.pass_at_k), 'the CLI reports the SFT curve and pass@k');
    await env.withTab('sequences.html?run=sequence&profile=r1_smoke&seed=5&dynamic_sampling=true', null, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed']);
      assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
      const reports = await tab.eval(() => window.pgbookRuns.sequence.reports);
      const c = compareReports(reports, r1, 'r1_smoke');
      assert(c.identical === c.compared, `r1_smoke: ${c.identical}/${c.compared} iterations bit-identical, worst ${c.worst}`);
      notes.push(`r1_smoke with dynamic sampling: ${c.identical}/${c.compared} iterations bit-identical`);
      // Its pipeline figure (lesson 10): shown, drawn, its words computed from this run's numbers.
      const fig = await tab.eval(() => {
        const canvas = /** @type {HTMLCanvasElement} */ (document.querySelector('#canvas-seq-pipeline'));
        const figure = canvas.closest('figure');
        return { hidden: figure?.hidden ?? true, width: canvas.width, label: canvas.getAttribute('aria-label') ?? '', caption: figure?.querySelector('figcaption')?.textContent ?? '' };
      });
      const sft = r1[0].sft.losses;
      const loss = (/** @type {number} */ x) => x.toFixed(2).replace('.', ',');
      assert(!fig.hidden && fig.width > 0, `the pipeline figure is not shown: ${JSON.stringify(fig)}`);
      assert(fig.caption.includes(`за ${sft.length} шагов — от ${loss(sft[0])} до ${loss(sft[sft.length - 1])}`), `pipeline words: ${fig.caption}`);
      assert(/после SFT: pass@1 /.test(fig.label) && /уровень 1 — /.test(fig.label), `pipeline label: ${fig.label}`);
      const a11y = await axe(tab, ['#trainer-sequence']);
      assert(a11y.rules === 0, `axe on the pipeline figure:\n${a11y.lines.join('\n')}`);
    });
    /**
     * A smoke PPO run from the page's link (`query` added) against the CLI's (`set` added), seed
     * by seed: every update bit-identical.
     * @param {string} label @param {number[]} seeds @param {string} query @param {string[]} set
     */
    const ppoEqualsCli = (label, seeds, query, set) =>
      env.withTab(`ppo.html?run=ppo&profile=smoke&seeds=${seeds.join(',')}${query}`, null, async (tab) => {
        await tab.waitReady();
        await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 120_000);
        assert((await tab.status('#trainer-ppo')) === 'finished', await panelError(tab, '#trainer-ppo'));
        const runs = await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => r.reports));
        for (const [i, seed] of seeds.entries()) {
          const native = cliLines(['train', 'ppo', '--profile', 'smoke', '--seeds', String(seed), ...set, '--json']).filter((l) => l.kind === 'update');
          const c = compareReports(runs[i], native, `${label} seed ${seed}`);
          assert(c.worst <= 1e-9 && c.identical === c.compared, `${label} seed ${seed}: ${c.identical}/${c.compared} identical, worst ${c.worst}`);
          notes.push(`${label} seed ${seed}: ${c.identical}/${c.compared} updates bit-identical`);
        }
      });
    // PPO smoke in f32 (the profiles' scalar), seeds 11 and 37 in parallel workers: checked on
    // the first test's run above.
    // PPO in f64 (the networks' other scalar): the same promise.
    await ppoEqualsCli('ppo f64', [11], '&precision=f64', ['--set', 'precision=f64']);
    t.diagnostic(notes.join('; '));
  });
});
