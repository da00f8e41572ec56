// @ts-check
// The sequence trainer's panel (lesson 8): the curve of reward and success per iteration, the
// greedy answers now and the first batch of rollouts of the chosen run.
import { formatNumber } from './format.js';
import { el, textTable, download, messageOf } from './dom.js';
import { Panel, LETTERS } from './panel.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */

export class SequencePanel extends Panel {
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
      ...this.history.elements,
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

  /** @param {number} i @param {import('./protocol.js').StepExtra} extra */
  update(i, extra) {
    if (extra.panel !== 'sequence') return;
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
