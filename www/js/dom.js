// @ts-check
// Small DOM helpers of the trainer panels: elements, tables of formatted cells, downloads,
// durations and error messages.

/** @typedef {import('./types.js').Schema} Schema */

/**
 * An element with attributes (`class`, `text`, `on…` listeners, the rest as attributes).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {(Node | string)[]} children
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/**
 * A table of already formatted cells under one header row.
 * @param {string[]} headers @param {string[][]} rows @param {Record<string, string>} [attrs]
 */
export function textTable(headers, rows, attrs = {}) {
  const table = /** @type {HTMLTableElement} */ (el('table', { class: 'numbers', ...attrs }));
  const head = table.createTHead().insertRow();
  for (const h of headers) head.append(el('th', { text: h }));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const v of row) tr.insertCell().textContent = v;
  }
  return table;
}

/** The profile choice of a trainer, from its schema. @param {string} id @param {Schema} schema */
export function profileSelect(id, schema) {
  const options = schema.profiles.map((p) => el('option', { value: p.name, text: p.label }));
  return /** @type {HTMLSelectElement} */ (el('select', { id }, ...options));
}

/** @param {string} name @param {string} type @param {string} text */
export function download(name, type, text) {
  const a = /** @type {HTMLAnchorElement} */ (el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name }));
  document.body.append(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

/** @param {number} s */
export function seconds(s) {
  if (!Number.isFinite(s)) return '…';
  return s < 60 ? `${Math.ceil(s)} с` : `${Math.floor(s / 60)} мин ${Math.ceil(s % 60)} с`;
}

/** An error's message for the page. @param {unknown} e */
export const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/**
 * Lets the browser paint and answer the reader before the next part of the page is built: a
 * page's setup is cut into tasks of a few milliseconds (a phone is four times slower).
 * @returns {Promise<void>}
 */
export const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
