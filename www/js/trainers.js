// The live trainers of lessons 6 and 8. Each seed trains in its own Web Worker; this file
// only wires controls. Every fact it shows (profiles, seeds, choices, the solved threshold,
// CartPole's time step) comes from the trainer's schema in wasm, settings are checked by wasm
// before any worker starts, and the run history lives in a wasm RunBoard.
import { formatNumber } from './format.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
const REDRAW_MS = 200; // live curves redraw at most 5 times a second: the main thread stays free

window.pgbookRuns = {}; // what the page collected, for downloads and the e2e tests

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

// A table of already formatted cells under one header row.
function textTable(headers, rows, attrs = {}) {
  const table = el('table', { class: 'numbers', ...attrs });
  const head = table.createTHead().insertRow();
  for (const h of headers) head.append(el('th', { text: h }));
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const v of row) tr.insertCell().textContent = v;
  }
  return table;
}

// The profile choice of a trainer, from its schema.
function profileSelect(id, schema) {
  return el('select', { id }, ...schema.profiles.map((p) => el('option', { value: p.name, text: p.label })));
}

// A <select> of a choice setting, from its schema field.
function choiceSelect(id, schema, name) {
  const field = schema.fields.find((f) => f.name === name);
  return el('select', { id }, ...field.choices.map((c) => el('option', { value: c, text: c })));
}

function download(name, type, text) {
  const a = el('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function seconds(s) {
  if (!Number.isFinite(s)) return '…';
  return s < 60 ? `${Math.ceil(s)} с` : `${Math.floor(s / 60)} мин ${Math.ceil(s % 60)} с`;
}

// One run = one job per seed, on a pool of at most navigator.hardwareConcurrency workers (the
// rest queue and start as workers free up). Reports arrive as messages; nothing blocks the page.
class WorkerRun {
  constructor(kind, jobs, handlers) {
    this.kind = kind;
    this.handlers = handlers;
    this.jobs = jobs;
    this.next = 0;          // the first job not yet given to a worker
    this.paused = false;    // a pause applies to running workers and to jobs that start later
    this.workers = [];      // { worker, job } — job is the index the worker runs now, or -1
    const size = Math.max(1, Math.min(jobs.length, navigator.hardwareConcurrency || 2));
    for (let k = 0; k < size; k++) this.workers.push(this.spawn());
  }

  spawn() {
    const slot = { worker: new Worker(WORKER_URL, { type: 'module' }), job: -1 };
    const w = slot.worker;
    w.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'ready') { this.assign(slot); return; }
      if (slot.job < 0) return;
      const i = slot.job;
      if (m.type === 'finished') slot.job = -1;
      this.handlers.message(i, m);
      if (m.type === 'finished') this.assign(slot);
    };
    // An exception the worker did not catch (e.g. its script failed to load).
    w.onerror = (e) => { e.preventDefault(); this.handlers.message(Math.max(0, slot.job), { type: 'error', message: e.message ? `фоновый поток остановился с ошибкой (${e.message})` : 'фоновый поток остановился с ошибкой' }); };
    w.onmessageerror = () => this.handlers.message(Math.max(0, slot.job), { type: 'error', message: 'сообщение фонового потока не удалось прочитать' });
    return slot;
  }

  // Gives the next queued job to a free worker (a pause before it started is honoured: the job
  // starts paused).
  assign(slot) {
    if (this.next >= this.jobs.length) return;
    const i = this.next++;
    const job = this.jobs[i];
    slot.job = i;
    slot.worker.postMessage({ type: 'start', kind: this.kind, request: job.request, seed: job.seed, paused: this.paused });
  }

  // Jobs whose worker has started them.
  active() { return this.workers.filter((s) => s.job >= 0); }

  send(type) {
    if (type === 'pause') this.paused = true;
    if (type === 'resume') this.paused = false;
    this.active().forEach((s) => s.worker.postMessage({ type }));
  }
  sendTo(i, type) { this.workers.find((s) => s.job === i)?.worker.postMessage({ type }); }
  terminate() { this.workers.forEach((s) => s.worker.terminate()); this.workers = []; }
}

