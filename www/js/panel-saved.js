// @ts-check
// A trainer panel's saved runs: a finished run is saved to the history (IndexedDB, through
// run-history.js's list), and saved runs come back on the panel — alone, or beside the
// finished one — exactly as they ended: their lines go into a new board, their policies and
// times with them. What the panel then shows of them is the panel's (the `show` callback).
import { messageOf } from './dom.js';
import { MAX_CONFIGS } from './panel-shown.js';
import { RunHistory, boardOfSaved } from './run-history.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./types.js').CheckedRun} CheckedRun */
/** @typedef {import('./history.js').SavedRun} SavedRun */
/** @typedef {import('./run-progress.js').Timing} Timing */
/** @typedef {import('./panel-shown.js').ShownRun} ShownRun */

/**
 * Saved runs made one finished run, for the panel to show.
 * @typedef {{
 *   checked: CheckedRun[], seeds: number[], board: RunBoard, policies: Map<number, string>,
 *   times: { start: number, end: number }[], from: string,
 * }} Restored
 */

export class SavedRuns {
  /**
   * @param {Wasm} wasm @param {string} kind @param {string} prefix ids of the controls
   * @param {ShownRun} shown the run on the panel (what is saved)
   * @param {{
   *   describe: (profile: string, set: [string, string][]) => string,
   *   label: (c: CheckedRun, k: number) => string,
   *   finished: () => boolean, timing: () => Timing | null,
   *   show: (put: Restored) => void, saved: () => void,
   * }} on a configuration's differences and short name in words; whether a finished run is on
   *   the panel, and its timing; saved runs to show; a run was saved (the estimate learns)
   */
  constructor(wasm, kind, prefix, shown, on) {
    this.wasm = wasm;
    this.kind = kind;
    this.shown = shown;
    this.on = on;
    // Finished runs are kept in the browser; the list puts an earlier one back or beside.
    this.history = new RunHistory({
      kind,
      prefix,
      maxConfigs: MAX_CONFIGS,
      describe: on.describe,
      show: (records) => this.restore(records),
      beside: (r) => this.beside(r),
    });
  }

  /** The note and the list, for the panel's foot. */
  get elements() {
    return this.history.elements;
  }

  /** This trainer's saved runs, as last read. */
  get saved() {
    return this.history.saved;
  }

  /** The finished run on the panel as a saved run. @returns {SavedRun} */
  snapshot() {
    const shown = this.shown;
    const board = /** @type {RunBoard} */ (shown.board);
    const infos = board.infos();
    const timing = this.on.timing();
    return {
      kind: this.kind,
      saved_at: new Date().toISOString(),
      seeds: shown.settings?.seeds ?? [],
      checked: shown.checked,
      labels: shown.labels(),
      configs: shown.checked.map((_, c) => ({ lines: board.json_lines_of(c) })),
      infos,
      policies: infos.map((/** @type {unknown} */ _i, /** @type {number} */ job) => shown.policies.get(job) ?? null),
      times: shown.times.map((t) => ({ start: 0, end: t.end - t.start })),
      summary: shown.resultsLine(),
      results: board.results(),
      ...(timing ? { timing } : {}),
    };
  }

  async save() {
    await this.history.save(this.snapshot());
    this.on.saved();
  }

  /** A saved run beside the finished one on the panel (same seeds, at most four configurations). @param {SavedRun} r */
  beside(r) {
    if (!this.shown.board || !this.on.finished()) {
      this.restore([r]);
      return;
    }
    this.restore([this.snapshot(), r]);
  }

  /** Saved runs back on the panel as one finished comparison, exactly as they ended. @param {SavedRun[]} records */
  restore(records) {
    const seeds = records[0].seeds;
    const checked = records.flatMap((r) => r.checked);
    if (records.some((r) => r.seeds.join(',') !== seeds.join(','))) {
      this.history.note(`Рядом можно поставить только запуск на тех же начальных значениях (${seeds.join(', ')}).`);
      return;
    }
    if (checked.length > MAX_CONFIGS) {
      this.history.note(`Вместе получилось бы ${checked.length} конфигураций, а сравнение вмещает не больше ${MAX_CONFIGS}.`);
      return;
    }
    const from = records.map((r) => new Date(r.saved_at).toLocaleString('ru-RU')).join(' и ');
    try {
      const labels = checked.length > 1 ? checked.map((c, k) => this.on.label(c, k)) : [''];
      const { board, policies, times } = boardOfSaved(this.wasm, this.kind, records, seeds, labels);
      this.history.note('');
      this.on.show({ checked, seeds, board, policies, times, from });
    } catch (e) {
      this.history.note(`Сохранённый запуск не удалось показать: ${messageOf(e)}.`);
    }
  }
}
