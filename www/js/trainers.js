// @ts-check
// The live trainers of lessons 6 and 8. Each seed trains in a Web Worker of a small pool; this
// file only wires controls. Every fact it shows (profiles, seeds, choices, the solved
// threshold, CartPole's time step) comes from the trainer's schema in wasm, settings are checked
// by wasm before any worker starts, and the run history lives in a wasm RunBoard.
import { fitCanvas } from './canvas.js';
import { formatNumber } from './format.js';
import { SettingsForm } from './settings-form.js';
import { deleteRun, listStored, saveRun, MAX_KEPT } from './history.js';
import { setupPrepared } from './prepared.js';
import { parseConfig, configText } from './links.js';
import { el, textTable, profileSelect, download, seconds, messageOf } from './dom.js';
import { scoreNamesOf, comparisonTable, describeComparison } from './comparison.js';
import { WorkerRun } from './pool.js';

const REDRAW_MS = 200; // live curves redraw at most 5 times a second: the main thread stays free
const MAX_CONFIGS = 4; // the comparison figure keeps four colours apart
const LETTERS = 'ABCD';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./types.js').Schema} Schema */
/**
 * One trainer of wasm's registry (trainer_list), in the book's order.
 * @typedef {{ name: string, panel: 'cartpole' | 'sequence', diagnostics: boolean, page: string }} ListedTrainer
 */
/**
 * A run as wasm's check_run accepted it.
 * @typedef {{ name: string, profile: string, set: [string, string][], seeds: number[], total_per_seed: number, steps_per_seed: number, unit: string, memory_bytes: number, work_per_seed: number }} CheckedRun
 */
/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./links.js').Config} Config */
/** @typedef {import('./types.js').ConfigResult} ConfigResult */
/** @typedef {import('./types.js').Quartiles} Quartiles */
/** @typedef {import('./protocol.js').FromWorker} WorkerMessage */
/** @typedef {import('./history.js').SavedRun} SavedRun */
/** Runs estimated longer than this (seconds) start only when the reader agrees. */
const ASK_ABOVE_S = 180;
/** @type {number | null} this machine's speed in wasm's work units per second, measured once */
let speed = null;
/** @param {Wasm} wasm */
const machineSpeed = (wasm) => (speed ??= wasm.measure_speed());
/** Bytes in words. @param {number} b */
const bytesText = (b) =>
  b >= 2 ** 30 ? `${formatNumber(Math.round((b / 2 ** 30) * 10) / 10)} ГиБ` : `${formatNumber(Math.max(1, Math.round(b / 2 ** 20)))} МиБ`;
/** @typedef {'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed'} Status */

/** What the page collected, for downloads and the page tests. @type {Record<string, unknown>} */
window.pgbookRuns = {};

// Shared controls and life cycle of a trainer panel; the subclasses add their controls,
// figures and what they show of each message.
class Panel {
  /** @param {HTMLElement} root @param {Wasm} wasm @param {string} kind @param {string} prefix ids of the controls */
  constructor(root, wasm, kind, prefix) {
    this.root = root;
    this.wasm = wasm;
    this.kind = kind;
    /** @type {Schema} */
    this.schema = wasm.trainer_schema(kind);
    this.profile = profileSelect(`${prefix}-profile`, this.schema);
    /** @type {RunBoard | null} */
    this.board = null;
    /** @type {CheckedRun | null} the first configuration's checked run */
    this.settings = null;
    /** @type {CheckedRun[]} every configuration's, as the running comparison was checked */
    this.checked = [];
    /** @type {Config[]} what the reader compares; the form shows configuration `current` */
    this.configs = [{ profile: '', set: [] }];
    this.current = 0;
    this.chosen = 0; // the job whose diagnostics and CartPole episode are shown
    /** @type {{ start: number, end: number }[]} each configuration's wall time */
    this.times = [];
    this.configBar = el('div', { class: 'config-bar', role: 'group', 'aria-label': 'Конфигурации для сравнения' });
    /** @type {{ chips: HTMLElement, add: HTMLElement, remove: HTMLElement } | null} the bar's parts, made once */
    this.bar = null;
    this.runChoice = /** @type {HTMLSelectElement} */ (el('select', { id: `${prefix}-chosen`, 'aria-label': 'Чей запуск показывать' }));
    this.runChoice.addEventListener('change', () => this.choose(Number(this.runChoice.value)));
    this.comparison = el('div', { class: 'table-wrap comparison', id: `${prefix}-comparison`, hidden: '' });
    /** @type {Map<number, string>} each finished job's trained policy (a policy file's text) */
    this.policies = new Map();
    // Finished runs are kept in the browser; the list puts an earlier one back or beside.
    this.historyList = el('ol', { class: 'history-list' });
    this.historyNote = el('p', { class: 'history-note', role: 'status', hidden: '' });
    this.historySummary = el('summary', { text: 'Сохранённые запуски' });
    this.history = el(
      'details',
      { class: 'run-history', id: `${prefix}-history` },
      this.historySummary,
      el('p', {
        class: 'history-help',
        text: `Законченные запуски сохраняются в этом браузере (последние ${MAX_KEPT}) и переживают перезагрузку страницы. «Показать» возвращает запуск на панель, «Рядом» ставит его конфигурации рядом с текущими (те же начальные значения, всего не больше ${MAX_CONFIGS}).`,
      }),
      this.historyList,
    );
    /** @type {SavedRun[]} */
    this.saved = [];
    this.restoring = false;
    this.restoredFrom = ''; // the dates of the saved runs on the panel
    // Every setting of the schema as a control; the form keeps what the reader typed.
    this.form = new SettingsForm(this.schema.fields, prefix, () => this.rememberForm());
    this.form.reset(this.profile.value);
    this.profile.addEventListener('change', () => {
      this.form.reset(this.profile.value);
      this.previewChanges();
    });
    this.configs[0].profile = this.profile.value;
    /** @type {WorkerRun | null} */
    this.run = null;
    /** @type {Status} */
    this.status = 'idle';
    this.unit = '';
    this.seedParam = this.schema.page.seeds_param; // what run links call the seeds
    this.dirty = false;
    this.lastDraw = 0;
    this.t0 = 0;
    /** @type {number | undefined} when the run ended */
    this.t1 = undefined;
    this.pausedMs = 0;
    this.pauseStart = 0;
    this.message = el('div', { class: 'figure-error', role: 'alert', hidden: '' });
    this.changes = el('p', { class: 'trainer-changes', hidden: '' }); // what differs from the profile
    this.progress = /** @type {HTMLProgressElement} */ (el('progress', { max: '1', value: '0', 'aria-label': 'Ход обучения' }));
    this.progressText = el('span', { class: 'progress-text', 'aria-live': 'polite', text: 'Обучение не запущено.' });
    /** @param {string} text @param {() => void} onclick */
    const button = (text, onclick) => /** @type {HTMLButtonElement} */ (el('button', { type: 'button', text, onclick }));
    this.buttons = {
      start: button('Старт', () => this.start()),
      pause: button('Пауза', () => this.togglePause()),
      stop: button('Стоп', () => this.stop()),
      reset: button('Сброс', () => this.reset()),
    };
    this.estimate = el('span', { class: 'run-estimate' });
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.estimateTimer = undefined;
    /** @type {Map<number, number>} each job's steps (updates, iterations) done in this run */
    this.stepsDone = new Map();
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
    this.refreshHistory();
  }

