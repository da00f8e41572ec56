// @ts-check
// A trainer panel's run, from Старт to its end: the checked jobs to a pool of workers, their
// messages into the wasm RunBoard of the run on the panel (panel-shown.js), the live figures
// redrawn at most every REDRAW_MS, the progress line (inside a step too), Pause, Stop and
// Reset, a failed job (named; the others go on; it can run again), and one sentence for a
// screen reader each time the run's state changes. What a message shows beyond the board, and
// the figures themselves, are the environment view's (panel.js hands them in as callbacks).
import { el, seconds, messageOf } from './dom.js';
import { WorkerRun } from './pool.js';
import { PROGRESS_MS, Within, progressLine, stageText, stepText, timingOf } from './run-progress.js';
import { formatNumber, seedCount } from './format.js';
import { announce, liveRegion } from './announce.js';

const REDRAW_MS = 200; // live curves redraw at most 5 times a second: the main thread stays free

/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./protocol.js').FromWorker} WorkerMessage */
/** @typedef {import('./protocol.js').StepExtra} StepExtra */
/** @typedef {import('./run-progress.js').Status} Status */
/** @typedef {import('./run-progress.js').Timing} Timing */
/** @typedef {import('./panel-shown.js').ShownRun} ShownRun */

/**
 * What the run asks of the panel around it.
 * @typedef {{
 *   start: () => void,
 *   status: (status: Status, active: boolean) => void,
 *   step: (i: number, extra: StepExtra) => void,
 *   jobEnded: (i: number) => void,
 *   failedEnd: () => void,
 *   finished: () => void,
 *   draw: (all: boolean) => boolean,
 *   reset: () => void,
 *   estimate: () => string,
 * }} RunEvents
 * `start`: Старт was pressed (the panel checks the form, then calls start(jobs)); `status`:
 * the run's state changed (called before focus moves: a control it disables loses focus);
 * `step`: job i's update, beyond the board's line; `jobEnded`: job i finished; `failedEnd`:
 * every job ended, some failed; `finished`: the whole run finished (it is saved); `draw`: the
 * live figures (true when one is left for the next redraw); `reset`: everything but the run
 * back to before any run; `estimate`: the words of the estimate beside Старт.
 */

export class RunLife {
  /**
   * @param {HTMLElement} root the panel (its data-status, its focus, its live region)
   * @param {string} kind @param {ShownRun} shown @param {RunEvents} on
   */
  constructor(root, kind, shown, on) {
    this.root = root;
    this.kind = kind;
    this.shown = shown;
    this.on = on;
    /** @type {WorkerRun | null} */
    this.run = null;
    /** @type {Status} */
    this.status = 'idle';
    this.restoring = false; // saved runs go back on the panel: no sentence, no saving
    this.dirty = false;
    this.lastDraw = 0;
    this.t0 = 0;
    /** @type {number | undefined} when the run ended */
    this.t1 = undefined;
    this.pausedMs = 0;
    this.pauseStart = 0;
    this.message = el('div', { class: 'figure-error', role: 'alert', hidden: '' });
    this.progress = /** @type {HTMLProgressElement} */ (el('progress', { max: '1', value: '0', 'aria-label': 'Ход обучения' }));
    // The progress line changes at every redraw: it is no live region. A screen reader hears
    // the run in `said`, one sentence when its state changes (started, paused, ended, failed).
    this.progressText = el('span', { class: 'progress-text', text: 'Обучение не запущено.' });
    this.said = liveRegion();
    root.append(this.said);
    /** @type {Map<number, number>} each job's steps (updates, iterations) done in this run */
    this.stepsDone = new Map();
    this.within = new Within(); // where each running job's step is, from its worker
    this.progressDue = false; // a progress message came since the line was last written
    this.lastProgress = 0;
    /** @type {Map<number, string>} the jobs of this run that failed, each with what happened */
    this.failed = new Map();
    /** @type {Job[]} this run's jobs (a failed one can run again) */
    this.jobList = [];
    this.reran = false; // some jobs ran twice: the run's wall time is not one run's
    /** @type {Timing | null} the last finished run's timing (the saved run keeps it) */
    this.timing = null;
    /** @param {string} text @param {() => void} onclick */
    const button = (text, onclick) => /** @type {HTMLButtonElement} */ (el('button', { type: 'button', text, onclick }));
    this.buttons = {
      start: button('Старт', on.start), // the panel's: it checks the form first
      pause: button('Пауза', () => this.togglePause()),
      stop: button('Стоп', () => this.stop()),
      reset: button('Сброс', () => this.reset()),
      rerun: button('Повторить неудавшиеся', () => this.rerunFailed()),
    };
    this.buttons.rerun.hidden = true;
  }