// Shared controls and life cycle of a trainer panel.
class Panel {
  constructor(root, wasm, kind) {
    this.root = root;
    this.wasm = wasm;
    this.kind = kind;
    this.schema = wasm.trainer_schema(kind);
    this.board = null;
    this.overrides = []; // [name, value] settings from the link, checked by wasm
    this.run = null;
    this.status = 'idle'; // idle | running | paused | stopped | finished | failed
    this.dirty = false;
    this.lastDraw = 0;
    this.message = el('div', { class: 'figure-error', role: 'alert', hidden: '' });
    this.changes = el('p', { class: 'trainer-changes', hidden: '' }); // the link's overrides
    this.progress = el('progress', { max: '1', value: '0', 'aria-label': 'Ход обучения' });
    this.progressText = el('span', { class: 'progress-text', 'aria-live': 'polite', text: 'Обучение не запущено.' });
    this.buttons = {
      start: el('button', { type: 'button', text: 'Старт', onclick: () => this.start() }),
      pause: el('button', { type: 'button', text: 'Пауза', onclick: () => this.togglePause() }),
      stop: el('button', { type: 'button', text: 'Стоп', onclick: () => this.stop() }),
      reset: el('button', { type: 'button', text: 'Сброс', onclick: () => this.reset() }),
    };
    this.share = el('a', { class: 'share', href: '#', text: 'Ссылка на этот запуск' });
    this.downloads = el('span', { class: 'downloads' },
      el('button', { type: 'button', text: 'CSV', onclick: () => this.downloadCsv() }),
      el('button', { type: 'button', text: 'JSON', onclick: () => this.downloadJson() }));
    this.setStatus('idle');
  }

  controlsRow(...fields) {
    return el('div', { class: 'controls trainer-controls' }, ...fields,
      el('span', { class: 'buttons' }, ...Object.values(this.buttons)));
  }

  showError(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  setStatus(status) {
    const focused = document.activeElement;
    this.status = status;
    const active = status === 'running' || status === 'paused';
    this.buttons.start.disabled = active;
    this.buttons.pause.disabled = !active;
    this.buttons.pause.textContent = status === 'paused' ? 'Продолжить' : 'Пауза';
    this.buttons.stop.disabled = !active;
    this.buttons.reset.disabled = status === 'idle';
    this.downloads.querySelectorAll('button').forEach((b) => { b.disabled = status === 'idle'; });
    this.root.dataset.status = status;
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
      this.showError(`Настройки не приняты: ${e.message ?? e}`);
      return;
    }
    this.terminate();
    this.showChanges();
    this.board = new this.wasm.RunBoard(this.kind, this.settings.seeds);
    this.begin(jobs);
    this.t0 = performance.now();
    this.pausedMs = 0;
    this.run = new WorkerRun(this.kind, jobs, { message: (i, m) => this.onMessage(i, m) });
    this.setStatus('running');
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
    this.dirty = false; // a redraw queued before the click must not bring the old run back
    this.clear();
    this.clearCanvases();
    this.showError('');
    this.progress.value = 0;
    this.progressText.textContent = 'Обучение не запущено.';
    this.setStatus('idle');
  }

  // The settings that differ from the profile (from a link), named by their schema labels.
  showChanges() {
    const label = (name) => this.schema.fields.find((f) => f.name === name)?.label ?? name;
    const set = this.settings.set.filter(([k]) => k !== 'reduction');
    this.changes.textContent = set.length
      ? `Изменено относительно профиля ${this.settings.profile}: ${set.map(([k, v]) => `${label(k)} = ${v}`).join('; ')}.`
      : '';
    this.changes.hidden = set.length === 0;
  }

  // Every canvas of the panel back to its state before any run.
  clearCanvases() {
    for (const c of this.root.querySelectorAll('canvas')) {
      c.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    }
  }

  terminate() {
    this.run?.terminate();
    this.run = null;
  }

