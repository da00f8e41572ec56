// @ts-check
// What the sequence lab's panel (lesson 8; lesson 9's prepared comparisons run here) shows of
// its run: per configuration the success rate's median and IQR band over the seeds, and beside
// it the lengths of correct and incorrect responses, the KL to the reference and the entropy —
// both figures drawn and described in words by wasm from the runs; the results table with the
// lab's own columns, the greedy answers now and the first batch of rollouts of the chosen run;
// for a run with SFT or pass@k (lesson 10), that run's pipeline figure (SFT loss, pass@k by
// stage, success per level, dead groups). panel.js hands it the run on the panel and the parts
// every panel has; given the board, it draws.
import { count, formatNumber } from './format.js';
import { fitCanvas } from './canvas.js';
import { el, textTable, download } from './dom.js';
import { useTrainedNetwork } from './figures.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('../pkg/pgbook.js').Description} Description a figure in words (the core's) */
/** @typedef {import('./panel-shown.js').ShownRun} ShownRun */
/** @typedef {import('./cartpole-view.js').Parts} Parts */
/** @typedef {import('./cartpole-view.js').ViewEvents} ViewEvents */

export class SequenceView {
  /**
   * @param {Wasm} wasm @param {ShownRun} shown @param {Parts} parts @param {ViewEvents} on
   * @param {() => string | undefined} reduction the form's reduction (the page tests read it with the run)
   */
  constructor(wasm, shown, parts, on, reduction) {
    this.wasm = wasm;
    this.kind = 'sequence';
    this.shown = shown;
    this.on = on;
    this.reduction = reduction;
    this.curve = labCanvas(
      'canvas-seq-curve',
      'Доля верных ответов на проверке по итерациям: медиана и межквартильный диапазон по начальным значениям',
    );
    this.detail = labCanvas(
      'canvas-seq-detail',
      'Длина верных и неверных ответов, KL к опорной политике и энтропия политики по итерациям: медианы и межквартильные диапазоны по начальным значениям',
    );
    // Lesson 10's pipeline: the chosen run's SFT, pass@k by stage, levels and dead groups.
    this.pipeline = labCanvas(
      'canvas-seq-pipeline',
      'Конвейер R1-Zero выбранного запуска: функция потерь SFT, pass@k до обучения, после SFT и после RL, доля верных ответов по уровням и доля групп без разброса наград по итерациям',
    );
    // On a phone the three charts of the second figure stand one above the other (the
    // pipeline's four too).
    const narrow = window.matchMedia('(max-width: 560px)');
    const tall = () => {
      this.detail.style.height = narrow.matches ? '620px' : '';
      this.pipeline.style.height = narrow.matches ? '1000px' : '520px';
    };
    tall();
    narrow.addEventListener('change', tall);
    this.figures = {
      curve: new LabFigure(
        this.curve,
        'Доля полностью верных ответов на свежих выборках после каждой итерации: медиана по начальным значениям (толстая линия), межквартильный диапазон (заливка) и каждое начальное значение (тонкие линии); в сравнении у каждой конфигурации свой цвет.',
      ),
      detail: new LabFigure(
        this.detail,
        'Ответы роллаута каждой итерации: средняя длина верных (сплошная) и неверных (пунктир) ответов в токенах вместе с <eos>, KL старой политики к опорной (её оценка k₃ по токенам ответов, урок 9) и энтропия политики; медианы и межквартильные диапазоны по начальным значениям.',
      ),
      pipeline: new LabFigure(
        this.pipeline,
        'Выбранный запуск конвейера урока 10: функция потерь SFT по шагам; pass@k на отложенных запросах при k от 1 до n у необученной сети (точки), после SFT (штрихи) и после обучения с подкреплением (сплошная); доля полностью верных ответов по уровням трудности после последней итерации; доля групп без разброса наград по итерациям — среди всех выбранных (сплошная) и среди тех, на которых шло обучение (пунктир).',
      ),
    };
    this.hidePipeline(); // only for runs with SFT or pass@k
    this.drawTurn = false;
    this.table = el('div', { class: 'table-wrap' });
    this.greedy = el('div', { class: 'table-wrap', id: 'seq-greedy' });
    this.batch = el('div', { class: 'table-wrap', id: 'seq-first-batch' });
    this.summaryBox = el('div', { id: 'seq-summary' });
    /** @type {import('./protocol.js').FirstBatchRow[] | null} */
    this.firstBatch = null;
    /** @type {Map<number, { greedy?: any[], first?: SequenceView['firstBatch'] }>} what each job showed last */
    this.details = new Map();
    /** What the view puts on the panel, between the progress line and the saved runs. */
    this.elements = [
      el('div', { class: 'trainer-figures' }, this.figures.curve.element, this.figures.detail.element),
      this.figures.pipeline.element,
      parts.comparison,
      this.table,
      el('p', { class: 'run-choice' }, el('label', { for: 'seq-chosen' }, 'Подробно (ответы и первый пакет): ', parts.runChoice)),
      el('h3', { text: 'Жадные ответы сейчас' }),
      this.greedy,
      el('h3', { text: 'Первый пакет роллаутов' }),
      this.batch,
      this.summaryBox,
      el('p', { class: 'trainer-links' }, parts.share, ' · ', parts.classLink, ' · скачать кривые: ', parts.downloads),
    ];
  }

