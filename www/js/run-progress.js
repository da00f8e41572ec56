// @ts-check
// What a run will cost before it starts, and how far it is while it runs: the words of a
// trainer panel's estimate and progress line. The estimate is the planned work (wasm's
// check_run, in the work units of src/train/cost.rs) ÷ the speed measured once on this page ÷
// the workers, corrected per trainer by this reader's finished runs (each saved run keeps its
// timing). The progress line says where each running step is, from its worker's 'progress'
// messages (protocol.js's StepProgress).
import { formatNumber } from './format.js';
import { el, seconds } from './dom.js';
import { measureSpeed as measureInWorker } from './pool.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed'} Status */
/** @typedef {import('./protocol.js').StepProgress} StepProgress */
/** @typedef {import('./protocol.js').Stage} Stage */
/**
 * A finished run's timing, as its saved record keeps it: wall seconds (pauses left out), the
 * pool's workers, the planned work, and the speed this page measured then.
 * @typedef {{ seconds: number, workers: number, work: number, speed: number }} Timing
 */

/** Runs estimated longer than this (seconds) start only when the reader agrees. */
export const ASK_ABOVE_S = 180;
/** The progress line follows the workers' progress messages at most this often (ms). */
export const PROGRESS_MS = 250;

/** @type {number | null} this machine's speed in wasm's work units per second, measured once */
let speed = null;
/** @param {Wasm} wasm */
const machineSpeed = (wasm) => (speed ??= wasm.measure_speed());
/** @type {Promise<void> | null} */
let measuring = null;
/**
 * Measures the speed once per page in a worker of its own (pool.js), so that loading a page
 * with a trainer runs no training update on its main thread; resolves when it is known. A
 * failed measurement leaves it to machineSpeed, on the page.
 */
export function measureSpeed() {
  return (measuring ??= measureInWorker().then(
    (s) => {
      speed ??= s;
    },
    () => {
      // machineSpeed measures on the page (and costOf says when it cannot).
    },
  ));
}

/** The speed measured on this page, if it was. */
export const measuredSpeed = () => speed;

/** Bytes in words. @param {number} b */
const bytesText = (b) =>
  b >= 2 ** 30 ? `${formatNumber(Math.round((b / 2 ** 30) * 10) / 10)} ГиБ` : `${formatNumber(Math.max(1, Math.round(b / 2 ** 20)))} МиБ`;

/* The correction from finished runs. */

/** The least and most a correction may be: a saved record is input, not trusted. */
const CORRECTION_BOUNDS = [0.05, 20];
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
const ratioOf = (t) => t.seconds / (t.work / t.speed / t.workers);

/**
 * A run's settings as one key: configurations and seeds (the same key, the same plan).
 * @param {{ profile: string, set: [string, string][], seeds: number[] }[]} checked
 */
export const settingsKey = (checked) => JSON.stringify(checked.map((c) => [c.profile, c.set, c.seeds]));

/**
 * The correction of a trainer's planned time: the latest finished run with the same settings
 * when there is one (its ratio), else the median ratio of the trainer's latest runs; 1 without
 * any. `saved` is newest first (history.js's order).
 * @param {{ checked: unknown, timing?: unknown }[]} saved @param {string} key
 * @returns {{ factor: number, from: 'same' | 'trainer' | 'none' }}
 */