  onMessage(i, m) {
    switch (m.type) {
      case 'started': this.board.start(i, m.info); this.started(i, m.info); break;
      case 'update': this.board.push(i, m.line); this.update(i, m.extra); this.dirty = true; break;
      case 'finished': this.board.push(i, m.line); this.finished(i); this.dirty = true; break;
      case 'error':
      case 'panic':
        this.terminate();
        this.setStatus('failed');
        this.showError(`${m.type === 'panic' ? 'Сбой в модуле WebAssembly' : 'Ошибка обучения'} (${this.jobLabel(i)}): ${m.message}. Нажмите «Старт», чтобы начать заново.`);
        this.dirty = true;
        break;
      default: break;
    }
  }

  // Redraw live figures at most every REDRAW_MS, never per message.
  tick() {
    if (this.dirty && this.board && performance.now() - this.lastDraw >= REDRAW_MS) {
      this.dirty = false;
      this.lastDraw = performance.now();
      try {
        this.draw();
      } catch (e) {
        this.showError(`Не удалось нарисовать кривые: ${e.message ?? e}`);
      }
      this.updateProgress();
    }
    if (this.run || this.dirty) requestAnimationFrame(() => this.tick());
  }

  // The progress line says what is true now: running (with the time left), paused, stopped or
  // finished; it never runs on after a stop.
  progressLine(done, total, elapsed) {
    const counted = `${formatNumber(done)} из ${formatNumber(total)} ${this.unit}`;
    switch (this.status) {
      case 'finished': return `${counted}; готово за ${seconds(elapsed)}`;
      case 'stopped': return `${counted}; остановлено.`;
      case 'paused': return `${counted}; пауза.`;
      case 'failed': return `${counted}; обучение прервано ошибкой.`;
      default: {
        const left = done > 0 ? elapsed * (total - done) / done : NaN;
        return `${counted}; осталось ≈ ${seconds(left)}`;
      }
    }
  }

  updateProgress() {
    if (!this.board) return;
    const { done, total } = this.board.progress();
    this.progress.value = total ? done / total : 0;
    const elapsed = (performance.now() - this.t0 - this.pausedMs - (this.status === 'paused' ? performance.now() - this.pauseStart : 0)) / 1000;
    this.progressText.textContent = this.progressLine(done, total, elapsed);
  }

  // The settings of the form (and the URL's overrides) as wasm checks them.
  request() {
    return { profile: this.profile.value, set: this.overrides };
  }

