// @ts-check
// A trainer panel's run, from Старт to its end: the jobs checked by wasm before any worker
// starts, the workers' messages into a wasm RunBoard, the live figures redrawn at most every
// REDRAW_MS, the progress line (inside a step too) and the estimate, Pause, Stop and Reset, a
// failed job (named; the others go on; it can run again). panel.js adds the saved runs; the
// panels of cartpole-panel.js and sequence-panel.js add their controls, figures and what they
// show of each message.
import { fitCanvas } from './canvas.js';
import { el, seconds, messageOf } from './dom.js';
import { WorkerRun } from './pool.js';
import { ConfiguredPanel, LETTERS, MAX_CONFIGS } from './panel-configs.js';
import { RunHistory } from './run-history.js';
import { ASK_ABOVE_S, PROGRESS_MS, Within, costOf, measureSpeed, progressLine, stageText, stepText, timingOf } from './run-progress.js';
import { formatNumber, seedCount } from './format.js';
import { announce, liveRegion } from './announce.js';

const REDRAW_MS = 200; // live curves redraw at most 5 times a second: the main thread stays free

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./types.js').ConfigResult} ConfigResult */
/** @typedef {import('./protocol.js').FromWorker} WorkerMessage */
/** @typedef {import('./history.js').SavedRun} SavedRun */
/** @typedef {import('./run-progress.js').Status} Status */
/** @typedef {import('./run-progress.js').Timing} Timing */

/** What the page collected, for downloads and the page tests. @type {Record<string, unknown>} */
window.pgbookRuns = {};

export class RunPanel extends ConfiguredPanel {
  /** @param {HTMLElement} root @param {Wasm} wasm @param {string} kind @param {string} prefix ids of the controls */
  constructor(root, wasm, kind, prefix) {
    super(root, wasm, kind, prefix);
    /** @type {Map<number, string>} each finished job's trained policy (a policy file's text) */
    this.policies = new Map();
    // Finished runs are kept in the browser; the list puts an earlier one back or beside.
    this.history = new RunHistory({
      kind,
      prefix,
      maxConfigs: MAX_CONFIGS,
      describe: (profile, set) => this.form.describe(profile, set, true),
      show: (records) => this.restoreSaved(records),
      beside: (r) => this.besideSaved(r),
    });
    this.restoring = false;
    this.restoredFrom = ''; // the dates of the saved runs on the panel
    this.unit = '';
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
    /** @param {string} text @param {() => void} onclick */
    const button = (text, onclick) => /** @type {HTMLButtonElement} */ (el('button', { type: 'button', text, onclick }));
    this.buttons = {
      start: button('Старт', () => this.start()),
      pause: button('Пауза', () => this.togglePause()),
      stop: button('Стоп', () => this.stop()),
      reset: button('Сброс', () => this.reset()),
      rerun: button('Повторить неудавшиеся', () => this.rerunFailed()),
    };
    this.buttons.rerun.hidden = true;
    this.estimate = el('span', { class: 'run-estimate' });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.estimateTimer = undefined;
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
    /** @type {Timing | null} the last finished run's timing (the history keeps it) */
    this.timing = null;
    this.scheduleEstimate();
    this.share = /** @type {HTMLAnchorElement} */ (el('a', { class: 'share', href: '#', text: 'Ссылка на этот запуск' }));
    this.downloads = el(
      'span',
      { class: 'downloads' },
      button('CSV', () => this.downloadCsv()),
      button('JSON', () => this.downloadJson()),
    );
    this.setStatus('idle');
    this.renderConfigs();
    // The estimate learns from the saved runs once they are read.
    this.history.refresh().then(() => this.scheduleEstimate());
  }

  /* The shared life cycle. */

