// @ts-check
// The token inspector (lesson «R1-Zero во вкладке»): one sampled group of a network — the
// untrained one of a profile, or one the reader trained (a saved run's policy file) — with
// every token's loss terms, computed by the core (wasm inspect_policy / inspect_untrained) on
// this page's thread: one iteration's batch and its PPO epochs. Nothing here computes a number.
import { loadFull } from './core.js';
import { el, messageOf } from './dom.js';
import { formatNumber } from './format.js';
import { listRuns } from './history.js';

/** @typedef {import('../pkg/pgbook.js').GroupInspection} GroupInspection the core's (src/train/sequence/inspect.rs) */
/** @typedef {import('../pkg/pgbook.js').InspectedAnswer} InspectedAnswer */
/** @typedef {import('../pkg/pgbook.js').InspectedToken} InspectedToken */

const CLIP = {
  inside: 'внутри интервала',
  clipped: 'обрезано: градиента нет',
  outside_flowing: 'вне интервала, градиент идёт',
};

const COLUMNS = ['токен', 'π_old', 'энтропия', 'отношение r', 'клиппирование', 'преимущество A', 'вес w', 'вклад w·r·A'];

/** @param {number} x @param {number} digits */
const num = (x, digits) => formatNumber(x, digits);
/** Small weights in significant digits. @param {number} x */
const small = (x) => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(2).replace('.', ',').replace('-', '−') : num(x, 4));

/** One answer's tokens as a table: a row per token, the token its row header. @param {InspectedAnswer} a @param {number} i */
function answerTable(a, i) {
  const verdict = a.correct ? 'верен' : 'неверен';
  const caption = el('caption', {
    text: `Ответ ${i + 1}: ${a.text} — награда ${num(a.reward, 2)}, ${verdict}, A = ${num(a.advantage, 3)}`,
  });
  const table = /** @type {HTMLTableElement} */ (el('table', { class: 'numbers inspector-tokens' }, caption));
  const head = table.createTHead().insertRow();
  for (const c of COLUMNS) head.append(el('th', { scope: 'col', text: c }));
  const body = table.createTBody();
  for (const t of a.tokens) {
    const tr = body.insertRow();
    tr.dataset.clip = t.clip;
    tr.append(el('th', { scope: 'row', text: t.token }));
    for (const v of [
      num(t.probability, 3),
      num(t.entropy, 3),
      num(t.ratio, 4),
      CLIP[t.clip],
      num(t.advantage, 3),
      small(t.weight),
      small(t.gradient),
    ])
      tr.insertCell().textContent = v;
  }
  return el('div', { class: 'table-wrap' }, table);
}

/** The run's setting in words. @param {GroupInspection} g */
function summary(g) {
  const epochs =
    g.epochs > 1
      ? `Отношения — те, что видит последняя эпоха PPO (${g.epoch}-я из ${g.epochs}), после ${g.epochs - 1} шагов Adam по этому пакету.`
      : 'Эпоха PPO одна: на ней все отношения равны единице, и клиппирование ничего не делает.';
  const level = g.ratio_level === 'sequence' ? 'отношение ответа (GSPO)' : 'отношение токена';
  const dead = g.answers.every((a) => a.advantage === 0)
    ? ' Преимущество каждого ответа группы — ноль (награды равны), и ни один токен не даёт градиента: это пустая группа. «Другая выборка» или другой номер группы покажут другие ответы.'
    : '';
  return (
    `После ${g.iteration} итераций обучения. Запрос «${g.prompt}», группа ${g.group + 1} из ${g.groups} пакета из ` +
    `${g.batch_rows} ответов; редукция ${g.reduction}, ${level}, интервал [1 − ${num(g.clip_low, 2)}, 1 + ${num(g.clip_high, 2)}]. ${epochs}${dead}`
  );
}

/**
 * Wires the inspector block `root`: its source list (the untrained network and the reader's
 * saved runs with a trained network), group number, «Показать» and «Другая выборка».
 * @param {HTMLElement} root
 */
export async function wireInspector(root) {
  const source = /** @type {HTMLSelectElement} */ (root.querySelector('[data-inspector-source]'));
  const group = /** @type {HTMLInputElement} */ (root.querySelector('[data-inspector-group]'));
  const status = /** @type {HTMLElement} */ (root.querySelector('[data-inspector-status]'));
  const error = /** @type {HTMLElement} */ (root.querySelector('[data-inspector-error]'));
  const result = /** @type {HTMLElement} */ (root.querySelector('[data-inspector-result]'));
  const request = root.dataset.request ?? '{"profile":"transformer"}';
  const seed = Number(root.dataset.seed ?? '1');
  /** @type {string[]} policy files by option value */
  const policies = [];
  let draw = 0;
  try {
    for (const run of await listRuns('sequence')) {
      run.policies.forEach((policy, job) => {
        if (!policy) return;
        const config = Math.floor(job / run.seeds.length) + 1;
        const jobSeed = run.seeds[job % run.seeds.length];
        const when = new Date(run.saved_at).toLocaleString('ru-RU');
        source.append(
          el('option', {
            value: String(policies.length),
            text: `ваш запуск ${when}: конфигурация ${config}, начальное значение ${jobSeed}`,
          }),
        );
        policies.push(policy);
      });
    }
  } catch (e) {
    status.textContent = `Сохранённые запуски недоступны (${messageOf(e)}): можно смотреть необученную сеть.`;
  }
  const show = async () => {
    error.hidden = true;
    const g = Number(group.value) - 1;
    status.textContent = 'Считаю группу…';
    try {
      const core = await loadFull();
      const chosen = source.value === 'untrained' ? null : policies[Number(source.value)];
      /** @type {GroupInspection} */
      const inspection = chosen ? core.inspect_policy(chosen, g, draw) : core.inspect_untrained(request, seed, g, draw);
      group.max = String(inspection.groups);
      result.replaceChildren(el('p', { text: summary(inspection) }), ...inspection.answers.map(answerTable));
      status.textContent = `Показана группа ${g + 1}: ${inspection.answers.length} ответов.`;
    } catch (e) {
      status.textContent = '';
      error.textContent = `Не удалось показать группу: ${messageOf(e)}`;
      error.hidden = false;
    }
  };
  root.querySelector('[data-inspector-show]')?.addEventListener('click', show);
  root.querySelector('[data-inspector-next]')?.addEventListener('click', () => {
    draw += 1;
    show();
  });
  source.addEventListener('change', () => {
    draw = 0;
  });
}