  // Keeps what the reader typed in the URL (without starting anything), so Back restores it.
  rememberForm() {
    const q = new URLSearchParams({ form: this.kind, profile: this.profile.value });
    for (const [k, v] of this.overrides) q.set(k, v);
    this.formParams(q);
    history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash.split('?')[0]}`);
  }

  watchForm(...controls) {
    for (const c of controls) c.addEventListener('change', () => this.rememberForm());
  }

  // What the page keeps of the run (read by the downloads and the e2e tests).
  runs() { return this.board ? this.board.runs() : []; }

  // The share link: the trainer, the profile, the overrides and the seeds.
  shareUrl() {
    const q = new URLSearchParams({ run: this.kind, profile: this.settings.profile });
    for (const [k, v] of this.settings.set) q.set(k, v);
    this.seedParams(q);
    return `${location.pathname}?${q}#trainer-${this.kind}`;
  }


  allFinished() {
    if (this.board.is_finished()) {
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
  constructor(root, wasm) {
    super(root, wasm, 'ppo');
    this.profile = profileSelect('ppo-profile', this.schema);
    this.seeds = el('input', { id: 'ppo-seeds', type: 'text', inputmode: 'numeric', size: '18', value: this.profileSeeds().join(', ') });
    this.profile.addEventListener('change', () => { this.seeds.value = this.profileSeeds().join(', '); });
    this.curve = el('canvas', { id: 'canvas-ppo-curve', role: 'img', 'aria-label': 'Кривая обучения: медиана и межквартильный диапазон по начальным значениям' });
    this.diag = el('canvas', { id: 'canvas-ppo-diagnostics', role: 'img', 'aria-label': 'Диагностики PPO по обновлениям' });
    this.pole = el('canvas', { id: 'canvas-cartpole', class: 'cartpole', role: 'img', 'aria-label': 'CartPole: жадная политика первого начального значения' });
    this.table = el('div', { class: 'table-wrap' });
    root.append(
      this.controlsRow(
        el('label', { for: 'ppo-profile' }, 'профиль ', this.profile),
        el('label', { for: 'ppo-seeds' }, 'начальные значения ', this.seeds)),
      this.changes,
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el('div', { class: 'trainer-figures' },
        el('figure', { class: 'live-plain' }, this.curve, el('figcaption', { text: 'Жадная оценка: медиана по начальным значениям, межквартильный диапазон (заливка), отдельные запуски (тонкие линии), потолок 500.' })),
        el('figure', { class: 'live-plain' }, this.pole, el('figcaption', { text: 'Текущая жадная политика первого запуска на новом эпизоде.' })),
        el('figure', { class: 'live-plain' }, this.diag, el('figcaption', { text: 'Первый запуск по обновлениям: доля активного клиппирования и доля отношений вне 1 ± ε (левая ось) и приближённая KL (правая ось, в своём масштабе: она обычно на порядок меньше долей).' }))),
      this.table,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads));
    this.animation = null;
    this.watchVisibility();
    this.seedParam = 'seeds';
    this.watchForm(this.profile, this.seeds);
  }

  applyParams(q) { if (q.has('seeds')) this.seeds.value = q.get('seeds'); }
  formParams(q) { q.set('seeds', this.seeds.value); }

  profileSeeds() { return this.schema.profiles.find((p) => p.name === this.profile.value)?.seeds ?? []; }

  jobs() {
    const s = this.wasm.check_run(this.kind, this.profile.value, this.overrides, this.seeds.value);
    this.settings = s;
    this.unit = s.unit;
    return s.seeds.map((seed) => ({ request: { profile: s.profile, set: s.set }, seed }));
  }
  jobLabel(i) { return `начальное значение ${this.settings?.seeds[i] ?? i}`; }
  seedParams(q) { q.set('seeds', this.settings.seeds.join(',')); }

  begin() {
    Object.defineProperty(window.pgbookRuns, 'ppo', { get: () => this.runs(), configurable: true, enumerable: true });
    this.clear();
  }

  clear() {
    this.table.replaceChildren();
    cancelAnimationFrame(this.animation);
    this.animation = null; // the next run's episodes start a loop of their own
    this.frames = null;
  }

  started() {}

  update(i, extra) {
    if (i === 0 && extra.episode) this.animate(extra.episode, extra.update);
  }

  finished() {
    this.renderTable();
    this.allFinished();
  }

  draw() {
    this.board.draw(this.curve.id, this.diag.id, this.settings.profile);
  }

  // Plays the greedy episode (a flat [x, ẋ, θ, θ̇, …] array) at CartPole's pace. It draws only
  // when the frame changes, pauses while the canvas is off-screen or the tab hidden, replays
  // while the run trains, and stops on the last frame once the run is over.
  animate(flat, update) {
    this.frames = { flat, update, t0: performance.now(), shown: -1 };
    this.kickAnimation();
  }

  watchVisibility() {
    this.poleVisible = true;
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
    if (this.animation || !f || !this.poleVisible || document.hidden) return;
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
        this.wasm.draw_cartpole(this.pole.id, s[0], s[1], s[2], s[3], `после обновления ${f.update}: шаг ${k + 1} из ${n}`);
      } catch (e) {
        this.showError(`Не удалось нарисовать CartPole: ${e.message ?? e}`);
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
    const rows = this.board.summaries().map((x) => [
      String(x.seed), formatNumber(x.final_evaluation_mean, 1), formatNumber(x.final_evaluation_std, 1),
      formatNumber(x.env_steps), x.solved_from_env_steps == null ? '—' : formatNumber(x.solved_from_env_steps)]);
    this.table.replaceChildren(textTable(
      ['начальное значение', 'итоговая оценка', 'std', 'шагов среды', `стабильно ≥ ${formatNumber(this.schema.solved_threshold)} начиная с шага`], rows, { id: 'ppo-summary' }));
  }

  downloadCsv() { download('ppo-cartpole.csv', 'text/csv', this.board.csv()); }
  downloadJson() { download('ppo-cartpole.json', 'application/json', JSON.stringify(this.runs(), null, 1)); }
}

