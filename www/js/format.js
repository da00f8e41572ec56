// @ts-check
// Numbers in Russian typography, shared by the page scripts.

/**
 * Decimal comma, a real minus sign, trailing zeros dropped; lists use semicolons.
 * @param {unknown} x
 */
export function formatNumber(x, digits = 3) {
  if (typeof x === 'boolean') return x ? 'да' : 'нет';
  if (typeof x !== 'number') return String(x);
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : 'NaN';
  let text = Number.isInteger(x) ? String(x) : x.toFixed(digits);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (/^-0(\.0*)?$/.test(text)) text = '0';
  return text.replace('.', ',').replace('-', '−');
}

/** @type {((n: number, digits: number, one: string, few: string, many: string) => string) | null} */
let numerals = null;
/**
 * Hands the core's Russian-numeral rule (wasm `russian_count`) to the page's phrases; app.js
 * calls it once the module is loaded, so the page and the core agree nouns the same way.
 * @param {(n: number, digits: number, one: string, few: string, many: string) => string} rule
 */
export function useNumerals(rule) {
  numerals = rule;
}

/** `n` with its noun in the agreeing form: `count(2, ['шаг', 'шага', 'шагов'])` is «2 шага». @param {number} n @param {[string, string, string]} forms */
export function count(n, [one, few, many]) {
  if (!numerals) throw new Error('format.js: the numeral rule is not loaded yet');
  return numerals(n, 3, one, few, many);
}

/** «1 начальное значение», «2 начальных значения», «5 начальных значений». @param {number} n */
export function seedCount(n) {
  return count(n, ['начальное значение', 'начальных значения', 'начальных значений']);
}
