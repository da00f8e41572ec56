// @ts-check
// A trainer panel with its saved runs: a finished run is saved to the history (IndexedDB), and
// saved runs come back on the panel — alone, or beside the finished one — exactly as they
// ended. The run's life cycle is panel-run.js's; the panels of cartpole-panel.js and
// sequence-panel.js extend this class.
import { messageOf } from './dom.js';
import { announce } from './announce.js';
import { MAX_CONFIGS } from './panel-configs.js';
import { RunPanel } from './panel-run.js';
import { boardOfSaved } from './run-history.js';

export { LETTERS, MAX_CONFIGS } from './panel-configs.js';

/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('./history.js').SavedRun} SavedRun */

export class Panel extends RunPanel {
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
      ...(this.timing ? { timing: this.timing } : {}),
    };
  }

  async save() {
    await this.history.save(this.snapshot());
    this.scheduleEstimate(); // the estimate learns from the run just saved
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
      this.history.note(`Рядом можно поставить только запуск на тех же начальных значениях (${seeds.join(', ')}).`);
      return;
    }
    if (checked.length > MAX_CONFIGS) {
      this.history.note(`Вместе получилось бы ${checked.length} конфигураций, а сравнение вмещает не больше ${MAX_CONFIGS}.`);
      return;
    }
    this.terminate();
    this.checked = checked;
    this.settings = checked[0];
    this.unit = checked[0].unit;
    this.configs = checked.map((c) => ({ profile: c.profile, set: c.set }));
    this.current = 0;
    this.seedInput.value = seeds.join(', ');
    try {
      this.loadConfig(this.configs[0]);
      const { board, policies, times } = boardOfSaved(this.wasm, this.kind, records, seeds, this.labels());
      this.policies = policies;
      this.times = times;
      this.board = board;
    } catch (e) {
      this.board = null;
      this.history.note(`Сохранённый запуск не удалось показать: ${messageOf(e)}.`);
      return;
    }
    this.history.note('');
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
    announce(this.said, `Показан сохранённый запуск от ${this.restoredFrom}: ${this.resultsLine(seeds.length)}.`);
    this.share.href = this.shareUrl();
    this.dirty = true;
    this.tick();
  }
}