  /* What each trainer panel says for itself. */

  /** The panel's seed input (one seed or a list, as its trainer's links name them). @returns {HTMLInputElement} */
  get seedInput() {
    throw new Error('a panel names its seed input');
  }
  /** A new run starts. */
  begin() {}
  /** Everything but the canvases back to before any run. */
  clear() {}
  /** @param {number} _i @param {any} _extra what is new to show after a step */
  update(_i, _extra) {}
  /** @param {number} _i */
  finished(_i) {}
  /** @param {boolean} [_all] every figure, even while training */
  draw(_all) {}
  /** The live figures' empty axes (before the first run and after Reset). */
  drawEmpty() {}
  downloadCsv() {}
  downloadJson() {}
  /** The chosen job changed: show its details. */
  chosenChanged() {}
  /** Every run has ended (or a saved run is back): its tables. */
  showResults() {}
  /** What the results table calls the final score and the goal. @returns {[string, string, (x: number) => string]} */
  scoreNames() {
    return scoreNamesOf(this.schema);
  }

  /* Configurations: the form edits one of up to four, and Старт runs them all on the same seeds. */

  /** The form's state into the configuration it shows. */
  syncConfig() {
    this.configs[this.current] = { profile: this.profile.value, set: this.form.overrides() };
  }

  /** Shows configuration `k` in the form. @param {number} k */
  selectConfig(k) {
    this.syncConfig();
    this.current = k;
    this.loadConfig(this.configs[k]);
    this.renderConfigs();
    this.rememberForm();
  }

  /** @param {Config} c */
  loadConfig(c) {
    this.profile.value = c.profile;
    this.form.reset(this.profile.value);
    this.form.apply(c.set);
    this.previewChanges();
  }

  /**
   * A prepared comparison of a lesson into the panel, started at once (the reader clicked its
   * button): its configurations, on its seeds.
   * @param {Config[]} configs @param {string} seeds
   */
  loadComparison(configs, seeds) {
    if (this.status === 'running' || this.status === 'paused') {
      this.showError('Сначала остановите текущее обучение: подготовленное сравнение заменит его.');
      this.root.scrollIntoView();
      return;
    }
    this.configs = configs.map((c) => ({ profile: c.profile, set: [...c.set] }));
    this.current = 0;
    this.seedInput.value = seeds;
    this.loadConfig(this.configs[0]);
    this.renderConfigs();
    this.rememberForm();
    this.root.scrollIntoView();
    this.start();
  }

  /** A copy of the shown configuration, to change one thing in it. */
  addConfig() {
    if (this.configs.length >= MAX_CONFIGS) return;
    this.syncConfig();
    this.configs.push({ ...this.configs[this.current], set: [...this.configs[this.current].set] });
    this.selectConfig(this.configs.length - 1);
  }

  removeConfig() {
    if (this.configs.length < 2) return;
    this.configs.splice(this.current, 1);
    this.current = Math.min(this.current, this.configs.length - 1);
    this.loadConfig(this.configs[this.current]);
    this.renderConfigs();
    this.rememberForm();
  }

  /** A configuration's name: its letter, profile and differences (short, for the legend). @param {Config} c @param {number} k */
  configLabel(c, k) {
    const diff = this.form.describe(c.profile, c.set, true);
    return `${LETTERS[k]}: ${c.profile}${diff ? `; ${diff}` : ''}`;
  }

  /**
   * The configuration bar. Its buttons are made once and updated in place: a bar rebuilt
   * under a click (a text field's change fires as the pointer goes down) would lose the click
   * and the keyboard focus.
   */
  renderConfigs() {
    const active = this.status === 'running' || this.status === 'paused';
    if (!this.bar) {
      this.bar = {
        chips: el('span', { class: 'config-chips' }),
        add: el('button', { type: 'button', class: 'config-add', text: '+ конфигурация для сравнения', onclick: () => this.addConfig() }),
        remove: el('button', { type: 'button', class: 'config-remove', text: 'убрать', onclick: () => this.removeConfig() }),
      };
      this.configBar.replaceChildren(
        el('span', { class: 'config-title', text: 'Конфигурации: ' }),
        this.bar.chips,
        this.bar.add,
        this.bar.remove,
      );
    }
    const { chips, add, remove } = this.bar;
    while (chips.children.length > this.configs.length) chips.lastElementChild?.remove();
    while (chips.children.length < this.configs.length) {
      const k = chips.children.length;
      chips.append(el('button', { type: 'button', class: 'config-chip', 'data-config': String(k), onclick: () => this.selectConfig(k) }));
    }
    this.configs.forEach((c, k) => {
      const b = /** @type {HTMLButtonElement} */ (chips.children[k]);
      const text = this.configs.length > 1 ? this.configLabel(c, k) : `A: ${c.profile}`;
      if (b.textContent !== text) b.textContent = text;
      b.title = this.form.describe(c.profile, c.set) || `профиль ${c.profile} без изменений`;
      b.setAttribute('aria-pressed', String(k === this.current));
      b.disabled = active;
    });
    add.toggleAttribute('disabled', active || this.configs.length >= MAX_CONFIGS);
    remove.toggleAttribute('disabled', active || this.configs.length < 2);
  }

  /** The job shown in detail. @param {number} job */
  choose(job) {
    this.chosen = job;
    this.chosenChanged();
    this.dirty = true;
    if (!this.run) this.tick();
  }

  /** The run choice: every job of the running comparison. */
  renderRunChoice() {
    const s = this.checked;
    const options = s.flatMap((c, k) =>
      c.seeds.map((seed, i) => {
        const text = s.length > 1 ? `${LETTERS[k]}, начальное значение ${seed}` : `начальное значение ${seed}`;
        return new Option(text, String(k * c.seeds.length + i));
      }),
    );
    this.runChoice.replaceChildren(...options);
    this.runChoice.value = String(this.chosen);
    this.runChoice.disabled = options.length < 2;
  }

  /** The results of a comparison: one row per configuration, and what they say, in words. */
  renderComparison() {
    if (!this.board || this.checked.length < 2) {
      this.comparison.hidden = true;
      this.comparison.replaceChildren();
      return;
    }
    /** @type {ConfigResult[]} */
    const results = this.board.results();
    this.comparison.replaceChildren(
      comparisonTable(results, this.scoreNames(), this.times, `${this.root.id}-results`),
      el('p', { class: 'comparison-text', 'data-comparison-text': '', text: this.comparisonText(results) }),
    );
    this.comparison.hidden = false;
  }

