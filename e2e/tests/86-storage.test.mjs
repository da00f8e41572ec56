// @ts-check
// Everything read from storage is input: saved runs an older build left (no format version),
// one from another version of the book, damaged and partial records, and one whose lines are
// not JSON. The page loads without an error, lists each (the unreadable ones with why and a
// Delete button), shows the runs it can and says in Russian when it cannot.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

/** @param {import('../harness.mjs').Tab} tab @param {string} setting @param {string} value */
const setPpo = (tab, setting, value) =>
  tab.eval(
    ([name, v]) => {
      const input = /** @type {HTMLInputElement} */ (document.querySelector(`#ppo-${name}`));
      input.value = v;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    },
    [setting, value],
  );

/** The records stored for PPO. @param {import('../harness.mjs').Tab} tab */
const stored = async (tab) => (await tab.savedRuns()).filter((r) => r.kind === 'ppo');

/** @param {import('../harness.mjs').Tab} tab @returns {Promise<string[]>} */
const historyTexts = (tab) => tab.eval(() => [...document.querySelectorAll('#ppo-history li')].map((li) => li.textContent ?? ''));

/** Clicks button `text` of history item `k` (the runs that can be shown first, newest first; then the others). @param {import('../harness.mjs').Tab} tab @param {number} k @param {string} text */
const historyButton = (tab, k, text) =>
  tab.eval(
    ([k, text]) => {
      const item = document.querySelectorAll('#ppo-history li')[Number(k)];
      /** @type {HTMLButtonElement} */ ([...item.querySelectorAll('button')].find((b) => b.textContent === text)).click();
    },
    [String(k), text],
  );

/** A date as the page writes it (the browser's locale data, not Node's). @param {import('../harness.mjs').Tab} tab @param {string} iso @returns {Promise<string>} */
const pageDate = (tab, iso) => tab.eval((iso) => new Date(iso).toLocaleString('ru-RU'), iso);

forEachBrowser(
  (env) => {
    it('saved runs of older builds, other versions, damaged and partial ones never break the page', { timeout: 180_000 }, async () => {
      await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
        await tab.waitReady();
        await tab.select('#ppo-profile', 'smoke');
        await tab.fill('#ppo-seeds', '11');
        await setPpo(tab, 'num_updates', '6');
        await tab.clickButton('#trainer-ppo', 'Старт');
        await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 60_000);
        await tab.waitFor(() => document.querySelectorAll('#ppo-history li').length >= 1, null, 10_000);
        const [good] = await stored(tab);
        assert(good?.version === 2, `a saved run carries its format version (${good?.version})`);
        const reports = JSON.stringify(await tab.eval(() => window.pgbookRuns.ppo[0].reports));
        const older = { ...good };
        delete older.id;
        delete older.version;
        /** @param {string} day @param {Record<string, unknown>} change */
        const variant = (day, change) => ({ ...older, saved_at: `${day}T10:00:00.000Z`, ...change });
        const partial = variant('2025-01-02', {});
        delete partial.configs;
        delete partial.labels;
        await tab.replaceSavedRuns([
          variant('2025-01-01', {}), // an older build's run of today's shape: migrated
          partial, // an older build's other shape (the TypeError)
          variant('2025-01-03', { version: 99 }), // a newer book's
          variant('2025-01-04', { version: 1, seeds: 'одиннадцать', infos: null }), // damaged
          { kind: 'ppo', version: 1 }, // damaged, next to nothing
          variant('2025-01-05', { version: 1, configs: [{ lines: '{"seed": 11, не JSON' }] }), // readable shape, broken lines
        ]);
        await tab.reload();
        await tab.waitFor(() => document.querySelectorAll('#ppo-history li').length === 6, null, 10_000).catch(async () => {
          assert(false, `the history lists ${JSON.stringify(await historyTexts(tab))}`);
        });
        const texts = await historyTexts(tab);
        const other = texts.filter((t) => t.includes('сохранён другой версией книги'));
        const damaged = texts.filter((t) => t.includes('повреждён'));
        assert(other.length === 2 && damaged.length === 2, `listed as ${JSON.stringify(texts)}`);
        for (const t of [...other, ...damaged]) assert(t.includes('Удалить') && !t.includes('Показать'), `«${t}»`);
        assert(texts.filter((t) => t.includes('Показать')).length === 2, 'the two readable runs can be shown');
        // The migrated run comes back exactly as it was saved.
        const migrated = await pageDate(tab, '2025-01-01T10:00:00.000Z');
        await historyButton(tab, 1, 'Показать'); // the run saved on 1 January: the newer of the two is 5 January's
        await tab.waitStatus('#trainer-ppo', ['finished'], 10_000).catch(() => {});
        assert(
          (await tab.status('#trainer-ppo')) === 'finished',
          `the migrated run is not shown (${await tab.status('#trainer-ppo')}, ${await tab.text('#trainer-ppo .progress-text')}, ${await tab.text('#trainer-ppo .figure-error')}): ${await tab.text('#trainer-ppo .history-note')} ${JSON.stringify(await historyTexts(tab))} «${migrated}»`,
        );
        assert(JSON.stringify(await tab.eval(() => window.pgbookRuns.ppo[0].reports)) === reports, 'the migrated run came back changed');
        // The one with broken lines: a Russian note, no error.
        await historyButton(tab, 0, 'Показать');
        const note = (await tab.text('#trainer-ppo .history-note')) ?? '';
        assert(/не удалось показать/.test(note), `note «${note}»`);
        // Deleting the unreadable ones.
        for (let k = 0; k < 4; k++) {
          await historyButton(tab, 5 - k, 'Удалить');
          await tab.waitFor((n) => document.querySelectorAll('#ppo-history li').length === n, 5 - k, 10_000);
        }
        assert((await historyTexts(tab)).every((t) => t.includes('Показать')), 'an unreadable record is still listed');
        assert((await stored(tab)).length === 2, 'the deleted records are gone from storage');
      });
    });
  },
  { fresh: true },
);
