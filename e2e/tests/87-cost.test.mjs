// @ts-check
// The cost of a run is known before it starts: a configuration whose memory cannot fit in a
// worker is refused before any worker starts, with the settings that drive it named; the
// estimate stands beside «Старт»; a run estimated at more than a few minutes starts only when
// the reader agrees; and the estimate learns from the reader's finished runs.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

/** How far the estimate for a run's own settings may be from the time it took, either way. */
const LEARNT_FACTOR = 1.25;

const HUGE =
  'ppo.html?run=ppo&profile=smoke&num_envs=64&num_steps=4096&minibatch_size=262144&hidden_sizes=1024,1024,1024,1024&num_updates=1&update_epochs=1';

/** Counts the workers the page makes from now on, and answers its confirms with `answer`. @param {import('../harness.mjs').Tab} tab @param {boolean} answer */
const watch = (tab, answer) =>
  tab.eval((answer) => {
    const w = /** @type {any} */ (window);
    w.workersMade = 0;
    w.asked = [];
    const Original = window.Worker;
    window.Worker = /** @type {any} */ (
      class extends Original {
        /** @param {string | URL} url @param {WorkerOptions} [options] */
        constructor(url, options) {
          super(url, options);
          w.workersMade++;
        }
      }
    );
    window.confirm = (text) => {
      w.asked.push(text);
      return answer;
    };
  }, answer);

forEachBrowser((env) => {
  it('the issue’s run is refused before any worker starts, naming the settings that drive its memory', { timeout: 60_000 }, async (t) => {
    await env.withTab(HUGE, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      const message = (await tab.text('#trainer-ppo .figure-error')) ?? '';
      assert(/памяти/.test(message) && /размер мини-пакета/.test(message) && /скрытые слои/.test(message), `message «${message}»`);
      assert((await tab.status('#trainer-ppo')) !== 'running', 'the run did not start');
      await watch(tab, true);
      await tab.clickButton('#trainer-ppo', 'Старт');
      assert((await tab.eval(() => /** @type {any} */ (window).workersMade)) === 0, 'a worker was started');
      t.diagnostic(`${env.name}: ${message}`);
    });
  });

  it('the estimate stands beside Старт, and a long run asks first', { timeout: 90_000 }, async (t) => {
    await env.withTab('ppo.html?form=ppo&profile=smoke&num_updates=100000', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitFor(() => /Оценка/.test(document.querySelector('#trainer-ppo .run-estimate')?.textContent ?? ''), null, 10_000);
      const estimate = (await tab.text('#trainer-ppo .run-estimate')) ?? '';
      assert(/мин/.test(estimate) && /МиБ/.test(estimate), `estimate «${estimate}»`);
      await watch(tab, false);
      await tab.clickButton('#trainer-ppo', 'Старт');
      const asked = await tab.eval(() => /** @type {any} */ (window).asked);
      assert(asked.length === 1 && /займёт примерно/.test(asked[0]), `asked ${JSON.stringify(asked)}`);
      assert((await tab.eval(() => /** @type {any} */ (window).workersMade)) === 0, 'a cancelled run started a worker');
      assert((await tab.status('#trainer-ppo')) !== 'running', 'a cancelled run is running');
      await watch(tab, true);
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.waitStatus('#trainer-ppo', ['running'], 10_000);
      await tab.clickButton('#trainer-ppo', 'Стоп');
      t.diagnostic(`${env.name}: ${estimate}`);
    });
    // Dynamic sampling draws as many groups as it needs, up to its bound: a range, and the
    // question before a long run names its upper end.
    await env.withTab('sequences.html?form=sequence&profile=r1_dynamic&seed=1,2,3,4,5,6', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      const sel = '#trainer-sequence .run-estimate';
      // The first estimate may be the default profile's, before the link's settings are read.
      await tab.waitFor((s) => /Оценка.*мин/.test(document.querySelector(s)?.textContent ?? ''), sel, 20_000);
      const range = await tab.eval((s) => {
        const e = /** @type {HTMLElement} */ (document.querySelector(s));
        return { text: e.textContent ?? '', seconds: Number(e.dataset.seconds), most: Number(e.dataset.most) };
      }, sel);
      assert(/от ≈ .+ до ≈ .+динамический отбор групп/.test(range.text) && range.most > range.seconds, `r1_dynamic: ${JSON.stringify(range)}`);
      await watch(tab, false);
      await tab.clickButton('#trainer-sequence', 'Старт');
      const asked = await tab.eval(() => /** @type {any} */ (window).asked);
      assert(asked.length === 1 && /займёт до /.test(asked[0]), `asked ${JSON.stringify(asked)}`);
      t.diagnostic(`${env.name}: ${range.text}`);
    });
  });

  it(`after a run, the estimate for the same settings is within ${LEARNT_FACTOR}× of the time it took`, { timeout: 300_000 }, async (t) => {
    await env.withTab('gae.html?form=a2c&profile=smoke&seeds=11', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      /** The estimate's seconds as the page shows them (data-seconds), with its text. */
      const estimate = () =>
        tab.eval(() => {
          const e = /** @type {HTMLElement} */ (document.querySelector('#trainer-a2c .run-estimate'));
          return { seconds: Number(e.dataset.seconds), text: e.textContent ?? '' };
        });
      await tab.waitFor(() => Boolean(/** @type {HTMLElement | null} */ (document.querySelector('#trainer-a2c .run-estimate'))?.dataset.seconds), null, 10_000);
      const before = await estimate();
      await tab.eval(() => {
        window.confirm = () => true;
      });
      await tab.clickButton('#trainer-a2c', 'Старт');
      await tab.waitStatus('#trainer-a2c', ['finished', 'failed'], 240_000);
      assert((await tab.status('#trainer-a2c')) === 'finished', (await tab.text('#trainer-a2c .figure-error')) ?? '');
      const took = await tab.eval(() => /** @type {any} */ (window).pgbookPanels.a2c.timing?.seconds ?? NaN);
      assert(took > 0, `the run's time is ${took}`);
      // Once the run is in the history, the same settings' estimate is corrected by it.
      await tab.waitFor(() => /по такому же запуску/.test(document.querySelector('#trainer-a2c .run-estimate')?.textContent ?? ''), null, 20_000);
      const after = await estimate();
      const ratio = after.seconds / took;
      assert(ratio <= LEARNT_FACTOR && ratio >= 1 / LEARNT_FACTOR, `estimate ${after.seconds} s for a run of ${took} s («${after.text}»)`);
      t.diagnostic(`${env.name}: before ${before.seconds.toFixed(1)} s, took ${took.toFixed(1)} s, after ${after.seconds.toFixed(1)} s`);
    });
  });
});