  /** @param {ConfigResult[]} results */
  comparisonText(results) {
    return describeComparison(results, this.scoreNames());
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
  /** @param {number} job */
  jobLabel(job) {
    const n = this.settings?.seeds.length ?? 1;
    const seed = `начальное значение ${this.settings?.seeds[job % n] ?? job}`;
    return this.checked.length > 1 ? `конфигурация ${LETTERS[Math.floor(job / n)]}, ${seed}` : seed;
  }
  /** The seeds of the share link. @param {URLSearchParams} q */
  seedParams(q) {
    q.set(this.seedParam, (this.settings?.seeds ?? []).join(','));
  }
  /** The labels of the checked configurations (one: none, the figure is a run's). */
  labels() {
    return this.checked.length > 1 ? this.checked.map((c, k) => this.configLabel(c, k)) : [''];
  }
  /** The seed input, kept in the URL. @param {URLSearchParams} q */
  formParams(q) {
    q.set(this.seedParam, this.seedInput.value);
  }
  /** A link's seeds into the seed input. @param {URLSearchParams} q */
  applyParams(q) {
    const seeds = q.get(this.seedParam);
    if (seeds !== null) this.seedInput.value = seeds;
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
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  /** @param {Status} status */
  setStatus(status) {
    const focused = document.activeElement;
    this.status = status;
    const active = status === 'running' || status === 'paused';
    this.buttons.start.disabled = active;
    this.buttons.pause.disabled = !active;
    this.buttons.pause.textContent = status === 'paused' ? 'Продолжить' : 'Пауза';
    this.buttons.stop.disabled = !active;
    this.buttons.reset.disabled = status === 'idle';
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
    const cost = this.costOf(this.checked);
    this.estimate.textContent = cost.text;
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
    this.setStatus('idle');
  }

  /** The settings that differ from the profile, in words (a checked run's, or the form's). @param {string} profile @param {[string, string][]} set */
  showChanges(profile, set) {
    this.changes.textContent = set.length ? `Изменено относительно профиля ${profile}: ${this.form.describe(profile, set)}.` : '';
    this.changes.hidden = set.length === 0;
  }

  /** The form's differences before they are checked (wasm checks them at Старт). */
  previewChanges() {
    this.showChanges(this.profile.value, this.form.overrides());
    this.scheduleEstimate();
  }

  /** The estimate beside Старт, in its own task: the first one measures this machine's speed (about 30 ms). */
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

  /**
   * What the checked configurations will cost: the time on this machine (their planned work ÷
   * the measured speed, spread over the pool's workers) and the memory of one worker.
   * @param {CheckedRun[]} checked @returns {{ seconds: number, text: string }}
   */
  costOf(checked) {
    const jobs = checked.reduce((n, c) => n + c.seeds.length, 0);
    const workers = Math.max(1, Math.min(jobs, navigator.hardwareConcurrency || 2));
    const work = checked.reduce((w, c) => w + c.work_per_seed * c.seeds.length, 0);
    let time = NaN;
    try {
      time = work / machineSpeed(this.wasm) / workers;
    } catch {
      // No measurement: the memory is still known.
    }
    const memory = Math.max(...checked.map((c) => c.memory_bytes));
    const when = Number.isFinite(time) ? `≈ ${seconds(time)}` : 'время неизвестно';
    return { seconds: time, text: `Оценка: ${when}, до ${bytesText(memory)} памяти на процесс` };
  }

  showEstimate() {
    const checked = this.checkedForm();
    this.estimate.textContent = checked ? this.costOf(checked).text : '';
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
    return `${what} ${formatNumber((this.stepsDone.get(i) ?? 0) + 1)} из ${formatNumber(steps)}`;
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
      case 'update':
        this.stepsDone.set(i, (this.stepsDone.get(i) ?? 0) + 1);
        board.push(i, m.line ?? '');
        this.update(i, m.extra ?? {});
        this.dirty = true;
        break;
      case 'finished': {
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
      case 'panic':
        this.terminate();
        this.setStatus('failed');
        this.showError(
          `${m.type === 'panic' ? 'Сбой в модуле WebAssembly' : 'Ошибка обучения'} (${this.jobLabel(i)}; ${this.doingOf(i)}): ${m.message}` +
            `${/memory|памят/i.test(m.message) ? ' — фоновому потоку не хватило памяти' : ''}. Нажмите «Старт», чтобы начать заново.`,
        );
        this.dirty = true;
        break;
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
    if (this.run || this.dirty) requestAnimationFrame(() => this.tick());
  }

  /**
   * The progress line says what is true now: running (with the time left), paused, stopped or
   * finished; it never runs on after a stop.
   * @param {number} done @param {number} total @param {number} elapsed seconds
   */
  progressLine(done, total, elapsed) {
    const counted = `${formatNumber(done)} из ${formatNumber(total)} ${this.unit}`;
    switch (this.status) {
      case 'finished':
        if (this.restoredFrom) return `${counted}; сохранённый запуск от ${this.restoredFrom}`;
        return `${counted}; готово за ${seconds(elapsed)}`;
      case 'stopped':
        return `${counted}; остановлено.`;
      case 'paused':
        return `${counted}; пауза.`;
      case 'failed':
        return `${counted}; обучение прервано ошибкой.`;
      default: {
        if (done === 0) {
          const steps = Math.max(...this.checked.map((c) => c.steps_per_seed));
          const what = this.unit === 'итераций' ? 'итерация' : 'обновление';
          return `${counted}; идёт ${what} 1 из ${formatNumber(steps)} (первое ещё не закончено)`;
        }
        const left = (elapsed * (total - done)) / done;
        return `${counted}; идёт обучение, осталось ≈ ${seconds(left)}`;
      }
    }
  }

  updateProgress() {
    if (!this.board) return;
    const { done, total } = this.board.progress();
    this.progress.value = total ? done / total : 0;
    const paused = this.status === 'paused' ? performance.now() - this.pauseStart : 0;
    // A run that has ended keeps the time it ended at (a later redraw must not add to it).
    const ended = this.status === 'running' || this.status === 'paused' ? performance.now() : (this.t1 ??= performance.now());
    const elapsed = (ended - this.t0 - this.pausedMs - paused) / 1000;
    this.progressText.textContent = this.progressLine(done, total, elapsed);
  }

  /** Keeps what the reader typed in the URL (without starting anything), so Back restores it. */
  rememberForm() {
    this.previewChanges();
    this.syncConfig();
    this.renderConfigs();
    const q = new URLSearchParams({ form: this.kind });
    this.configParams(q, this.configs);
    this.formParams(q);
    history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash.split('?')[0]}`);
  }

  /** @param {HTMLElement[]} controls */
  watchForm(...controls) {
    for (const c of controls) c.addEventListener('change', () => this.rememberForm());
  }

  /** What the page keeps of the run (read by the downloads and the page tests). @returns {any[]} */
  runs() {
    return this.board ? this.board.runs() : [];
  }

  /**
   * The configurations into a link: one as `profile` and its settings by name, several as one
   * `cfg` each (`cfg=full;gamma=0.99`).
   * @param {URLSearchParams} q @param {Config[]} configs
   */
  configParams(q, configs) {
    if (configs.length === 1) {
      q.set('profile', configs[0].profile);
      for (const [k, v] of configs[0].set) q.set(k, v);
    } else {
      for (const c of configs) q.append('cfg', configText(c));
    }
  }

  /** The share link of the checked run: the trainer, its configurations and the seeds. */
  shareUrl() {
    const q = new URLSearchParams({ run: this.kind });
    this.configParams(
      q,
      this.checked.map((c) => ({ profile: c.profile, set: c.set })),
    );
    this.seedParams(q);
    return `${location.pathname}?${q}#trainer-${this.kind}`;
  }

  allFinished() {
    if (this.board?.is_finished()) {
      this.terminate();
      this.setStatus('finished');
      this.updateProgress();
      this.dirty = true;
      this.tick();
      if (!this.restoring) this.save();
    }
  }

  /* The history: finished runs in IndexedDB. */

  /** The finished run on the panel as a saved run. @returns {SavedRun} */
  snapshot() {
    const board = /** @type {RunBoard} */ (this.board);
    const n = this.settings?.seeds.length ?? 1;
    const infos = board.infos();
    return {
      kind: this.kind,
      saved_at: new Date().toISOString(),
      seeds: this.settings?.seeds ?? [],
      checked: this.checked,
      labels: this.labels(),
      configs: this.checked.map((_, c) => ({ lines: board.json_lines_of(c) })),
      infos,
      policies: infos.map((/** @type {unknown} */ _i, /** @type {number} */ job) => this.policies.get(job) ?? null),
      times: this.times.map((t) => ({ start: 0, end: t.end - t.start })),
      summary: this.resultsLine(n),
      results: board.results(),
    };
  }

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

  async save() {
    try {
      await saveRun(this.snapshot());
      this.note('');
      document.dispatchEvent(new CustomEvent('pgbook:saved', { detail: this.kind }));
    } catch (e) {
      this.note(`Запуск не сохранён в истории: ${messageOf(e)}. Кривые, таблицы и загрузки на этой странице работают как обычно.`);
      return;
    }
    await this.refreshHistory();
  }

  /** @param {string} text */
  note(text) {
    this.historyNote.textContent = text;
    this.historyNote.hidden = !text;
  }

  async refreshHistory() {
    /** @type {import('./history.js').BadRun[]} */
    let bad = [];
    try {
      ({ runs: this.saved, bad } = await listStored(this.kind));
    } catch (e) {
      this.saved = [];
      this.note(`История запусков недоступна: ${messageOf(e)}.`);
    }
    this.historySummary.textContent = `Сохранённые запуски (${this.saved.length + bad.length})`;
    /** @param {string} text @param {() => void} onclick */
    const button = (text, onclick) => el('button', { type: 'button', text, onclick });
    /** @param {string | null} savedAt */
    const dateOf = (savedAt) => (savedAt ? new Date(savedAt).toLocaleString('ru-RU') : 'дата неизвестна');
    const items = this.saved.map((r) => {
      let what;
      try {
        what =
          r.labels.length > 1
            ? r.labels.join(' | ')
            : `профиль ${r.checked[0].profile}${r.checked[0].set.length ? `; ${this.form.describe(r.checked[0].profile, r.checked[0].set, true)}` : ''}`;
      } catch {
        // Settings this build no longer knows: the record is still shown as it was saved.
        what = `профиль ${r.checked[0].profile}; ${r.checked[0].set.map((/** @type {[string, string]} */ [k, v]) => `${k}=${v}`).join(', ')}`;
      }
      return el(
        'li',
        { 'data-run': String(r.id) },
        el('span', {
          class: 'history-what',
          text: `${dateOf(r.saved_at)}: ${what}; начальные значения ${r.seeds.join(', ')}. ${r.summary ?? ''}`,
        }),
        ' ',
        button('Показать', () => this.restoreSaved([r])),
        button('Рядом', () => this.besideSaved(r)),
        button('Удалить', () => this.forget(r)),
      );
    });
    const broken = bad.map((b) =>
      el(
        'li',
        { 'data-run': String(b.id), class: 'history-bad' },
        el('span', { class: 'history-what', text: `${dateOf(b.saved_at)}: запуск ${b.problem}, показать его нельзя.` }),
        ' ',
        button('Удалить', () => this.forget(b)),
      ),
    );
    this.historyList.replaceChildren(...items, ...broken);
  }

  /** @param {{ id?: number }} r */
  async forget(r) {
    try {
      if (r.id !== undefined) await deleteRun(r.id);
    } catch (e) {
      this.note(`Не удалось удалить запуск: ${messageOf(e)}.`);
    }
    await this.refreshHistory();
  }

  /** A saved run beside the finished one on the panel (same seeds, at most four configurations). @param {SavedRun} r */
  besideSaved(r) {
    if (!this.board || this.status !== 'finished') {
      this.restoreSaved([r]);
      return;
    }
    this.restoreSaved([this.snapshot(), r]);
  }

  /**
   * Saved runs back on the panel as one finished comparison, exactly as they ended: their
   * lines go into a new board, their policies and times with them.
   * @param {SavedRun[]} records
   */
  restoreSaved(records) {
    const seeds = records[0].seeds;
    const checked = records.flatMap((r) => r.checked);
    if (records.some((r) => r.seeds.join(',') !== seeds.join(','))) {
      this.note(`Рядом можно поставить только запуск на тех же начальных значениях (${seeds.join(', ')}).`);
      return;
    }
    if (checked.length > MAX_CONFIGS) {
      this.note(`Вместе получилось бы ${checked.length} конфигураций, а сравнение вмещает не больше ${MAX_CONFIGS}.`);
      return;
    }
    this.terminate();
    this.checked = checked;
    this.settings = checked[0];
    this.unit = checked[0].unit;
    this.configs = checked.map((c) => ({ profile: c.profile, set: c.set }));
    this.current = 0;
    this.seedInput.value = seeds.join(', ');
    const n = seeds.length;
    try {
      this.loadConfig(this.configs[0]);
      const board = this.wasm.RunBoard.compare(this.kind, new Float64Array(seeds), this.labels());
      this.policies.clear();
      this.times = [];
      let c0 = 0;
      for (const r of records) {
        r.configs.forEach((cfg, k) => {
          const c = c0 + k;
          for (let i = 0; i < n; i++) board.start(c * n + i, r.infos[k * n + i]);
          for (const line of cfg.lines.trim().split('\n')) board.push(c * n + seeds.indexOf(JSON.parse(line).seed), line);
          for (let i = 0; i < n; i++) {
            const p = r.policies[k * n + i];
            if (p) this.policies.set(c * n + i, p);
          }
          this.times.push({ start: 0, end: r.times[k]?.end ?? 0 });
        });
        c0 += r.configs.length;
      }
      this.board = board;
    } catch (e) {
      this.board = null;
      this.note(`Сохранённый запуск не удалось показать: ${messageOf(e)}.`);
      return;
    }
    this.note('');
    this.chosen = 0;
    this.begin();
    this.renderRunChoice();
    this.restoring = true;
    this.setStatus('finished');
    this.showResults();
    this.renderComparison();
    this.chosenChanged();
    this.restoring = false;
    const { done, total } = this.board.progress();
    this.progress.value = total ? done / total : 0;
    this.restoredFrom = records.map((r) => new Date(r.saved_at).toLocaleString('ru-RU')).join(' и ');
    this.progressText.textContent = this.progressLine(done, total, 0);
    this.share.href = this.shareUrl();
    this.dirty = true;
    this.tick();
  }
}

// ---------------- the CartPole trainers (REINFORCE, A2C, PPO: wasm's trainer_list) ----------------
class CartPolePanel extends Panel {
  /** @param {HTMLElement} root @param {Wasm} wasm @param {string} kind (also the prefix of its ids) */
  constructor(root, wasm, kind) {
    super(root, wasm, kind, kind);
    const p = kind;
    // PPO reports clipping and KL per update; the registry says which trainers draw diagnostics.
    this.hasDiagnostics = this.schema.diagnostics;
    this.seeds = /** @type {HTMLInputElement} */ (
      el('input', { id: `${p}-seeds`, type: 'text', inputmode: 'numeric', size: '18', value: this.profileSeeds().join(', ') })
    );
    this.profile.addEventListener('change', () => {
      this.seeds.value = this.profileSeeds().join(', ');
      if (this.status === 'idle') this.drawEmpty(); // the empty axes name the chosen profile
    });
    /** @param {string} id @param {string} label @param {string} [cls] */
    const canvas = (id, label, cls = '') =>
      /** @type {HTMLCanvasElement} */ (el('canvas', { id, class: cls, role: 'img', 'aria-label': label }));
    this.curve = canvas(`canvas-${p}-curve`, 'Кривая обучения: медиана и межквартильный диапазон по начальным значениям');
    this.diag = canvas(`canvas-${p}-diagnostics`, 'Диагностики PPO по обновлениям');
    // The PPO panel's CartPole canvas keeps the id it has always had.
    this.pole = canvas(
      p === 'ppo' ? 'canvas-cartpole' : `canvas-${p}-cartpole`,
      'CartPole: жадная политика выбранного запуска',
      'cartpole',
    );
    this.table = el('div', { class: 'table-wrap' });
    this.curveCaption = el('figcaption');
    /** @type {Map<number, { flat: number[], update: number }>} each job's latest greedy episode */
    this.episodes = new Map();
    // A trained policy as a file: download the chosen run's, load one back to watch it.
    this.policyDownload = /** @type {HTMLButtonElement} */ (
      el('button', { type: 'button', class: 'policy-download', text: 'скачать', disabled: '', onclick: () => this.downloadPolicy() })
    );
    this.policyFile = /** @type {HTMLInputElement} */ (
      el('input', { type: 'file', id: `${p}-policy-file`, accept: '.json,application/json', hidden: '', 'aria-label': 'Файл политики' })
    );
    this.policyFile.addEventListener('change', () => this.loadPolicyFile());
    this.policyButtons = el(
      'span',
      { class: 'policy-buttons' },
      this.policyDownload,
      ' ',
      el('button', { type: 'button', class: 'policy-load', text: 'загрузить и посмотреть', onclick: () => this.policyFile.click() }),
      this.policyFile,
    );
    this.policyInfo = el('p', { class: 'policy-info', id: `${p}-policy-info`, 'aria-live': 'polite', hidden: '' });
    /** @param {HTMLCanvasElement} c @param {HTMLElement | string} caption */
    const figure = (c, caption) =>
      el('figure', { class: 'live-plain' }, c, typeof caption === 'string' ? el('figcaption', { text: caption }) : caption);
    root.append(
      this.controlsRow(
        el('label', { for: `${p}-profile` }, 'профиль ', this.profile),
        el('label', { for: `${p}-seeds` }, 'начальные значения ', this.seeds),
      ),
      this.configBar,
      this.form.element,
      this.changes,
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el(
        'div',
        { class: 'trainer-figures' },
        figure(this.curve, this.curveCaption),
        el(
          'p',
          { class: 'run-choice' },
          el(
            'label',
            { for: `${p}-chosen` },
            this.hasDiagnostics ? 'Подробно (CartPole и диагностики): ' : 'Подробно (CartPole): ',
            this.runChoice,
          ),
        ),
        figure(this.pole, 'Текущая жадная политика выбранного запуска на новом эпизоде.'),
        ...(this.hasDiagnostics
          ? [
              figure(
                this.diag,
                'Выбранный запуск по обновлениям: доля активного клиппирования и доля отношений вне 1 ± ε (левая ось) и приближённая KL (правая ось, в своём масштабе: она обычно на порядок меньше долей).',
              ),
            ]
          : []),
      ),
      this.comparison,
      this.table,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads, ' · политика: ', this.policyButtons),
      this.policyInfo,
      this.historyNote,
      this.history,
    );
    this.captionCurve();
    /** @type {number | null} */
    this.animation = null;
    /** @type {{ flat: number[], update: number, t0: number, shown: number } | null} */
    this.frames = null;
    /** @type {{ state: number[], caption: string } | null} the CartPole frame on screen */
    this.lastPole = null;
    this.poleVisible = true;
    this.drawTurn = false;
    this.watchVisibility();
    this.watchForm(this.profile, this.seeds);
    this.drawEmpty();
  }

  profileSeeds() {
    return this.schema.profiles.find((p) => p.name === this.profile.value)?.seeds ?? [];
  }

  drawEmpty() {
    try {
      this.fit(...this.canvases());
      this.wasm.draw_empty_trainer(this.kind, this.curve.id, this.diagId(), this.profile.value, this.profileSeeds()[0] ?? 0);
      this.drawPole([0, 0, 0, 0], 'эпизод появится после первой оценки');
    } catch (e) {
      this.showError(`Не удалось нарисовать оси: ${messageOf(e)}`);
    }
  }

  get seedInput() {
    return this.seeds;
  }

  begin() {
    Object.defineProperty(window.pgbookRuns, this.kind, { get: () => this.runs(), configurable: true, enumerable: true });
    this.clear();
    this.captionCurve();
  }

  captionCurve() {
    this.curveCaption.textContent =
      this.checked.length > 1
        ? 'Жадная оценка по конфигурациям: у каждой своя медиана по начальным значениям и межквартильный диапазон (заливка) своего цвета; потолок 500.'
        : 'Жадная оценка: медиана по начальным значениям, межквартильный диапазон (заливка), отдельные запуски (тонкие линии), потолок 500.';
  }

  chosenChanged() {
    this.policyDownload.disabled = !this.policies.has(this.chosen);
    const e = this.episodes.get(this.chosen);
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null;
    this.frames = null;
    const policy = this.policies.get(this.chosen);
    if (e) this.animate(e.flat, e.update);
    else if (policy) this.watchPolicy(policy, 'сохранённая политика');
    else this.drawPole([0, 0, 0, 0], 'эпизод появится после первой оценки этого запуска');
  }

  /** @param {number} i */
  finishedJob(i) {
    if (i === this.chosen) this.policyDownload.disabled = !this.policies.has(i);
  }

  downloadPolicy() {
    const policy = this.policies.get(this.chosen);
    if (!policy) return;
    const n = this.settings?.seeds.length ?? 1;
    const seed = this.settings?.seeds[this.chosen % n] ?? 0;
    const letter = this.checked.length > 1 ? `-${LETTERS[Math.floor(this.chosen / n)]}` : '';
    download(`${this.kind}-policy${letter}-seed${seed}.json`, 'application/json', policy);
  }

  async loadPolicyFile() {
    const file = this.policyFile.files?.[0];
    this.policyFile.value = ''; // the same file again is a new choice
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (e) {
      this.showPolicy(`Файл «${file.name.slice(0, 40)}» не прочитан: ${messageOf(e)}.`);
      return;
    }
    this.watchPolicy(text, `политика из файла «${file.name.slice(0, 40)}»`);
  }

  /**
   * Plays a policy file's greedy episode in the CartPole canvas (wasm checks the file and
   * plays the episode the CLI's `pgbook replay` plays).
   * @param {string} text @param {string} what
   */
  watchPolicy(text, what) {
    if (this.status === 'running' || this.status === 'paused') {
      this.showPolicy('Политику можно посмотреть, когда обучение не идёт: сейчас холст CartPole показывает обучаемый запуск.');
      return;
    }
    let r;
    try {
      r = this.wasm.replay_policy(text, NaN);
    } catch (e) {
      this.showPolicy(`Политика не загружена: ${messageOf(e)}.`);
      return;
    }
    window.pgbookRuns.policy = r;
    this.showPolicy(
      `${what[0].toUpperCase()}${what.slice(1)}: ${r.trainer}, начальное значение ${r.seed}, после ${formatNumber(r.update)} обновлений ` +
        `(${formatNumber(r.env_steps)} шагов среды), слои ${r.sizes.join('×')}. Жадный эпизод со стартом № ${r.reset_seed}: возврат ${formatNumber(r.episode_return)}.`,
    );
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null;
    this.animate(r.episode, r.update);
  }

  /** @param {string} text */
  showPolicy(text) {
    this.policyInfo.textContent = text;
    this.policyInfo.hidden = !text;
  }

  clear() {
    this.episodes.clear();
    this.table.replaceChildren();
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null; // the next run's episodes start a loop of their own
    this.frames = null;
  }

  /** @param {number} i @param {{ episode?: number[], update?: number }} extra */
  update(i, extra) {
    if (!extra.episode) return;
    this.episodes.set(i, { flat: extra.episode, update: extra.update ?? 0 });
    if (i === this.chosen) this.animate(extra.episode, extra.update ?? 0);
  }

  /** @param {number} i */
  finished(i) {
    this.finishedJob(i);
    this.renderTable();
    this.allFinished();
  }

  showResults() {
    this.renderTable();
  }

  /** @param {boolean} [all] */
  draw(all = false) {
    // While training, one figure per redraw, in turn, so that no frame's task grows long on a
    // slow machine; once the run has ended, both.
    const both = all || this.status !== 'running';
    this.drawTurn = !this.drawTurn;
    const curve = both || this.drawTurn ? this.curve.id : '';
    const diag = both || !this.drawTurn ? this.diagId() : '';
    this.fit(...this.canvases());
    this.drawBoard(curve, diag);
    if (!both && this.drawTurn && this.hasDiagnostics) this.dirty = true; // the other figure at the next redraw
  }

  /** The live figures' canvases. */
  canvases() {
    return this.hasDiagnostics ? [this.curve, this.diag] : [this.curve];
  }

  /** The diagnostics canvas's id, empty for a trainer without them. */
  diagId() {
    return this.hasDiagnostics ? this.diag.id : '';
  }

  /**
   * One CartPole frame; the last one is kept, so that a resized canvas shows it again.
   * @param {number[]} state [x, ẋ, θ, θ̇] @param {string} caption
   */
  drawPole(state, caption) {
    this.lastPole = { state, caption };
    fitCanvas(this.pole, () => this.lastPole && this.drawPole(this.lastPole.state, this.lastPole.caption));
    this.wasm.draw_cartpole(this.pole.id, state[0], state[1], state[2], state[3], caption);
  }

  /**
   * Plays the greedy episode (a flat [x, ẋ, θ, θ̇, …] array) at CartPole's pace. It draws only
   * when the frame changes, pauses while the canvas is off-screen or the tab hidden, replays
   * while the run trains, and stops on the last frame once the run is over.
   * @param {number[]} flat @param {number} update
   */
  animate(flat, update) {
    this.frames = { flat, update, t0: performance.now(), shown: -1 };
    this.kickAnimation();
  }

  watchVisibility() {
    if ('IntersectionObserver' in window) {
      new IntersectionObserver((entries) => {
        this.poleVisible = entries.some((e) => e.isIntersecting);
        this.kickAnimation();
      }).observe(this.pole);
    }
    document.addEventListener('visibilitychange', () => this.kickAnimation());
  }

  kickAnimation() {
    const f = this.frames;
    if (this.animation !== null || !f || !this.poleVisible || document.hidden) return;
    // Continue from the frame shown last, not from where the clock would be.
    f.t0 = performance.now() - Math.max(0, f.shown) * this.schema.time_step_s * 1000;
    this.animation = requestAnimationFrame(() => this.frame());
  }

  frame() {
    this.animation = null;
    const f = this.frames;
    if (!f || !this.poleVisible || document.hidden) return;
    const n = f.flat.length / 4;
    const k = Math.max(0, Math.min(n - 1, Math.floor((performance.now() - f.t0) / (this.schema.time_step_s * 1000))));
    if (k !== f.shown) {
      const s = f.flat.slice(4 * k, 4 * k + 4);
      try {
        this.drawPole(s, `после обновления ${f.update}: шаг ${k + 1} из ${n}`);
      } catch (e) {
        this.showError(`Не удалось нарисовать CartPole: ${messageOf(e)}`);
        return;
      }
      f.shown = k;
    }
    if (k === n - 1) {
      if (!this.run) return; // the run is over: the last frame stays, nothing more to draw
      f.t0 = performance.now() + 600; // replay after a short pause while training goes on
      f.shown = -1;
    }
    this.animation = requestAnimationFrame(() => this.frame());
  }

  renderTable() {
    /** @type {{ config: number, seed: number, final_evaluation_mean: number, final_evaluation_std: number, env_steps: number, solved_from_env_steps: number | null }[]} */
    const summaries = this.board?.summaries() ?? [];
    const compared = this.checked.length > 1;
    const rows = summaries.map((x) => [
      ...(compared ? [LETTERS[x.config]] : []),
      String(x.seed),
      formatNumber(x.final_evaluation_mean, 1),
      formatNumber(x.final_evaluation_std, 1),
      formatNumber(x.env_steps),
      x.solved_from_env_steps == null ? '—' : formatNumber(x.solved_from_env_steps),
    ]);
    const stable = `стабильно ≥ ${formatNumber(this.schema.solved_threshold)} начиная с шага`;
    this.table.replaceChildren(
      textTable([...(compared ? ['конфигурация'] : []), 'начальное значение', 'итоговая оценка', 'std', 'шагов среды', stable], rows, {
        id: `${this.kind}-summary`,
      }),
    );
  }

  downloadCsv() {
    if (this.board) download(`${this.kind}-cartpole.csv`, 'text/csv', this.board.csv());
  }
  downloadJson() {
    // Exactly the lines `pgbook train ppo|reinforce … --json` prints for the same run (in a comparison,
    // for the configuration of the chosen run).
    if (!this.board) return;
    const c = Math.floor(this.chosen / (this.settings?.seeds.length ?? 1));
    const name = this.checked.length > 1 ? `${this.kind}-cartpole-${LETTERS[c]}.jsonl` : `${this.kind}-cartpole.jsonl`;
    download(name, 'application/x-ndjson', this.board.json_lines_of(c));
  }
}

// ---------------- the sequence policy (lesson 8) ----------------
class SequencePanel extends Panel {
  /** @param {HTMLElement} root @param {Wasm} wasm */
  constructor(root, wasm) {
    super(root, wasm, 'sequence', 'seq');
    const seed = this.schema.profiles[0]?.seeds[0] ?? 0;
    this.seed = /** @type {HTMLInputElement} */ (el('input', { id: 'seq-seed', type: 'number', min: '0', step: '1', value: String(seed) }));
    this.curve = /** @type {HTMLCanvasElement} */ (
      el('canvas', { id: 'canvas-seq-curve', role: 'img', 'aria-label': 'Средняя награда и доля верных ответов по итерациям' })
    );
    this.greedy = el('div', { class: 'table-wrap', id: 'seq-greedy', 'aria-live': 'polite' });
    this.batch = el('div', { class: 'table-wrap', id: 'seq-first-batch' });
    this.summaryBox = el('div', { id: 'seq-summary' });
    /** @type {{ prompt: string, sequence: string, reward: number, advantage: number, mask: number[] }[] | null} */
    this.firstBatch = null;
    /** @type {Map<number, { greedy?: any[], first?: SequencePanel['firstBatch'] }>} what each job showed last */
    this.details = new Map();
    root.append(
      this.controlsRow(
        el('label', { for: 'seq-profile' }, 'профиль ', this.profile),
        el('label', { for: 'seq-seed' }, 'начальное значение ', this.seed),
      ),
      this.configBar,
      this.form.element,
      this.changes,
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el(
        'figure',
        { class: 'live-plain' },
        this.curve,
        el('figcaption', {
          text: 'Оценка на свежих выборках после каждой итерации: средняя награда проверяющей функции и доля полностью верных ответов.',
        }),
      ),
      this.comparison,
      el('p', { class: 'run-choice' }, el('label', { for: 'seq-chosen' }, 'Подробно (ответы и первый пакет): ', this.runChoice)),
      el('h3', { text: 'Жадные ответы сейчас' }),
      this.greedy,
      el('h3', { text: 'Первый пакет роллаутов' }),
      this.batch,
      this.summaryBox,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads),
      this.historyNote,
      this.history,
    );
    this.watchForm(this.profile, this.seed);
    this.drawEmpty();
  }

