// @ts-check
// Page wiring: loads the wasm core, connects sliders to figures, keeps slider settings in the
// URL, and shows every error next to the thing that failed. No number shown on the page is
// computed here: figures and worked values come from the Rust core; formulas, navigation and
// the table of contents were rendered when the site was built (scripts/build-site.mjs).
import init, * as wasm from '../pkg/pgbook.js';
import { announceFigures } from './announce.js';
import { fitCanvas, redrawEvery } from './canvas.js';
import { formatNumber, useNumerals } from './format.js';
import { registerOffline } from './offline.js';
import { setupTrainers } from './trainers.js';

/** @type {Record<string, number[]>} */
const timings = {}; // figure name -> redraw durations in ms (read by the e2e tests)
window.pgbookTimings = timings;
// Main-thread tasks over 50 ms (the e2e tests check that training never causes one).
window.pgbookLongTasks = [];
try {
  new PerformanceObserver((list) => list.getEntries().forEach((e) => window.pgbookLongTasks.push(e.duration))).observe({
    type: 'longtask',
    buffered: true,
  });
} catch {
  /* browsers without the Long Tasks API */
}

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

// ---------- fatal errors: a failed module load or a panic inside wasm ----------
/** @param {string} message */
function showFatal(message) {
  let bar = document.querySelector('.fatal');
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'fatal';
    bar.setAttribute('role', 'alert');
    document.body.prepend(bar);
  }
  bar.textContent = message;
  const reload = document.createElement('button');
  reload.textContent = 'Перезагрузить страницу';
  reload.addEventListener('click', () => location.reload());
  bar.append(reload);
}
// The Rust panic hook calls this; after a panic the module's state cannot be trusted.
globalThis.pgbookPanic = (/** @type {string} */ message) => {
  showFatal(`Внутренняя ошибка модуля WebAssembly: ${message}. Рисунки остановлены.`);
  document.querySelectorAll('figure.live').forEach((f) => f.classList.add('failed'));
  panicked = true;
};
let panicked = false;

/** @param {unknown} v @param {number} digits @returns {string} */
function formatValue(v, digits) {
  return Array.isArray(v) ? `(${v.map((x) => formatValue(x, digits)).join('; ')})` : formatNumber(v, digits);
}
/** The value at a dotted path (`score.probs`) of the worked examples. @param {unknown} obj @param {string} path */
function lookup(obj, path) {
  return path.split('.').reduce((/** @type {any} */ o, k) => (o == null ? undefined : o[k]), obj);
}

