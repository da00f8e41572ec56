// @ts-check
// A trainer panel, the page's object: collaborators side by side, each with its part of the
// DOM and the few callbacks it needs — the configurations, form and link (ConfigBar,
// panel-configs.js), the run on the panel (ShownRun, panel-shown.js), the run's life from Старт
// to its end (RunLife, panel-run.js), the estimate (run-progress.js), the saved runs (SavedRuns,
// panel-saved.js) and what the trainer's environment shows (CartPoleView, SequenceView). This
// class wires them and does what spans several: Старт, a saved run put back, a prepared
// comparison, a redraw after a resize.
import { announce } from './announce.js';
import { el, messageOf, seconds } from './dom.js';
import { ConfigBar } from './panel-configs.js';
import { RunLife } from './panel-run.js';
import { SavedRuns } from './panel-saved.js';
import { ShownRun } from './panel-shown.js';
import { ASK_ABOVE_S, Estimate, costOf } from './run-progress.js';
import { CartPoleView } from './cartpole-view.js';
import { SequenceView } from './sequence-view.js';

export { LETTERS, MAX_CONFIGS } from './panel-shown.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').Schema} Schema */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./links.js').Config} Config */
/** @typedef {import('./panel-saved.js').Restored} Restored */

/** What the page collected, for downloads and the page tests. @type {Record<string, unknown>} */
window.pgbookRuns = {};

export class TrainerPanel {
  /**
   * @param {HTMLElement} root @param {Wasm} wasm @param {string} kind a trainer of wasm's registry
   * @param {string} panel which view: 'sequence' (the lab) or the CartPole trainers'
   */
  constructor(root, wasm, kind, panel) {
    this.root = root;
    this.wasm = wasm;
    this.kind = kind;
    /** @type {Schema} */
    this.schema = wasm.trainer_schema(kind);
    const sequence = panel === 'sequence';
    const prefix = sequence ? 'seq' : kind; // the controls' ids
    /** @type {ConfigBar} */
    this.config = new ConfigBar(
      wasm,
      kind,
      this.schema,
      { prefix, seedId: sequence ? 'seq-seed' : `${kind}-seeds`, seedSize: sequence ? '14' : '18' },
      {
        edited: () => this.estimate.schedule(),
        profileChanged: () => {
          if (this.life.status === 'idle') this.drawEmpty(); // the empty axes name the chosen profile
        },
        active: () => this.life.active,
      },
    );
    const config = /** @type {ConfigBar} */ (this.config);
    /** @type {ShownRun} */
    this.shown = new ShownRun(wasm, kind, prefix, `${root.id}-results`, {
      label: (c, k) => config.label(c, k),
      choose: (job) => this.choose(job),
    });
    /** @type {Estimate} */
    this.estimate = new Estimate(
      wasm,
      () => config.checkedForm(),
      () => this.saved.saved,
    );
    /** @type {RunLife} */
    this.life = new RunLife(root, kind, this.shown, {
      start: () => this.start(),
      status: (status, active) => {
        this.downloads.querySelectorAll('button').forEach((b) => {
          b.disabled = status === 'idle';
        });
        config.lock(active); // a run keeps the settings it started with
      },
      step: (i, extra) => this.view.update(i, extra),
      jobEnded: (i) => this.view.finished(i),
      failedEnd: () => this.view.showResults(),
      finished: () => void this.saved.save(),
      draw: (all) => this.view.draw(all),
      reset: () => {
        this.view.clear();
        this.clearCanvases();
        this.drawEmpty();
      },
      estimate: () => this.estimate.element.textContent ?? '',
    });
    const life = /** @type {RunLife} */ (this.life);
    /** @type {SavedRuns} */
    this.saved = new SavedRuns(wasm, kind, prefix, this.shown, {
      describe: (profile, set) => config.form.describe(profile, set, true),
      label: (c, k) => config.label(c, k),
      finished: () => life.status === 'finished',
      timing: () => life.timing,
      show: (put) => this.showSaved(put),
      saved: () => this.estimate.schedule(), // the estimate learns from the run just saved
    });
    /** @param {string} text @param {() => void} onclick */
    const button = (text, onclick) => el('button', { type: 'button', text, onclick });
    this.downloads = el(
      'span',
      { class: 'downloads' },
      button('CSV', () => this.view.downloadCsv()),
      button('JSON', () => this.view.downloadJson()),
    );
    this.estimate.schedule();
    life.setStatus('idle');
    config.render();
    // The estimate learns from the saved runs once they are read.
    this.saved.history.refresh().then(() => this.estimate.schedule());
    const parts = {
      runChoice: this.shown.runChoice,
      comparison: this.shown.comparison,
      share: config.share,
      classLink: config.classLink,
      downloads: this.downloads,
    };
    /** @type {import('./cartpole-view.js').ViewEvents} */
    const events = {
      redrawAll: () => this.redrawAll(),
      showError: (text) => life.showError(text),
      status: () => life.status,
      running: () => life.run !== null,
      profile: () => config.profile.value,
      seed: () => config.profileSeeds()[0] ?? 0,
    };
    /** @type {CartPoleView | SequenceView} */
    this.view = sequence
      ? new SequenceView(wasm, this.shown, parts, events, () => config.form.inputs.get('reduction')?.value)
      : new CartPoleView(wasm, kind, this.schema, this.shown, parts, events);
    root.append(
      el(
        'div',
        { class: 'controls trainer-controls' },
        el('label', { for: `${prefix}-profile` }, 'профиль ', config.profile),
        el('label', { for: config.seedInput.id }, 'начальные значения ', config.seedInput),
        el('span', { class: 'buttons' }, ...Object.values(life.buttons), ' ', this.estimate.element),
      ),
      config.element,
      config.form.element,
      config.changes,
      life.message,
      el('div', { class: 'progress-row' }, life.progress, life.progressText),
      ...this.view.elements,
      ...this.saved.elements,
    );
    this.drawEmptyAtLoad();
  }