  /** Sizes canvases for the next draw; a later change of their size redraws them. @param {HTMLCanvasElement[]} canvases */
  fit(...canvases) {
    for (const c of canvases) fitCanvas(c, this.on.redrawAll);
  }

  /** A new run starts. */
  begin() {
    const reduction = this.reduction(); // the form is locked while it runs
    this.firstBatch = null;
    // The first job's run, as the page tests have always read it.
    Object.defineProperty(window.pgbookRuns, 'sequence', {
      get: () => ({ ...this.shown.runs()[0], reduction, firstBatch: this.firstBatch }),
      configurable: true,
      enumerable: true,
    });
    this.clear();
  }

  /** Everything but the canvases back to before any run. */
  clear() {
    this.details.clear();
    this.hidePipeline();
    this.table.replaceChildren();
    this.greedy.replaceChildren();
    this.batch.replaceChildren();
    this.summaryBox.replaceChildren();
  }

  /** What is new to show after job `i`'s update. @param {number} i @param {import('./protocol.js').StepExtra} extra */
  update(i, extra) {
    if (extra.panel !== 'sequence') return;
    const d = this.details.get(i) ?? {};
    if (extra.first_batch && !d.first) d.first = extra.first_batch;
    if (extra.greedy) d.greedy = extra.greedy;
    this.details.set(i, d);
    if (i === 0 && extra.first_batch && !this.firstBatch) this.firstBatch = extra.first_batch;
    if (i === this.shown.chosen) this.chosenChanged();
  }

  /** The chosen job changed: its answers, its first batch, its summary and pipeline. */
  chosenChanged() {
    const d = this.details.get(this.shown.chosen);
    this.renderFirstBatch(d?.first ?? []);
    this.renderGreedy(d?.greedy ?? []);
    this.renderSummary();
    this.renderPipeline();
  }

  /** The pipeline figure hidden, its canvas without pixels (a hidden canvas has no size to be crisp at). */
  hidePipeline() {
    this.figures.pipeline.element.hidden = true;
    this.figures.pipeline.describe(null);
    this.pipeline.width = 0;
    this.pipeline.height = 0;
  }

  /** Lesson 10's figure of the chosen run, when it has SFT or pass@k (hidden otherwise). */
  renderPipeline() {
    const reports = /** @type {import('../pkg/pgbook.js').IterationReport[] | undefined} */ (this.shown.runs()[this.shown.chosen]?.reports);
    const figure = this.figures.pipeline;
    const has = !!reports?.length && (!!reports[0].sft || reports.some((r) => r.pass_at_k));
    if (!has) return this.hidePipeline();
    figure.element.hidden = false;
    this.fit(this.pipeline);
    figure.describe(this.wasm.draw_pipeline_run(this.pipeline.id, JSON.stringify(reports)));
  }

  /** @param {number} i the finished job */
  finished(i) {
    // A transformer's network goes to lesson 8's attention figure (the GRU hands none).
    const policy = this.shown.policies.get(i);
    if (policy) useTrainedNetwork('attention', policy);
    this.renderSummary();
    this.renderTable();
  }

  /** Every run has ended (or a saved run is back): its tables. */
  showResults() {
    this.renderSummary();
    this.renderTable();
  }

  /** The board's summaries: a sequence panel's board holds sequence summaries. */
  summaries() {
    return /** @type {import('../pkg/pgbook.js').BoardSummary<import('../pkg/pgbook.js').SequenceSummary>[]} */ (
      this.shown.board?.summaries() ?? []
    );
  }

  renderSummary() {
    const summary = this.summaries().find((x) => x.job === this.shown.chosen);
    this.summaryBox.replaceChildren();
    if (summary) {
      const text =
        `Итог: средняя награда ${formatNumber(summary.final_mean_reward)}, доля верных ответов ${formatNumber(summary.final_success_rate)}, ` +
        `жадно верно ${summary.greedy_correct} из ${count(summary.prompts, ['запроса', 'запросов', 'запросов'])} за ${count(summary.iterations, ['итерацию', 'итерации', 'итераций'])}.`;
      this.summaryBox.replaceChildren(el('p', { text }));
    }
  }

