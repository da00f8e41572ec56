// @ts-check
// Live figures: one wasm call redraws each (draw_figure), then the numbers it fills in, its text
// alternative and «Числа рисунка», and its message box. One coarse wasm call per redraw.
import { core } from './core.js';
import { fitCanvas } from './canvas.js';
import { messageOf } from './dom.js';
import { hasPanicked } from './fatal.js';
import { formatNumber } from './format.js';
import { fillNumbers, follow, numberTable, setText } from './numbers.js';

/** @type {Record<string, number[]>} */
const timings = {}; // figure name -> redraw durations in ms (read by the e2e tests)
window.pgbookTimings = timings;

// ---------- live figures ----------
// Every figure's parameters are declared once in the core (lessons::figures::FIGURES): the
// site build writes the controls from it and `core.draw_figure` reads them by name. What
// remains here is what a figure does with its numbers after a redraw: by default each
// `[data-value=PATH]` inside it takes its number at PATH (fillNumbers).
/**
 * @typedef {import('../pkg/pgbook_figures.js').FigureNumbers} FigureNumbers each figure's numbers (the core's types)
 * @typedef {import('../pkg/pgbook_figures.js').Shown} Shown a redraw's numbers and words
 * @typedef {Record<string, number>} Params
 * @type {Record<string, (figure: HTMLElement, numbers: FigureNumbers) => void>}
 */
const AFTER = {
  clipping: (figure, rows) => fillClippingTable(figure, /** @type {import('../pkg/pgbook_figures.js').FourRows} */ (rows)),
  tokens: (figure, t) => fillTokenReductions(figure, /** @type {import('../pkg/pgbook_figures.js').Tokens} */ (t)),
};

/** Trained networks (policy files' text) the page's trainers hand to figures, by figure name. @type {Record<string, string>} */
const trained = {};

/**
 * A figure that draws a trained network takes the one a trainer just finished and redraws.
 * @param {string} name the figure's name @param {string} policy the policy file's text
 */
export function useTrainedNetwork(name, policy) {
  trained[name] = policy;
  document.querySelectorAll(/** @type {'figure'} */ (`figure.live[data-figure="${name}"]`)).forEach(redraw);
}

/** @param {HTMLElement} figure @param {import('../pkg/pgbook_figures.js').FourRows} rows */
function fillClippingTable(figure, rows) {
  const body = figure.querySelector('[data-role=rows] tbody');
  if (body) {
    body.replaceChildren(
      ...rows.ratio.map((r, i) => {
        const tr = document.createElement('tr');
        if (rows.active[i]) tr.className = 'active';
        for (const v of [
          i + 1,
          r,
          rows.advantage[i],
          rows.terms.unclipped[i],
          rows.terms.clipped[i],
          rows.terms.pessimistic[i],
          rows.active[i] ? 'да (градиент 0)' : 'нет',
        ]) {
          tr.insertCell().textContent = formatNumber(v);
        }
        return tr;
      }),
    );
  }
  const d = rows.diagnostics;
  setText(figure, 'outside', formatNumber(d.ratio_outside_fraction));
  setText(figure, 'active', formatNumber(d.active_clip_fraction));
  setText(figure, 'kl', formatNumber(d.approx_kl_nonnegative, 6));
  setText(figure, 'objective', formatNumber(rows.mean_objective, 4));
}

/** @param {HTMLElement} figure @param {import('../pkg/pgbook_figures.js').Tokens} t */
function fillTokenReductions(figure, t) {
  const box = figure.querySelector('[data-role=token-reductions]');
  if (!box) return;
  box.replaceChildren(
    numberTable(
      [t.reductions.map(([, value]) => value)],
      4,
      [`ε = ${formatNumber(t.clip_epsilon, 2)}`],
      t.reductions.map(([name]) => name),
    ),
  );
}

/**
 * Shows `message` in the figure's message box (none: hides it); `failed` greys the figure out
 * (it could not be drawn), otherwise the figure is drawn and the message only explains it.
 * @param {HTMLElement} figure @param {string | null} message
 */
export function figureError(figure, message, failed = true) {
  const box = figure.querySelector('.figure-error');
  if (!(box instanceof HTMLElement)) return;
  // An alert is read each time its text is set: a redraw that keeps the message keeps the node.
  if (box.textContent !== (message ?? '')) box.textContent = message ?? '';
  box.hidden = !message;
  figure.classList.toggle('failed', !!message && failed);
}

/** A value as the reader typed it, cut to a short prefix so that no message grows with it. @param {string} raw */
export const quote = (raw) => `«${raw.length > 24 ? `${raw.slice(0, 24)}…` : raw}»`;

/**
 * Why a slider cannot take `raw` from a shared link as it is (null: it can). Only a plain
 * decimal inside the slider's range and on its grid is taken: anything the slider would
 * round, clamp or reset (empty, hexadecimal, padded, between two steps) would make the
 * figure, the thumb and the URL disagree.
 * @param {HTMLInputElement} input @param {string} raw
 */
export function refusal(input, raw) {
  const [min, max, step] = [Number(input.min), Number(input.max), Number(input.step)];
  const value = Number(raw);
  const steps = (value - min) / step;
  const exact =
    /^-?\d+(\.\d+)?$/.test(raw) && value >= min && value <= max && Math.abs(steps - Math.round(steps)) < 1e-9 * Math.max(1, steps);
  if (exact) return null;
  const label = input.dataset.label || input.dataset.param;
  return (
    `Значение ${label} = ${quote(raw)} из адреса страницы вне допустимого диапазона: ползунок принимает числа ` +
    `от ${formatNumber(min)} до ${formatNumber(max)} с шагом ${formatNumber(step)}. Рисунок построен для ${label} = ${formatNumber(Number(input.value))}.`
  );
}

