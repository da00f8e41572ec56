// @ts-check
// The run on a trainer panel — running, ended, or put back from the saved runs: its board, its
// checked configurations, the job shown in detail, each job's policy and each configuration's
// wall time; and what every panel shows of it alike: the run choice, the comparison table and
// its words, the per-seed results table, the results in one line. The panel's collaborators
// (panel.js) share this one record; none of them owns it.
import { el, textTable } from './dom.js';
import { comparisonTable, describeComparison, scoreNamesOf } from './comparison.js';

export const MAX_CONFIGS = 4; // the comparison figure keeps four colours apart
export const LETTERS = 'ABCD';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./types.js').ConfigResult} ConfigResult */

export class ShownRun {
  /**
   * @param {Wasm} wasm @param {string} kind @param {string} prefix ids of the controls
   * @param {string} resultsId the comparison table's id
   * @param {{ label: (c: CheckedRun, k: number) => string, choose: (job: number) => void }} on
   *   a configuration's short name (the form's words); the reader chose another job to show
   */
  constructor(wasm, kind, prefix, resultsId, on) {
    this.wasm = wasm;
    this.kind = kind;
    this.resultsId = resultsId;
    this.label = on.label;
    /** @type {RunBoard | null} */
    this.board = null;
    /** @type {CheckedRun[]} every configuration's, as the run on the panel was checked */
    this.checked = [];
    this.chosen = 0; // the job whose details (CartPole episode, diagnostics, answers) are shown
    /** @type {Map<number, string>} each finished job's trained policy (a policy file's text) */
    this.policies = new Map();
    /** @type {{ start: number, end: number }[]} each configuration's wall time */
    this.times = [];
    this.restoredFrom = ''; // the dates of the saved runs on the panel
    this.runChoice = /** @type {HTMLSelectElement} */ (el('select', { id: `${prefix}-chosen`, 'aria-label': 'Чей запуск показывать' }));
    this.runChoice.addEventListener('change', () => on.choose(Number(this.runChoice.value)));
    this.comparison = el('div', { class: 'table-wrap comparison', id: `${prefix}-comparison`, hidden: '' });
  }

  /** The first configuration's checked run (its seeds are every configuration's). @returns {CheckedRun | null} */
  get settings() {
    return this.checked[0] ?? null;
  }

  /** Seeds per configuration: job `j` is configuration `⌊j / n⌋`'s seed `j mod n`. */
  get n() {
    return this.checked[0]?.seeds.length ?? 1;
  }

  /** What the run counts its progress in («обновлений», «итераций»). */
  get unit() {
    return this.checked[0]?.unit ?? '';
  }

  /** A new board on the panel: no job chosen, no policy, no time yet. @param {RunBoard} board */
  begin(board) {
    this.board = board;
    this.chosen = 0;
    this.policies.clear();
    this.restoredFrom = '';
    this.times = this.checked.map(() => ({ start: 0, end: 0 }));
  }

  /** Nothing on the panel (Reset). */
  clear() {
    this.board = null;
    this.checked = [];
    this.policies.clear();
    this.restoredFrom = '';
    this.renderComparison();
    this.runChoice.replaceChildren();
  }

  /**
   * The board's figures on the canvases `curve` and `detail` (an empty id skips one), with the
   * x axes of the longest configuration's plan.
   * @param {string} curve @param {string} detail
   */
  drawBoard(curve, detail) {
    const s = this.settings;
    if (!s) return;
    const total = Math.max(...this.checked.map((c) => c.total_per_seed));
    const steps = Math.max(...this.checked.map((c) => c.steps_per_seed));
    this.board?.draw(curve, detail, s.profile, total, steps, this.chosen);
  }

  /** What the page keeps of the run (read by the downloads and the page tests). @returns {any[]} */
  runs() {
    return this.board ? this.board.runs() : [];
  }

  /** The labels of the checked configurations (one: none, the figure is a run's). */
  labels() {
    return this.checked.length > 1 ? this.checked.map((c, k) => this.label(c, k)) : [''];
  }

  /** @param {number} job */
  jobLabel(job) {
    const seed = `начальное значение ${this.settings?.seeds[job % this.n] ?? job}`;
    return this.checked.length > 1 ? `конфигурация ${LETTERS[Math.floor(job / this.n)]}, ${seed}` : seed;
  }

  /** The run choice: every job of the run on the panel. */
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

  /** What the results table calls the final score and the goal. @returns {[string, string, (x: number) => string]} */
  scoreNames() {
    return scoreNamesOf(this.wasm, this.kind);
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
      comparisonTable(results, this.scoreNames(), this.times, this.resultsId),
      el('p', { class: 'comparison-text', 'data-comparison-text': '', text: describeComparison(this.wasm, this.kind, results) }),
    );
    this.comparison.hidden = false;
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

  /** One line of what the run gave (the saved runs' list, the sentence of a run put back). */
  resultsLine() {
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

  /** The download name's letter of the chosen job's configuration ('' for one configuration). */
  chosenLetter() {
    return this.checked.length > 1 ? LETTERS[Math.floor(this.chosen / this.n)] : '';
  }
}