  get seedInput() {
    return this.seed;
  }

  begin() {
    const reduction = this.form.inputs.get('reduction')?.value; // the form is locked while it runs
    this.firstBatch = null;
    Object.defineProperty(window.pgbookRuns, 'sequence', {
      get: () => ({ ...this.runs()[0], reduction, firstBatch: this.firstBatch }),
      configurable: true,
      enumerable: true,
    });
    this.clear();
  }

  clear() {
    this.details.clear();
    this.greedy.replaceChildren();
    this.batch.replaceChildren();
    this.summaryBox.replaceChildren();
  }

  /** @param {number} i @param {{ first_batch?: SequencePanel['firstBatch'], greedy?: { prompt: string, answer: string, correct_answer: string, reward: number, correct: boolean }[] }} extra */
  update(i, extra) {
    const d = this.details.get(i) ?? {};
    if (extra.first_batch && !d.first) d.first = extra.first_batch;
    if (extra.greedy) d.greedy = extra.greedy;
    this.details.set(i, d);
    if (i === 0 && extra.first_batch && !this.firstBatch) this.firstBatch = extra.first_batch;
    if (i === this.chosen) this.chosenChanged();
  }

  chosenChanged() {
    const d = this.details.get(this.chosen);
    this.renderFirstBatch(d?.first ?? []);
    this.renderGreedy(d?.greedy ?? []);
    this.renderSummary();
  }

