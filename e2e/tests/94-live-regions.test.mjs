// @ts-check
// Live regions (issue 28): a screen reader hears a run's start, pause, end and errors once —
// one sentence each in the panel's status region, the error in its alert — never the progress
// line that changes at every redraw; a figure's new description once its sliders rest, not at
// each step. A MutationObserver in the page counts every change inside a live region.
import { it } from 'node:test';
import { forEachBrowser, assert, countWorkers } from '../harness.mjs';

/**
 * Starts counting: every mutation inside a live region (its text, its children, its `hidden`),
 * by region, with the region's text after it; and the progress lines written, for comparison.
 * @param {import('../harness.mjs').Tab} tab
 */
const watchLive = (tab) =>
  tab.eval(() => {
    const LIVE = '[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log], output:not([aria-live=off])';
    const w = /** @type {any} */ (window);
    /** @type {{ region: string, text: string }[]} */
    w.pgbookLive = [];
    w.pgbookProgressWrites = 0;
    /** @type {WeakMap<Element, string>} */
    const names = new WeakMap();
    const nameOf = (/** @type {Element} */ r) => {
      if (!names.has(r)) {
        const where = r.closest('section, figure, form')?.id ?? '';
        names.set(r, `${where} ${r.tagName.toLowerCase()}${r.id ? `#${r.id}` : ''}.${r.className || '-'}[${r.getAttribute('role') ?? `aria-live=${r.getAttribute('aria-live')}`}]`);
      }
      return names.get(r) ?? '';
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const node = r.target instanceof Element ? r.target : r.target.parentElement;
        // `hidden` set again to what it was changes nothing a reader hears.
        if (r.type === 'attributes' && r.target instanceof Element && r.oldValue === r.target.getAttribute(r.attributeName ?? '')) continue;
        if (node?.closest('.progress-text')) w.pgbookProgressWrites++;
        const region = node?.closest(LIVE);
        // What this change put there (records come in batches, after several changes).
        const text = r.type === 'childList' ? [...r.addedNodes].map((n) => n.textContent).join('') : r.type === 'characterData' ? r.target.textContent : region?.textContent;
        if (region) w.pgbookLive.push({ region: nameOf(region), text: (text ?? '').trim() });
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true, attributeFilter: ['hidden'] });
  });

/** What the live regions said since watchLive(), and how often the progress line was written. @param {import('../harness.mjs').Tab} tab */
const said = (tab) =>
  tab.eval(() => {
    const w = /** @type {any} */ (window);
    return { live: /** @type {{ region: string, text: string }[]} */ (w.pgbookLive), progress: /** @type {number} */ (w.pgbookProgressWrites) };
  });

/** PPO's full profile, three times as long: a run no test click can outlast. */
const LONG = 'profile=full&seeds=11&num_updates=600';

/** The sentences of the panel's status region, in order. @param {{ region: string, text: string }[]} live @param {string} panel */
const sentences = (live, panel) => live.filter((m) => m.region.startsWith(`${panel} `) && m.region.includes('[status]')).map((m) => m.text);

