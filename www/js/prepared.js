// @ts-check
// The lessons' prepared comparisons: an <aside data-prepared="ppo" data-seeds="…"
// data-cfg="full|full;truncation=terminal|…"> says in the lesson's words what to compare; this
// file adds the button that runs it (on this page's panel, or on the trainer's page) and fills
// its [data-prepared-result] with the numbers of the reader's latest finished run of exactly
// that comparison (kept in the browser's history) — never with numbers typed into the lesson.
import { listRuns } from './history.js';
import { comparisonTable, configText, describeComparison, parseConfig, scoreNamesOf } from './trainers.js';
import { formatNumber } from './format.js';
import { describeProfiles, describeSet } from './settings-form.js';

/** @typedef {import('./trainers.js').Config} Config */
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
 * @param {Wasm} wasm
 * @param {Record<string, { schema: any, root: HTMLElement, loadComparison: (configs: Config[], seeds: string) => void }>} panels this page's trainer panels
 */
export function setupPrepared(wasm, panels) {
  for (const box of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-prepared]'))) {
    const kind = box.dataset.prepared ?? '';
    const seeds = box.dataset.seeds ?? '';
    const configs = (box.dataset.cfg ?? '').split('|').map(parseConfig);
    const result = /** @type {HTMLElement | null} */ (box.querySelector('[data-prepared-result]'));
    let schema;
    let keys;
    try {
      schema = wasm.trainer_schema(kind);
      keys = normalised(wasm, kind, configs, seeds);
    } catch (e) {
      // A lesson's own mistake: say it where the comparison would be.
      if (result) result.textContent = `Подготовленное сравнение не распознано: ${e instanceof Error ? e.message : String(e)}`;
      continue;
    }
    const q = new URLSearchParams({ run: kind, [schema.page.seeds_param]: seeds });
    for (const c of configs) q.append('cfg', configText(c));
    const panel = panels[kind];
    const action = document.createElement(panel ? 'button' : 'a');
    action.className = 'prepared-run';
    action.textContent = `Запустить это сравнение (${configs.length} конфигурации × ${seeds.split(',').length} начальных значений)`;
    if (action instanceof HTMLAnchorElement) action.href = `${schema.page.file}?${q}#trainer-${kind}`;
    else {
      action.setAttribute('type', 'button');
      action.addEventListener('click', () => panel.loadComparison(configs, seeds));
    }
    // The configurations in words, from the schema: the lesson names none of their values.
    const list = document.createElement('ul');
    list.className = 'prepared-configs';
    configs.forEach((c, k) => {
      const item = document.createElement('li');
      const diff = describeSet(schema.fields, c.profile, c.set);
      const base = configs[0].profile;
      const profiles =
        k > 0 && c.profile !== base
          ? ` (отличия профиля ${c.profile} от ${base}: ${describeProfiles(schema.fields, base, c.profile)})`
          : '';
      item.textContent = `${'ABCD'[k]}: профиль ${c.profile}${diff ? `; ${diff}` : ''}${profiles}`;
      list.append(item);
    });
    const where = box.querySelector('[data-prepared-action]');
    where?.before(list);
    where?.append(action);
    if (!result) continue;
    const fill = async () => {
      let saved;
      try {
        saved = await listRuns(kind);
      } catch {
        result.textContent = 'Числа этого сравнения появятся здесь после его запуска, но хранилище браузера сейчас недоступно.';
        return;
      }
      const want = `${seeds.replace(/\s/g, '')}|${keys.join('|')}`;
      const run = saved.find((r) => `${r.seeds.join(',')}|${r.checked.map((c) => configText(c)).join('|')}` === want);
      if (!run?.results) {
        result.replaceChildren('Когда сравнение закончится, здесь появятся его числа — из вашего запуска, в этом браузере.');
        return;
      }
      const names = scoreNamesOf(schema);
      const date = new Date(run.saved_at).toLocaleString('ru-RU');
      const intro = document.createElement('p');
      intro.textContent = `Ваш запуск от ${date} (${formatNumber(run.seeds.length)} начальных значений на конфигурацию):`;
      const text = document.createElement('p');
      text.className = 'comparison-text';
      text.textContent = describeComparison(run.results, names);
      const table = comparisonTable(run.results, names, run.times, `${box.id || kind}-prepared-results`);
      const wrap = document.createElement('div');
      wrap.className = 'table-wrap';
      wrap.append(table);
      result.replaceChildren(intro, wrap, text);
    };
    fill();
    document.addEventListener('pgbook:saved', (e) => {
      if (/** @type {CustomEvent} */ (e).detail === kind) fill();
    });
  }
}
