// @ts-check
// Where the running steps are, in words and on the progress bar: each job's latest 'progress'
// message from its worker (protocol.js's StepProgress), until that job's step reports.
import { formatNumber } from './format.js';

/** @typedef {import('./protocol.js').StepProgress} StepProgress */
/** @typedef {import('./protocol.js').Stage} Stage */

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
    default: {
      /** @type {never} */
      const unknown = s;
      return String(/** @type {any} */ (unknown).stage);
    }
  }
}

/** «обновление 1 из 1: сбор опыта, 37 %». @param {StepProgress} p @param {boolean} iterations the unit is iterations */
export function stepText(p, iterations) {
  return `${iterations ? 'итерация' : 'обновление'} ${formatNumber(p.step)} из ${formatNumber(p.steps)}: ${stageText(p.stage)}`;
}

/** Each running job's step in progress. */
export class Within {
  constructor() {
    /** @type {Map<number, StepProgress>} */
    this.jobs = new Map();
  }

  /** @param {number} job @param {StepProgress} p */
  set(job, p) {
    this.jobs.set(job, p);
  }

  /** Job `job`'s step has reported (or the job ended). @param {number} job */
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
   * The progress units the running steps have done so far, for the bar: each step's fraction of
   * its job's units per step.
   * @param {(job: number) => number} unitsPerStep
   */
  units(unitsPerStep) {
    let sum = 0;
    for (const [job, p] of this.jobs) sum += Math.min(1, Math.max(0, p.fraction)) * unitsPerStep(job);
    return sum;
  }

  /** The first running job with a step in progress (the one the line speaks of), or -1. */
  first() {
    return this.jobs.size ? Math.min(...this.jobs.keys()) : -1;
  }
}
