// @ts-check
// What a CartPole trainer's panel (REINFORCE, A2C, PPO: wasm's trainer_list says which) shows
// of its run: the learning curve with its median and IQR band, the greedy policy's episode as
// an animation, PPO's diagnostics, the results table and policy files. panel.js hands it the
// run on the panel and the parts every panel has; given the board, it draws.
import { count, formatNumber } from './format.js';
import { fitCanvas } from './canvas.js';
import { el, download, messageOf } from './dom.js';

/** @typedef {typeof import('../pkg/pgbook.js')} Wasm */
/** @typedef {import('./types.js').Schema} Schema */
/** @typedef {import('./panel-shown.js').ShownRun} ShownRun */
/** @typedef {import('./run-progress.js').Status} Status */
/**
 * What every panel has, for a view to place: the run choice, the comparison, the share link
 * and the downloads.
 * @typedef {{ runChoice: HTMLSelectElement, comparison: HTMLElement, share: HTMLAnchorElement, classLink: HTMLAnchorElement, downloads: HTMLElement }} Parts
 */
/**
 * What a view asks of its panel: a resized canvas redraws everything; an error for the alert;
 * the run's status, and whether its workers are still there; the form's profile and its first
 * seed (the empty axes name them).
 * @typedef {{
 *   redrawAll: () => void, showError: (text: string) => void, status: () => Status,
 *   running: () => boolean, profile: () => string, seed: () => number,
 * }} ViewEvents
 */

export class CartPoleView {
  /**
   * @param {Wasm} wasm @param {string} kind (also the prefix of its ids) @param {Schema} schema
   * @param {ShownRun} shown @param {Parts} parts @param {ViewEvents} on
   */
  constructor(wasm, kind, schema, shown, parts, on) {
    this.wasm = wasm;
    this.kind = kind;
    this.schema = schema;
    this.shown = shown;
    this.on = on;
    const p = kind;
    // PPO reports clipping and KL per update; the registry says which trainers draw diagnostics.
    this.hasDiagnostics = schema.diagnostics;
    /** @param {string} id @param {string} label @param {string} [cls] */
    const canvas = (id, label, cls = '') =>
      /** @type {HTMLCanvasElement} */ (el('canvas', { id, class: cls, role: 'img', 'aria-label': label }));
    this.curve = canvas(`canvas-${p}-curve`, 'Кривая обучения: медиана и межквартильный диапазон по начальным значениям');
    this.diag = canvas(`canvas-${p}-diagnostics`, 'Диагностики PPO по обновлениям');
    // The PPO panel's CartPole canvas keeps the id it has always had.
    this.pole = canvas(
      p === 'ppo' ? 'canvas-cartpole' : `canvas-${p}-cartpole`,
      'CartPole: жадная политика выбранного запуска',
      'cartpole',
    );
    this.table = el('div', { class: 'table-wrap' });
    this.curveCaption = el('figcaption');
    /** @type {Map<number, { flat: number[], update: number }>} each job's latest greedy episode */
    this.episodes = new Map();
    // A trained policy as a file: download the chosen run's, load one back to watch it.
    this.policyDownload = /** @type {HTMLButtonElement} */ (
      el('button', { type: 'button', class: 'policy-download', text: 'скачать', disabled: '', onclick: () => this.downloadPolicy() })
    );
    this.policyFile = /** @type {HTMLInputElement} */ (
      el('input', { type: 'file', id: `${p}-policy-file`, accept: '.json,application/json', hidden: '', 'aria-label': 'Файл политики' })
    );
    this.policyFile.addEventListener('change', () => this.loadPolicyFile());
    this.policyButtons = el(
      'span',
      { class: 'policy-buttons' },
      this.policyDownload,
      ' ',
      el('button', { type: 'button', class: 'policy-load', text: 'загрузить и посмотреть', onclick: () => this.policyFile.click() }),
      this.policyFile,
    );
    this.policyInfo = el('p', { class: 'policy-info', id: `${p}-policy-info`, 'aria-live': 'polite', hidden: '' });
    /** @param {HTMLCanvasElement} c @param {HTMLElement | string} caption */
    const figure = (c, caption) =>
      el('figure', { class: 'live-plain' }, c, typeof caption === 'string' ? el('figcaption', { text: caption }) : caption);
    // Motion (WCAG 2.2.2, 2.3.3): the episode plays by itself unless the reader's system asks
    // for less motion; then it shows its last frame still, and the button plays it once. The
    // button also stops a playing episode.
    this.lessMotion = matchMedia('(prefers-reduced-motion: reduce)');
    this.autoplay = !this.lessMotion.matches;
    this.playing = false;
    this.once = false; // this play ends on the episode's last frame, even while training
    this.playButton = /** @type {HTMLButtonElement} */ (
      el('button', { type: 'button', class: 'pole-play', disabled: '', text: 'Проиграть эпизод', onclick: () => this.togglePlay() })
    );
    this.lessMotion.addEventListener('change', () => {
      this.autoplay = !this.lessMotion.matches;
      if (this.lessMotion.matches && this.playing && !this.once) this.stopPlaying();
    });
    /** What the view puts on the panel, between the progress line and the saved runs. */
    this.elements = [
      el(
        'div',
        { class: 'trainer-figures' },
        figure(this.curve, this.curveCaption),
        el(
          'p',
          { class: 'run-choice' },
          el(
            'label',
            { for: `${p}-chosen` },
            this.hasDiagnostics ? 'Подробно (CartPole и диагностики): ' : 'Подробно (CartPole): ',
            parts.runChoice,
          ),
        ),
        figure(this.pole, el('figcaption', {}, 'Текущая жадная политика выбранного запуска на новом эпизоде. ', this.playButton)),
        ...(this.hasDiagnostics
          ? [
              figure(
                this.diag,
                'Выбранный запуск по обновлениям: доля активного клиппирования и доля отношений вне 1 ± ε (левая ось) и приближённая KL (правая ось, в своём масштабе: она обычно на порядок меньше долей).',
              ),
            ]
          : []),
      ),
      parts.comparison,
      this.table,
      el(
        'p',
        { class: 'trainer-links' },
        parts.share,
        ' · ',
        parts.classLink,
        ' · скачать кривые: ',
        parts.downloads,
        ' · политика: ',
        this.policyButtons,
      ),
      this.policyInfo,
    ];
    this.captionCurve();
    /** @type {number | null} */
    this.animation = null;
    /** @type {{ flat: number[], update: number, t0: number, shown: number } | null} */
    this.frames = null;
    /** @type {{ state: number[], caption: string } | null} the CartPole frame on screen */
    this.lastPole = null;
    this.poleVisible = true;
    this.drawTurn = false;
    this.watchVisibility();
  }

