// @ts-check
// The lessons' prepared comparisons: an <aside data-prepared="ppo" data-seeds="…"
// data-cfg="full|full;truncation=terminal|…"> says in the lesson's words what to compare; this
// file adds the button that runs it (on this page's panel, or on the trainer's page) and fills
// its [data-prepared-result] with the numbers of the reader's latest finished run of exactly
// that comparison (kept in the browser's history) — never with numbers typed into the lesson.
import { listRuns } from './history.js';
import { comparisonTable, describeComparison, scoreNamesOf } from './comparison.js';
import { configText, pageLink, parseConfig } from './links.js';
import { seedCount } from './format.js';
import { nextTask } from './dom.js';
import { describeProfiles, describeSet } from './settings-form.js';

/** @typedef {import('./links.js').Config} Config */
/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */

/**
 * The prepared configurations as wasm normalises them (the overrides that differ from their
 * profile, in canonical text), so that a saved run of the same comparison matches them.
 * @param {Wasm} wasm @param {string} kind @param {Config[]} configs @param {string} seeds
 */
function normalised(wasm, kind, configs, seeds) {
  return configs.map((c) => {
    const checked = wasm.check_run(kind, c.profile, c.set, seeds);
    return configText({ profile: checked.profile, set: checked.set });
  });
}

/**
 * Whether the block's predictions held on the reader's numbers, in the core's words: a summary
 * and one sentence per prediction.
 * @param {Wasm} wasm @param {string} id the block's id @param {import('./types.js').ConfigResult[]} results
 */
function predictionVerdict(wasm, id, results) {
  const box = document.createElement('div');
  box.className = 'prediction-verdict';
  const v = wasm.prepared_verdict(id, results);
  const summary = document.createElement('p');
  summary.textContent = v.summary;
  const list = document.createElement('ul');
  for (const c of v.checked) {
    const item = document.createElement('li');
    item.dataset.outcome = c.outcome;
    item.textContent = c.text;
    list.append(item);
  }
  box.append(summary, list);
  return box;
}

/** A trainer's name as the lessons write it. @param {string} kind */
const trainerName = (kind) => (kind === 'sequence' ? 'последовательностная политика' : kind.toUpperCase());

/**
 * The lessons' prepared comparisons. `data-prepared` names the trainer, or one trainer per
 * configuration (`ppo|reinforce`): such a block joins each trainer's run of its own
 * configurations on the same seeds (each runs on its trainer's panel).
 * @param {Wasm} wasm
 * @param {Record<string, { schema: any, root: HTMLElement, loadComparison: (configs: Config[], seeds: string) => void }>} panels this page's trainer panels
 * @returns {Promise<void>}
 */
