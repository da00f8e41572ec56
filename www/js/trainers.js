// @ts-check
// The live trainers of lessons 6 and 8. Each seed trains in a Web Worker of a small pool; this
// file only wires controls. Every fact it shows (profiles, seeds, choices, the solved
// threshold, CartPole's time step) comes from the trainer's schema in wasm, settings are checked
// by wasm before any worker starts, and the run history lives in a wasm RunBoard.
import { fitCanvas } from './canvas.js';
import { formatNumber } from './format.js';
import { SettingsForm } from './settings-form.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
const REDRAW_MS = 200; // live curves redraw at most 5 times a second: the main thread stays free

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./settings-form.js').Field} SchemaField */
/** @typedef {{ name: string, label: string, seeds: number[] }} SchemaProfile */
/**
 * What wasm's trainer_schema says of a trainer.
 * @typedef {{ name: string, fields: SchemaField[], profiles: SchemaProfile[], solved_threshold: number, time_step_s: number, page: { file: string, seeds_param: string, max_seeds: number } }} Schema
 */
/**
 * A run as wasm's check_run accepted it.
 * @typedef {{ name: string, profile: string, set: [string, string][], seeds: number[], total_per_seed: number, steps_per_seed: number, unit: string }} CheckedRun
 */
/** @typedef {{ request: { profile: string, set: [string, string][] }, seed: number }} Job */
/** @typedef {{ type: string, info?: unknown, line?: string, extra?: any, message?: string }} WorkerMessage */
/** @typedef {'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed'} Status */

/** What the page collected, for downloads and the page tests. @type {Record<string, unknown>} */
window.pgbookRuns = {};

/**
 * An element with attributes (`class`, `text`, `on…` listeners, the rest as attributes).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {(Node | string)[]} children
 */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/**
 * A table of already formatted cells under one header row.
 * @param {string[]} headers @param {string[][]} rows @param {Record<string, string>} [attrs]
 */
function textTable(headers, rows, attrs = {}) {
  const table = /** @type {HTMLTableElement} */ (el('table', { class: 'numbers', ...attrs }));
  const head = table.createTHead().insertRow();
  for (const h of headers) head.append(el('th', { text: h }));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const v of row) tr.insertCell().textContent = v;
  }
  return table;
}

/** The profile choice of a trainer, from its schema. @param {string} id @param {Schema} schema */
function profileSelect(id, schema) {
  const options = schema.profiles.map((p) => el('option', { value: p.name, text: p.label }));
  return /** @type {HTMLSelectElement} */ (el('select', { id }, ...options));
}

/** @param {string} name @param {string} type @param {string} text */
function download(name, type, text) {
  const a = /** @type {HTMLAnchorElement} */ (el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name }));
  document.body.append(a);
  a.click();
  setTimeout(() => {
    URL.revokeObjectURL(a.href);
    a.remove();
  }, 1000);
}

/** @param {number} s */
function seconds(s) {
  if (!Number.isFinite(s)) return '…';
  return s < 60 ? `${Math.ceil(s)} с` : `${Math.floor(s / 60)} мин ${Math.ceil(s % 60)} с`;
}