  finished() {
    this.renderSummary();
    this.allFinished();
  }

  showResults() {
    this.renderSummary();
  }

  renderSummary() {
    const summary = (this.board?.summaries() ?? []).find((/** @type {any} */ x) => x.job === this.chosen);
    this.summaryBox.replaceChildren();
    if (summary) {
      const text =
        `Итог: средняя награда ${formatNumber(summary.final_mean_reward)}, доля верных ответов ${formatNumber(summary.final_success_rate)}, ` +
        `жадно верно ${summary.greedy_correct} из ${summary.prompts} запросов за ${summary.iterations} итераций.`;
      this.summaryBox.replaceChildren(el('p', { text }));
    }
  }

  draw() {
    this.fit(this.curve);
    this.drawBoard(this.curve.id, '');
  }

  drawEmpty() {
    try {
      this.fit(this.curve);
      this.wasm.draw_empty_trainer(this.kind, this.curve.id, '', this.profile.value, Number(this.seed.value) || 0);
    } catch (e) {
      this.showError(`Не удалось нарисовать оси: ${messageOf(e)}`);
    }
  }

  /** @param {{ prompt: string, answer: string, correct_answer: string, reward: number, correct: boolean }[]} answers */
  renderGreedy(answers) {
    const rows = answers.map((a) => [a.prompt, a.answer, a.correct_answer, formatNumber(a.reward), a.correct ? 'да' : 'нет']);
    this.greedy.replaceChildren(textTable(['запрос', 'жадный ответ', 'верный ответ', 'награда', 'верно'], rows));
  }

