// @ts-check
// What a trainer panel compares and how it goes into a link: the settings form edits one of up
// to four configurations, Старт runs them all on the same seeds, and the link (or the address
// bar, while the reader types) carries them. The run's life cycle is panel.js's.
import { SettingsForm } from './settings-form.js';
import { configText, pageLink, setPageParams } from './links.js';
import { el, messageOf, profileSelect, textTable } from './dom.js';
import { comparisonTable, describeComparison, scoreNamesOf } from './comparison.js';

export const MAX_CONFIGS = 4; // the comparison figure keeps four colours apart
export const LETTERS = 'ABCD';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./types.js').Schema} Schema */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./types.js').ConfigResult} ConfigResult */
/** @typedef {import('./links.js').Config} Config */
/** @typedef {import('./pool.js').WorkerRun} WorkerRun */
/** @typedef {import('./run-progress.js').Status} Status */

export class ConfiguredPanel {
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
    /** @type {WorkerRun | null} */
    this.run = null;
    /** @type {Status} */
    this.status = 'idle';
    this.dirty = false;
    this.seedParam = this.schema.page.seeds_param; // what run links call the seeds
    this.changes = el('p', { class: 'trainer-changes', hidden: '' }); // what differs from the profile
    // Every setting of the schema as a control; the form keeps what the reader typed.
    this.form = new SettingsForm(this.schema.fields, prefix, () => this.rememberForm());
    this.form.reset(this.profile.value);
    this.profile.addEventListener('change', () => {
      this.form.reset(this.profile.value);
      this.previewChanges();
    });
    this.configs[0].profile = this.profile.value;
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
  /** @param {number} _i @param {import('./protocol.js').StepExtra} _extra what is new to show after a step */
  update(_i, _extra) {}
  /** @param {number} _i */
  finished(_i) {}
  /** @param {boolean} [_all] every figure, even while training */
  draw(_all) {}
  /** The live figures' empty axes, one canvas per step. @returns {(() => void)[]} */
  emptySteps() {
    return [];
  }
  /** The live figures' empty axes (before the first run and after Reset). */
  drawEmpty() {
    for (const step of this.emptySteps()) if (!this.emptyStep(step)) return;
  }
  /**
   * At the page's load, each canvas's empty axes in a task of its own: the first drawing also
   * compiles the plotting code, and all of a panel's canvases in one task held a phone's main
   * thread ~90 ms (issue 26). A run that starts first draws its own.
   */
  drawEmptyAtLoad() {
    const steps = this.emptySteps();
    const next = () => {
      const step = steps.shift();
      if (step && this.status === 'idle' && this.emptyStep(step)) setTimeout(next, 0);
    };
    setTimeout(next, 0);
  }
  /** @param {() => void} step @returns {boolean} whether it drew */
  emptyStep(step) {
    try {
      step();
      return true;
    } catch (e) {
      this.showError(`Не удалось нарисовать оси: ${messageOf(e)}`);
      return false;
    }
  }
  downloadCsv() {}
  downloadJson() {}
  /** The chosen job changed: show its details. */
  chosenChanged() {}
  /** Every run has ended (or a saved run is back): its tables. */
  showResults() {}
  /** What the results table calls the final score and the goal. @returns {[string, string, (x: number) => string]} */
  scoreNames() {
    return scoreNamesOf(this.wasm, this.kind);
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
    return describeComparison(this.wasm, this.kind, results);
  }

  /**
   * The results table, a row per finished seed: its configuration's letter first when
   * configurations are compared, then the seed, then the trainer's own `cells`.
   * @template {{ config: number, seed: number }} S
   * @param {string[]} columns the trainer's own columns' headings
   * @param {S[]} summaries
   * @param {(s: S) => string[]} cells
   * @param {string} id
   */
  seedTable(columns, summaries, cells, id) {
    const compared = this.checked.length > 1;
    const rows = summaries.map((s) => [...(compared ? [LETTERS[s.config]] : []), String(s.seed), ...cells(s)]);
    return textTable([...(compared ? ['конфигурация'] : []), 'начальное значение', ...columns], rows, { id });
  }

  /** @param {number} job */
  jobLabel(job) {
    const n = this.settings?.seeds.length ?? 1;
    const seed = `начальное значение ${this.settings?.seeds[job % n] ?? job}`;
    return this.checked.length > 1 ? `конфигурация ${LETTERS[Math.floor(job / n)]}, ${seed}` : seed;
  }
  /** The labels of the checked configurations (one: none, the figure is a run's). */
  labels() {
    return this.checked.length > 1 ? this.checked.map((c, k) => this.configLabel(c, k)) : [''];
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

  /** Keeps what the reader typed in the URL (without starting anything), so Back restores it. */
  rememberForm() {
    this.previewChanges();
    this.syncConfig();
    this.renderConfigs();
    const q = new URLSearchParams({ form: this.kind });
    this.configParams(q, this.configs);
    this.formParams(q);
    setPageParams(q);
  }

  /** @param {HTMLElement[]} controls */
  watchForm(...controls) {
    for (const c of controls) c.addEventListener('change', () => this.rememberForm());
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
    return pageLink(null, q, `trainer-${this.kind}`);
  }

  /* What the run's life cycle (panel.js) does. */

  start() {}
  /** @param {string} _text */
  showError(_text) {}
  tick() {}
  scheduleEstimate() {}
}
