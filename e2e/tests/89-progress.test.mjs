// @ts-check
// The reader always knows what the book is doing. While a run is in its first (long) update,
// the status line says what is happening — never «Обучение не запущено.» under a running status
// — and what the worker is doing inside the update (collecting experience, which epoch and
// minibatch), changing as it goes, with the progress bar moving before the update ends. A
// worker that dies takes only its own job down: the others go on, the failed job is named, and
// it can run again.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

/** One PPO update of 131,072 transitions in 8 minibatches through 256-wide layers: several seconds. */
const LONG =
  'ppo.html?form=ppo&profile=smoke&seeds=1&num_envs=64&num_steps=2048&minibatch_size=16384&hidden_sizes=256,256&num_updates=1&update_epochs=2';

const SELF_TEST = /self-test: a deliberate panic|unreachable/;

forEachBrowser((env) => {
  it('inside a long first update the line says what the worker is doing, and the bar moves', { timeout: 180_000 }, async (t) => {
    await env.withTab(LONG, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        window.confirm = () => true;
      });
      await tab.clickButton('#trainer-ppo', 'Старт');
      assert((await tab.status('#trainer-ppo')) === 'running', 'the run started');
      const first = (await tab.text('#trainer-ppo .progress-text')) ?? '';
      assert(/идёт обновление 1 из 1/.test(first) && !/не запущено/.test(first), `line «${first}»`);
      /** The line and the bar while no update has reported yet (null once one has). */
      const inside = () =>
        tab.eval(() => {
          const panel = /** @type {any} */ (window).pgbookPanels.ppo;
          if ((panel.runs()[0]?.reports.length ?? 0) > 0) return null;
          const bar = /** @type {HTMLProgressElement} */ (document.querySelector('#trainer-ppo progress'));
          return { line: document.querySelector('#trainer-ppo .progress-text')?.textContent ?? '', bar: bar.value };
        });
      // Collecting experience, with its share done.
      await tab.waitFor(() => /сбор опыта, \d+ %/.test(document.querySelector('#trainer-ppo .progress-text')?.textContent ?? ''), null, 60_000);
      const a = await inside();
      assert(a && /обновление 1 из 1: сбор опыта, \d+ %/.test(a.line), `line «${a?.line}»`);
      // Then something else inside the same update: a later share, or the epochs.
      await tab.waitFor((line) => (document.querySelector('#trainer-ppo .progress-text')?.textContent ?? '') !== line, a.line, 60_000);
      const b = await inside();
      assert(b && b.line !== a.line && /обновление 1 из 1: (сбор опыта|эпоха)/.test(b.line), `line «${b?.line}» after «${a.line}»`);
      await tab.waitFor(() => /эпоха \d из 2, мини-пакет \d из 8/.test(document.querySelector('#trainer-ppo .progress-text')?.textContent ?? ''), null, 120_000);
      const c = await inside();
      assert(c && c.bar > 0 && c.bar < 1, `the bar stands at ${c?.bar} inside the update («${c?.line}»)`);
      assert(c.bar >= (b.bar ?? 0), `the bar went back: ${b.bar} → ${c.bar}`);
      await tab.clickButton('#trainer-ppo', 'Стоп');
      t.diagnostic(`${env.name}: «${a.line}» → «${b.line}» → «${c.line}», bar ${c.bar.toFixed(3)}`);
    });
  });

  it('a worker that dies takes only its job down: the others finish, the job is named and runs again', { timeout: 240_000 }, async (t) => {
    // Two configurations × two seeds = four jobs on the pool; B's are longer (150 updates
    // against smoke's 120), so job 2 is still running when it is made to fail.
    const link = 'ppo.html?run=ppo&cfg=smoke&cfg=smoke%3Bnum_updates%3D150&seeds=1,2#trainer-ppo';
    await env.withTab(link, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-ppo', ['running'], 20_000);
      // Job 2 (configuration B, seed 1) dies once it has reported.
      await tab.waitFor(
        () => {
          const panel = /** @type {any} */ (window).pgbookPanels.ppo;
          return panel.run?.running(2) && (panel.runs()[2]?.reports.length ?? 0) >= 1;
        },
        null,
        120_000,
      );
      await tab.eval(() => /** @type {any} */ (window).pgbookPanels.ppo.run.sendTo(2, 'fail'));
      await tab.waitFor(() => /Сбой/.test(document.querySelector('#trainer-ppo .figure-error')?.textContent ?? ''), null, 20_000);
      const message = (await tab.text('#trainer-ppo .figure-error')) ?? '';
      assert(/конфигурация B, начальное значение 1/.test(message) && /шло обновление \d+ из 150/.test(message), `message «${message}»`);
      assert(/self-test/.test(message), `message «${message}»`);
      // The other jobs go on to their ends; the run ends failed, with three summaries.
      await tab.waitStatus('#trainer-ppo', ['failed', 'finished'], 200_000);
      assert((await tab.status('#trainer-ppo')) === 'failed', 'a run with a failed job is not reported as finished');
      const summaries = await tab.eval(() => /** @type {any} */ (window).pgbookPanels.ppo.board.summaries().map((/** @type {any} */ s) => s.job));
      assert(JSON.stringify(summaries) === '[0,1,3]', `finished jobs ${JSON.stringify(summaries)}`);
      const line = (await tab.text('#trainer-ppo .progress-text')) ?? '';
      assert(/1 из 4 запусков прерван/.test(line), `line «${line}»`);
      assert(await tab.visible('#trainer-ppo .figure-error'), 'the failure is no longer shown');
      // Only the failed job runs again, and the comparison ends finished.
      await tab.clickButton('#trainer-ppo', 'Повторить неудавшиеся');
      await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 200_000);
      assert((await tab.status('#trainer-ppo')) === 'finished', (await tab.text('#trainer-ppo .figure-error')) ?? '');
      const after = await tab.eval(() => /** @type {any} */ (window).pgbookPanels.ppo.board.summaries().length);
      assert(after === 4, `${after} summaries after the rerun`);
      assert(!(await tab.visible('#trainer-ppo .figure-error')), 'the old message is still shown');
      tab.expectProblems(SELF_TEST);
      t.diagnostic(`${env.name}: ${message}`);
    });
  });
});
