// @ts-check
// What a run will cost before it starts, and how far it is while it runs: the words of a
// trainer panel's estimate and progress line.
import { formatNumber } from './format.js';
import { seconds } from './dom.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed'} Status */

/** Runs estimated longer than this (seconds) start only when the reader agrees. */
export const ASK_ABOVE_S = 180;

/** @type {number | null} this machine's speed in wasm's work units per second, measured once */
let speed = null;
/** @param {Wasm} wasm */
const machineSpeed = (wasm) => (speed ??= wasm.measure_speed());

/** Bytes in words. @param {number} b */
const bytesText = (b) =>
  b >= 2 ** 30 ? `${formatNumber(Math.round((b / 2 ** 30) * 10) / 10)} ГиБ` : `${formatNumber(Math.max(1, Math.round(b / 2 ** 20)))} МиБ`;

/**
 * What the checked configurations will cost: the time on this machine (their planned work ÷
 * the measured speed, spread over the pool's workers) and the memory of one worker.
 * @param {Wasm} wasm @param {CheckedRun[]} checked @returns {{ seconds: number, text: string }}
 */
export function costOf(wasm, checked) {
  const jobs = checked.reduce((n, c) => n + c.seeds.length, 0);
  const workers = Math.max(1, Math.min(jobs, navigator.hardwareConcurrency || 2));
  const work = checked.reduce((w, c) => w + c.work_per_seed * c.seeds.length, 0);
  let time = NaN;
  try {
    time = work / machineSpeed(wasm) / workers;
  } catch {
    // No measurement: the memory is still known.
  }
  const memory = Math.max(...checked.map((c) => c.memory_bytes));
  const when = Number.isFinite(time) ? `≈ ${seconds(time)}` : 'время неизвестно';
  return { seconds: time, text: `Оценка: ${when}, до ${bytesText(memory)} памяти на процесс` };
}

/**
 * The progress line says what is true now: running (with the time left), paused, stopped or
 * finished; it never runs on after a stop.
 * @param {{ status: Status, unit: string, done: number, total: number, elapsed: number, steps: number, restoredFrom: string }} run
 *   `elapsed` in seconds, `steps` the longest configuration's steps per seed
 */
export function progressLine({ status, unit, done, total, elapsed, steps, restoredFrom }) {
  const counted = `${formatNumber(done)} из ${formatNumber(total)} ${unit}`;
  switch (status) {
    case 'finished':
      if (restoredFrom) return `${counted}; сохранённый запуск от ${restoredFrom}`;
      return `${counted}; готово за ${seconds(elapsed)}`;
    case 'stopped':
      return `${counted}; остановлено.`;
    case 'paused':
      return `${counted}; пауза.`;
    case 'failed':
      return `${counted}; обучение прервано ошибкой.`;
    default: {
      if (done === 0) {
        const what = unit === 'итераций' ? 'итерация' : 'обновление';
        return `${counted}; идёт ${what} 1 из ${formatNumber(steps)} (первое ещё не закончено)`;
      }
      const left = (elapsed * (total - done)) / done;
      return `${counted}; идёт обучение, осталось ≈ ${seconds(left)}`;
    }
  }
}
