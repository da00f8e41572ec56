// @ts-check
// The figures' controls: sliders and switches wired to their figure, their values taken from a
// shared link (checked as given, refused with a message) and kept in the URL.
import { quote, redraw, refusal } from './figures.js';
import { formatNumber } from './format.js';
import { pageParams, setPageParams } from './links.js';

/**
 * Writes the settings of the controls in `scope` (a figure, or the whole page) into `q`, as a
 * link keeps them: each slider's value, each switch as 0 or 1, per-record switches as the
 * records that are on (`term=3-8`). The worksheets' state links (worksheet.js) take one figure's.
 * @param {ParentNode} scope @param {URLSearchParams} q
 */
export function writeState(scope, q) {
  scope
    .querySelectorAll(/** @type {'input'} */ ('input[data-param][data-url]'))
    .forEach((input) => q.set(input.dataset.url ?? '', input.type === 'checkbox' ? (input.checked ? '1' : '0') : input.value));
  /** @type {Map<string, string[]>} */
  const lists = new Map();
  scope.querySelectorAll(/** @type {'input'} */ ('input[data-flag][data-url]')).forEach((input) => {
    const list = lists.get(input.dataset.url ?? '') ?? [];
    if (input.checked && !input.disabled) list.push(input.dataset.record ?? '');
    lists.set(input.dataset.url ?? '', list);
  });
  lists.forEach((records, key) => q.set(key, records.join('-')));
  return q;
}

// Slider settings live in the URL (debounced: browsers throttle rapid history updates).
let urlTimer = 0;
function saveToUrl() {
  clearTimeout(urlTimer);
  urlTimer = window.setTimeout(() => setPageParams(writeState(document, pageParams())), 250);
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

/**
 * Draws each figure once at load without blocking the page: one figure per task, those on the
 * screen (or about to be) first, then the rest in the page's order, and any that scrolls into
 * view before its turn at once. Resolves when every figure has been drawn.
 * @param {HTMLElement[]} figures
 * @returns {Promise<void>}
 */
function drawAtLoad(figures) {
  const waiting = new Set(figures);
  /** @type {Set<Element>} figures on the screen or near it */
  const near = new Set();
  if (!waiting.size) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = false; // the observer's first report: what is on the screen now
    let queued = false;
    const next = () => {
      queued = false;
      const figure = [...waiting].find((f) => near.has(f)) ?? (seen ? waiting.values().next().value : undefined);
      if (!figure) return;
      waiting.delete(figure);
      redraw(figure);
      if (waiting.size) queue();
      else {
        observer.disconnect();
        resolve();
      }
    };
    const queue = () => {
      if (!queued) setTimeout(next, 0);
      queued = true;
    };
    const observer = new IntersectionObserver(
      (entries) => {
        entries.forEach((e) => (e.isIntersecting ? near.add(e.target) : near.delete(e.target)));
        seen = true;
        queue();
      },
      { rootMargin: '50% 0px' },
    );
    waiting.forEach((f) => observer.observe(f));
  });
}

/** Wires every figure's controls and draws the figures (drawAtLoad); resolves once all are drawn. */
export function wireFigures() {
  const q = pageParams();
  /** @type {HTMLElement[]} */
  const figures = [];
  document.querySelectorAll(/** @type {'figure'} */ ('figure.live[data-figure]')).forEach((figure) => {
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
    figures.push(figure);
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
  return drawAtLoad(figures);
}
