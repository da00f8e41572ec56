// @ts-check
// How long a run will take on this machine: its planned work (wasm's check_run, in the work
// units of src/train/cost.rs) ÷ the speed measured once on this page ÷ the workers, corrected
// per trainer by this reader's finished runs: each saved run keeps its timing (seconds, workers,
// work, the speed measured then), and actual ÷ planned of those runs is the correction.

/**
 * A finished run's timing, as its saved record keeps it.
 * @typedef {{ seconds: number, workers: number, work: number, speed: number }} Timing
 */

/** The fewest and most a correction may be: a record is input, not trusted. */
const BOUNDS = [0.05, 20];
/** How many of a trainer's latest runs the correction is taken from. */
const LATEST = 5;

/** @param {unknown} x */
const positive = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** A saved record's timing when it is one (older records have none). @param {unknown} t @returns {t is Timing} */
export function isTiming(t) {
  if (typeof t !== 'object' || t === null) return false;
  const r = /** @type {Record<string, unknown>} */ (t);
  return positive(r.seconds) && positive(r.workers) && positive(r.work) && positive(r.speed);
}

/** Actual ÷ planned time of one finished run. @param {Timing} t */
export const ratioOf = (t) => t.seconds / (t.work / t.speed / t.workers);

/**
 * The settings of a run as one key: configurations and seeds (the same key, the same plan).
 * @param {{ profile: string, set: [string, string][], seeds: number[] }[]} checked
 */
export const settingsKey = (checked) => JSON.stringify(checked.map((c) => [c.profile, c.set, c.seeds]));

/**
 * The correction of a trainer's planned time: the latest finished run with the same settings
 * when there is one (its ratio), else the median ratio of the trainer's latest runs; 1 without
 * any. `saved` is newest first (history.js's order).
 * @param {{ checked: any[], timing?: unknown }[]} saved @param {string} key
 * @returns {{ factor: number, from: 'same' | 'trainer' | 'none' }}
 */
export function correction(saved, key) {
  const timed = saved.filter((r) => isTiming(r.timing));
  const clamp = (/** @type {number} */ x) => Math.min(BOUNDS[1], Math.max(BOUNDS[0], x));
  const ratio = (/** @type {{ timing?: unknown }} */ r) => clamp(ratioOf(/** @type {Timing} */ (r.timing)));
  const same = timed.find((r) => {
    try {
      return settingsKey(r.checked) === key;
    } catch {
      return false;
    }
  });
  if (same) return { factor: ratio(same), from: 'same' };
  const ratios = timed
    .slice(0, LATEST)
    .map(ratio)
    .sort((a, b) => a - b);
  if (!ratios.length) return { factor: 1, from: 'none' };
  const mid = ratios.length >> 1;
  const median = ratios.length % 2 ? ratios[mid] : Math.sqrt(ratios[mid - 1] * ratios[mid]);
  return { factor: median, from: 'trainer' };
}