  /** @returns {boolean} */
  get active() {
    return this.status === 'running' || this.status === 'paused';
  }

  /** @param {string} text */
  showError(text) {
    // An alert is read each time its text is set: a redraw that fails again keeps the node.
    if (this.message.textContent !== text) this.message.textContent = text;
    this.message.hidden = !text;
  }

  /** @param {Status} status */
  setStatus(status) {
    const buttons = this.buttons;
    const focused = document.activeElement;
    const before = this.status;
    this.status = status;
    const active = this.active;
    buttons.start.disabled = active;
    buttons.pause.disabled = !active;
    buttons.pause.textContent = status === 'paused' ? 'Продолжить' : 'Пауза';
    buttons.stop.disabled = !active;
    buttons.reset.disabled = status === 'idle';
    buttons.rerun.hidden = !(status === 'failed' && this.failed.size && this.shown.board);
    this.root.dataset.status = status;
    this.on.status(status, active);
    // A disabled button loses focus to <body>: hand it to the control that now makes sense.
    if (focused instanceof HTMLButtonElement && this.root.contains(focused) && focused.disabled) {
      const next = active ? buttons.pause : buttons.start;
      (next.disabled ? buttons.reset : next).focus();
    }
    if (status !== before && !this.restoring) this.sayStatus(before);
  }

  /** One sentence for the status the run has just reached. @param {Status} before */
  sayStatus(before) {
    const shown = this.shown;
    const { done, total } = shown.board?.progress() ?? { done: 0, total: 0 };
    // Before the first report nothing is counted yet.
    const counted = total ? `: ${formatNumber(done)} из ${formatNumber(total)} ${shown.unit}` : '';
    const seeds = seedCount(shown.settings?.seeds.length ?? 1);
    const estimate = this.on.estimate();
    const configs = shown.checked.length;
    /** @type {Record<Status, () => string>} */
    const sentences = {
      running: () =>
        before === 'paused'
          ? 'Обучение продолжается.'
          : before === 'failed' && this.reran
            ? 'Неудавшиеся запуски начались заново.'
            : `Обучение запущено: ${configs > 1 ? `${configs} конфигурации, по ${seeds} на каждую` : `профиль ${shown.settings?.profile}, ${seeds}`}.${estimate ? ` ${estimate}.` : ''}`,
      paused: () => `Пауза${counted}.`,
      stopped: () => `Обучение остановлено${counted}.`,
      finished: () => `Обучение закончено за ${seconds((performance.now() - this.t0 - this.pausedMs) / 1000)}: ${shown.resultsLine()}.`,
      // The alert says which jobs failed and why.
      failed: () => 'Обучение прервано ошибкой.',
      idle: () => 'Панель сброшена: обучение не запущено.',
    };
    announce(this.said, sentences[this.status]());
  }

  /** Jobs of the run on the panel (its board is new) to the workers. @param {Job[]} jobs */
  start(jobs) {
    const settings = this.shown.settings;
    this.t0 = performance.now();
    this.t1 = undefined;
    this.pausedMs = 0;
    this.stepsDone.clear();
    this.within.clear();
    this.failed.clear();
    this.jobList = jobs;
    this.reran = false;
    this.timing = null;
    this.run = new WorkerRun(this.kind, jobs, (i, m) => this.onMessage(i, m));
    this.setStatus('running');
    // Until the first report the line still says what is happening (an update may be long).
    this.progress.value = 0;
    this.progressText.textContent = this.progressLine(0, (settings?.total_per_seed ?? 0) * jobs.length, 0);
    this.tick();
  }

  togglePause() {
    if (!this.run) return;
    if (this.status === 'running') {
      this.run.send('pause');
      this.pauseStart = performance.now();
      this.setStatus('paused');
      this.dirty = true; // both figures at the next redraw (see stop())
      this.updateProgress();
    } else if (this.status === 'paused') {
      this.pausedMs += performance.now() - this.pauseStart;
      this.run.send('resume');
      this.setStatus('running');
    }
  }

  stop() {
    if (!this.run) return;
    this.terminate(); // a stopped run keeps its curves; the workers are gone
    if (this.status === 'paused') this.pausedMs += performance.now() - this.pauseStart;
    this.setStatus('stopped');
    // While running, a redraw draws one figure in turn: the other may not show the last
    // updates yet (lesson 6's curve stayed at its empty axes after a Stop, in a CI run). Once
    // the run stops, the next redraw draws both.
    this.dirty = true;
    this.updateProgress();
  }

  reset() {
    this.terminate();
    this.shown.clear();
    this.dirty = false; // a redraw queued before the click must not bring the old run back
    this.on.reset();
    this.showError('');
    this.progress.value = 0;
    this.progressText.textContent = 'Обучение не запущено.';
    this.within.clear();
    this.failed.clear();
    this.setStatus('idle');
  }

