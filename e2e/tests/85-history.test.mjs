// @ts-check
// What was trained is kept: finished runs are saved in the browser (IndexedDB) and survive a
// reload, come back on the panel or beside a new run, and can be deleted; a trained policy
// downloads as one file, loads back and plays the greedy episode `pgbook replay` plays for it;
// when storage fails, the page says so and training goes on.
import { it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachBrowser, assert, cliLines, ARTIFACTS } from '../harness.mjs';


/** A short smoke run of seed 11 to its end. @param {import('../harness.mjs').Tab} tab @param {Record<string, string>} [set] */
async function shortRun(tab, set = {}) {
  await tab.select('#ppo-profile', 'smoke');
  await tab.fill('#ppo-seeds', '11');
  await tab.setSettings('ppo', { num_updates: '12', ...set });
  await tab.clickButton('#trainer-ppo', 'Старт');
  await tab.runToEnd('#trainer-ppo', 60_000);
}

/** Clicks button `text` of history item `k` (newest first). @param {import('../harness.mjs').Tab} tab @param {number} k @param {string} text */
const historyButton = (tab, k, text) =>
  tab.eval(
    ([k, text]) => {
      const item = document.querySelectorAll('#ppo-history li')[Number(k)];
      /** @type {HTMLButtonElement} */ ([...item.querySelectorAll('button')].find((b) => b.textContent === text)).click();
    },
    [String(k), text],
  );

/** @param {import('../harness.mjs').Tab} tab */
const saved = (tab) => tab.count('#ppo-history li');

forEachBrowser((env) => {
  it('a finished run is saved, survives a reload, comes back on the panel and beside a new run, and is deleted', { timeout: 180_000 }, async () => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      const before = await saved(tab);
      await shortRun(tab);
      await tab.waitFor((n) => document.querySelectorAll('#ppo-history li').length === n + 1, before, 10_000);
      const reports = JSON.stringify(await tab.eval(() => window.pgbookRuns.ppo[0].reports));
      await tab.reload();
      // The list fills from IndexedDB after the page is ready.
      await tab
        .waitFor((n) => document.querySelectorAll('#ppo-history li').length === n + 1, before, 10_000)
        .catch(() => assert(false, 'the reload lost the history'));
      await historyButton(tab, 0, 'Показать');
      assert((await tab.status('#trainer-ppo')) === 'finished', 'a saved run is shown as finished');
      assert(JSON.stringify(await tab.eval(() => window.pgbookRuns.ppo[0].reports)) === reports, 'the saved run came back changed');
      assert((await tab.count('#ppo-summary tbody tr')) === 1, 'its table');
      assert(/сохранённый запуск/.test((await tab.text('#trainer-ppo .progress-text')) ?? ''), 'the progress line says it is a saved run');
      // A new run on the same seed, then the saved one beside it.
      await shortRun(tab, { gamma: '0.98' });
      await tab.waitFor((n) => document.querySelectorAll('#ppo-history li').length === n + 2, before, 10_000);
      await historyButton(tab, 1, 'Рядом');
      assert((await tab.count('#trainer-ppo .config-chip')) === 2, 'two configurations side by side');
      assert((await tab.count('#ppo-comparison tbody tr')) === 2, 'the results table of both');
      const runs = await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => JSON.stringify(r.reports)));
      assert(runs[1] === reports, 'the saved run beside the new one is not the saved run');
      await historyButton(tab, 0, 'Удалить');
      await tab.waitFor((n) => document.querySelectorAll('#ppo-history li').length === n + 1, before, 10_000);
    });
  });

  it('a trained policy downloads, loads back and plays the greedy episode of `pgbook replay`; a broken file is refused', { timeout: 120_000 }, async (t) => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await shortRun(tab);
      const file = await tab.download('#trainer-ppo .policy-download');
      assert(file.name === 'ppo-policy-seed11.json', `download named ${file.name}`);
      const path = join(ARTIFACTS, `${env.name}-policy.json`);
      writeFileSync(path, file.text);
      const [native] = cliLines(['replay', path, '--json']);
      /** @param {string} name @param {string} text */
      const upload = (name, text) =>
        tab.eval(
          ([name, text]) => {
            const input = /** @type {HTMLInputElement} */ (document.querySelector('#ppo-policy-file'));
            const files = new DataTransfer();
            files.items.add(new File([text], name, { type: 'application/json' }));
            input.files = files.files;
            input.dispatchEvent(new Event('change'));
          },
          [name, text],
        );
      await tab.eval(() => {
        window.pgbookRuns.policy = undefined;
      });
      await upload('policy.json', file.text);
      await tab.waitFor(() => window.pgbookRuns.policy !== undefined, null, 10_000);
      const page = await tab.eval(() => /** @type {any} */ (window.pgbookRuns.policy));
      const flat = native.states.flat();
      assert(page.reset_seed === native.reset_seed && page.episode_return === native.episode_return, `page ${page.episode_return} vs CLI ${native.episode_return}`);
      assert(page.episode.length === flat.length && page.episode.every((/** @type {number} */ x, /** @type {number} */ i) => x === flat[i]), 'the episode differs from the CLI’s');
      const info = (await tab.text('#ppo-policy-info')) ?? '';
      assert(info.includes('начальное значение 11') && info.includes(`возврат ${native.episode_return}`), `policy info «${info}»`);
      // A file that is not a policy, and one with a weight too few.
      const broken = JSON.parse(file.text);
      broken.params.pop();
      for (const [text, words] of [
        ['{"format":', 'Политика не загружена'],
        [JSON.stringify(broken), 'params'],
      ]) {
        await upload('broken.json', text);
        await tab.waitFor((w) => (document.querySelector('#ppo-policy-info')?.textContent ?? '').includes(w), words, 10_000);
      }
      t.diagnostic(`${env.name}: policy replayed, ${flat.length / 4} states, return ${native.episode_return}, same as the CLI`);
    });
  });

  it('when the browser cannot store, the page says so and training goes on', { timeout: 90_000 }, async () => {
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        indexedDB.open = () => {
          throw new DOMException('quota', 'QuotaExceededError');
        };
      });
      await shortRun(tab);
      await tab.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#trainer-ppo .history-note')).hidden), null, 10_000);
      const note = (await tab.text('#trainer-ppo .history-note')) ?? '';
      assert(/не хватает места/.test(note) && /работают как обычно/.test(note), `note «${note}»`);
      assert((await tab.count('#ppo-summary tbody tr')) === 1, 'the run’s table');
    });
  });
}, { fresh: true });