  /** The checked jobs of the form's settings, one per seed (throws wasm's message). @returns {Job[]} */
  jobs() {
    this.syncConfig();
    /** @type {CheckedRun[]} */
    const checked = this.configs.map((c, k) => {
      try {
        return this.wasm.check_run(this.kind, c.profile, c.set, this.seedInput.value);
      } catch (e) {
        if (this.configs.length < 2) throw e;
        throw new Error(`конфигурация ${LETTERS[k]}: ${messageOf(e)}`, { cause: e });
      }
    });
    this.checked = checked;
    this.settings = checked[0];
    this.unit = checked[0].unit;
    return checked.flatMap((s) => s.seeds.map((seed) => ({ request: { profile: s.profile, set: s.set }, seed })));
  }
  /**
   * Sizes the panel's canvases for the next draw; a later change of their size redraws them.
   * @param {HTMLCanvasElement[]} canvases
   */
  fit(...canvases) {
    for (const c of canvases) fitCanvas(c, () => this.redrawAll());
  }

  /**
   * The run board's figures on the canvases `curve` and `detail` (an empty id skips one), with
   * the x axes of the checked run's totals.
   * @param {string} curve @param {string} detail
   */
  drawBoard(curve, detail) {
    const s = this.settings;
    if (!s) return;
    // The longest configuration's plan fixes the axes.
    const total = Math.max(...this.checked.map((c) => c.total_per_seed));
    const steps = Math.max(...this.checked.map((c) => c.steps_per_seed));
    this.board?.draw(curve, detail, s.profile, total, steps, this.chosen);
  }

  /** Everything drawn again (after a canvas changed size). */
  redrawAll() {
    try {
      if (this.board) this.draw(true);
      else this.drawEmpty();
    } catch (e) {
      this.showError(`Не удалось нарисовать кривые: ${messageOf(e)}`);
    }
  }

  /** @param {(Node | string)[]} fields */
  controlsRow(...fields) {
    return el(
      'div',
      { class: 'controls trainer-controls' },
      ...fields,
      el('span', { class: 'buttons' }, ...Object.values(this.buttons), ' ', this.estimate),
    );
  }

  /** @param {string} text */
  showError(text) {
    // An alert is read each time its text is set: a redraw that fails again keeps the node.
    if (this.message.textContent !== text) this.message.textContent = text;
    this.message.hidden = !text;
  }

  /** @param {Status} status */
  setStatus(status) {
    const focused = document.activeElement;
    const before = this.status;
    this.status = status;
    const active = status === 'running' || status === 'paused';
    this.buttons.start.disabled = active;
    this.buttons.pause.disabled = !active;
    this.buttons.pause.textContent = status === 'paused' ? 'Продолжить' : 'Пауза';
    this.buttons.stop.disabled = !active;
    this.buttons.reset.disabled = status === 'idle';
    this.buttons.rerun.hidden = !(status === 'failed' && this.failed?.size && this.board);
    this.downloads.querySelectorAll('button').forEach((b) => {
      b.disabled = status === 'idle';
    });
    this.root.dataset.status = status;
    this.form?.setDisabled(active); // a run keeps the settings it started with
    if (this.configs) this.renderConfigs();
    // A disabled button loses focus to <body>: hand it to the control that now makes sense.
    if (focused instanceof HTMLButtonElement && this.root.contains(focused) && focused.disabled) {
      const next = active ? this.buttons.pause : this.buttons.start;
      (next.disabled ? this.buttons.reset : next).focus();
    }
    if (status !== before && !this.restoring) this.sayStatus(before);
  }