  terminate() {
    this.run?.terminate();
    this.run = null;
  }

  /**
   * Saved runs on the panel as a finished run: its status without a sentence (the panel says
   * which run is back), the progress bar full.
   * @param {() => void} show what the panel shows of a finished run, while the status is set
   */
  restored(show) {
    this.restoring = true;
    this.setStatus('finished');
    show();
    this.restoring = false;
    const board = this.shown.board;
    const { done, total } = board ? board.progress() : { done: 0, total: 0 };
    this.progress.value = total ? done / total : 0;
    this.progressText.textContent = this.progressLine(done, total, 0);
  }

  /** What job `i` was doing, for a message about it. @param {number} i */
  doingOf(i) {
    const steps = this.shown.checked[Math.floor(i / this.shown.n)]?.steps_per_seed ?? 0;
    const what = this.shown.unit === 'итераций' ? 'шла итерация' : 'шло обновление';
    const within = this.within.of(i);
    const stage = within ? `: ${stageText(within.stage)}` : '';
    return `${what} ${formatNumber((this.stepsDone.get(i) ?? 0) + 1)} из ${formatNumber(steps)}${stage}`;
  }

  /** @param {number} i @param {WorkerMessage} m */
  onMessage(i, m) {
    const shown = this.shown;
    const board = shown.board;
    if (!board) return;
    switch (m.type) {
      case 'started': {
        board.start(i, m.info);
        const t = shown.times[Math.floor(i / shown.n)];
        if (t && !t.start) t.start = performance.now();
        break;
      }
      case 'progress':
        this.within.set(i, m.progress);
        this.progressDue = true;
        break;
      case 'update':
        this.within.done(i);
        this.stepsDone.set(i, (this.stepsDone.get(i) ?? 0) + 1);
        board.push(i, m.line ?? '');
        this.on.step(i, m.extra);
        this.dirty = true;
        break;
      case 'finished': {
        this.within.done(i);
        board.push(i, m.line ?? '');
        if (m.policy) shown.policies.set(i, m.policy);
        const n = shown.n;
        const c = Math.floor(i / n);
        const t = shown.times[c];
        // The summaries are small; the runs' reports are not read here.
        const done = board.summaries().filter((/** @type {any} */ x) => x.config === c).length;
        if (t && done === n) t.end = performance.now();
        this.on.jobEnded(i);
        this.allFinished();
        shown.renderComparison();
        this.dirty = true;
        break;
      }
      case 'error':
      case 'panic':
        this.failJob(i, m.type, m.message);
        break;
      default:
        break;
    }
  }

  /**
   * Job `i` failed (−1: no worker could start); a crashed module's message says what most
   * likely happened.
   * @param {number} i @param {'error' | 'panic'} type @param {string} message
   */
  failJob(i, type, message) {
    const what = type === 'panic' ? 'Сбой в модуле WebAssembly' : 'Ошибка обучения';
    // A trap without a panic (Rust aborts when an allocation fails) reads «unreachable».
    const hint = /memory|памят/i.test(message)
      ? ' — фоновому потоку не хватило памяти'
      : type === 'error' && /unreachable/i.test(message)
        ? ' — модуль WebAssembly остановился (чаще всего ему не хватило памяти)'
        : '';
    if (i < 0) {
      // No worker could start: nothing of the run goes on.
      this.terminate();
      this.setStatus('failed');
      this.showError(`${what}: ${message}${hint}. Нажмите «Старт», чтобы начать заново.`);
      this.dirty = true;
      return;
    }
    // Only this job ends (the pool replaces its worker); the other jobs go on.
    this.failed.set(i, `${what} (${this.shown.jobLabel(i)}; ${this.doingOf(i)}): ${message}${hint}.`);
    this.within.done(i);
    // The alert is read each time it changes: once, with what the reader can do now.
    this.allFinished();
    if (this.status !== 'failed') this.showFailures();
    this.progressDue = true;
    this.dirty = true;
  }

  /** Redraws the live figures at most every REDRAW_MS, never per message. */
  tick() {
    if (this.dirty && this.shown.board && performance.now() - this.lastDraw >= REDRAW_MS) {
      this.dirty = false;
      this.lastDraw = performance.now();
      try {
        if (this.on.draw(false)) this.dirty = true; // the other figure at the next redraw
      } catch (e) {
        this.showError(`Не удалось нарисовать кривые: ${messageOf(e)}`);
      }
      this.updateProgress();
      // The page's own work per redraw (read by the e2e tests, as the figures' redraws are).
      (window.pgbookTimings[`trainer-${this.kind}`] ??= []).push(performance.now() - this.lastDraw);
    }
    // Progress messages rewrite the line and the bar at most every PROGRESS_MS.
    if (this.progressDue && performance.now() - this.lastProgress >= PROGRESS_MS) {
      this.progressDue = false;
      this.lastProgress = performance.now();
      this.updateProgress();
    }
    if (this.run || this.dirty) requestAnimationFrame(() => this.tick());
  }