  /** @param {NonNullable<SequencePanel['firstBatch']>} batch */
  renderFirstBatch(batch) {
    const rows = batch.map((r) => [
      r.prompt,
      r.sequence,
      formatNumber(r.reward),
      formatNumber(r.advantage),
      r.mask.map((m) => (m ? '1' : '0')).join(' '),
    ]);
    this.batch.replaceChildren(textTable(['запрос', 'последовательность', 'награда', 'преимущество', 'маска ответа'], rows));
  }

  downloadCsv() {
    if (this.board) download('sequence.csv', 'text/csv', this.board.csv());
  }
  downloadJson() {
    // Exactly the lines `pgbook train sequence … --json` prints for the same run (in a
    // comparison, for the configuration of the chosen run).
    if (!this.board) return;
    const c = Math.floor(this.chosen / (this.settings?.seeds.length ?? 1));
    const name = this.checked.length > 1 ? `sequence-${LETTERS[c]}.jsonl` : 'sequence.jsonl';
    download(name, 'application/x-ndjson', this.board.json_lines_of(c));
  }
}

/** A message at the top of the page, for links that name no trainer of this page. @param {string} text */
function notice(text) {
  const box = el('div', { class: 'figure-error link-error', role: 'alert', text });
  (document.querySelector('main') ?? document.body).prepend(box);
}