// ---------- worked examples: every number in the lesson text comes from wasm ----------
/** @param {unknown} worked */
function fillWorked(worked) {
  document.querySelectorAll(/** @type {'span'} */ ('[data-worked]')).forEach((el) => {
    const v = lookup(worked, el.dataset.worked ?? '');
    if (v === undefined) {
      el.textContent = '?';
      el.title = `нет значения ${el.dataset.worked}`;
      console.warn(`worked example has no value at ${el.dataset.worked}`);
      return;
    }
    el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
  document.querySelectorAll(/** @type {'div'} */ ('[data-worked-table]')).forEach((el) => {
    const v = lookup(worked, el.dataset.workedTable ?? '');
    if (!Array.isArray(v)) {
      el.textContent = `нет таблицы ${el.dataset.workedTable}`;
      return;
    }
    el.replaceChildren(
      numberTable(
        Array.isArray(v[0]) ? v : [v],
        Number(el.dataset.digits ?? 3),
        el.dataset.rowLabels?.split('|'),
        el.dataset.colLabels?.split('|'),
      ),
    );
  });
}
/**
 * @param {unknown[][]} rows
 * @param {number} digits
 * @param {string[]} [rowLabels]
 * @param {string[]} [colLabels]
 */
function numberTable(rows, digits, rowLabels, colLabels) {
  const table = document.createElement('table');
  table.className = 'numbers';
  if (colLabels) {
    const head = table.createTHead().insertRow();
    if (rowLabels) head.append(document.createElement('td')); // the corner: no header for nothing
    for (const c of colLabels) {
      const th = document.createElement('th');
      th.textContent = c;
      head.append(th);
    }
  }
  const body = table.createTBody();
  rows.forEach((row, i) => {
    const tr = body.insertRow();
    if (rowLabels) {
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = rowLabels[i] ?? '';
      tr.append(th);
    }
    for (const x of row) tr.insertCell().textContent = formatNumber(x, digits);
  });
  return table;
}

// ---------- live figures ----------
/**
 * Each figure: which wasm call redraws it and what to do with the values it returns.
 * @typedef {Record<string, number>} Params
 * @typedef {{ draw: (canvasId: string, p: Params) => any, after?: (figure: HTMLElement, result: any) => void }} Figure
 * @type {Record<string, Figure>}
 */
const FIGURES = {
  returns: {
    draw: (canvasId, p) => wasm.draw_returns(canvasId, p.r0, p.r1, p.r2, p.gamma, p.t),
    after: (figure, r) => fillNumbers(figure, r),
  },
  bstar: {
    draw: (canvasId, p) => wasm.draw_bstar(canvasId, p.p0, p.q0, p.q1),
    after: (figure, b) => fillNumbers(figure, b),
  },
  drift: {
    draw: (canvasId, p) => wasm.draw_drift(canvasId, p.eps, p.steps),
    after: (figure, d) => fillNumbers(figure, d),
  },
  score: {
    draw: (canvasId, p) => wasm.draw_score(canvasId, p.z0, p.z1, p.z2, p.action, p.c, p.n),
    after: (figure, s) => fillNumbers(figure, s),
  },
  clipping: {
    draw: (canvasId, p) => wasm.draw_clipping(canvasId, p.eps),
    after: (figure, rows) => fillClippingTable(figure, rows),
  },
  gae: {
    draw: (canvasId, p) => wasm.draw_gae_with(canvasId, p.gamma, p.lambda, p.terminated, p.trace_cut, p.forgot_cut === 1),
  },
  baselines: {
    draw: (canvasId, p) => wasm.draw_baselines(canvasId, p.group_size, p.zscore === 1),
  },
  seqratio: {
    draw: (canvasId, p) => wasm.draw_sequence_ratio(canvasId, p.length, p.delta, p.eps),
    after: (figure, s) => fillNumbers(figure, s),
  },
  difficulty: {
    draw: (canvasId, p) => wasm.draw_difficulty(canvasId, p.group_size),
    after: (figure, d) => fillNumbers(figure, d),
  },
  length_weights: {
    draw: (canvasId, p) => wasm.draw_length_weights(canvasId, p.short, p.long, p.max),
    after: (figure, w) => fillNumbers(figure, w),
  },
  kl_estimators: {
    draw: (canvasId, p) => wasm.draw_kl_estimators(canvasId, p.shift),
    after: (figure, k) => fillNumbers(figure, k),
  },
  tokens: {
    draw: (canvasId, p) => wasm.draw_tokens_with(canvasId, p.eps, p.prompt, p.eos === 1, p.shift === 1),
    after: (figure, t) => fillTokenReductions(figure, t),
  },
};

/**
 * @param {HTMLElement} figure
 * @param {{ ratio: number[], active: boolean[], advantage: number[], mean_objective: number,
 *   terms: { unclipped: number[], clipped: number[], pessimistic: number[] },
 *   diagnostics: { ratio_outside_fraction: number, active_clip_fraction: number, approx_kl_nonnegative: number } }} rows
 */
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

/**
 * @param {HTMLElement} figure
 * @param {{ reductions: [string, number][], clip_epsilon: number }} t
 */
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
 * Fills each `[data-value=PATH]` of the figure with the figure's number at that dotted path
 * (lists as the text writes them: semicolons, decimal commas).
 * @param {HTMLElement} figure @param {unknown} numbers
 */
function fillNumbers(figure, numbers) {
  figure.querySelectorAll(/** @type {'span'} */ ('[data-value]')).forEach((el) => {
    const v = lookup(numbers, el.dataset.value ?? '');
    if (v !== undefined) el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
}
/**
 * The lesson text's numbers that follow a figure's controls: `[data-follows="NAME.PATH"]`
 * anywhere on the page takes the figure's number at PATH.
 * @param {string} name @param {unknown} numbers
 */
function follow(name, numbers) {
  document.querySelectorAll(/** @type {'span'} */ (`[data-follows^="${name}."]`)).forEach((el) => {
    const v = lookup(numbers, (el.dataset.follows ?? '').slice(name.length + 1));
    if (v !== undefined) el.textContent = formatValue(v, Number(el.dataset.digits ?? 3));
  });
}
/** @param {HTMLElement} root @param {string} role @param {string} text */
function setText(root, role, text) {
  root.querySelectorAll(`[data-value=${role}]`).forEach((el) => {
    el.textContent = text;
  });
}

/**
 * Shows `message` in the figure's message box (none: hides it); `failed` greys the figure out
 * (it could not be drawn), otherwise the figure is drawn and the message only explains it.
 * @param {HTMLElement} figure @param {string | null} message
 */
function figureError(figure, message, failed = true) {
  const box = figure.querySelector('.figure-error');
  if (!(box instanceof HTMLElement)) return;
  // An alert is read each time its text is set: a redraw that keeps the message keeps the node.
  if (box.textContent !== (message ?? '')) box.textContent = message ?? '';
  box.hidden = !message;
  figure.classList.toggle('failed', !!message && failed);
}

/** A value as the reader typed it, cut to a short prefix so that no message grows with it. @param {string} raw */
const quote = (raw) => `«${raw.length > 24 ? `${raw.slice(0, 24)}…` : raw}»`;

/**
 * Why a slider cannot take `raw` from a shared link as it is (null: it can). Only a plain
 * decimal inside the slider's range and on its grid is taken: anything the slider would
 * round, clamp or reset (empty, hexadecimal, padded, between two steps) would make the
 * figure, the thumb and the URL disagree.
 * @param {HTMLInputElement} input @param {string} raw
 */
function refusal(input, raw) {
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
 * @typedef {{ columns: string[], rows: string[][] }} NumbersTable
 * @typedef {{ text: string, table: NumbersTable }} Description
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
function redraw(figure) {
  if (panicked) return;
  const name = figure.dataset.figure ?? '';
  const spec = FIGURES[name];
  const read = readParams(figure);
  const canvas = figure.querySelector('canvas');
  if (!canvas) return;
  fitCanvas(canvas, () => redraw(figure));
  const t0 = performance.now();
  try {
    const { numbers, description } = spec.draw(canvas.id, read.params);
    (timings[name] ??= []).push(performance.now() - t0);
    spec.after?.(figure, numbers);
    follow(name, numbers);
    describe(figure, canvas, description);
    figureError(figure, read.refused.join(' ') || null, false);
  } catch (e) {
    if (!panicked) figureError(figure, `Не удалось построить рисунок: ${messageOf(e)}`);
  }
}

// Slider settings live in the URL (debounced: browsers throttle rapid history updates).
let urlTimer = 0;
function saveToUrl() {
  clearTimeout(urlTimer);
  urlTimer = window.setTimeout(() => {
    const q = new URLSearchParams(location.search);
    document
      .querySelectorAll(/** @type {'input'} */ ('input[data-param][data-url]'))
      .forEach((input) => q.set(input.dataset.url ?? '', input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value));
    // Per-record switches: the records that are on, as `term=3-8`.
    /** @type {Map<string, string[]>} */
    const lists = new Map();
    document.querySelectorAll(/** @type {'input'} */ ('input[data-flag][data-url]')).forEach((input) => {
      const list = lists.get(input.dataset.url ?? '') ?? [];
      if (input.checked && !input.disabled) list.push(input.dataset.record ?? '');
      lists.set(input.dataset.url ?? '', list);
    });
    lists.forEach((records, key) => q.set(key, records.join('-')));
    history.replaceState(null, '', `${location.pathname}?${q}${location.hash}`);
  }, 250);
}

/**
 * A figure's per-record switches: a link's `term=3-8` sets exactly those records (an empty
 * value: none); anything else is refused with a message and leaves the defaults.
 * @param {HTMLElement} figure @param {URLSearchParams} q
 */
function wireFlags(figure, q) {
  const inputs = [...figure.querySelectorAll(/** @type {'input'} */ ('input[data-flag][data-url]'))];
  for (const key of new Set(inputs.map((i) => i.dataset.url ?? ''))) {
    const group = inputs.filter((i) => i.dataset.url === key && !i.disabled);
    const shared = q.get(key);
    if (shared !== null) {
      const records = shared === '' ? [] : shared.split('-');
      const known = new Set(group.map((i) => i.dataset.record));
      if (records.every((r) => /^\d+$/.test(r) && known.has(r)))
        group.forEach((i) => (i.checked = records.includes(i.dataset.record ?? '')));
      else {
        const label = group[0]?.dataset.label ?? key;
        group[0].dataset.refused =
          `Значение ${label} = ${quote(shared)} из адреса страницы не принято: нужны номера шагов ` +
          `${[...known].join(', ')} через «-». Рисунок построен для флагов по умолчанию.`;
      }
    }
    group.forEach((input) =>
      input.addEventListener('input', () => {
        figure.querySelectorAll(/** @type {'input'} */ ('input[data-param], input[data-flag]')).forEach((i) => delete i.dataset.refused);
        redraw(figure);
        saveToUrl();
      }),
    );
  }
}

function wireFigures() {
  const q = new URLSearchParams(location.search);
  document.querySelectorAll(/** @type {'figure'} */ ('figure.live[data-figure]')).forEach((figure) => {
    if (!FIGURES[figure.dataset.figure ?? '']) {
      figureError(figure, `Неизвестный рисунок «${figure.dataset.figure}».`);
      return;
    }
    wireFlags(figure, q);
    figure.querySelectorAll(/** @type {'input'} */ ('input[data-param]')).forEach((input) => {
      // A value from a shared link is checked as given, not silently rounded by the slider;
      // a refused one leaves the slider (and so the figure and the URL) at its default.
      const shared = input.dataset.url ? q.get(input.dataset.url) : null;
      if (shared !== null && input.type === 'checkbox') {
        // A switch takes exactly 0 or 1 from a link.
        if (shared === '0' || shared === '1') input.checked = shared === '1';
        else
          input.dataset.refused =
            `Значение ${input.dataset.label || input.dataset.param} = ${quote(shared)} из адреса страницы вне допустимого диапазона: ` +
            `переключатель принимает 0 или 1. Рисунок построен для ${formatNumber(input.checked)}.`;
      } else if (shared !== null) {
        const why = refusal(input, shared);
        if (why) input.dataset.refused = why;
        else input.value = shared;
      }
      input.addEventListener('input', () => {
        // The URL is about to take every slider's value: no refused value is left in it.
        figure.querySelectorAll(/** @type {'input'} */ ('input[data-param], input[data-flag]')).forEach((i) => delete i.dataset.refused);
        redraw(figure);
        saveToUrl();
      });
    });
    redraw(figure);
  });
  // A change of devicePixelRatio (zoom, another screen) needs a new backing store too.
  let resizeTimer = 0;
  addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(
      () => document.querySelectorAll(/** @type {'figure'} */ ('figure.live[data-figure]')).forEach(redraw),
      100,
    );
  });
}

// ---------- lesson 9's exercises: the core checks every answer ----------
/** @typedef {{ correct: boolean, message: string, items: boolean[] }} Verdict */
function wireExercises() {
  document.querySelectorAll(/** @type {'form'} */ ('form[data-exercise]')).forEach((form) => {
    const feedback = form.querySelector('[data-feedback]');
    // A field's label is a formula, which has no accessible name in every browser: the field
    // is named by its number (the one the feedback quotes) and the formula's text.
    form.querySelectorAll(/** @type {'input'} */ ('input[type=text]')).forEach((field, i) => {
      const formula = field.closest('label')?.querySelector('math');
      const text = formula
        ? [...formula.querySelectorAll('mi, mn, mo, mtext')]
            .map((m) => m.textContent)
            .join('')
            .replace(/[\u2061-\u2064]/g, '')
        : '';
      field.setAttribute('aria-label', `Поле ${i + 1}${text ? `: ${text}` : ''}`);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (!(feedback instanceof HTMLElement) || panicked) return;
      const options = [...form.querySelectorAll(/** @type {'input'} */ ('input[name=option]'))];
      const fields = [...form.querySelectorAll(/** @type {'input'} */ ('input[type=text]'))];
      const answers = options.length ? options.filter((o) => o.checked).map((o) => o.value) : fields.map((f) => f.value);
      /** @type {Verdict} */
      let verdict;
      try {
        verdict = wasm.check_exercise(Number(form.dataset.exercise), answers);
      } catch (e) {
        feedback.textContent = `Не удалось проверить ответ: ${messageOf(e)}`;
        feedback.className = 'feedback wrong';
        return;
      }
      feedback.textContent = verdict.message;
      feedback.className = `feedback ${verdict.correct ? 'right' : 'wrong'}`;
      form.dataset.checked = verdict.correct ? 'right' : 'wrong';
      // Choice: a wrong answer opens only the explanations of the options judged wrong, so the
      // reader can think again about the rest; a right one opens every explanation.
      options.forEach((o, i) => {
        const item = o.closest('li');
        const why = item?.querySelector('[data-why]');
        const open = verdict.correct || !verdict.items[i];
        if (why instanceof HTMLElement) why.hidden = !open;
        item?.classList.toggle('judged-right', verdict.correct);
        item?.classList.toggle('judged-wrong', !verdict.items[i]);
      });
      fields.forEach((f, i) => f.setAttribute('aria-invalid', String(!verdict.items[i])));
    });
  });
}

// ---------- themes: light, dark, high contrast ----------
const THEME_KEY = 'pgbook-theme';
const THEMES = ['light', 'dark', 'contrast'];
/** The figures' colours, in the order wasm's set_palette takes them (book.css's --fig-*). */
const FIGURE_COLORS = ['paper', 'ink', 'grid', 'blue', 'red', 'green', 'grey', 'orange', 'purple'];

/** The theme the system asks for (the default until the reader chooses). */
const systemTheme = () =>
  matchMedia('(prefers-contrast: more)').matches ? 'contrast' : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';

/** The reader's remembered choice, or null (none, or storage refused). */
function storedTheme() {
  try {
    const theme = localStorage.getItem(THEME_KEY);
    return theme && THEMES.includes(theme) ? theme : null;
  } catch {
    return null;
  }
}

/** Passes the current theme's figure colours, read from the CSS once, to wasm. */
function usePalette() {
  const style = getComputedStyle(document.documentElement);
  wasm.set_palette(FIGURE_COLORS.map((c) => style.getPropertyValue(`--fig-${c}`).trim()));
}

/** Switches the page to `theme` and redraws every canvas in its colours (sliders and runs stay). @param {string} theme */
function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  usePalette();
  redrawEvery();
}

function wireThemeSwitch() {
  const select = document.getElementById('theme-switch');
  if (!(select instanceof HTMLSelectElement)) return;
  select.value = storedTheme() ?? 'auto';
  select.addEventListener('change', () => {
    const choice = select.value;
    try {
      if (choice === 'auto') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, choice);
    } catch {
      // Storage refused (a private window, blocked site data): the page still switches.
      let note = document.getElementById('theme-note');
      if (!note) {
        note = document.createElement('span');
        note.id = 'theme-note';
        note.setAttribute('role', 'status');
        select.closest('label')?.after(note);
      }
      note.textContent = 'Браузер не даёт странице хранить настройки: оформление не запомнится для других страниц.';
    }
    applyTheme(THEMES.includes(choice) ? choice : systemTheme());
  });
  for (const query of ['(prefers-color-scheme: dark)', '(prefers-contrast: more)'])
    matchMedia(query).addEventListener('change', () => {
      if (select.value === 'auto') applyTheme(systemTheme());
    });
}

// ---------- print: each canvas as the image it shows, with its description and numbers ----------
function wirePrint() {
  /** @type {string | null} */
  let restore = null;
  /** @type {HTMLDetailsElement[]} */
  let opened = [];
  addEventListener('beforeprint', () => {
    if (document.querySelector('.print-copy')) return; // already prepared for this print
    // Paper is light: a dark theme's figures are redrawn for it, and back after.
    const theme = document.documentElement.dataset.theme ?? 'light';
    if (theme !== 'light') {
      restore = theme;
      applyTheme('light');
    }
    opened = [...document.querySelectorAll(/** @type {'details'} */ ('details.figure-numbers:not([open])'))];
    opened.forEach((d) => (d.open = true));
    document.querySelectorAll('canvas').forEach((canvas) => {
      if (!canvas.width || !canvas.height) return;
      const image = document.createElement('img');
      image.className = 'print-copy';
      image.src = canvas.toDataURL('image/png');
      image.alt = canvas.getAttribute('aria-label') ?? '';
      const description = document.createElement('p');
      description.className = 'print-copy';
      description.textContent = image.alt;
      canvas.after(image, ...(image.alt ? [description] : []));
    });
  });
  addEventListener('afterprint', () => {
    document.querySelectorAll('.print-copy').forEach((copy) => copy.remove());
    opened.forEach((d) => (d.open = false));
    opened = [];
    if (restore) applyTheme(restore);
    restore = null;
  });
}

// ---------- scrolled boxes: a wide formula or table scrolls, and the keyboard can scroll it ----------
const SCROLLERS = '.math-display, .math, .table-wrap, details.figure-numbers table, pre.source, table.record-flags';
/** Makes every box that scrolls now focusable (so arrows scroll it) and no other. */
function markScrollers() {
  document.querySelectorAll(/** @type {'div'} */ (SCROLLERS)).forEach((box) => {
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX) && box.scrollWidth > box.clientWidth + 1;
    if (scrolls && !box.hasAttribute('tabindex')) box.tabIndex = 0;
    else if (!scrolls && box.tabIndex === 0) box.removeAttribute('tabindex');
  });
}
function keyboardScrolling() {
  markScrollers();
  let timer = 0;
  const later = () => {
    clearTimeout(timer);
    timer = window.setTimeout(markScrollers, 150);
  };
  addEventListener('resize', later);
  // A figure's «Числа рисунка» or a lesson's source box may only scroll once opened.
  document.addEventListener('toggle', later, true);
}

async function main() {
  // Opened from disk: module workers and wasm cannot load; the page frame already shows how
  // to start a server instead.
  if (location.protocol === 'file:') return;
  registerOffline();
  try {
    await init();
  } catch (e) {
    showFatal(`Не удалось загрузить модуль WebAssembly: ${messageOf(e)}`);
    return;
  }
  window.pgbookWasm = wasm; // for the self-checks of the end-to-end tests
  useNumerals(wasm.russian_count);
  try {
    usePalette();
  } catch (e) {
    showFatal(`Не удалось прочитать цвета оформления: ${messageOf(e)}`);
  }
  wireThemeSwitch();
  wirePrint();
  if (document.querySelector('[data-worked], [data-worked-table]')) {
    try {
      fillWorked(wasm.worked_examples());
    } catch (e) {
      showFatal(`Не удалось вычислить числа примеров: ${messageOf(e)}`);
    }
  }
  wireFigures();
  announceFigures();
  wireExercises();
  keyboardScrolling();
  setupTrainers(wasm);
  document.documentElement.dataset.ready = '1';
}

main();