export function correction(saved, key) {
  const timed = saved.filter((r) => isTiming(r.timing));
  const ratio = (/** @type {{ timing?: unknown }} */ r) =>
    Math.min(CORRECTION_BOUNDS[1], Math.max(CORRECTION_BOUNDS[0], ratioOf(/** @type {Timing} */ (r.timing))));
  const same = timed.find((r) => {
    try {
      return settingsKey(/** @type {any} */ (r.checked)) === key;
    } catch {
      return false; // a record this build cannot read as settings
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

/**
 * What the checked configurations will cost: the time on this machine (their planned work ÷
 * the measured speed, spread over the pool's workers, × the correction from `saved`, this
 * trainer's finished runs) and the memory of one worker. `planned` is the time before the
 * correction.
 * `most` is the longest the run may take: more than `seconds` only when a configuration may draw
 * more data than it plans (the sequence trainer's dynamic sampling, up to its bound).
 * @param {Wasm} wasm @param {CheckedRun[]} checked @param {{ checked: unknown, timing?: unknown }[]} [saved]
 * @returns {{ seconds: number, most: number, planned: number, text: string }}
 */
export function costOf(wasm, checked, saved = []) {
  const jobs = checked.reduce((n, c) => n + c.seeds.length, 0);
  const workers = Math.max(1, Math.min(jobs, navigator.hardwareConcurrency || 2));
  const work = checked.reduce((w, c) => w + c.work_per_seed * c.seeds.length, 0);
  const workMax = checked.reduce((w, c) => w + Math.max(c.work_per_seed, c.work_per_seed_max) * c.seeds.length, 0);
  let planned = NaN;
  try {
    planned = work / machineSpeed(wasm) / workers;
  } catch {
    // No measurement: the memory is still known.
  }
  const { factor, from } = correction(saved, settingsKey(checked));
  const time = planned * factor;
  const most = work > 0 ? time * (workMax / work) : time; // the same speed, workers and correction
  const memory = Math.max(...checked.map((c) => c.memory_bytes));
  const learnt = from === 'same' ? ' (по такому же запуску)' : from === 'trainer' ? ' (с поправкой по прошлым запускам)' : '';
  // Dynamic sampling draws as many groups as the batch needs, up to its bound: the time is a range.
  const range = Number.isFinite(most) && seconds(most) !== seconds(time);
  const when = !Number.isFinite(time)
    ? 'время неизвестно'
    : range
      ? `от ≈ ${seconds(time)} до ≈ ${seconds(most)}${learnt} — динамический отбор групп добирает ответы, сколько понадобится`
      : `≈ ${seconds(time)}${learnt}`;
  return {
    seconds: time,
    most: Number.isFinite(most) ? most : time,
    planned,
    text: `Оценка: ${when}, до ${bytesText(memory)} памяти на процесс`,
  };
}

/**
 * A finished run's timing for the history, or null when it is not one run's plain wall time.
 * @param {{ elapsed: number, checked: CheckedRun[], jobs: number }} run `elapsed` in seconds, pauses left out
 * @returns {Timing | null}
 */
export function timingOf({ elapsed, checked, jobs }) {
  const workers = Math.max(1, Math.min(jobs, navigator.hardwareConcurrency || 2));
  const work = checked.reduce((w, c) => w + c.work_per_seed * c.seeds.length, 0);
  const timing = { seconds: elapsed, workers, work, speed: speed ?? NaN };
  return isTiming(timing) ? timing : null;
}

/* Where the running steps are. */

/** A stage in the glossary's words: «сбор опыта, 37 %», «эпоха 2 из 4, мини-пакет 5 из 8». @param {Stage} s */
export function stageText(s) {
  const of = (/** @type {number} */ a, /** @type {number} */ b) => `${formatNumber(a)} из ${formatNumber(b)}`;
  switch (s.stage) {
    case 'rollout':
      return `сбор опыта, ${Math.floor((100 * s.done) / Math.max(1, s.total))} %`;
    case 'minibatch':
      if (s.epochs === 1 && s.minibatches === 1) return 'градиентный шаг по всему пакету';
      if (s.minibatches === 1) return `эпоха ${of(s.epoch, s.epochs)}`;
      return `эпоха ${of(s.epoch, s.epochs)}, мини-пакет ${of(s.minibatch, s.minibatches)}`;
    case 'critic':
      return `обучение критика: шаг ${of(s.step, s.steps)}`;
    case 'evaluation':
      return 'жадная оценка политики';
    case 'pretrain':
      return `дообучение с учителем (SFT): шаг ${of(s.step, s.steps)}`;
    default: {
      /** @type {never} */
      const unknown = s;
      return String(/** @type {any} */ (unknown).stage);
    }
  }
}

/** «обновление 1 из 1: сбор опыта, 37 %». @param {StepProgress} p @param {string} unit the run's progress unit */
export function stepText(p, unit) {
  const what = unit === 'итераций' ? 'итерация' : 'обновление';
  return `${what} ${formatNumber(p.step)} из ${formatNumber(p.steps)}: ${stageText(p.stage)}`;
}

/** Each running job's step in progress, as its worker last said. */
export class Within {
  constructor() {
    /** @type {Map<number, StepProgress>} */
    this.jobs = new Map();
  }

  /** @param {number} job @param {StepProgress} p */
  set(job, p) {
    this.jobs.set(job, p);
  }

  /** Job `job`'s step has reported, or the job has ended. @param {number} job */
  done(job) {
    this.jobs.delete(job);
  }

  clear() {
    this.jobs.clear();
  }

  /** @param {number} job */
  of(job) {
    return this.jobs.get(job);
  }

  /**
   * The progress units the running steps have done so far, for the bar: each step's fraction
   * of its job's units per step.
   * @param {(job: number) => number} unitsPerStep
   */
  units(unitsPerStep) {
    let sum = 0;
    for (const [job, p] of this.jobs) sum += Math.min(1, Math.max(0, p.fraction)) * unitsPerStep(job);
    return sum;
  }

  /** The first job with a step in progress (the one the line speaks of), or −1. */
  first() {
    return this.jobs.size ? Math.min(...this.jobs.keys()) : -1;
  }
}

/**
 * The progress line says what is true now: running (what the first running step is doing
 * inside it, and the time left), paused, stopped, finished, or failed (how many jobs); it never
 * runs on after a stop.
 * @param {{ status: Status, unit: string, done: number, total: number, elapsed: number, steps: number, restoredFrom: string,
 *   inside?: string, failed?: number, jobs?: number }} run
 *   `elapsed` in seconds, `steps` the longest configuration's steps per seed, `inside` what the
 *   first running step is doing («обновление 1 из 1: сбор опыта, 37 %»), `failed` of `jobs`
 *   jobs failed
 */
export function progressLine({ status, unit, done, total, elapsed, steps, restoredFrom, inside = '', failed = 0, jobs = 0 }) {
  const counted = `${formatNumber(Math.floor(done))} из ${formatNumber(total)} ${unit}`;
  switch (status) {
    case 'finished':
      if (restoredFrom) return `${counted}; сохранённый запуск от ${restoredFrom}`;
      return `${counted}; готово за ${seconds(elapsed)}`;
    case 'stopped':
      return `${counted}; остановлено.`;
    case 'paused':
      return `${counted}; пауза.`;
    case 'failed': {
      if (!failed) return `${counted}; обучение прервано ошибкой.`;
      const one = failed % 10 === 1 && failed % 100 !== 11;
      return `${counted}; ${formatNumber(failed)} из ${formatNumber(jobs)} запусков ${one ? 'прерван' : 'прерваны'} ошибкой.`;
    }
    default: {
      if (done === 0) {
        if (inside) return `${counted}; идёт ${inside}`;
        const what = unit === 'итераций' ? 'итерация' : 'обновление';
        return `${counted}; идёт ${what} 1 из ${formatNumber(steps)} (первое ещё не закончено)`;
      }
      const left = (elapsed * (total - done)) / done;
      return `${counted}; ${inside ? `идёт ${inside}` : 'идёт обучение'}, осталось ≈ ${seconds(left)}`;
    }
  }
}

/**
 * The estimate beside Старт: the form's configurations' cost, in a task of its own (the first
 * waits for the speed: measureSpeed); its seconds, corrected and planned, also as data (read by
 * the page tests and e2e/estimate.mjs).
 */
export class Estimate {
  /**
   * @param {Wasm} wasm
   * @param {() => CheckedRun[] | null} checked the form's configurations (null: one is refused)
   * @param {() => { checked: unknown, timing?: unknown }[]} saved the trainer's saved runs (their timings correct it)
   */
  constructor(wasm, checked, saved) {
    this.wasm = wasm;
    this.checked = checked;
    this.saved = saved;
    this.element = el('span', { class: 'run-estimate' });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.show(), 0);
  }

  show() {
    // The speed is measured once per page, in short tasks, before the first estimate.
    measureSpeed().then(() => {
      const checked = this.checked();
      this.showCost(checked ? costOf(this.wasm, checked, this.saved()) : null);
    });
  }

  /** @param {{ seconds: number, most: number, planned: number, text: string } | null} cost */
  showCost(cost) {
    this.element.textContent = cost?.text ?? '';
    this.element.dataset.seconds = cost && Number.isFinite(cost.seconds) ? String(cost.seconds) : '';
    this.element.dataset.most = cost && Number.isFinite(cost.most) ? String(cost.most) : '';
    this.element.dataset.planned = cost && Number.isFinite(cost.planned) ? String(cost.planned) : '';
  }
}