  /** The live figures' empty axes, one canvas per step. @returns {(() => void)[]} */
  emptySteps() {
    // An empty canvas id draws nothing: the curve's axes, then the diagnostics'.
    const empty = (/** @type {string} */ curve, /** @type {string} */ detail) => () =>
      this.wasm.draw_empty_trainer(this.kind, curve, detail, this.on.profile(), this.on.seed());
    return [
      () => this.fit(...this.canvases()),
      empty(this.curve.id, ''),
      empty('', this.diagId()),
      () => this.drawPole([0, 0, 0, 0], 'эпизод появится после первой оценки'),
    ];
  }

  /** Sizes canvases for the next draw; a later change of their size redraws them. @param {HTMLCanvasElement[]} canvases */
  fit(...canvases) {
    for (const c of canvases) fitCanvas(c, this.on.redrawAll);
  }

  /** A new run starts. */
  begin() {
    Object.defineProperty(window.pgbookRuns, this.kind, { get: () => this.shown.runs(), configurable: true, enumerable: true });
    this.clear();
    this.captionCurve();
  }

  captionCurve() {
    this.curveCaption.textContent =
      this.shown.checked.length > 1
        ? 'Жадная оценка по конфигурациям: у каждой своя медиана по начальным значениям и межквартильный диапазон (заливка) своего цвета; потолок 500.'
        : 'Жадная оценка: медиана по начальным значениям, межквартильный диапазон (заливка), отдельные запуски (тонкие линии), потолок 500.';
  }

  /** The chosen job changed: its episode (or its policy's), its policy file. */
  chosenChanged() {
    const { chosen, policies } = this.shown;
    this.policyDownload.disabled = !policies.has(chosen);
    const e = this.episodes.get(chosen);
    this.stopFrames();
    this.frames = null;
    this.showPlayButton();
    const policy = policies.get(chosen);
    if (e) this.animate(e.flat, e.update);
    else if (policy) this.watchPolicy(policy, 'сохранённая политика');
    else this.drawPole([0, 0, 0, 0], 'эпизод появится после первой оценки этого запуска');
  }

  downloadPolicy() {
    const { chosen, policies, settings, n } = this.shown;
    const policy = policies.get(chosen);
    if (!policy) return;
    const seed = settings?.seeds[chosen % n] ?? 0;
    const letter = this.shown.chosenLetter();
    download(`${this.kind}-policy${letter ? `-${letter}` : ''}-seed${seed}.json`, 'application/json', policy);
  }

