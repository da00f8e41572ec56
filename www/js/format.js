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

/** «1 начальное значение», «2 начальных значения», «5 начальных значений». @param {number} n */
export function seedCount(n) {
  const [ten, hundred] = [n % 10, n % 100];
  const word =
    ten === 1 && hundred !== 11
      ? 'начальное значение'
      : ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)
        ? 'начальных значения'
        : 'начальных значений';
  return `${formatNumber(n)} ${word}`;
}