  /** One sentence for the status the run has just reached. @param {Status} before */
  sayStatus(before) {
    const { done, total } = this.board?.progress() ?? { done: 0, total: 0 };
    // Before the first report nothing is counted yet.
    const counted = total ? `: ${formatNumber(done)} из ${formatNumber(total)} ${this.unit}` : '';
    const seeds = seedCount(this.settings?.seeds.length ?? 1);
    /** @type {Record<Status, () => string>} */
    const sentences = {
      running: () =>
        before === 'paused'
          ? 'Обучение продолжается.'
          : before === 'failed' && this.reran
            ? 'Неудавшиеся запуски начались заново.'
            : `Обучение запущено: ${this.checked.length > 1 ? `${this.checked.length} конфигурации, по ${seeds} на каждую` : `профиль ${this.settings?.profile}, ${seeds}`}.${this.estimate.textContent ? ` ${this.estimate.textContent}.` : ''}`,
      paused: () => `Пауза${counted}.`,
      stopped: () => `Обучение остановлено${counted}.`,
      finished: () =>
        `Обучение закончено за ${seconds((performance.now() - this.t0 - this.pausedMs) / 1000)}: ${this.resultsLine(this.settings?.seeds.length ?? 1)}.`,
      // The alert says which jobs failed and why.
      failed: () => 'Обучение прервано ошибкой.',
      idle: () => 'Панель сброшена: обучение не запущено.',
    };
    announce(this.said, sentences[this.status]());
  }

