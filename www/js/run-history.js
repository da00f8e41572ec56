// @ts-check
// A trainer panel's saved runs: the list of finished runs kept in IndexedDB (history.js), with
// buttons that put one back on the panel, beside the current one, or delete it; and the board
// rebuilt from saved lines, exactly as the runs ended.
import { deleteRun, listStored, saveRun, MAX_KEPT } from './history.js';
import { el, messageOf } from './dom.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').RunBoard} RunBoard */
/** @typedef {import('../pkg/pgbook.js').AnyStartInfo} AnyStartInfo */
/** @typedef {import('./history.js').SavedRun} SavedRun */

export class RunHistory {
  /**
   * @param {{
   *   kind: string, prefix: string, maxConfigs: number,
   *   describe: (profile: string, set: [string, string][]) => string,
   *   show: (records: SavedRun[]) => void,
   *   beside: (r: SavedRun) => void,
   * }} options
   */
  constructor({ kind, prefix, maxConfigs, describe, show, beside }) {
    this.kind = kind;
    this.describe = describe;
    this.show = show;
    this.beside = beside;
    this.list = el('ol', { class: 'history-list' });
    this.noteBox = el('p', { class: 'history-note', role: 'status', hidden: '' });
    this.summary = el('summary', { text: 'Сохранённые запуски' });
    this.details = el(
      'details',
      { class: 'run-history', id: `${prefix}-history` },
      this.summary,
      el('p', {
        class: 'history-help',
        text: `Законченные запуски сохраняются в этом браузере (последние ${MAX_KEPT}) и переживают перезагрузку страницы. «Показать» возвращает запуск на панель, «Рядом» ставит его конфигурации рядом с текущими (те же начальные значения, всего не больше ${maxConfigs}).`,
      }),
      this.list,
    );
    /** @type {SavedRun[]} */
    this.saved = [];
  }

  /** What the panel shows of the history: its note and the list. */
  get elements() {
    return [this.noteBox, this.details];
  }

  /** @param {SavedRun} record */
  async save(record) {
    try {
      await saveRun(record);
      this.note('');
      document.dispatchEvent(new CustomEvent('pgbook:saved', { detail: this.kind }));
    } catch (e) {
      this.note(`Запуск не сохранён в истории: ${messageOf(e)}. Кривые, таблицы и загрузки на этой странице работают как обычно.`);
      return;
    }
    await this.refresh();
  }

  /** @param {string} text */
  note(text) {
    this.noteBox.textContent = text;
    this.noteBox.hidden = !text;
  }

  async refresh() {
    /** @type {import('./history.js').BadRun[]} */
    let bad = [];
    try {
      ({ runs: this.saved, bad } = await listStored(this.kind));
    } catch (e) {
      this.saved = [];
      this.note(`История запусков недоступна: ${messageOf(e)}.`);
    }
    this.summary.textContent = `Сохранённые запуски (${this.saved.length + bad.length})`;
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
            : `профиль ${r.checked[0].profile}${r.checked[0].set.length ? `; ${this.describe(r.checked[0].profile, r.checked[0].set)}` : ''}`;
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
        button('Показать', () => this.show([r])),
        button('Рядом', () => this.beside(r)),
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
    this.list.replaceChildren(...items, ...broken);
  }

  /** @param {{ id?: number }} r */
  async forget(r) {
    try {
      if (r.id !== undefined) await deleteRun(r.id);
    } catch (e) {
      this.note(`Не удалось удалить запуск: ${messageOf(e)}.`);
    }
    await this.refresh();
  }
}

/**
 * Saved runs as one board: their lines pushed again, job by job (throws wasm's message when a
 * line does not fit), with each job's policy and each configuration's time.
 * @param {Wasm} wasm @param {string} kind @param {SavedRun[]} records @param {number[]} seeds @param {string[]} labels
 * @returns {{ board: RunBoard, policies: Map<number, string>, times: { start: number, end: number }[] }}
 */
export function boardOfSaved(wasm, kind, records, seeds, labels) {
  const n = seeds.length;
  const board = wasm.RunBoard.compare(kind, new Float64Array(seeds), labels);
  /** @type {Map<number, string>} */
  const policies = new Map();
  /** @type {{ start: number, end: number }[]} */
  const times = [];
  let c0 = 0;
  for (const r of records) {
    r.configs.forEach((cfg, k) => {
      const c = c0 + k;
      // A saved record's start messages, as stored: the board checks each (unknown fields refused).
      for (let i = 0; i < n; i++) board.start(c * n + i, /** @type {AnyStartInfo} */ (r.infos[k * n + i]));
      for (const line of cfg.lines.trim().split('\n')) board.push(c * n + seeds.indexOf(JSON.parse(line).seed), line);
      for (let i = 0; i < n; i++) {
        const p = r.policies[k * n + i];
        if (p) policies.set(c * n + i, p);
      }
      times.push({ start: 0, end: r.times[k]?.end ?? 0 });
    });
    c0 += r.configs.length;
  }
  return { board, policies, times };
}
