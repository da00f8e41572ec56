// @ts-check
// What a reader, an edited link or an impatient click does to a trainer panel (issue 11,
// items 1–8): Stop and Reset tell the truth, the CartPole animation plays on every run and
// rests when it shows nothing new, a pause before the workers are ready is honoured, one
// seed rule, every run link gets an answer, leaving asks first and the form lives in the URL,
// focus never falls to <body>, and many seeds queue on a pool of hardwareConcurrency workers.
// (Whether the main thread stays free during a long run is measured by e2e/bench.mjs.)
import { it } from 'node:test';
import { forEachBrowser, assert, canvasHash, countWorkers, waitWorkersSaid } from '../harness.mjs';


/** Waits until the canvases `selectors` show the pictures `hashes`. @param {import('../harness.mjs').Tab} tab @param {string[]} selectors @param {number[]} hashes */
const waitCanvases = (tab, selectors, hashes) =>
  tab.waitFor(
    ([src, sels, want]) => {
      const hash = /** @type {(c: HTMLCanvasElement) => { hash: number }} */ ((0, eval)(`(${src})`));
      return sels.every((s, i) => hash(/** @type {HTMLCanvasElement} */ (document.querySelector(s))).hash === want[i]);
    },
    /** @type {[string, string[], number[]]} */ ([String(canvasHash), selectors, hashes]),
    10_000,
  );

/** @param {import('../harness.mjs').Tab} tab */
const reports = (tab) => tab.eval(() => window.pgbookRuns.ppo?.[0]?.reports.length ?? 0);

/** Clicks a panel's button by its text inside the page itself (two clicks in one task). @param {import('../harness.mjs').Tab} tab @param {string[]} texts */
const clickInOneTask = (tab, texts) =>
  tab.eval((ts) => {
    const buttons = [...document.querySelectorAll('#trainer-ppo button')];
    for (const t of ts) /** @type {HTMLButtonElement} */ (buttons.find((b) => b.textContent === t)).click();
  }, texts);