/** An error's message for the page. @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

// One run = one job per seed, on a pool of at most navigator.hardwareConcurrency workers (the
// rest queue and start as workers free up). Reports arrive as messages; nothing blocks the page.
class WorkerRun {
  /** @param {string} kind @param {Job[]} jobs @param {(job: number, m: WorkerMessage) => void} onMessage */
  constructor(kind, jobs, onMessage) {
    this.kind = kind;
    this.onMessage = onMessage;
    this.jobs = jobs;
    this.next = 0; // the first job not yet given to a worker
    this.paused = false; // a pause applies to running workers and to jobs that start later
    /** @type {{ worker: Worker, job: number }[]} the job each worker runs now, or -1 */
    this.workers = [];
    const size = Math.max(1, Math.min(jobs.length, navigator.hardwareConcurrency || 2));
    for (let k = 0; k < size; k++) this.workers.push(this.spawn());
  }

  spawn() {
    const slot = { worker: new Worker(WORKER_URL, { type: 'module' }), job: -1 };
    const w = slot.worker;
    w.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ e) => {
      const m = e.data;
      if (m.type === 'ready') {
        this.assign(slot);
        return;
      }
      if (slot.job < 0) return;
      const i = slot.job;
      if (m.type === 'finished') slot.job = -1;
      this.onMessage(i, m);
      if (m.type === 'finished') this.assign(slot);
    };
    // An exception the worker did not catch (e.g. its script failed to load).
    w.onerror = (e) => {
      e.preventDefault();
      const message = e.message ? `фоновый поток остановился с ошибкой (${e.message})` : 'фоновый поток остановился с ошибкой';
      this.onMessage(Math.max(0, slot.job), { type: 'error', message });
    };
    w.onmessageerror = () =>
      this.onMessage(Math.max(0, slot.job), { type: 'error', message: 'сообщение фонового потока не удалось прочитать' });
    return slot;
  }

  /**
   * Gives the next queued job to a free worker (a pause before it started is honoured: the job
   * starts paused).
   * @param {{ worker: Worker, job: number }} slot
   */
  assign(slot) {
    if (this.next >= this.jobs.length) return;
    const i = this.next++;
    const job = this.jobs[i];
    slot.job = i;
    slot.worker.postMessage({ type: 'start', kind: this.kind, request: job.request, seed: job.seed, paused: this.paused });
  }

  /** @param {'pause' | 'resume'} type */
  send(type) {
    this.paused = type === 'pause';
    this.workers.filter((s) => s.job >= 0).forEach((s) => s.worker.postMessage({ type }));
  }

  /** @param {number} i @param {string} type */
  sendTo(i, type) {
    this.workers.find((s) => s.job === i)?.worker.postMessage({ type });
  }

  terminate() {
    this.workers.forEach((s) => s.worker.terminate());
    this.workers = [];
  }
}

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
    /** @type {CheckedRun | null} */
    this.settings = null;
    // Every setting of the schema as a control; the form keeps what the reader typed.
    this.form = new SettingsForm(this.schema.fields, prefix, () => this.rememberForm());
    this.form.reset(this.profile.value);
    this.profile.addEventListener('change', () => {
      this.form.reset(this.profile.value);
      this.previewChanges();
    });
    /** @type {WorkerRun | null} */
    this.run = null;
    /** @type {Status} */
    this.status = 'idle';
    this.unit = '';
    this.seedParam = this.schema.page.seeds_param; // what run links call the seeds
    this.dirty = false;
    this.lastDraw = 0;
    this.t0 = 0;
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
    this.share = /** @type {HTMLAnchorElement} */ (el('a', { class: 'share', href: '#', text: 'Ссылка на этот запуск' }));
    this.downloads = el(
      'span',
      { class: 'downloads' },
      button('CSV', () => this.downloadCsv()),
      button('JSON', () => this.downloadJson()),
    );
    this.setStatus('idle');
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

  /* The shared life cycle. */

  /** The checked jobs of the form's settings, one per seed (throws wasm's message). @returns {Job[]} */
  jobs() {
    /** @type {CheckedRun} */
    const s = this.wasm.check_run(this.kind, this.profile.value, this.form.overrides(), this.seedInput.value);
    this.settings = s;
    this.unit = s.unit;
    return s.seeds.map((seed) => ({ request: { profile: s.profile, set: s.set }, seed }));
  }
  /** @param {number} i */
  jobLabel(i) {
    return `начальное значение ${this.settings?.seeds[i] ?? i}`;
  }
  /** The seeds of the share link. @param {URLSearchParams} q */
  seedParams(q) {
    q.set(this.seedParam, (this.settings?.seeds ?? []).join(','));
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
    if (s) this.board?.draw(curve, detail, s.profile, s.total_per_seed, s.steps_per_seed);
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
    return el('div', { class: 'controls trainer-controls' }, ...fields, el('span', { class: 'buttons' }, ...Object.values(this.buttons)));
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
    const settings = /** @type {CheckedRun} */ (this.settings);
    this.terminate();
    this.showChanges(settings.profile, settings.set);
    this.board = new this.wasm.RunBoard(this.kind, new Float64Array(settings.seeds));
    this.begin();
    this.t0 = performance.now();
    this.pausedMs = 0;
    this.run = new WorkerRun(this.kind, jobs, (i, m) => this.onMessage(i, m));
    this.setStatus('running');
    this.share.href = this.shareUrl(settings);
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
    this.dirty = false; // a redraw queued before the click must not bring the old run back
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
  }

  /** Every canvas of the panel back to its state before any run. */
  clearCanvases() {
    for (const c of this.root.querySelectorAll('canvas')) {
      c.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    }
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
      case 'started':
        board.start(i, m.info);
        break;
      case 'update':
        board.push(i, m.line ?? '');
        this.update(i, m.extra ?? {});
        this.dirty = true;
        break;
      case 'finished':
        board.push(i, m.line ?? '');
        this.finished(i);
        this.dirty = true;
        break;
      case 'error':
      case 'panic':
        this.terminate();
        this.setStatus('failed');
        this.showError(
          `${m.type === 'panic' ? 'Сбой в модуле WebAssembly' : 'Ошибка обучения'} (${this.jobLabel(i)}): ${m.message}. Нажмите «Старт», чтобы начать заново.`,
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
        return `${counted}; готово за ${seconds(elapsed)}`;
      case 'stopped':
        return `${counted}; остановлено.`;
      case 'paused':
        return `${counted}; пауза.`;
      case 'failed':
        return `${counted}; обучение прервано ошибкой.`;
      default: {
        const left = done > 0 ? (elapsed * (total - done)) / done : NaN;
        return `${counted}; осталось ≈ ${seconds(left)}`;
      }
    }
  }

  updateProgress() {
    if (!this.board) return;
    const { done, total } = this.board.progress();
    this.progress.value = total ? done / total : 0;
    const paused = this.status === 'paused' ? performance.now() - this.pauseStart : 0;
    const elapsed = (performance.now() - this.t0 - this.pausedMs - paused) / 1000;
    this.progressText.textContent = this.progressLine(done, total, elapsed);
  }

  /** Keeps what the reader typed in the URL (without starting anything), so Back restores it. */
  rememberForm() {
    this.previewChanges();
    const q = new URLSearchParams({ form: this.kind, profile: this.profile.value });
    for (const [k, v] of this.form.overrides()) q.set(k, v);
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

  /** The share link: the trainer, the profile, the overrides and the seeds. @param {CheckedRun} settings */
  shareUrl(settings) {
    const q = new URLSearchParams({ run: this.kind, profile: settings.profile });
    for (const [k, v] of settings.set) q.set(k, v);
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
    }
  }
}