  /** The checked jobs of the form's configurations, one per seed (throws wasm's message). @returns {Job[]} */
  jobs() {
    const checked = this.config.check();
    this.shown.checked = checked;
    return checked.flatMap((s) => s.seeds.map((seed) => ({ request: { profile: s.profile, set: s.set }, seed })));
  }

  start() {
    const { life, shown, config } = this;
    life.showError('');
    let jobs;
    try {
      jobs = this.jobs(); // validated by wasm before any worker starts
    } catch (e) {
      life.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    const cost = costOf(this.wasm, shown.checked, this.saved.saved);
    this.estimate.showCost(cost);
    if (
      cost.most > ASK_ABOVE_S &&
      !confirm(
        `Этот запуск займёт ${cost.most > cost.seconds ? `до ${seconds(cost.most)}` : `примерно ${seconds(cost.seconds)}`} (${cost.text}). Начать?`,
      )
    ) {
      life.showError('Запуск отменён: он занял бы слишком много времени. Уменьшите настройки или нажмите «Старт» ещё раз.');
      return;
    }
    const settings = /** @type {CheckedRun} */ (shown.settings);
    life.terminate();
    const current = shown.checked[config.current] ?? settings;
    config.showChanges(current.profile, current.set);
    try {
      shown.begin(this.wasm.RunBoard.compare(this.kind, new Float64Array(settings.seeds), shown.labels()));
    } catch (e) {
      life.showError(`Настройки не приняты: ${messageOf(e)}`);
      return;
    }
    shown.renderRunChoice();
    shown.renderComparison();
    this.view.begin();
    config.share.href = config.shareUrl(shown.checked);
    life.start(jobs);
  }

  /**
   * Saved runs back on the panel as one finished comparison (SavedRuns checked them and built
   * their board): the form shows their first configuration, the figures and tables their ends.
   * @param {Restored} put
   */
  showSaved({ checked, seeds, board, policies, times, from }) {
    const { life, shown, config } = this;
    life.terminate();
    shown.checked = checked;
    config.seedInput.value = seeds.join(', ');
    config.replace(checked.map((c) => ({ profile: c.profile, set: c.set })));
    shown.board = board;
    shown.policies = policies;
    shown.times = times;
    shown.chosen = 0;
    shown.restoredFrom = from;
    this.view.begin();
    shown.renderRunChoice();
    life.restored(() => {
      this.view.showResults();
      shown.renderComparison();
      this.view.chosenChanged();
    });
    announce(life.said, `Показан сохранённый запуск от ${from}: ${shown.resultsLine()}.`);
    config.share.href = config.shareUrl(checked);
    life.dirty = true;
    life.tick();
  }

  /**
   * A prepared comparison of a lesson into the panel, started at once (the reader clicked its
   * button): its configurations, on its seeds.
   * @param {Config[]} configs @param {string} seeds
   */
  loadComparison(configs, seeds) {
    if (this.life.active) {
      this.life.showError('Сначала остановите текущее обучение: подготовленное сравнение заменит его.');
      this.root.scrollIntoView();
      return;
    }
    this.config.seedInput.value = seeds;
    this.config.replace(configs);
    this.config.remember();
    this.root.scrollIntoView();
    this.start();
  }

  /** The job shown in detail. @param {number} job */
  choose(job) {
    this.shown.chosen = job;
    this.view.chosenChanged();
    this.life.dirty = true;
    if (!this.life.run) this.life.tick();
  }

  /** Everything drawn again (after a canvas changed size). */
  redrawAll() {
    try {
      if (this.shown.board) this.view.draw(true);
      else this.drawEmpty();
    } catch (e) {
      this.life.showError(`Не удалось нарисовать кривые: ${messageOf(e)}`);
    }
  }

  /** The live figures' empty axes (before the first run and after Reset). */
  drawEmpty() {
    for (const step of this.view.emptySteps()) if (!this.emptyStep(step)) return;
  }

  /**
   * At the page's load, each canvas's empty axes in a task of its own: the first drawing also
   * compiles the plotting code, and all of a panel's canvases in one task held a phone's main
   * thread ~90 ms (issue 26). A run that starts first draws its own.
   */
  drawEmptyAtLoad() {
    const steps = this.view.emptySteps();
    const next = () => {
      const step = steps.shift();
      if (step && this.life.status === 'idle' && this.emptyStep(step)) setTimeout(next, 0);
    };
    setTimeout(next, 0);
  }

  /** @param {() => void} step @returns {boolean} whether it drew */
  emptyStep(step) {
    try {
      step();
      return true;
    } catch (e) {
      this.life.showError(`Не удалось нарисовать оси: ${messageOf(e)}`);
      return false;
    }
  }

  /** Every canvas of the panel back to its state before any run. */
  clearCanvases() {
    for (const c of this.root.querySelectorAll('canvas')) {
      c.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    }
  }

  /* What other modules, the page tests and e2e's scripts read of a panel (window.pgbookPanels). */

  get status() {
    return this.life.status;
  }
  get board() {
    return this.shown.board;
  }
  get run() {
    return this.life.run;
  }
  get dirty() {
    return this.life.dirty;
  }
  get timing() {
    return this.life.timing;
  }
  get configs() {
    return this.config.configs;
  }
  /** @returns {any[]} */
  runs() {
    return this.shown.runs();
  }
  /** @param {string} text */
  showError(text) {
    this.life.showError(text);
  }
  showEstimate() {
    this.estimate.show();
  }
  /** The CartPole episode's frames (null on the lab). */
  get frames() {
    return this.view instanceof CartPoleView ? this.view.frames : null;
  }
  /** The CartPole episode's frame request (null when none is due, and on the lab). */
  get animation() {
    return this.view instanceof CartPoleView ? this.view.animation : null;
  }
  /** Each job's latest CartPole episode (none on the lab). */
  get episodes() {
    return this.view instanceof CartPoleView ? this.view.episodes : new Map();
  }
}
