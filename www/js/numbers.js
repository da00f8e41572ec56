// @ts-check
// Numbers in the lesson text: tables of numbers, the spans that follow a figure's controls,
// and the formatting with which the build writes the worked examples' values (every one from
// the core, none depending on the reader) into the page.
import { formatNumber } from './format.js';

/** A value as the lesson text writes it (lists in parentheses, semicolons). @param {unknown} v @param {number} digits @returns {string} */
export function formatValue(v, digits) {
  return Array.isArray(v) ? `(${v.map((x) => formatValue(x, digits)).join('; ')})` : formatNumber(v, digits);
}
/** The value at a dotted path (`score.probs`) of the worked examples. @param {unknown} obj @param {string} path */
export function lookup(obj, path) {
  return path.split('.').reduce((/** @type {any} */ o, k) => (o == null ? undefined : o[k]), obj);
}

// ---------- worked examples: filled in when the site is built (scripts/build-site.mjs) ----------
/** @param {string} s */
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/**
 * numberTable's table as HTML, for the build to write into the page (the same structure).
 * @param {unknown[][]} rows @param {number} digits @param {string[]} [rowLabels] @param {string[]} [colLabels]
 */
export function numberTableHtml(rows, digits, rowLabels, colLabels) {
  const head = colLabels
    ? `<thead><tr>${rowLabels ? '<td></td>' : ''}${colLabels.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr></thead>`
    : '';
  const body = rows
    .map(
      (row, i) =>
        `<tr>${rowLabels ? `<th scope="row">${escapeHtml(rowLabels[i] ?? '')}</th>` : ''}${row.map((x) => `<td>${escapeHtml(formatNumber(x, digits))}</td>`).join('')}</tr>`,
    )
    .join('');
  return `<table class="numbers">${head}<tbody>${body}</tbody></table>`;
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