  async loadPolicyFile() {
    const file = this.policyFile.files?.[0];
    this.policyFile.value = ''; // the same file again is a new choice
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (e) {
      this.showPolicy(`Файл «${file.name.slice(0, 40)}» не прочитан: ${messageOf(e)}.`);
      return;
    }
    this.watchPolicy(text, `политика из файла «${file.name.slice(0, 40)}»`);
  }

  /**
   * Plays a policy file's greedy episode in the CartPole canvas (wasm checks the file and
   * plays the episode the CLI's `pgbook replay` plays).
   * @param {string} text @param {string} what
   */
  watchPolicy(text, what) {
    const status = this.on.status();
    if (status === 'running' || status === 'paused') {
      this.showPolicy('Политику можно посмотреть, когда обучение не идёт: сейчас холст CartPole показывает обучаемый запуск.');
      return;
    }
    let r;
    try {
      r = this.wasm.replay_policy(text, NaN);
    } catch (e) {
      this.showPolicy(`Политика не загружена: ${messageOf(e)}.`);
      return;
    }
    window.pgbookRuns.policy = r;
    this.showPolicy(
      `${what[0].toUpperCase()}${what.slice(1)}: ${r.trainer}, начальное значение ${r.seed}, после ${count(r.update, ['обновления', 'обновлений', 'обновлений'])} ` +
        `(${count(r.env_steps, ['шага', 'шагов', 'шагов'])} среды), слои ${r.sizes.join('×')}. Жадный эпизод со стартом № ${r.reset_seed}: возврат ${formatNumber(r.episode_return)}.`,
    );
    this.animate(r.episode, r.update);
  }

  /** @param {string} text */
  showPolicy(text) {
    this.policyInfo.textContent = text;
    this.policyInfo.hidden = !text;
  }

  /** Everything but the canvases back to before any run. */
  clear() {
    this.episodes.clear();
    this.table.replaceChildren();
    this.stopFrames(); // the next run's episodes start a loop of their own
    this.frames = null;
    this.playing = false;
    this.showPlayButton();
  }

  /** What is new to show after job `i`'s update. @param {number} i @param {import('./protocol.js').StepExtra} extra */
  update(i, extra) {
    if (extra.panel !== 'cartpole' || !extra.episode) return;
    this.episodes.set(i, { flat: extra.episode, update: extra.update ?? 0 });
    if (i === this.shown.chosen) this.animate(extra.episode, extra.update ?? 0);
  }

  /** Job `i` finished. @param {number} i */
  finished(i) {
    if (i === this.shown.chosen) this.policyDownload.disabled = !this.shown.policies.has(i);
    this.renderTable();
  }

  /** Every run has ended (or a saved run is back): its table. */
  showResults() {
    this.renderTable();
  }

  /**
   * The live figures. While training, one figure per redraw, in turn, so that no frame's task
   * grows long on a slow machine; once the run has ended (or `all`), both.
   * @param {boolean} all @returns {boolean} whether the other figure is left for the next redraw
   */
  draw(all) {
    const both = all || this.on.status() !== 'running';
    this.drawTurn = !this.drawTurn;
    const curve = both || this.drawTurn ? this.curve.id : '';
    const diag = both || !this.drawTurn ? this.diagId() : '';
    this.fit(...this.canvases());
    this.shown.drawBoard(curve, diag);
    return !both && this.drawTurn && this.hasDiagnostics;
  }

  /** The live figures' canvases. */
  canvases() {
    return this.hasDiagnostics ? [this.curve, this.diag] : [this.curve];
  }

  /** The diagnostics canvas's id, empty for a trainer without them. */
  diagId() {
    return this.hasDiagnostics ? this.diag.id : '';
  }

  /**
   * One CartPole frame; the last one is kept, so that a resized canvas shows it again.
   * @param {number[]} state [x, ẋ, θ, θ̇] @param {string} caption
   */
  drawPole(state, caption) {
    this.lastPole = { state, caption };
    fitCanvas(this.pole, () => this.lastPole && this.drawPole(this.lastPole.state, this.lastPole.caption));
    this.wasm.draw_cartpole(this.pole.id, state[0], state[1], state[2], state[3], caption);
  }

  /**
   * Shows the greedy episode (a flat [x, ẋ, θ, θ̇, …] array): played at CartPole's pace (it
   * draws only when the frame changes, pauses while the canvas is off-screen or the tab
   * hidden, replays while the run trains, and stops on the last frame once the run is over),
   * or its last frame still when the reader's system asks for less motion or the reader
   * stopped the animation.
   * @param {number[]} flat @param {number} update
   */
  animate(flat, update) {
    this.stopFrames();
    this.frames = { flat, update, t0: performance.now(), shown: -1 };
    if (this.autoplay || this.playing) this.play(this.once);
    else this.still();
  }