forEachBrowser((env) => {
  it('a short run: the panel says it started and how it ended, once each; the progress line is not read', { timeout: 480_000 }, async (t) => {
    for (const [path, panel] of [
      // A few updates on two seeds: what the regions say, not what the runs learn.
      ['ppo.html?form=ppo&profile=smoke&seeds=11,37&num_updates=4', 'trainer-ppo'],
      ['baselines.html?form=reinforce&profile=smoke&seeds=11,37&env_step_budget=4000', 'trainer-reinforce'],
    ]) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        await watchLive(tab);
        await tab.clickButton(`#${panel}`, 'Старт');
        await tab.waitStatus(`#${panel}`, ['finished', 'failed'], 200_000);
        assert((await tab.status(`#${panel}`)) === 'finished', `${path}: the run did not finish`);
        // The history note and the saved run's list come after the end: wait for the list.
        await tab.waitFor((p) => document.querySelectorAll(`#${p} .history-list li`).length > 0, panel, 120_000);
        await tab.settle();
        const { live, progress } = await said(tab);
        const status = sentences(live, panel);
        t.diagnostic(`${env.name} ${path}: ${live.length} live-region mutations (${[...new Set(live.map((m) => m.region))].join(', ')}); progress line written ${progress} times; «${status.join('» «')}»`);
        assert(status.length === 2 && /^Обучение запущено/.test(status[0]) && /^Обучение закончено/.test(status[1]), `${path}: the status region said «${status.join('» «')}»`);
        // The sentence at the end carries the result (the history's line of it).
        assert(/цели достигли \d+ из 2/.test(status[1]), `${path}: the end says no result: «${status[1]}»`);
        assert(live.length === 2, `${path}: live regions changed ${live.length} times: ${live.map((m) => `${m.region}: «${m.text.slice(0, 60)}»`).join('; ')}`);
        // Written at the start, at each redraw and at the end, and never read.
        assert(progress >= 2, `${path}: the progress line was written ${progress} times`);
        // A saved run put back on the panel: one sentence, with its date and result.
        await tab.eval((p) => {
          /** @type {HTMLDetailsElement} */ (document.querySelector(`#${p} details.run-history`)).open = true;
          /** @type {HTMLButtonElement} */ (document.querySelector(`#${p} .history-list li button`)).click();
        }, panel);
        await tab.waitFor((n) => /** @type {any} */ (window).pgbookLive.length > n, live.length, 120_000);
        await tab.settle();
        const back = sentences((await said(tab)).live, panel).slice(2);
        assert(back.length === 1 && /^Показан сохранённый запуск от .+цели достигли \d+ из \d+\.$/.test(back[0]), `${path}: a saved run shown said «${back.join('» «')}»`);
      });
    }
  });

  it('pause, resume, stop, reset and a failed job: one sentence each, the error once in the alert', { timeout: 480_000 }, async (t) => {
    // A run long enough that no click comes after its end (a background tab's waits are slow).
    await env.withTab(`ppo.html?form=ppo&${LONG}`, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await countWorkers(tab);
      await watchLive(tab);
      // The reader's clicks, in the page: each one lands where the run is, whatever the time a
      // driver's round trip takes on a loaded machine.
      await tab.eval(async () => {
        const w = /** @type {any} */ (window);
        const press = (/** @type {string} */ text) =>
          /** @type {HTMLButtonElement} */ ([...document.querySelectorAll('#trainer-ppo button')].find((b) => b.textContent === text)).click();
        const until = async (/** @type {() => boolean} */ ok) => {
          const end = performance.now() + 120_000;
          while (!ok()) {
            if (performance.now() > end) throw new Error(`no ${String(ok)} in 120 s`);
            await new Promise((r) => setTimeout(r, 5));
          }
        };
        const started = () => w.pgbookWorkerLog.filter((/** @type {[number, string]} */ [, m]) => m === 'started').length;
        press('Старт');
        press('Пауза'); // before the worker has its job: the job starts paused
        await until(() => started() === 1);
        press('Продолжить');
        await until(() => (w.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 2);
        press('Стоп');
        press('Сброс');
        // A job that fails: the worker's self-check panics inside wasm.
        press('Старт');
        await until(() => started() === 2);
        w.pgbookPanels.ppo.run.sendTo(0, 'fail');
      });
      await tab.waitStatus('#trainer-ppo', ['failed'], 120_000);
      await tab.settle();
      tab.expectProblems(/self-test: a deliberate panic|unreachable/);
      const { live, progress } = await said(tab);
      const status = sentences(live, 'trainer-ppo');
      const alerts = live.filter((m) => m.region.includes('[alert]'));
      t.diagnostic(`${env.name}: ${live.length} live-region mutations, progress line written ${progress} times; «${status.join('» «')}»; alert ${alerts.length}×`);
      const wanted = [/^Обучение запущено/, /^Пауза/, /^Обучение продолжается/, /^Обучение остановлено/, /^Панель сброшена/, /^Обучение запущено/, /^Обучение прервано ошибкой/];
      assert(status.length === wanted.length && wanted.every((re, i) => re.test(status[i])), `the status region said «${status.join('» «')}»`);
      // The alert: its message written once and shown once (two mutations), nothing after.
      assert(alerts.length <= 2 && alerts.every((m) => /Сбой в модуле WebAssembly/.test(m.text)), `the alert changed ${alerts.length} times: ${alerts.map((m) => m.text.slice(0, 60)).join('; ')}`);
      assert(live.length === status.length + alerts.length, `other live regions changed: ${live.filter((m) => !status.includes(m.text) && !alerts.includes(m)).map((m) => m.region).join(', ')}`);
    });
  });

  it("a figure's sliders moved ten steps: its description is read once, after they rest", async (t) => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      await watchLive(tab);
      // Ten steps in one task, as a drag gives them (each one an `input` event and a redraw).
      const steps = await tab.eval(() => {
        const g = /** @type {HTMLInputElement} */ (document.getElementById('gae-gamma'));
        const l = /** @type {HTMLInputElement} */ (document.getElementById('gae-lambda'));
        for (let i = 0; i < 10; i++) {
          const s = i % 2 ? l : g;
          s.stepDown();
          s.dispatchEvent(new Event('input', { bubbles: true }));
        }
        return [g.value, l.value];
      });
      await tab.waitFor(() => /** @type {any} */ (window).pgbookLive.length > 0, null, 10_000);
      await tab.settle();
      const dragged = (await said(tab)).live.length;
      assert(dragged === 1, `ten steps in a row were read ${dragged} times`);
      // The keyboard too: five arrows on one slider, then rest.
      for (let i = 0; i < 5; i++) await tab.press('#gae-gamma', 'ArrowRight');
      await tab.waitFor(() => /** @type {any} */ (window).pgbookLive.length > 1, null, 10_000);
      await tab.settle();
      const { live } = await said(tab);
      t.diagnostic(`${env.name} gae.html: ${live.length} live-region mutations for 10 steps and 5 keys; «${live.map((m) => m.text.slice(0, 90)).join('» «')}»`);
      const gamma = await tab.eval(() => document.querySelector('output[for="gae-gamma"]')?.textContent ?? '');
      // Each key press is its own rest when the machine is slow: at most one sentence per key.
      assert(live.length >= 2 && live.length <= 6 && live.every((m) => m.region.startsWith('figure-gae ')), `live regions changed ${live.length} times: ${live.map((m) => m.region).join(', ')}`);
      assert(live[0].text.startsWith('Рисунок: при γ = ') && live[0].text.length > 60, `the figure said «${live[0].text}» for ${steps}`);
      assert(live[live.length - 1].text.includes(`γ = ${gamma}`), `the last sentence «${live[live.length - 1].text}» is not about γ = ${gamma}`);
    });
  });
  // A browser of its own: the only tab in its window is a visible one, whose animation frames
  // and timers run at full rate (two files share the browser otherwise).
}, { fresh: true });