/**
 * Reads every slider of a figure (the browser keeps a range input's value in its range and on
 * its grid), with the messages for values from the URL that were refused.
 * @param {HTMLElement} figure
 */
function readParams(figure) {
  /** @type {Params} */
  const params = {};
  /** @type {string[]} */
  const refused = [];
  // Per-record switches (the GAE buffer's flags): one bit mask per flag, bit t = record t.
  for (const input of figure.querySelectorAll(/** @type {'input'} */ ('input[data-flag]'))) {
    const flag = input.dataset.flag ?? '';
    params[flag] = (params[flag] ?? 0) + (input.checked ? 2 ** Number(input.dataset.record) : 0);
    if (input.dataset.refused) refused.push(input.dataset.refused);
  }
  for (const input of figure.querySelectorAll(/** @type {'input'} */ ('input[data-param]'))) {
    if (input.type === 'checkbox') {
      params[input.dataset.param ?? ''] = input.checked ? 1 : 0;
      if (input.dataset.refused) refused.push(input.dataset.refused);
      continue;
    }
    const value = Number(input.value);
    params[input.dataset.param ?? ''] = value;
    if (input.dataset.refused) refused.push(input.dataset.refused);
    const shown = Number(input.step) >= 1 ? String(value) : formatNumber(value, Number(input.dataset.digits ?? 2));
    const out = figure.querySelector(`output[for="${input.id}"]`);
    if (out) out.textContent = shown;
    // A screen reader announces the slider's value as the page writes it: «γ = 0,99».
    input.setAttribute('aria-valuetext', `${input.dataset.label || input.dataset.param} = ${shown}`);
  }
  return { params, refused };
}

/**
 * @typedef {import('../pkg/pgbook_figures.js').Description} Description a figure in words (the core's text::Description)
 */

/**
 * The canvas's text alternative names the settings it is drawn at and says what the figure
 * shows there (the core's sentence); «Числа рисунка» holds its key numbers as a table, filled
 * while open.
 * @param {HTMLElement} figure @param {HTMLCanvasElement} canvas @param {Description} description
 */
function describe(figure, canvas, description) {
  canvas.dataset.label ??= canvas.getAttribute('aria-label') ?? '';
  // The controls as the page shows them (each label and value), then what the figure shows.
  const settings = [...figure.querySelectorAll(/** @type {'input'} */ ('input[data-param]'))].map(
    (i) =>
      `${i.dataset.label || i.dataset.param} = ${i.type === 'checkbox' ? formatNumber(i.checked) : (figure.querySelector(`output[for="${i.id}"]`)?.textContent ?? i.value)}`,
  );
  canvas.setAttribute('aria-label', `${canvas.dataset.label}; при ${settings.join(', ')}. ${description.text}`);
  const found = figure.querySelector('details.figure-numbers');
  const details = found instanceof HTMLDetailsElement ? found : numbersDetails(figure, canvas);
  descriptions.set(details, description);
  fillDescription(details);
}

/** A figure's «Числа рисунка», made on its first redraw. @param {HTMLElement} figure @param {HTMLCanvasElement} canvas */
function numbersDetails(figure, canvas) {
  const details = document.createElement('details');
  details.className = 'figure-numbers';
  const summary = document.createElement('summary');
  summary.textContent = 'Числа рисунка';
  const table = document.createElement('table');
  table.className = 'numbers';
  details.append(summary, table);
  details.addEventListener('toggle', () => fillDescription(details));
  (figure.querySelector('figcaption') ?? canvas).before(details);
  return details;
}

/** @type {WeakMap<HTMLDetailsElement, Description>} */
const descriptions = new WeakMap();

/** Fills an open «Числа рисунка» with its figure's latest table. @param {HTMLDetailsElement} details */
function fillDescription(details) {
  const description = descriptions.get(details);
  const table = details.querySelector('table');
  if (!details.open || !description || !table) return;
  const head = document.createElement('thead');
  const header = head.insertRow();
  for (const c of description.table.columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = c;
    header.append(th);
  }
  const body = document.createElement('tbody');
  for (const row of description.table.rows) {
    const tr = body.insertRow();
    row.forEach((cell) => (tr.insertCell().textContent = cell));
  }
  table.replaceChildren(head, body);
}

/** @param {HTMLElement} figure */
export function redraw(figure) {
  if (hasPanicked()) return;
  const name = figure.dataset.figure ?? '';
  const read = readParams(figure);
  const canvas = figure.querySelector('canvas');
  if (!canvas) return;
  fitCanvas(canvas, () => redraw(figure));
  const t0 = performance.now();
  try {
    // Lesson 8's trainer hands over a transformer it trained (useTrainedNetwork); before
    // that the core draws the untrained network.
    /** @type {Shown} */
    const { numbers, description } = core.draw_figure(name, canvas.id, read.params, trained[name]);
    (timings[name] ??= []).push(performance.now() - t0);
    (AFTER[name] ?? fillNumbers)(figure, numbers);
    follow(name, numbers);
    describe(figure, canvas, description);
    figureError(figure, read.refused.join(' ') || null, false);
  } catch (e) {
    if (!hasPanicked()) figureError(figure, `Не удалось построить рисунок: ${messageOf(e)}`);
  }
}
