// The live trainers of lessons 6 and 8. Each seed trains in its own Web Worker; this file
// only wires controls, collects the workers' reports and asks wasm to draw them.
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

// The profile choice both trainers offer.
function profileSelect(id) {
  return el('select', { id },
    el('option', { value: 'smoke', text: 'smoke — секунды' }), el('option', { value: 'full', text: 'full — полный' }));
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

// One run = one worker per job (seed). Reports arrive as messages; nothing blocks the page.
class WorkerRun {
  constructor(kind, jobs, handlers) {
    this.kind = kind;
    this.handlers = handlers;
    this.workers = jobs.map((settings, i) => this.spawn(settings, i));
  }

  spawn(settings, i) {
    const w = new Worker(WORKER_URL, { type: 'module' });
    w.onmessage = (e) => {
      const m = e.data;
      if (m.type === 'ready') w.postMessage({ type: 'start', kind: this.kind, settings });
      else this.handlers.message(i, m);
    };
    // An exception the worker did not catch (e.g. its script failed to load).
    w.onerror = (e) => { e.preventDefault(); this.handlers.message(i, { type: 'error', message: e.message || 'worker failed' }); };
    w.onmessageerror = () => this.handlers.message(i, { type: 'error', message: 'a message from the worker could not be read' });
    return w;
  }

  send(type) { this.workers.forEach((w) => w.postMessage({ type })); }
  sendTo(i, type) { this.workers[i]?.postMessage({ type }); }
  terminate() { this.workers.forEach((w) => w.terminate()); this.workers = []; }
}

// Shared controls and life cycle of a trainer panel.
class Panel {
  constructor(root, wasm, kind) {
    this.root = root;
    this.wasm = wasm;
    this.kind = kind;
    this.run = null;
    this.status = 'idle'; // idle | running | paused | stopped | finished | failed
    this.dirty = false;
    this.lastDraw = 0;
    this.message = el('div', { class: 'figure-error', role: 'alert', hidden: '' });
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
    this.status = status;
    const active = status === 'running' || status === 'paused';
    this.buttons.start.disabled = active;
    this.buttons.pause.disabled = !active;
    this.buttons.pause.textContent = status === 'paused' ? 'Продолжить' : 'Пауза';
    this.buttons.stop.disabled = !active;
    this.buttons.reset.disabled = status === 'idle';
    this.downloads.querySelectorAll('button').forEach((b) => { b.disabled = status === 'idle'; });
    this.root.dataset.status = status;
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
    } else if (this.status === 'paused') {
      this.pausedMs += performance.now() - this.pauseStart;
      this.run.send('resume');
      this.setStatus('running');
    }
  }

  stop() {
    if (!this.run) return;
    this.terminate(); // a stopped run keeps its curves; the workers are gone
    this.setStatus('stopped');
    this.progressText.textContent += ' Остановлено.';
  }

  reset() {
    this.terminate();
    this.clear();
    this.showError('');
    this.progress.value = 0;
    this.progressText.textContent = 'Обучение не запущено.';
    this.setStatus('idle');
  }

  terminate() {
    this.run?.terminate();
    this.run = null;
  }

  onMessage(i, m) {
    switch (m.type) {
      case 'started': this.started(i, m.info); break;
      case 'update': this.update(i, m.report, m.extra); this.dirty = true; break;
      case 'finished': this.finished(i, m.summary); this.dirty = true; break;
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
    if (this.dirty && performance.now() - this.lastDraw >= REDRAW_MS) {
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

  updateProgress() {
    const { done, total, unit } = this.counts();
    this.progress.value = total ? done / total : 0;
    const elapsed = (performance.now() - this.t0 - this.pausedMs - (this.status === 'paused' ? performance.now() - this.pauseStart : 0)) / 1000;
    const left = done > 0 ? elapsed * (total - done) / done : NaN;
    const tail = this.status === 'finished' ? `готово за ${seconds(elapsed)}` : `осталось ≈ ${seconds(left)}`;
    this.progressText.textContent = `${formatNumber(done)} из ${formatNumber(total)} ${unit}; ${tail}`;
  }

  allFinished() {
    if (this.states.every((s) => s.summary)) {
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
    this.profile = profileSelect('ppo-profile');
    this.seeds = el('input', { id: 'ppo-seeds', type: 'text', inputmode: 'numeric', size: '18', value: '11, 37' });
    this.profile.addEventListener('change', () => { this.seeds.value = this.wasm.ppo_default_seeds(this.profile.value).join(', '); });
    this.curve = el('canvas', { id: 'canvas-ppo-curve', role: 'img', 'aria-label': 'Кривая обучения: медиана и межквартильный диапазон по начальным значениям' });
    this.diag = el('canvas', { id: 'canvas-ppo-diagnostics', role: 'img', 'aria-label': 'Диагностики PPO по обновлениям' });
    this.pole = el('canvas', { id: 'canvas-cartpole', class: 'cartpole', role: 'img', 'aria-label': 'CartPole: жадная политика первого начального значения' });
    this.table = el('div', { class: 'table-wrap' });
    root.append(
      this.controlsRow(
        el('label', { for: 'ppo-profile' }, 'профиль ', this.profile),
        el('label', { for: 'ppo-seeds' }, 'начальные значения ', this.seeds)),
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el('div', { class: 'trainer-figures' },
        el('figure', { class: 'live-plain' }, this.curve, el('figcaption', { text: 'Жадная оценка: медиана по начальным значениям, межквартильный диапазон (заливка), отдельные запуски (тонкие линии), потолок 500.' })),
        el('figure', { class: 'live-plain' }, this.pole, el('figcaption', { text: 'Текущая жадная политика первого запуска на новом эпизоде.' })),
        el('figure', { class: 'live-plain' }, this.diag, el('figcaption', { text: 'Первый запуск по обновлениям: доля активного клиппирования и доля отношений вне 1 ± ε (левая ось) и приближённая KL (правая ось, в своём масштабе: она обычно на порядок меньше долей).' }))),
      this.table,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads));
    this.animation = null;
  }

  jobs() {
    const s = this.wasm.validate_ppo_settings(this.profile.value, this.seeds.value);
    this.settings = s;
    return s.seeds.map((seed) => ({ profile: s.profile, seed }));
  }
  jobLabel(i) { return `начальное значение ${this.settings?.seeds[i] ?? i}`; }

  shareUrl() {
    const q = new URLSearchParams({ run: 'ppo', profile: this.settings.profile, seeds: this.settings.seeds.join(',') });
    return `${location.pathname}?${q}#trainer-ppo`;
  }

  begin() {
    this.states = this.settings.seeds.map((seed) => ({ seed, reports: [], evaluations: [], summary: null, info: null }));
    window.pgbookRuns.ppo = this.states;
    this.clear();
  }

  clear() {
    this.table.replaceChildren();
    cancelAnimationFrame(this.animation);
    this.frames = null;
  }

  started(i, info) {
    this.states[i].info = info;
    this.states[i].evaluations.push(...info.evaluations); // the untrained policy at 0 steps
  }

  update(i, report, extra) {
    const s = this.states[i];
    s.reports.push(report);
    if (report.evaluation) s.evaluations.push(report.evaluation);
    if (i === 0 && extra.episode) this.animate(extra.episode, report.update);
  }

  finished(i, summary) {
    this.states[i].summary = summary;
    this.renderTable();
    this.allFinished();
  }

  counts() {
    const total = this.states.reduce((a, s) => a + (s.info?.total_env_steps ?? 0), 0);
    const done = this.states.reduce((a, s) => a + (s.reports.at(-1)?.env_steps ?? 0), 0);
    return { done, total, unit: 'шагов среды' };
  }

  draw() {
    const runs = this.states.map((s) => ({ seed: s.seed, evaluations: s.evaluations }));
    if (runs.every((r) => r.evaluations.length)) this.wasm.draw_ppo_curves(this.curve.id, this.settings.profile, runs);
    if (this.states[0].reports.length) this.wasm.draw_ppo_diagnostics(this.diag.id, this.states[0].seed, this.states[0].reports);
  }

  // Plays the greedy episode (a flat [x, ẋ, θ, θ̇, …] array) at CartPole's 50 steps per second.
  animate(flat, update) {
    this.frames = { flat, update, t0: performance.now() };
    if (this.animation) return;
    const frame = () => {
      const f = this.frames;
      if (!f) { this.animation = null; return; }
      const n = f.flat.length / 4;
      const k = Math.min(n - 1, Math.floor((performance.now() - f.t0) / 20));
      const s = f.flat.slice(4 * k, 4 * k + 4);
      try {
        this.wasm.draw_cartpole(this.pole.id, s[0], s[1], s[2], s[3], `после обновления ${f.update}: шаг ${k + 1} из ${n}`);
      } catch (e) {
        this.showError(`Не удалось нарисовать CartPole: ${e.message ?? e}`);
        this.animation = null;
        return;
      }
      if (k === n - 1) f.t0 = performance.now() + 600; // replay after a short pause
      this.animation = requestAnimationFrame(frame);
    };
    this.animation = requestAnimationFrame(frame);
  }

  renderTable() {
    const rows = this.states.filter((s) => s.summary).map(({ summary: x }) => [
      String(x.seed), formatNumber(x.final_evaluation_mean, 1), formatNumber(x.final_evaluation_std, 1),
      formatNumber(x.env_steps), x.solved_from_env_steps == null ? '—' : formatNumber(x.solved_from_env_steps)]);
    this.table.replaceChildren(textTable(
      ['начальное значение', 'итоговая оценка', 'std', 'шагов среды', 'стабильно ≥ 475 начиная с шага'], rows, { id: 'ppo-summary' }));
  }

  downloadCsv() { download('ppo-cartpole.csv', 'text/csv', this.wasm.ppo_runs_csv(this.states)); }
  downloadJson() { download('ppo-cartpole.json', 'application/json', JSON.stringify(this.states, null, 1)); }
}

// ---------------- the sequence policy (lesson 8) ----------------
class SequencePanel extends Panel {
  constructor(root, wasm) {
    super(root, wasm, 'sequence');
    this.profile = profileSelect('seq-profile');
    this.seed = el('input', { id: 'seq-seed', type: 'number', min: '0', step: '1', value: '5' });
    this.reduction = el('select', { id: 'seq-reduction' },
      ...['token_mean', 'sequence_mean', 'sequence_sum_mean'].map((r) => el('option', { value: r, text: r })));
    this.curve = el('canvas', { id: 'canvas-seq-curve', role: 'img', 'aria-label': 'Средняя награда и доля верных ответов по итерациям' });
    this.greedy = el('div', { class: 'table-wrap', id: 'seq-greedy', 'aria-live': 'polite' });
    this.batch = el('div', { class: 'table-wrap', id: 'seq-first-batch' });
    this.summaryBox = el('div', { id: 'seq-summary' });
    root.append(
      this.controlsRow(
        el('label', { for: 'seq-profile' }, 'профиль ', this.profile),
        el('label', { for: 'seq-seed' }, 'начальное значение ', this.seed),
        el('label', { for: 'seq-reduction' }, 'редукция ', this.reduction)),
      this.message,
      el('div', { class: 'progress-row' }, this.progress, this.progressText),
      el('figure', { class: 'live-plain' }, this.curve, el('figcaption', { text: 'Оценка на свежих выборках после каждой итерации: средняя награда проверяющей функции и доля полностью верных ответов.' })),
      el('h3', { text: 'Жадные ответы сейчас' }), this.greedy,
      el('h3', { text: 'Первый пакет роллаутов' }), this.batch,
      this.summaryBox,
      el('p', { class: 'trainer-links' }, this.share, ' · скачать кривые: ', this.downloads));
  }

  jobs() {
    const s = this.wasm.validate_sequence_settings(this.profile.value, this.seed.value, this.reduction.value);
    this.settings = s;
    return [s];
  }
  jobLabel() { return `начальное значение ${this.settings?.seed}`; }

  shareUrl() {
    const s = this.settings;
    const q = new URLSearchParams({ run: 'sequence', profile: s.profile, seed: String(s.seed), reduction: s.reduction });
    return `${location.pathname}?${q}#trainer-sequence`;
  }

  begin() {
    this.states = [{ seed: this.settings.seed, reduction: this.settings.reduction, reports: [], summary: null, info: null, firstBatch: null }];
    window.pgbookRuns.sequence = this.states[0];
    this.clear();
  }

  clear() {
    this.greedy.replaceChildren();
    this.batch.replaceChildren();
    this.summaryBox.replaceChildren();
  }

  started(i, info) { this.states[0].info = info; }

  update(i, report, extra) {
    const s = this.states[0];
    s.reports.push(report);
    if (extra.first_batch && !s.firstBatch) { s.firstBatch = extra.first_batch; this.renderFirstBatch(); }
    if (extra.greedy) this.renderGreedy(extra.greedy);
  }

  finished(i, summary) {
    this.states[0].summary = summary;
    this.summaryBox.replaceChildren(el('p', { text:
      `Итог: средняя награда ${formatNumber(summary.final_mean_reward)}, доля верных ответов ${formatNumber(summary.final_success_rate)}, ` +
      `жадно верно ${summary.greedy_correct} из ${summary.prompts} запросов за ${summary.iterations} итераций.` }));
    this.allFinished();
  }

  counts() {
    const s = this.states[0];
    return { done: s.reports.length, total: s.info?.iterations ?? 0, unit: 'итераций' };
  }

  draw() {
    if (this.states[0].reports.length) this.wasm.draw_sequence_curves(this.curve.id, this.states[0].reports);
  }

  renderGreedy(answers) {
    this.greedy.replaceChildren(textTable(['запрос', 'жадный ответ', 'верный ответ', 'награда', 'верно'],
      answers.map((a) => [a.prompt, a.answer, a.correct_answer, formatNumber(a.reward), a.correct ? 'да' : 'нет'])));
  }

  renderFirstBatch() {
    this.batch.replaceChildren(textTable(['запрос', 'последовательность', 'награда', 'преимущество', 'маска ответа'],
      this.states[0].firstBatch.map((r) => [r.prompt, r.sequence, formatNumber(r.reward), formatNumber(r.advantage),
        r.mask.map((m) => (m ? '1' : '0')).join(' ')])));
  }

  downloadCsv() { download('sequence.csv', 'text/csv', this.wasm.sequence_reports_csv(this.states[0].reports)); }
  downloadJson() { download('sequence.json', 'application/json', JSON.stringify(this.states[0], null, 1)); }
}

// Starts a run from the URL (?run=ppo&profile=smoke&seeds=11,37 or
// ?run=sequence&profile=smoke&seed=5&reduction=token_mean): a teacher sends one link.
export function setupTrainers(wasm) {
  const panels = {};
  const ppoRoot = document.querySelector('#trainer-ppo');
  if (ppoRoot) panels.ppo = new PpoPanel(ppoRoot, wasm);
  const seqRoot = document.querySelector('#trainer-sequence');
  if (seqRoot) panels.sequence = new SequencePanel(seqRoot, wasm);
  window.pgbookPanels = panels;
  const q = new URLSearchParams(location.search);
  const p = panels[q.get('run')];
  if (p) {
    if (q.has('profile')) p.profile.value = q.get('profile');
    if (p === panels.ppo && q.has('seeds')) p.seeds.value = q.get('seeds');
    if (p === panels.sequence) {
      if (q.has('seed')) p.seed.value = q.get('seed');
      if (q.has('reduction')) p.reduction.value = q.get('reduction');
    }
    // A <select> ignores values it does not offer: check what the link asked for.
    if (q.has('profile') && p.profile.value !== q.get('profile')) {
      p.showError(`Настройки не приняты: неизвестный профиль «${q.get('profile')}» (есть smoke и full).`);
      return;
    }
    if (p === panels.sequence && q.has('reduction') && p.reduction.value !== q.get('reduction')) {
      p.showError(`Настройки не приняты: неизвестная редукция «${q.get('reduction')}».`);
      return;
    }
    p.root.scrollIntoView();
    p.start();
  }
}