// ---------------- the sequence policy (lesson 8) ----------------
class SequencePanel extends Panel {
  constructor(root, wasm) {
    super(root, wasm, 'sequence');
    this.profile = profileSelect('seq-profile', this.schema);
    this.seed = el('input', { id: 'seq-seed', type: 'number', min: '0', step: '1', value: String(this.schema.profiles[0].seeds[0]) });
    this.reduction = choiceSelect('seq-reduction', this.schema, 'reduction');
    this.curve = el('canvas', { id: 'canvas-seq-curve', role: 'img', 'aria-label': 'Средняя награда и доля верных ответов по итерациям' });
    this.greedy = el('div', { class: 'table-wrap', id: 'seq-greedy', 'aria-live': 'polite' });
    this.batch = el('div', { class: 'table-wrap', id: 'seq-first-batch' });
    this.summaryBox = el('div', { id: 'seq-summary' });
    root.append(
      this.controlsRow(
        el('label', { for: 'seq-profile' }, 'профиль ', this.profile),
        el('label', { for: 'seq-seed' }, 'начальное значение ', this.seed),
        el('label', { for: 'seq-reduction' }, 'редукция ', this.reduction)),
      this.changes,
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el('figure', { class: 'live-plain' }, this.curve, el('figcaption', { text: 'Оценка на свежих выборках после каждой итерации: средняя награда проверяющей функции и доля полностью верных ответов.' })),
      el('h3', { text: 'Жадные ответы сейчас' }), this.greedy,
      el('h3', { text: 'Первый пакет роллаутов' }), this.batch,
      this.summaryBox,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads));
    this.seedParam = 'seed';
    this.watchForm(this.profile, this.seed, this.reduction);
  }

  applyParams(q) {
    if (q.has('seed')) this.seed.value = q.get('seed');
    if (q.has('reduction')) this.reduction.value = q.get('reduction');
  }
  formParams(q) {
    q.set('seed', this.seed.value);
    q.set('reduction', this.reduction.value);
  }

  jobs() {
    // The reduction is a setting like any other: one more override of the profile.
    const set = [...this.overrides.filter(([k]) => k !== 'reduction'), ['reduction', this.reduction.value]];
    const s = this.wasm.check_run(this.kind, this.profile.value, set, this.seed.value);
    this.settings = s;
    this.unit = s.unit;
    return [{ request: { profile: s.profile, set: s.set }, seed: s.seeds[0] }];
  }
  jobLabel() { return `начальное значение ${this.settings?.seeds[0]}`; }
  seedParams(q) {
    q.set('seed', String(this.settings.seeds[0]));
    q.set('reduction', this.reduction.value);
  }

  begin() {
    this.firstBatch = null;
    Object.defineProperty(window.pgbookRuns, 'sequence', {
      get: () => ({ ...this.runs()[0], reduction: this.reduction.value, firstBatch: this.firstBatch }), configurable: true, enumerable: true,
    });
    this.clear();
  }

  clear() {
    this.greedy.replaceChildren();
    this.batch.replaceChildren();
    this.summaryBox.replaceChildren();
  }

  started() {}

  update(i, extra) {
    if (extra.first_batch && !this.firstBatch) { this.firstBatch = extra.first_batch; this.renderFirstBatch(); }
    if (extra.greedy) this.renderGreedy(extra.greedy);
  }

  finished() {
    const [summary] = this.board.summaries();
    this.summaryBox.replaceChildren(el('p', { text:
      `Итог: средняя награда ${formatNumber(summary.final_mean_reward)}, доля верных ответов ${formatNumber(summary.final_success_rate)}, ` +
      `жадно верно ${summary.greedy_correct} из ${summary.prompts} запросов за ${summary.iterations} итераций.` }));
    this.allFinished();
  }

  draw() {
    this.board.draw(this.curve.id, '', this.settings.profile);
  }

  renderGreedy(answers) {
    this.greedy.replaceChildren(textTable(['запрос', 'жадный ответ', 'верный ответ', 'награда', 'верно'],
      answers.map((a) => [a.prompt, a.answer, a.correct_answer, formatNumber(a.reward), a.correct ? 'да' : 'нет'])));
  }

  renderFirstBatch() {
    this.batch.replaceChildren(textTable(['запрос', 'последовательность', 'награда', 'преимущество', 'маска ответа'],
      this.firstBatch.map((r) => [r.prompt, r.sequence, formatNumber(r.reward), formatNumber(r.advantage),
        r.mask.map((m) => (m ? '1' : '0')).join(' ')])));
  }

  downloadCsv() { download('sequence.csv', 'text/csv', this.board.csv()); }
  downloadJson() { download('sequence.json', 'application/json', JSON.stringify(this.runs()[0], null, 1)); }
}