/**
 * The link's parameters: the query, and any written after '#' (`#trainer-ppo?seeds=…` or
 * `#run=ppo&…`), the latter winning.
 */
function linkParams() {
  const q = new URLSearchParams(location.search);
  const hash = location.hash.slice(1);
  const tail = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : hash.includes('=') ? hash : '';
  for (const [k, v] of new URLSearchParams(tail)) q.set(k, v);
  return q;
}

/**
 * Starts a run from the URL (?run=ppo&profile=smoke&seeds=11,37&gamma=0.99 or
 * ?run=sequence&profile=smoke&seed=5&reduction=token_mean): a teacher sends one link. Any
 * setting of the trainer's schema may be overridden by name; wasm checks them all. Without
 * `run`, the parameters only fill the form (the panel keeps what the reader types there, so
 * Back brings it back).
 * @param {Wasm} wasm
 */
export function setupTrainers(wasm) {
  /** @type {Record<string, Panel>} */
  const panels = {};
  /** @type {ListedTrainer[]} */
  const trainers = wasm.trainer_list();
  for (const t of trainers) {
    const root = /** @type {HTMLElement | null} */ (document.querySelector(`#trainer-${t.name}`));
    if (!root) continue;
    panels[t.name] = t.panel === 'sequence' ? new SequencePanel(root, wasm) : new CartPolePanel(root, wasm, t.name);
  }
  window.pgbookPanels = panels;
  setupPrepared(wasm, panels);
  // Leaving a page while it trains is a choice.
  window.addEventListener('beforeunload', (e) => {
    if (Object.values(panels).some((p) => p.status === 'running' || p.status === 'paused')) {
      e.preventDefault();
      e.returnValue = '';
    }
  });
  const q = linkParams();
  const name = q.get('run') ?? q.get('form');
  const p = name !== null && Object.hasOwn(panels, name) ? panels[name] : null;
  if (name !== null && !p) {
    // A trainer of another page (wasm knows where each panel is): forward the link there.
    /** @type {Schema | null} */
    let other = null;
    try {
      other = wasm.trainer_schema(name);
    } catch {
      /* not a trainer */
    }
    if (other) {
      location.replace(`${other.page.file}?${q}#trainer-${name}`);
    } else {
      const known = trainers.map((t) => `${t.name} (урок ${Number(t.page.replace(/\D/g, ''))})`).join(', ');
      notice(`Ссылка не распознана: неизвестный запуск «${name.slice(0, 24)}». Есть ${known}.`);
    }
    return;
  }
  if (!p) return;
  const fields = new Set(p.schema.fields.map((f) => f.name));
  const own = new Set(['run', 'form', 'profile', 'cfg', p.seedParam, ...fields]);
  const foreign = [...q.keys()].filter((k) => !own.has(k));
  if (foreign.length) {
    p.showError(
      `Ссылка не принята: параметр «${foreign[0].slice(0, 24)}» не относится к этому обучению (здесь: profile, ${p.seedParam} и настройки из таблицы параметров).`,
    );
    return;
  }
  p.applyParams(q);
  const cfgs = q.getAll('cfg');
  if (cfgs.length) {
    // A comparison: each `cfg` a profile and its overrides; wasm checks them all at the start.
    const configs = cfgs.map(parseConfig);
    const bad = configs.flatMap((c) => c.set.map(([k]) => k)).find((k) => !fields.has(k));
    const mixed = [...q.keys()].find((k) => k === 'profile' || fields.has(k));
    const problem =
      configs.length > MAX_CONFIGS
        ? `в сравнении не больше ${MAX_CONFIGS} конфигураций, а в ссылке их ${configs.length}`
        : bad !== undefined
          ? `настройки «${bad.slice(0, 24)}» у этого обучения нет`
          : mixed !== undefined
            ? `параметр «${mixed.slice(0, 24)}» задаётся внутри каждой конфигурации cfg, не отдельно`
            : '';
    if (problem) {
      p.showError(`Ссылка не принята: ${problem}.`);
      return;
    }
    try {
      configs.forEach((c) => wasm.check_run(p.kind, c.profile, c.set, p.seedInput.value));
    } catch (e) {
      p.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    p.configs = configs;
    p.current = 0;
    p.loadConfig(configs[0]);
    p.renderConfigs();
    if (q.has('run')) {
      p.root.scrollIntoView();
      p.start();
    }
    return;
  }
  // A <select> ignores values it does not offer: wasm says what is wrong with the link.
  const profile = q.get('profile');
  if (profile !== null) {
    p.profile.value = profile;
    if (p.profile.value !== profile) {
      try {
        wasm.check_run(p.kind, profile, [], '1');
      } catch (e) {
        p.showError(`Настройки не приняты: ${messageOf(e)}`);
      }
      return;
    }
    p.form.reset(profile);
  }
  p.form.apply([...q.entries()].filter(([k]) => fields.has(k)));
  p.previewChanges();
  p.syncConfig();
  p.renderConfigs();
  if (!q.has('run')) {
    // A form link starts nothing, but a value it cannot take is said at once.
    try {
      p.jobs();
    } catch (e) {
      p.showError(`Настройки не приняты: ${messageOf(e)}`);
    }
  }
  if (q.has('run')) {
    p.root.scrollIntoView();
    p.start();
  }
}