forEachBrowser((env) => {
  it('Stop keeps the status and progress where they stopped; Reset brings every canvas back to its empty axes', { timeout: 120_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await tab.select('#ppo-profile', 'full');
      await tab.fill('#ppo-seeds', '11');
      const canvases = ['#canvas-ppo-curve', '#canvas-ppo-diagnostics', '#canvas-cartpole'];
      /** @type {number[]} */
      const empty = [];
      for (const c of canvases) empty.push((await tab.canvas(c)).hash);
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.waitFor(() => (window.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 12, null, 60_000);
      await tab.clickButton('#trainer-ppo', 'Стоп');
      const progress = () => tab.eval(() => /** @type {HTMLProgressElement} */ (document.querySelector('#trainer-ppo progress')).value);
      const at = await progress();
      // Stop ends the workers, so no update can arrive; a redraw queued before the click would
      // land within the next frames.
      assert((await tab.eval(() => /** @type {any} */ (window).pgbookWorkersAlive)) === 0, 'a worker is alive after Stop');
      for (let i = 0; i < 3; i++) await tab.settle();
      assert((await tab.status('#trainer-ppo')) === 'stopped', 'status after Stop');
      const text = (await tab.text('#trainer-ppo .progress-text')) ?? '';
      assert(/остановлено/.test(text) && !/осталось/.test(text), `progress line after Stop: ${text}`);
      const later = await progress();
      assert(later === at, `the progress bar moved after Stop: ${at} → ${later}`);
      // A stopped run keeps its curves: the redraw queued by the last updates lands (at most
      // five redraws a second, one figure per redraw) even though the workers are gone.
      const drawn = await tab
        .waitFor(
          ([src, want]) => {
            const hash = /** @type {(c: HTMLCanvasElement) => { hash: number }} */ ((0, eval)(`(${src})`));
            return hash(/** @type {HTMLCanvasElement} */ (document.querySelector('#canvas-ppo-curve'))).hash !== want;
          },
          /** @type {[string, number]} */ ([String(canvasHash), empty[0]]),
          10_000,
        )
        .then(() => true)
        .catch(() => false);
      assert(drawn, 'the curve is drawn before Reset');
      // …with every update received: once the redraw queued by Stop has landed, drawing both
      // figures again changes no pixel.
      await tab.waitFor(() => !(/** @type {any} */ (window.pgbookPanels.ppo).dirty), null, 10_000);
      const shown = [];
      for (const c of canvases.slice(0, 2)) shown.push((await tab.canvas(c)).hash);
      await tab.eval(() => /** @type {any} */ (window.pgbookPanels.ppo).redrawAll());
      for (const [k, c] of canvases.slice(0, 2).entries()) {
        assert((await tab.canvas(c)).hash === shown[k], `${c} after Stop lacked updates the run had sent`);
      }
      await tab.clickButton('#trainer-ppo', 'Сброс');
      await tab.waitStatus('#trainer-ppo', ['idle'], 10_000);
      assert((await tab.text('#trainer-ppo .progress-text')) === 'Обучение не запущено.', 'progress line after Reset');
      await waitCanvases(tab, canvases, empty).catch(() => null);
      // …and stay so: a redraw queued before the click must not bring the old run back.
      for (let i = 0; i < 3; i++) await tab.settle();
      for (const [k, c] of canvases.entries()) {
        assert((await tab.canvas(c)).hash === empty[k], `${c} still shows the old run after Reset`);
      }
    });
  });

  it('the CartPole animation plays on every run, rests off-screen and stops after the run', { timeout: 180_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11');
      for (const run of [1, 2, 3]) {
        await tab.clickButton('#trainer-ppo', 'Старт');
        // The click scrolls the button into view; the reader then looks at the pole.
        await tab.eval(() => document.querySelector('#canvas-cartpole')?.scrollIntoView());
        // This run's episodes are played: the frame shown keeps changing.
        await tab.waitFor(() => (window.pgbookPanels.ppo.frames?.shown ?? -1) >= 0, null, 30_000);
        // Three different frames seen, sampled on the page's own animation frames.
        const seen = await tab
          .eval(
            () =>
              new Promise((resolve) => {
                const shown = new Set();
                const t0 = performance.now();
                const look = () => {
                  // The reader keeps the pole in view (the panel grows when a run ends).
                  document.querySelector('#canvas-cartpole')?.scrollIntoView({ block: 'nearest' });
                  shown.add(window.pgbookPanels.ppo.frames?.shown);
                  if (shown.size >= 3 || performance.now() - t0 > 10_000) resolve([...shown]);
                  else requestAnimationFrame(look);
                };
                look();
              }),
          )
          .then((x) => /** @type {unknown[]} */ (x));
        assert(seen.length >= 3, `run ${run}: the animation is frozen (frames ${seen.join(', ')})`);
        if (run === 2) {
          // Off-screen it rests: no animation frame is scheduled.
          await tab.eval(() => window.scrollTo(0, 0));
          await tab.waitFor(() => window.pgbookPanels.ppo.animation === null, null, 5_000);
          const before = (await tab.canvas('#canvas-cartpole')).hash;
          for (let i = 0; i < 5; i++) await tab.settle();
          assert((await tab.canvas('#canvas-cartpole')).hash === before, 'drawing off-screen');
          await tab.eval(() => document.querySelector('#canvas-cartpole')?.scrollIntoView());
        }
        await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 90_000);
        // After the run the last episode plays out once and the loop ends.
        await tab.waitFor(() => window.pgbookPanels.ppo.animation === null, null, 15_000);
        if (run === 2) await tab.clickButton('#trainer-ppo', 'Сброс');
      }
    });
  });

  it('a pause clicked before the workers are ready is honoured', { timeout: 90_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11, 37');
      await clickInOneTask(tab, ['Старт', 'Пауза']);
      // Every worker has loaded its wasm and begun its job (its `started`): the pause was
      // asked for before that, so none may step.
      const workers = await waitWorkersSaid(tab, 'started');
      assert((await tab.status('#trainer-ppo')) === 'paused', 'status after an early pause');
      for (let i = 0; i < 3; i++) await tab.settle();
      assert((await reports(tab)) === 0, `trained while paused: ${await reports(tab)} updates (${workers} workers started)`);
      await tab.clickButton('#trainer-ppo', 'Продолжить');
      await tab.waitFor(() => (window.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 2, null, 30_000);
      await tab.clickButton('#trainer-ppo', 'Стоп');
    });
  });

  it('one seed rule: every seed the CLI takes starts a run, the next one is refused before any worker', { timeout: 90_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '9007199254740992');
      await tab.clickButton('#trainer-ppo', 'Старт');
      const message = (await tab.text('#trainer-ppo .figure-error')) ?? '';
      assert(/начальное значение/.test(message) && /9007199254740991/.test(message), `message: ${message}`);
      assert((await tab.eval(() => /** @type {any} */ (window).pgbookWorkersCreated)) === 0, 'a worker started for a bad seed');
      await tab.fill('#ppo-seeds', '1000000001');
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.waitFor(() => (window.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 1, null, 30_000);
      assert(!(await tab.visible('#trainer-ppo .figure-error')), 'a CLI seed was refused by the page');
      await tab.clickButton('#trainer-ppo', 'Стоп');
    });
  });

  it('every run link gets an answer: forwarded to its page, or a message; no exception', { timeout: 120_000 }, async () => {
    // The book's root and the wrong lesson forward to the page that hosts the trainer.
    for (const from of ['index.html', 'sequences.html', 'returns.html']) {
      await env.withTab(`${from}?run=ppo&profile=smoke&seeds=11`, {}, async (tab) => {
        await tab.waitFor(() => location.pathname.endsWith('ppo.html'), null, 20_000);
        await tab.waitReady();
        await tab.waitStatus('#trainer-ppo', ['running', 'finished'], 30_000);
        await tab.clickButton('#trainer-ppo', 'Стоп');
      });
    }
    // Parameters after '#'.
    await env.withTab('sequences.html#run=sequence&profile=smoke&seed=5', {}, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['running', 'finished'], 30_000);
    });
    // An unknown run, inherited property names: a message, the page stays ready.
    for (const name of ['nonsense', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      await env.withTab(`index.html?run=${name}`, {}, async (tab) => {
        await tab.waitReady();
        const text = (await tab.text('.link-error')) ?? '';
        assert(/неизвестный запуск/.test(text), `?run=${name}: ${text}`);
      });
    }
    // The other trainer's parameter names.
    await env.withTab('sequences.html?run=sequence&profile=smoke&seeds=5', {}, async (tab) => {
      await tab.waitReady();
      const text = (await tab.text('#trainer-sequence .figure-error')) ?? '';
      assert(/«seeds»/.test(text) && /seed/.test(text), `seeds= on lesson 8: ${text}`);
      assert((await tab.status('#trainer-sequence')) === 'idle', 'a run started from a foreign parameter');
    });
  });

  it('leaving mid-run asks first; the form is kept in the URL and comes back', { timeout: 90_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      const guard = () =>
        tab.eval(() => {
          const e = new Event('beforeunload', { cancelable: true });
          window.dispatchEvent(e);
          return e.defaultPrevented;
        });
      assert(!(await guard()), 'an idle page asks before leaving');
      await tab.select('#ppo-profile', 'full');
      await tab.fill('#ppo-seeds', '71, 101');
      await tab.eval(() => document.querySelector('#ppo-seeds')?.dispatchEvent(new Event('change', { bubbles: true })));
      const search = await tab.eval(() => location.search);
      assert(/form=ppo/.test(search) && /profile=full/.test(search) && /seeds=71%2C\+?101/.test(search), `URL: ${search}`);
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.waitStatus('#trainer-ppo', ['running'], 10_000);
      assert(await guard(), 'leaving a running page does not ask');
      await tab.clickButton('#trainer-ppo', 'Стоп');
      // The same URL (as Back brings it) fills the form and starts nothing.
      await tab.goto(env.url + 'ppo.html' + search);
      await tab.waitReady();
      assert((await tab.value('#ppo-profile')) === 'full', 'profile not restored');
      assert(((await tab.value('#ppo-seeds')) ?? '').replace(/\s/g, '') === '71,101', 'seeds not restored');
      assert((await tab.status('#trainer-ppo')) === 'idle', 'a kept form started a run');
    });
  });

  it('focus moves to the next control when a focused button is disabled', { timeout: 90_000 }, async () => {
    await env.withTab('ppo.html', {}, async (tab) => {
      await tab.waitReady();
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11');
      const focused = () => tab.eval(() => document.activeElement?.textContent ?? document.activeElement?.tagName);
      await tab.eval(() => /** @type {HTMLElement} */ ([...document.querySelectorAll('#trainer-ppo button')].find((b) => b.textContent === 'Старт')).focus());
      await tab.eval(() => /** @type {HTMLElement} */ (document.activeElement).click());
      assert((await focused()) === 'Пауза', `focus after Старт: ${await focused()}`);
      await tab.waitStatus('#trainer-ppo', ['finished'], 60_000);
      assert((await focused()) === 'Старт', `focus after the run ended: ${await focused()}`);
      const live = await tab.eval(() => document.querySelector('#trainer-ppo [role=status]')?.textContent ?? '');
      assert(/^Обучение закончено/.test(live), `the live status does not announce the end: ${live}`);
    });
  });

  it('eight seeds queue on a pool of hardwareConcurrency workers and all finish', { timeout: 240_000 }, async () => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      // The full profile cut to a few updates: the queue turns over as often, in seconds (its
      // whole run, traced, is a main_thread gate of e2e/bench.mjs).
      await tab.select('#ppo-profile', 'full');
      await tab.setSettings('ppo', { num_updates: '4' });
      await tab.fill('#ppo-seeds', '1, 2, 3, 4, 5, 6, 7, 8');
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.runToEnd('#trainer-ppo', 200_000);
      const cores = await tab.eval(() => navigator.hardwareConcurrency || 2);
      const max = await tab.eval(() => /** @type {any} */ (window).pgbookWorkersMax);
      assert(max >= 1 && max <= cores, `${max} workers at once on ${cores} cores`);
      assert((await tab.count('#ppo-summary tbody tr')) === 8, 'eight summaries');
      const updates = await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => r.reports.length));
      assert(updates.length === 8 && updates.every((/** @type {number} */ n) => n === 4), `updates per seed: ${updates}`);
      const redraws = await tab.eval(() => window.pgbookTimings['trainer-ppo'] ?? []);
      assert(redraws.length >= 1, 'the panel never redrew');
    });
  });
});