// The page that hosts each trainer (a link to a trainer on another page is forwarded there).
const HOSTS = { ppo: 'lesson-06.html', sequence: 'lesson-08.html' };

// A message at the top of the page, for links that name no trainer of this page.
function notice(text) {
  const box = el('div', { class: 'figure-error link-error', role: 'alert', text });
  (document.querySelector('main') ?? document.body).prepend(box);
}

// The link's parameters: the query, and any written after '#' (`#trainer-ppo?seeds=…` or
// `#run=ppo&…`), the latter winning.
function linkParams() {
  const q = new URLSearchParams(location.search);
  const hash = location.hash.slice(1);
  const tail = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : hash.includes('=') ? hash : '';
  for (const [k, v] of new URLSearchParams(tail)) q.set(k, v);
  return q;
}

// Starts a run from the URL (?run=ppo&profile=smoke&seeds=11,37&gamma=0.99 or
// ?run=sequence&profile=smoke&seed=5&reduction=token_mean): a teacher sends one link. Any
// setting of the trainer's schema may be overridden by name; wasm checks them all. Without
// `run`, the parameters only fill the form (the panel keeps what the reader types there, so
// Back brings it back).
export function setupTrainers(wasm) {
  const panels = {};
  const ppoRoot = document.querySelector('#trainer-ppo');
  if (ppoRoot) panels.ppo = new PpoPanel(ppoRoot, wasm);
  const seqRoot = document.querySelector('#trainer-sequence');
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
    if (Object.hasOwn(HOSTS, name)) {
      location.replace(`${HOSTS[name]}?${q}#trainer-${name}`);
    } else {
      notice(`Ссылка не распознана: неизвестный запуск «${String(name).slice(0, 24)}». Есть ppo (урок 6) и sequence (урок 8).`);
    }
    return;
  }
  if (!p) return;
  const fields = new Set(p.schema.fields.map((f) => f.name));
  const own = new Set(['run', 'form', 'profile', p.seedParam, ...fields]);
  const foreign = [...q.keys()].filter((k) => !own.has(k));
  if (foreign.length) {
    p.showError(`Ссылка не принята: параметр «${foreign[0].slice(0, 24)}» не относится к этому обучению (здесь: profile, ${p.seedParam} и настройки из таблицы параметров).`);
    return;
  }
  p.overrides = [...q.entries()].filter(([k]) => fields.has(k) && k !== 'reduction');
  p.applyParams(q);
  // A <select> ignores values it does not offer: let wasm say what is wrong with the link.
  const asked = { profile: q.get('profile'), reduction: q.get('reduction') };
  if (asked.profile !== null) p.profile.value = asked.profile;
  const refused = (asked.profile !== null && p.profile.value !== asked.profile)
    || (p === panels.sequence && asked.reduction !== null && p.reduction.value !== asked.reduction);
  if (refused) {
    try {
      wasm.check_run(p.kind, asked.profile ?? p.profile.value, [['reduction', asked.reduction ?? p.reduction?.value ?? '']].filter(() => p === panels.sequence), '1');
    } catch (e) {
      p.showError(`Настройки не приняты: ${e.message ?? e}`);
    }
    return;
  }
  if (q.has('run')) {
    p.root.scrollIntoView();
    p.start();
  }
}
