// @ts-check
// Numbers in the lesson text: the worked examples' values (every one from wasm), tables of
// numbers, and the spans that follow a figure's controls.
import { formatNumber } from './format.js';

/** @param {unknown} v @param {number} digits @returns {string} */
function formatValue(v, digits) {
  return Array.isArray(v) ? `(${v.map((x) => formatValue(x, digits)).join('; ')})` : formatNumber(v, digits);
}
/** The value at a dotted path (`score.probs`) of the worked examples. @param {unknown} obj @param {string} path */
function lookup(obj, path) {
  return path.split('.').reduce((/** @type {any} */ o, k) => (o == null ? undefined : o[k]), obj);
}

// ---------- worked examples: every number in the lesson text comes from wasm ----------
/** @param {unknown} worked */
export function fillWorked(worked) {
  document.querySelectorAll(/** @type {'span'} */ ('[data-worked]')).forEach((el) => {
    const v = lookup(worked, el.dataset.worked ?? '');
    if (v === undefined) {
      el.textContent = '?';
      el.title = `нет значения ${el.dataset.worked}`;
      console.warn(`worked example has no value at ${el.dataset.worked}`);
      return;
    }
    el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
  document.querySelectorAll(/** @type {'div'} */ ('[data-worked-table]')).forEach((el) => {
    const v = lookup(worked, el.dataset.workedTable ?? '');
    if (!Array.isArray(v)) {
      el.textContent = `нет таблицы ${el.dataset.workedTable}`;
      return;
    }
    el.replaceChildren(
      numberTable(
        Array.isArray(v[0]) ? v : [v],
        Number(el.dataset.digits ?? 3),
        el.dataset.rowLabels?.split('|'),
        el.dataset.colLabels?.split('|'),
      ),
    );
  });
}
/**
 * @param {unknown[][]} rows
 * @param {number} digits
 * @param {string[]} [rowLabels]
 * @param {string[]} [colLabels]
 */
export function numberTable(rows, digits, rowLabels, colLabels) {
  const table = document.createElement('table');
  table.className = 'numbers';
  if (colLabels) {
    const head = table.createTHead().insertRow();
    if (rowLabels) head.append(document.createElement('td')); // the corner: no header for nothing
    for (const c of colLabels) {
      const th = document.createElement('th');
      th.textContent = c;
      head.append(th);
    }
  }
  const body = table.createTBody();
  rows.forEach((row, i) => {
    const tr = body.insertRow();
    if (rowLabels) {
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = rowLabels[i] ?? '';
      tr.append(th);
    }
    for (const x of row) tr.insertCell().textContent = formatNumber(x, digits);
  });
  return table;
}

/**
 * Fills each `[data-value=PATH]` of the figure with the figure's number at that dotted path
 * (lists as the text writes them: semicolons, decimal commas).
 * @param {HTMLElement} figure @param {unknown} numbers
 */
export function fillNumbers(figure, numbers) {
  figure.querySelectorAll(/** @type {'span'} */ ('[data-value]')).forEach((el) => {
    const v = lookup(numbers, el.dataset.value ?? '');
    if (v !== undefined) el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
}
/**
 * The lesson text's numbers that follow a figure's controls: `[data-follows="NAME.PATH"]`
 * anywhere on the page takes the figure's number at PATH.
 * @param {string} name @param {unknown} numbers
 */
export function follow(name, numbers) {
  document.querySelectorAll(/** @type {'span'} */ (`[data-follows^="${name}."]`)).forEach((el) => {
    const v = lookup(numbers, (el.dataset.follows ?? '').slice(name.length + 1));
    if (v !== undefined) el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
}
/** @param {HTMLElement} root @param {string} role @param {string} text */
export function setText(root, role, text) {
  root.querySelectorAll(`[data-value=${role}]`).forEach((el) => {
    el.textContent = text;
  });
}