export async function setupPrepared(wasm, panels) {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-prepared]'))) {
    await nextTask(); // wasm checks every configuration of a block: one block per task
    const kinds = (box.dataset.prepared ?? '').split('|');
    const seeds = box.dataset.seeds ?? '';
    const configs = (box.dataset.cfg ?? '').split('|').map(parseConfig);
    const result = /** @type {HTMLElement | null} */ (box.querySelector('[data-prepared-result]'));
    /** @type {Map<string, { schema: any, configs: Config[], keys: string[] }>} each trainer's part, in order */
    const groups = new Map();
    try {
      if (kinds.length > 1 && kinds.length !== configs.length) {
        throw new Error(`${kinds.length} обучений на ${configs.length} конфигураций`);
      }
      configs.forEach((c, k) => {
        const kind = kinds.length === 1 ? kinds[0] : kinds[k];
        const g = groups.get(kind) ?? { schema: wasm.trainer_schema(kind), configs: [], keys: [] };
        g.configs.push(c);
        groups.set(kind, g);
      });
      for (const [kind, g] of groups) g.keys = normalised(wasm, kind, g.configs, seeds);
    } catch (e) {
      // A lesson's own mistake: say it where the comparison would be.
      if (result) result.textContent = `Подготовленное сравнение не распознано: ${e instanceof Error ? e.message : String(e)}`;
      continue;
    }
    const joined = groups.size > 1;
    // The configurations in words, from the schema: the lesson names none of their values.
    const list = document.createElement('ul');
    list.className = 'prepared-configs';
    let k = 0;
    for (const [kind, g] of groups) {
      const base = g.configs[0].profile;
      for (const c of g.configs) {
        const item = document.createElement('li');
        const diff = describeSet(g.schema.fields, c.profile, c.set);
        const profiles =
          c.profile !== base ? ` (отличия профиля ${c.profile} от ${base}: ${describeProfiles(g.schema.fields, base, c.profile)})` : '';
        const who = joined ? `${trainerName(kind)}, ` : '';
        item.textContent = `${'ABCD'[k++]}: ${who}профиль ${c.profile}${diff ? `; ${diff}` : ''}${profiles}`;
        list.append(item);
      }
    }
    const where = box.querySelector('[data-prepared-action]');
    where?.before(list);
    for (const [kind, g] of groups) {
      const q = new URLSearchParams({ run: kind, [g.schema.page.seeds_param]: seeds });
      if (g.configs.length === 1) {
        q.set('profile', g.configs[0].profile);
        for (const [key, v] of g.configs[0].set) q.set(key, v);
      } else for (const c of g.configs) q.append('cfg', configText(c));
      const panel = panels[kind];
      const action = document.createElement(panel ? 'button' : 'a');
      action.className = 'prepared-run';
      const size = `${g.configs.length > 1 ? `${g.configs.length} конфигурации × ` : ''}${seedCount(seeds.split(',').length)}`;
      action.textContent = joined ? `Запустить ${trainerName(kind)} (${size})` : `Запустить это сравнение (${size})`;
      // The worksheet (worksheet.js) prints the run as a link either way.
      action.dataset.link = pageLink(g.schema.page.file, q, `trainer-${kind}`);
      if (action instanceof HTMLAnchorElement) action.href = action.dataset.link;
      else {
        action.setAttribute('type', 'button');
        action.addEventListener('click', () => panel.loadComparison(g.configs, seeds));
      }
      where?.append(action, ' ');
      // The trainer lives on another page: say where the numbers will be (the student's audit).
      if (action instanceof HTMLAnchorElement) {
        where?.append('Кнопка откроет тренажёр на его странице; таблица и проверка прогноза появятся здесь, когда вы вернётесь. ');
      }
    }
    if (!result) continue;
    const want = seeds.replace(/\s/g, '');
    const fill = async () => {
      /** @type {import('./history.js').SavedRun[]} */
      const runs = [];
      try {
        for (const [kind, g] of groups) {
          const key = `${want}|${g.keys.join('|')}`;
          const run = (await listRuns(kind)).find((r) => `${r.seeds.join(',')}|${r.checked.map((c) => configText(c)).join('|')}` === key);
          if (run?.results) runs.push(run);
        }
      } catch {
        result.textContent = 'Числа этого сравнения появятся здесь после его запуска, но хранилище браузера сейчас недоступно.';
        return;
      }
      if (runs.length < groups.size) {
        const missing = [...groups.keys()].filter((kind) => !runs.some((r) => r.kind === kind)).map(trainerName);
        result.replaceChildren(
          joined
            ? `Когда закончатся запуски всех обучений (ещё нет: ${missing.join(', ')}), здесь появятся их числа — из ваших запусков, в этом браузере.`
            : 'Когда сравнение закончится, здесь появятся его числа — из вашего запуска, в этом браузере.',
        );
        return;
      }
      try {
        showRuns(runs);
      } catch (e) {
        // A saved run this build reads but cannot tabulate: say so, never throw.
        result.textContent = `Сохранённый запуск этого сравнения не удалось показать: ${e instanceof Error ? e.message : String(e)}.`;
      }
    };
    /** @param {import('./history.js').SavedRun[]} runs */
    const showRuns = (runs) => {
      // One table over every trainer's configurations, lettered as the list above.
      let c = 0;
      const results = runs.flatMap((r) =>
        (r.results ?? []).map((x) => ({
          ...x,
          config: c,
          label: joined ? `${'ABCD'[c++]}: ${trainerName(r.kind)}, ${x.label || `профиль ${r.checked[0]?.profile}`}` : (c++, x.label),
        })),
      );
      const times = runs.flatMap((r) => r.times);
      const names = scoreNamesOf(wasm, kinds[0]);
      const dates = runs.map((r) => new Date(r.saved_at).toLocaleString('ru-RU')).join(' и ');
      const intro = document.createElement('p');
      intro.textContent = `${runs.length > 1 ? 'Ваши запуски' : 'Ваш запуск'} от ${dates} (${seedCount(runs[0].seeds.length)} на конфигурацию):`;
      const text = document.createElement('p');
      text.className = 'comparison-text';
      text.textContent = describeComparison(wasm, kinds[0], results);
      const table = comparisonTable(results, names, times, `${box.id || kinds[0]}-prepared-results`);
      const wrap = document.createElement('div');
      wrap.className = 'table-wrap';
      wrap.append(table);
      result.replaceChildren(intro, wrap, text, predictionVerdict(wasm, box.id, results));
    };
    fill();
    document.addEventListener('pgbook:saved', (e) => {
      if (groups.has(/** @type {CustomEvent} */ (e).detail)) fill();
    });
  }
}