  start() {
    this.showError('');
    let jobs;
    try {
      jobs = this.jobs(); // validated by wasm before any worker starts
    } catch (e) {
      this.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    const cost = costOf(this.wasm, this.checked, this.history.saved);
    this.showCost(cost);
    if (cost.seconds > ASK_ABOVE_S && !confirm(`Этот запуск займёт примерно ${seconds(cost.seconds)} (${cost.text}). Начать?`)) {
      this.showError('Запуск отменён: он занял бы слишком много времени. Уменьшите настройки или нажмите «Старт» ещё раз.');
      return;
    }
    const settings = /** @type {CheckedRun} */ (this.settings);
    this.terminate();
    const shown = this.checked[this.current] ?? settings;
    this.showChanges(shown.profile, shown.set);
    const seeds = new Float64Array(settings.seeds);
    try {
      this.board = this.wasm.RunBoard.compare(this.kind, seeds, this.labels());
    } catch (e) {
      this.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    this.chosen = 0;
    this.policies.clear();
    this.restoredFrom = '';
    this.times = this.checked.map(() => ({ start: 0, end: 0 }));
    this.renderRunChoice();
    this.renderComparison();
    this.begin();
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
    this.progressText.textContent = this.progressLine(0, settings.total_per_seed * jobs.length, 0);
    this.share.href = this.shareUrl();
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
    this.board = null;
    this.checked = [];
    this.policies.clear();
    this.restoredFrom = '';
    this.dirty = false; // a redraw queued before the click must not bring the old run back
    this.renderComparison();
    this.runChoice.replaceChildren();
    this.clear();
    this.clearCanvases();
    this.drawEmpty();
    this.showError('');
    this.progress.value = 0;
    this.progressText.textContent = 'Обучение не запущено.';
    this.within.clear();
    this.failed.clear();
    this.setStatus('idle');
  }

  /** The estimate beside Старт, in its own task (the first waits for the speed: measureSpeed). */
  scheduleEstimate() {
    clearTimeout(this.estimateTimer);
    this.estimateTimer = setTimeout(() => this.showEstimate(), 0);
  }

  /** The form's configurations checked without changing the panel; null when one is refused. @returns {CheckedRun[] | null} */
  checkedForm() {
    try {
      return this.configs.map((c, k) =>
        k === this.current
          ? this.wasm.check_run(this.kind, this.profile.value, this.form.overrides(), this.seedInput.value)
          : this.wasm.check_run(this.kind, c.profile, c.set, this.seedInput.value),
      );
    } catch {
      return null; // Старт says why
    }
  }

  showEstimate() {
    // The speed is measured once per page, in short tasks, before the first estimate.
    measureSpeed().then(() => {
      const checked = this.checkedForm();
      this.showCost(checked ? costOf(this.wasm, checked, this.history.saved) : null);
    });
  }

  /**
   * The estimate beside Старт; its seconds, corrected and planned, also as data (read by the
   * page tests and e2e/estimate.mjs).
   * @param {{ seconds: number, planned: number, text: string } | null} cost
   */
  showCost(cost) {
    this.estimate.textContent = cost?.text ?? '';
    this.estimate.dataset.seconds = cost && Number.isFinite(cost.seconds) ? String(cost.seconds) : '';
    this.estimate.dataset.planned = cost && Number.isFinite(cost.planned) ? String(cost.planned) : '';
  }

  /** Every canvas of the panel back to its state before any run. */
  clearCanvases() {
    for (const c of this.root.querySelectorAll('canvas')) {
      c.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    }
  }

  /** What job `i` was doing, for a message about it. @param {number} i */
  doingOf(i) {
    const n = this.settings?.seeds.length ?? 1;
    const steps = this.checked[Math.floor(i / n)]?.steps_per_seed ?? 0;
    const what = this.unit === 'итераций' ? 'шла итерация' : 'шло обновление';
    const within = this.within.of(i);
    const stage = within ? `: ${stageText(within.stage)}` : '';
    return `${what} ${formatNumber((this.stepsDone.get(i) ?? 0) + 1)} из ${formatNumber(steps)}${stage}`;
  }

  terminate() {
    this.run?.terminate();
    this.run = null;
  }

  /** @param {number} i @param {WorkerMessage} m */
  onMessage(i, m) {
    const board = this.board;
    if (!board) return;
    switch (m.type) {
      case 'started': {
        board.start(i, m.info);
        const t = this.times[Math.floor(i / (this.settings?.seeds.length ?? 1))];
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
        this.update(i, m.extra);
        this.dirty = true;
        break;
      case 'finished': {
        this.within.done(i);
        board.push(i, m.line ?? '');
        if (m.policy) this.policies.set(i, m.policy);
        const n = this.settings?.seeds.length ?? 1;
        const c = Math.floor(i / n);
        const t = this.times[c];
        // The summaries are small; the runs' reports are not read here.
        const done = board.summaries().filter((/** @type {any} */ x) => x.config === c).length;
        if (t && done === n) t.end = performance.now();
        this.finished(i);
        this.renderComparison();
        this.dirty = true;
        break;
      }
      case 'error':
      case 'panic': {
        const what = m.type === 'panic' ? 'Сбой в модуле WebAssembly' : 'Ошибка обучения';
        // A trap without a panic (Rust aborts when an allocation fails) reads «unreachable».
        const hint = /memory|памят/i.test(m.message)
          ? ' — фоновому потоку не хватило памяти'
          : m.type === 'error' && /unreachable/i.test(m.message)
            ? ' — модуль WebAssembly остановился (чаще всего ему не хватило памяти)'
            : '';
        if (i < 0) {
          // No worker could start: nothing of the run goes on.
          this.terminate();
          this.setStatus('failed');
          this.showError(`${what}: ${m.message}${hint}. Нажмите «Старт», чтобы начать заново.`);
          this.dirty = true;
          break;
        }
        // Only this job ends (the pool replaces its worker); the other jobs go on.
        this.failed.set(i, `${what} (${this.jobLabel(i)}; ${this.doingOf(i)}): ${m.message}${hint}.`);
        this.within.done(i);
        // The alert is read each time it changes: once, with what the reader can do now.
        this.allFinished();
        if (this.status !== 'failed') this.showFailures();
        this.progressDue = true;
        this.dirty = true;
        break;
      }
      default:
        break;
    }
  }

  /** Redraws the live figures at most every REDRAW_MS, never per message. */
  tick() {
    if (this.dirty && this.board && performance.now() - this.lastDraw >= REDRAW_MS) {
      this.dirty = false;
      this.lastDraw = performance.now();
      try {
        this.draw();
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
    const steps = Math.max(0, ...this.checked.map((c) => c.steps_per_seed));
    // What the first job with a step in progress is doing inside it.
    const job = this.within.first();
    const p = job >= 0 ? this.within.of(job) : undefined;
    const whose = p && this.jobList.length > 1 ? ` (${this.jobLabel(job)})` : '';
    const inside = p ? `${stepText(p, this.unit)}${whose}` : '';
    const failed = this.failed.size;
    const line = { status: this.status, unit: this.unit, done, total, elapsed, steps, restoredFrom: this.restoredFrom };
    return progressLine({ ...line, inside, failed, jobs: this.jobList.length });
  }

  updateProgress() {
    if (!this.board) return;
    const reported = this.board.progress();
    const total = reported.total;
    // The steps in progress count by their share done: a long update moves the bar too.
    const running = this.status === 'running' || this.status === 'paused';
    const partial = running ? this.within.units((job) => this.unitsPerStep(job)) : 0;
    const done = Math.min(total, reported.done + partial);
    this.progress.value = total ? done / total : 0;
    const paused = this.status === 'paused' ? performance.now() - this.pauseStart : 0;
    // A run that has ended keeps the time it ended at (a later redraw must not add to it).
    const ended = this.status === 'running' || this.status === 'paused' ? performance.now() : (this.t1 ??= performance.now());
    const elapsed = (ended - this.t0 - this.pausedMs - paused) / 1000;
    this.progressText.textContent = this.progressLine(done, total, elapsed);
  }

  /** What the page keeps of the run (read by the downloads and the page tests). @returns {any[]} */
  runs() {
    return this.board ? this.board.runs() : [];
  }

  allFinished() {
    if (this.board?.is_finished()) {
      this.terminate();
      this.setStatus('finished');
      this.updateProgress();
      this.timing = this.restoring || this.reran ? null : this.timingOfRun();
      this.redrawNow();
      if (!this.restoring) this.save();
      return;
    }
    // Every job has ended and some failed: the others' results stand, the failed can run again.
    const ended = this.board ? this.board.summaries().length + this.failed.size : 0;
    if (this.failed.size && ended >= this.jobList.length) {
      this.terminate();
      this.setStatus('failed');
      this.showFailures();
      this.showResults();
      this.renderComparison();
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
    const next =
      this.status === 'running' || this.status === 'paused'
        ? 'Остальные запуски продолжаются.'
        : 'Нажмите «Повторить неудавшиеся», чтобы запустить их снова, или «Старт», чтобы начать всё заново.';
    this.showError(`${[...this.failed.values()].join(' ')} ${next}`);
  }

  /** Runs the failed jobs again on fresh workers; the finished ones keep their results. */
  rerunFailed() {
    if (!this.board || this.status !== 'failed' || !this.failed.size) return;
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
    const n = this.settings?.seeds.length ?? 1;
    const c = this.checked[Math.floor(job / n)];
    return c && c.steps_per_seed > 0 ? c.total_per_seed / c.steps_per_seed : 0;
  }

  /** The finished run's wall time (pauses left out) beside its plan. @returns {Timing | null} */
  timingOfRun() {
    const elapsed = ((this.t1 ?? performance.now()) - this.t0 - this.pausedMs) / 1000;
    return timingOf({ elapsed, checked: this.checked, jobs: this.jobList.length });
  }

  /* The history: finished runs in IndexedDB. */

  /** One line of what the run gave, for the history list. @param {number} _n */
  resultsLine(_n) {
    /** @type {ConfigResult[]} */
    const results = this.board?.results() ?? [];
    const [name, , fmt] = this.scoreNames();
    return results
      .map(
        (r) =>
          `${this.checked.length > 1 ? `${LETTERS[r.config]}: ` : ''}${name} ${r.score ? fmt(r.score.median) : '—'}, цели достигли ${r.reached} из ${r.finished}`,
      )
      .join('; ');
  }

  /* What the saved runs' layer (panel.js) does. */

  /** Saves the finished run to the history. @returns {Promise<void>} */
  async save() {}
  /** @param {SavedRun[]} _records */
  restoreSaved(_records) {}
  /** @param {SavedRun} _r */
  besideSaved(_r) {}
}
