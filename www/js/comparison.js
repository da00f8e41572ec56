// @ts-check
// A comparison's results in a table and in words (each configuration against A, and whether
// the difference stands out of the spread over seeds): the panels and the prepared comparisons.
import { formatNumber, seedCount } from './format.js';
import { textTable, seconds } from './dom.js';

/** @typedef {import('./types.js').Schema} Schema */
/** @typedef {import('./types.js').ConfigResult} ConfigResult */
/** @typedef {import('./types.js').Quartiles} Quartiles */

/**
 * What a trainer's results table calls the final score and the goal, and how it writes the
 * score (CartPole: the last evaluation and "stable ≥ 475"; sequence: the fully correct share
 * and the solved iteration).
 * @param {Schema} schema @returns {[string, string, (x: number) => string]}
 */
export function scoreNamesOf(schema) {
  if (schema.panel === 'sequence') return ['итоговая доля верных ответов', 'решено с итерации', (x) => formatNumber(x)];
  return ['итоговая оценка', `стабильно ≥ ${formatNumber(schema.solved_threshold)} с шага`, (x) => formatNumber(x, 1)];
}

/**
 * The results table of a comparison: per configuration the final score and where the goal
 * was reached (median [IQR] over its seeds), how many seeds reached it, and the wall time.
 * @param {ConfigResult[]} results @param {[string, string, (x: number) => string]} names
 * @param {{ start: number, end: number }[]} times @param {string} id
 */
export function comparisonTable(results, [scoreName, goalName, fmt], times, id) {
  /** @param {Quartiles | null} q @param {(x: number) => string} f */
  const quart = (q, f) => (q ? `${f(q.median)} [${f(q.q25)}; ${f(q.q75)}]` : '—');
  // The trainer's own columns (the sequence lab's), named by the first row that has them.
  const extras = results.find((r) => r.extra?.length)?.extra ?? [];
  const rows = results.map((r) => {
    const t = times[r.config];
    const wall = t && t.end ? seconds((t.end - t.start) / 1000) : '…';
    const own = extras.map((_, k) => {
      const x = r.extra?.[k];
      return x ? quart(x.value, (v) => formatNumber(v, x.digits)) : '—';
    });
    return [r.label, quart(r.score, fmt), quart(r.reached_at, (x) => formatNumber(x)), `${r.reached} из ${r.finished}`, ...own, wall];
  });
  const headers = [
    'конфигурация',
    `${scoreName}: медиана [IQR]`,
    `${goalName}: медиана [IQR]`,
    'достигли цели',
    ...extras.map((x) => `${x.name}: медиана [IQR]`),
    'время',
  ];
  return textTable(headers, rows, { id });
}

/**
 * What a finished comparison shows, in words, from its numbers: each configuration against A,
 * and whether the difference stands out of the spread over seeds.
 * @param {ConfigResult[]} results @param {[string, string, (x: number) => string]} names the score's and the goal's names, the score's format
 */
export function describeComparison(results, names) {
  const done = results.every((r) => r.finished === r.seeds);
  if (!done) return 'Сравнение ещё идёт: итог появится, когда закончатся все запуски.';
  const [scoreName, goalName, fmt] = names;
  const [a, ...rest] = results;
  /** @param {Quartiles | null} x @param {Quartiles | null} y */
  const overlap = (x, y) => !x || !y || (x.q25 <= y.q75 && y.q25 <= x.q75);
  const parts = rest.map((r) => {
    const letter = 'ABCD'[r.config];
    const goal =
      r.reached === a.reached && r.reached_at && a.reached_at
        ? `${goalName} — медиана ${formatNumber(r.reached_at.median)} против ${formatNumber(a.reached_at.median)} у A`
        : `цели достигли ${r.reached} из ${r.finished} начальных значений против ${a.reached} из ${a.finished} у A`;
    const score = `${scoreName} — медиана ${fmt(r.score?.median ?? NaN)} против ${fmt(a.score?.median ?? NaN)} у A`;
    // One seed more or less reaching the goal, with overlapping quartiles, is within the spread.
    const close = Math.abs(r.reached - a.reached) <= 1 && overlap(r.reached_at, a.reached_at) && overlap(r.score, a.score);
    const verdict =
      a.seeds === 1
        ? 'по одному начальному значению нельзя отличить разницу от случайности'
        : close
          ? 'разница мала по сравнению с разбросом между начальными значениями (межквартильные диапазоны перекрываются) и может поменять знак на других начальных значениях'
          : 'на этих начальных значениях разница больше разброса между ними';
    // The trainer's own columns, each against A (where both have a value).
    const own = (r.extra ?? [])
      .map((x, k) => {
        const ax = a.extra?.[k];
        if (!x.value || !ax?.value) return '';
        return `; ${x.name} — медиана ${formatNumber(x.value.median, x.digits)} против ${formatNumber(ax.value.median, ax.digits)} у A`;
      })
      .join('');
    return `${letter}: ${goal}; ${score}${own}; ${verdict}.`;
  });
  const seeds = a.seeds;
  return `${parts.join(' ')} Всего ${seedCount(seeds)} на конфигурацию — это немного: выводы стоит проверить на других.`;
}