// ---------------- PPO on CartPole (lesson 6) ----------------
class PpoPanel extends Panel {
  /** @param {HTMLElement} root @param {Wasm} wasm */
  constructor(root, wasm) {
    super(root, wasm, 'ppo', 'ppo');
    this.seeds = /** @type {HTMLInputElement} */ (
      el('input', { id: 'ppo-seeds', type: 'text', inputmode: 'numeric', size: '18', value: this.profileSeeds().join(', ') })
    );
    this.profile.addEventListener('change', () => {
      this.seeds.value = this.profileSeeds().join(', ');
      if (this.status === 'idle') this.drawEmpty(); // the empty axes name the chosen profile
    });
    /** @param {string} id @param {string} label @param {string} [cls] */
    const canvas = (id, label, cls = '') =>
      /** @type {HTMLCanvasElement} */ (el('canvas', { id, class: cls, role: 'img', 'aria-label': label }));
    this.curve = canvas('canvas-ppo-curve', 'Кривая обучения: медиана и межквартильный диапазон по начальным значениям');
    this.diag = canvas('canvas-ppo-diagnostics', 'Диагностики PPO по обновлениям');
    this.pole = canvas('canvas-cartpole', 'CartPole: жадная политика первого начального значения', 'cartpole');
    this.table = el('div', { class: 'table-wrap' });
    /** @param {HTMLCanvasElement} c @param {string} text */
    const figure = (c, text) => el('figure', { class: 'live-plain' }, c, el('figcaption', { text }));
    root.append(
      this.controlsRow(
        el('label', { for: 'ppo-profile' }, 'профиль ', this.profile),
        el('label', { for: 'ppo-seeds' }, 'начальные значения ', this.seeds),
      ),
      this.form.element,
      this.changes,
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el(
        'div',
        { class: 'trainer-figures' },
        figure(
          this.curve,
          'Жадная оценка: медиана по начальным значениям, межквартильный диапазон (заливка), отдельные запуски (тонкие линии), потолок 500.',
        ),
        figure(this.pole, 'Текущая жадная политика первого запуска на новом эпизоде.'),
        figure(
          this.diag,
          'Первый запуск по обновлениям: доля активного клиппирования и доля отношений вне 1 ± ε (левая ось) и приближённая KL (правая ось, в своём масштабе: она обычно на порядок меньше долей).',
        ),
      ),
      this.table,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads),
    );
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
      this.fit(this.curve, this.diag);
      this.wasm.draw_empty_trainer(this.kind, this.curve.id, this.diag.id, this.profile.value, this.profileSeeds()[0] ?? 0);
      this.drawPole([0, 0, 0, 0], 'эпизод появится после первой оценки');
    } catch (e) {
      this.showError(`Не удалось нарисовать оси: ${messageOf(e)}`);
    }
  }

  get seedInput() {
    return this.seeds;
  }

  begin() {
    Object.defineProperty(window.pgbookRuns, 'ppo', { get: () => this.runs(), configurable: true, enumerable: true });
    this.clear();
  }

  clear() {
    this.table.replaceChildren();
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null; // the next run's episodes start a loop of their own
    this.frames = null;
  }

  /** @param {number} i @param {{ episode?: number[], update?: number }} extra */
  update(i, extra) {
    if (i === 0 && extra.episode) this.animate(extra.episode, extra.update ?? 0);
  }

  finished() {
    this.renderTable();
    this.allFinished();
  }

  /** @param {boolean} [all] */
  draw(all = false) {
    // While training, one figure per redraw, in turn, so that no frame's task grows long on a
    // slow machine; once the run has ended, both.
    const both = all || this.status !== 'running';
    this.drawTurn = !this.drawTurn;
    const curve = both || this.drawTurn ? this.curve.id : '';
    const diag = both || !this.drawTurn ? this.diag.id : '';
    this.fit(this.curve, this.diag);
    this.drawBoard(curve, diag);
    if (!both && this.drawTurn) this.dirty = true; // the other figure at the next redraw
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
    /** @type {{ seed: number, final_evaluation_mean: number, final_evaluation_std: number, env_steps: number, solved_from_env_steps: number | null }[]} */
    const summaries = this.board?.summaries() ?? [];
    const rows = summaries.map((x) => [
      String(x.seed),
      formatNumber(x.final_evaluation_mean, 1),
      formatNumber(x.final_evaluation_std, 1),
      formatNumber(x.env_steps),
      x.solved_from_env_steps == null ? '—' : formatNumber(x.solved_from_env_steps),
    ]);
    const stable = `стабильно ≥ ${formatNumber(this.schema.solved_threshold)} начиная с шага`;
    this.table.replaceChildren(
      textTable(['начальное значение', 'итоговая оценка', 'std', 'шагов среды', stable], rows, { id: 'ppo-summary' }),
    );
  }

  downloadCsv() {
    if (this.board) download('ppo-cartpole.csv', 'text/csv', this.board.csv());
  }
  downloadJson() {
    // Exactly the lines `pgbook train ppo … --json` prints for the same run.
    if (this.board) download('ppo-cartpole.jsonl', 'application/x-ndjson', this.board.json_lines());
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
    root.append(
      this.controlsRow(
        el('label', { for: 'seq-profile' }, 'профиль ', this.profile),
        el('label', { for: 'seq-seed' }, 'начальное значение ', this.seed),
      ),
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
      el('h3', { text: 'Жадные ответы сейчас' }),
      this.greedy,
      el('h3', { text: 'Первый пакет роллаутов' }),
      this.batch,
      this.summaryBox,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads),
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
    this.greedy.replaceChildren();
    this.batch.replaceChildren();
    this.summaryBox.replaceChildren();
  }

  /** @param {number} _i @param {{ first_batch?: SequencePanel['firstBatch'], greedy?: { prompt: string, answer: string, correct_answer: string, reward: number, correct: boolean }[] }} extra */
  update(_i, extra) {
    if (extra.first_batch && !this.firstBatch) {
      this.firstBatch = extra.first_batch;
      this.renderFirstBatch();
    }
    if (extra.greedy) this.renderGreedy(extra.greedy);
  }

  finished() {
    const [summary] = this.board?.summaries() ?? [];
    if (summary) {
      const text =
        `Итог: средняя награда ${formatNumber(summary.final_mean_reward)}, доля верных ответов ${formatNumber(summary.final_success_rate)}, ` +
        `жадно верно ${summary.greedy_correct} из ${summary.prompts} запросов за ${summary.iterations} итераций.`;
      this.summaryBox.replaceChildren(el('p', { text }));
    }
    this.allFinished();
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

  renderFirstBatch() {
    const rows = (this.firstBatch ?? []).map((r) => [
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
    // Exactly the lines `pgbook train sequence … --json` prints for the same run.
    if (this.board) download('sequence.jsonl', 'application/x-ndjson', this.board.json_lines());
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
  const ppoRoot = /** @type {HTMLElement | null} */ (document.querySelector('#trainer-ppo'));
  if (ppoRoot) panels.ppo = new PpoPanel(ppoRoot, wasm);
  const seqRoot = /** @type {HTMLElement | null} */ (document.querySelector('#trainer-sequence'));
  if (seqRoot) panels.sequence = new SequencePanel(seqRoot, wasm);
  window.pgbookPanels = panels;
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
      notice(`Ссылка не распознана: неизвестный запуск «${name.slice(0, 24)}». Есть ppo (урок 6) и sequence (урок 8).`);
    }
    return;
  }
  if (!p) return;
  const fields = new Set(p.schema.fields.map((f) => f.name));
  const own = new Set(['run', 'form', 'profile', p.seedParam, ...fields]);
  const foreign = [...q.keys()].filter((k) => !own.has(k));
  if (foreign.length) {
    p.showError(
      `Ссылка не принята: параметр «${foreign[0].slice(0, 24)}» не относится к этому обучению (здесь: profile, ${p.seedParam} и настройки из таблицы параметров).`,
    );
    return;
  }
  p.applyParams(q);
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
