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