  /** The progress line of the run on the panel. @param {number} done @param {number} total @param {number} elapsed seconds */
  progressLine(done, total, elapsed) {
    const shown = this.shown;
    const steps = Math.max(0, ...shown.checked.map((c) => c.steps_per_seed));
    // What the first job with a step in progress is doing inside it.
    const job = this.within.first();
    const p = job >= 0 ? this.within.of(job) : undefined;
    const whose = p && this.jobList.length > 1 ? ` (${shown.jobLabel(job)})` : '';
    const inside = p ? `${stepText(p, shown.unit)}${whose}` : '';
    const failed = this.failed.size;
    const line = { status: this.status, unit: shown.unit, done, total, elapsed, steps, restoredFrom: shown.restoredFrom };
    return progressLine({ ...line, inside, failed, jobs: this.jobList.length });
  }

  updateProgress() {
    const board = this.shown.board;
    if (!board) return;
    const reported = board.progress();
    const total = reported.total;
    // The steps in progress count by their share done: a long update moves the bar too.
    const partial = this.active ? this.within.units((job) => this.unitsPerStep(job)) : 0;
    const done = Math.min(total, reported.done + partial);
    this.progress.value = total ? done / total : 0;
    const paused = this.status === 'paused' ? performance.now() - this.pauseStart : 0;
    // A run that has ended keeps the time it ended at (a later redraw must not add to it).
    const ended = this.active ? performance.now() : (this.t1 ??= performance.now());
    const elapsed = (ended - this.t0 - this.pausedMs - paused) / 1000;
    this.progressText.textContent = this.progressLine(done, total, elapsed);
  }

  allFinished() {
    const board = this.shown.board;
    if (board?.is_finished()) {
      this.terminate();
      this.setStatus('finished');
      this.updateProgress();
      this.timing = this.restoring || this.reran ? null : this.timingOfRun();
      this.redrawNow();
      if (!this.restoring) this.on.finished();
      return;
    }
    // Every job has ended and some failed: the others' results stand, the failed can run again.
    const ended = board ? board.summaries().length + this.failed.size : 0;
    if (this.failed.size && ended >= this.jobList.length) {
      this.terminate();
      this.setStatus('failed');
      this.showFailures();
      this.on.failedEnd();
      this.shown.renderComparison();
      this.updateProgress();
      this.redrawNow();
    }
  }

  /** The last redraw at once, not at the next free slot: a run that has ended is shown, and
   * described in words, with its final figures as soon as its status says so. */
  redrawNow() {
    this.dirty = true;
    this.lastDraw = -Infinity;
    this.tick();
  }

  /** The failed jobs' messages, and what the reader can do now. */
  showFailures() {
    if (!this.failed.size) return;
    const next = this.active
      ? 'Остальные запуски продолжаются.'
      : 'Нажмите «Повторить неудавшиеся», чтобы запустить их снова, или «Старт», чтобы начать всё заново.';
    this.showError(`${[...this.failed.values()].join(' ')} ${next}`);
  }

  /** Runs the failed jobs again on fresh workers; the finished ones keep their results. */
  rerunFailed() {
    if (!this.shown.board || this.status !== 'failed' || !this.failed.size) return;
    const which = [...this.failed.keys()].sort((a, b) => a - b);
    this.failed.clear();
    this.within.clear();
    this.reran = true;
    for (const i of which) this.stepsDone.set(i, 0);
    this.showError('');
    this.t1 = undefined;
    this.run = new WorkerRun(
      this.kind,
      which.map((i) => this.jobList[i]),
      (k, m) => this.onMessage(k < 0 ? -1 : which[k], m),
    );
    this.setStatus('running');
    this.updateProgress();
    this.tick();
  }

  /** Progress units of one step of job `job`'s configuration (a running step's share on the bar). @param {number} job */
  unitsPerStep(job) {
    const c = this.shown.checked[Math.floor(job / this.shown.n)];
    return c && c.steps_per_seed > 0 ? c.total_per_seed / c.steps_per_seed : 0;
  }

  /** The finished run's wall time (pauses left out) beside its plan. @returns {Timing | null} */
  timingOfRun() {
    const elapsed = ((this.t1 ?? performance.now()) - this.t0 - this.pausedMs) / 1000;
    return timingOf({ elapsed, checked: this.shown.checked, jobs: this.jobList.length });
  }
}