  /** Plays the episode from the frame shown (from the start once it has ended). @param {boolean} once */
  play(once) {
    const f = this.frames;
    if (!f) return;
    this.playing = true;
    this.once = once;
    if (f.shown === f.flat.length / 4 - 1) f.shown = -1;
    this.kickAnimation();
    this.showPlayButton();
  }

  /** Ends the frame loop; the frame on screen stays. */
  stopPlaying() {
    this.playing = false;
    this.once = false;
    this.stopFrames();
    this.showPlayButton();
  }

  stopFrames() {
    if (this.animation !== null) cancelAnimationFrame(this.animation);
    this.animation = null;
  }

  /** The episode's last frame, still. */
  still() {
    const f = this.frames;
    this.stopPlaying();
    if (f) this.drawFrame(f, f.flat.length / 4 - 1);
  }

  /** The button: a playing episode stops (and the next ones stay still); a still one plays. */
  togglePlay() {
    if (this.playing) {
      this.autoplay = false;
      this.stopPlaying();
    } else {
      if (!this.lessMotion.matches) this.autoplay = true;
      this.play(this.lessMotion.matches);
    }
  }

  showPlayButton() {
    this.playButton.textContent = this.playing ? 'Остановить анимацию' : 'Проиграть эпизод';
    this.playButton.disabled = !this.frames;
  }

  watchVisibility() {
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
    if (!this.playing || this.animation !== null || !f || !this.poleVisible || document.hidden) return;
    // Continue from the frame shown last, not from where the clock would be.
    f.t0 = performance.now() - Math.max(0, f.shown) * this.schema.time_step_s * 1000;
    this.animation = requestAnimationFrame(() => this.frame());
  }

  /**
   * Frame `k` of the episode on the canvas; false when it could not be drawn.
   * @param {{ flat: number[], update: number, shown: number }} f @param {number} k
   */
  drawFrame(f, k) {
    try {
      this.drawPole(f.flat.slice(4 * k, 4 * k + 4), `после обновления ${f.update}: шаг ${k + 1} из ${f.flat.length / 4}`);
    } catch (e) {
      this.on.showError(`Не удалось нарисовать CartPole: ${messageOf(e)}`);
      return false;
    }
    f.shown = k;
    return true;
  }

  frame() {
    this.animation = null;
    const f = this.frames;
    if (!f || !this.playing || !this.poleVisible || document.hidden) return;
    const n = f.flat.length / 4;
    const k = Math.max(0, Math.min(n - 1, Math.floor((performance.now() - f.t0) / (this.schema.time_step_s * 1000))));
    if (k !== f.shown && !this.drawFrame(f, k)) return;
    if (k === n - 1) {
      // Played once, or the run is over: the last frame stays, nothing more to draw.
      if (!this.on.running() || this.once) return this.stopPlaying();
      f.t0 = performance.now() + 600; // replay after a short pause while training goes on
      f.shown = -1;
    }
    this.animation = requestAnimationFrame(() => this.frame());
  }

  renderTable() {
    // A CartPole panel's board holds CartPole summaries.
    const summaries = /** @type {import('../pkg/pgbook.js').BoardSummary<import('../pkg/pgbook.js').CartPoleSummary>[]} */ (
      this.shown.board?.summaries() ?? []
    );
    const stable = `стабильно ≥ ${formatNumber(this.schema.solved_threshold)} начиная с шага`;
    this.table.replaceChildren(
      this.shown.seedTable(
        ['итоговая оценка', 'ст. откл.', 'шагов среды', stable],
        summaries,
        (x) => [
          formatNumber(x.final_evaluation_mean, 1),
          formatNumber(x.final_evaluation_std, 1),
          formatNumber(x.env_steps),
          x.solved_from_env_steps == null ? '—' : formatNumber(x.solved_from_env_steps),
        ],
        `${this.kind}-summary`,
      ),
    );
  }

  downloadCsv() {
    const board = this.shown.board;
    if (board) download(`${this.kind}-cartpole.csv`, 'text/csv', board.csv());
  }
  downloadJson() {
    // Exactly the lines `pgbook train ppo|reinforce … --json` prints for the same run (in a comparison,
    // for the configuration of the chosen run).
    const { board, chosen, n } = this.shown;
    if (!board) return;
    const letter = this.shown.chosenLetter();
    const name = letter ? `${this.kind}-cartpole-${letter}.jsonl` : `${this.kind}-cartpole.jsonl`;
    download(name, 'application/x-ndjson', board.json_lines_of(Math.floor(chosen / n)));
  }
}