  /** Every finished seed's result, as the CartPole panels list theirs. */
  renderTable() {
    const summaries = this.summaries();
    this.table.replaceChildren(
      this.shown.seedTable(
        ['итоговая доля верных ответов', 'средняя награда', 'жадно верно', 'решено с итерации'],
        summaries,
        (x) => [
          formatNumber(x.final_success_rate),
          formatNumber(x.final_mean_reward),
          `${x.greedy_correct} из ${x.prompts}`,
          x.solved_iteration == null ? '—' : formatNumber(x.solved_iteration),
        ],
        'seq-summary-table',
      ),
    );
  }

  /**
   * The live figures and their words. While training, one figure per redraw, in turn (no
   * frame's task grows long); once the run has ended (or `all`), both.
   * @param {boolean} all @returns {boolean} whether the other figure is left for the next redraw
   */
  draw(all) {
    const both = all || this.on.status() !== 'running';
    this.drawTurn = !this.drawTurn;
    this.fit(this.curve, this.detail);
    this.shown.drawBoard(both || this.drawTurn ? this.curve.id : '', both || !this.drawTurn ? this.detail.id : '');
    const words = this.shown.board?.describe() ?? null;
    if (words) {
      this.figures.curve.describe(words.curve);
      this.figures.detail.describe(words.detail);
    }
    if (both) this.renderPipeline();
    return !both && this.drawTurn;
  }

  /** The live figures' empty axes, one canvas per step. @returns {(() => void)[]} */
  emptySteps() {
    // An empty canvas id draws nothing: the success curve's axes, then the details'.
    const empty = (/** @type {string} */ curve, /** @type {string} */ detail) => () =>
      this.wasm.draw_empty_trainer(this.kind, curve, detail, this.on.profile(), this.on.seed());
    return [
      () => this.fit(this.curve, this.detail),
      empty(this.curve.id, ''),
      empty('', this.detail.id),
      () => {
        this.figures.curve.describe(null);
        this.figures.detail.describe(null);
      },
    ];
  }

  /** @param {import('./protocol.js').GreedyRow[]} answers */
  renderGreedy(answers) {
    const rows = answers.map((a) => [a.prompt, a.answer, a.correct_answer, formatNumber(a.reward), a.correct ? 'да' : 'нет']);
    this.greedy.replaceChildren(textTable(['запрос', 'жадный ответ', 'верный ответ', 'награда', 'верно'], rows));
  }

  /** @param {NonNullable<SequenceView['firstBatch']>} batch */
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
    const board = this.shown.board;
    if (board) download('sequence.csv', 'text/csv', board.csv());
  }
  downloadJson() {
    // Exactly the lines `pgbook train sequence … --json` prints for the same run (in a
    // comparison, for the configuration of the chosen run).
    const { board, chosen, n } = this.shown;
    if (!board) return;
    const letter = this.shown.chosenLetter();
    download(letter ? `sequence-${letter}.jsonl` : 'sequence.jsonl', 'application/x-ndjson', board.json_lines_of(Math.floor(chosen / n)));
  }
}

/** @param {string} id @param {string} label */
const labCanvas = (id, label) => /** @type {HTMLCanvasElement} */ (el('canvas', { id, role: 'img', 'aria-label': label }));

/**
 * One of the lab's figures with its words: the canvas's text alternative and the caption say
 * what it shows now (the core's sentence from the runs), «Числа рисунка» holds its numbers.
 */
class LabFigure {
  /** @param {HTMLCanvasElement} canvas @param {string} caption what the figure draws */
  constructor(canvas, caption) {
    this.canvas = canvas;
    this.label = canvas.getAttribute('aria-label') ?? '';
    this.words = el('span', { class: 'lab-words' });
    this.numbers = /** @type {HTMLDetailsElement} */ (el('details', { class: 'figure-numbers' }, el('summary', { text: 'Числа рисунка' })));
    this.numbers.addEventListener('toggle', () => this.fill());
    /** @type {Description | null} */
    this.description = null;
    this.element = el('figure', { class: 'live-plain' }, canvas, this.numbers, el('figcaption', {}, `${caption} `, this.words));
  }

  /** @param {Description | null} d what the figure shows now (null: nothing yet) */
  describe(d) {
    this.description = d;
    const text = d?.text ?? '';
    if (this.words.textContent !== text) this.words.textContent = text;
    const label = text ? `${this.label}. ${text}` : this.label;
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
    this.numbers.hidden = !d || d.table.rows.length === 0;
    this.fill();
  }

  /** The numbers' table, only while it is open. */
  fill() {
    const d = this.description;
    if (!this.numbers.open || !d) return;
    this.numbers.querySelector('table')?.remove();
    this.numbers.append(textTable(d.table.columns, d.table.rows));
  }
}
