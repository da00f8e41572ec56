// @ts-check
// A comparison's results in a table and in words (each configuration against A, and whether
// the difference stands out of the spread over seeds): the panels and the prepared comparisons.
import { formatNumber } from './format.js';
import { textTable, seconds } from './dom.js';

/** @typedef {import('./types.js').ConfigResult} ConfigResult */
/** @typedef {import('./types.js').Quartiles} Quartiles */

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */

/**
 * What a trainer's results table calls the final score and the goal, and how it writes the
 * score (CartPole: the last evaluation and "stable ≥ 475"; sequence: the fully correct share
 * and the solved iteration) — the core's names, which its words about the table use too.
 * @param {Wasm} wasm @param {string} kind @returns {[string, string, (x: number) => string]}
 */
export function scoreNamesOf(wasm, kind) {
  const names = wasm.score_names(kind);
  return [names.score, names.goal, (x) => formatNumber(x, names.digits)];
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
  // The trainer's own columns (the sequence lab's), every row's in order of first use: a run
  // with pass@k has columns one without lacks.
  const extras = [...new Map(results.flatMap((r) => r.extra ?? []).map((x) => [x.name, x])).values()];
  const rows = results.map((r) => {
    const t = times[r.config];
    const wall = t && t.end ? seconds((t.end - t.start) / 1000) : '…';
    const own = extras.map(({ name }) => {
      const x = r.extra?.find((e) => e.name === name);
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
 * What a finished comparison shows, in words, computed by the core from its numbers: each
 * configuration against A, and whether the difference stands out of the spread over seeds.
 * @param {Wasm} wasm @param {string} kind the trainer whose names the words use @param {ConfigResult[]} results
 */
export function describeComparison(wasm, kind, results) {
  return wasm.describe_comparison(kind, results);
}
