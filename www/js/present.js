// @ts-check
// The projector view (issue 42): any live figure or trainer panel shown alone over the whole
// window, in type a class reads from the back of the room. The element itself moves into the
// view and back (its sliders, runs and workers keep going); its canvases get `data-scale`, with
// which the core draws labels, lines and margins larger (Theme::presentation_scale) into a
// backing store of the canvas's own size: the figure is redrawn, not a zoomed bitmap.
// PageUp/PageDown and ←/→ (what presentation clickers send) step through the lesson's figures
// and panels, or move the focused slider; Esc leaves and focus returns to where it was.
// `present=ID` in the page's address opens the view (kept there like the sliders' state).
import { redrawEvery } from './canvas.js';
import { el } from './dom.js';
import { pageParams, setPageParams } from './links.js';

const ITEMS = 'figure.live[data-figure][id], section.trainer[id]';
/** The widest canvas scale: 11 px tick labels become 22 px, the 14 px caption 28 px. */
const MOST_SCALE = 2;

/** @type {HTMLElement[]} every figure and panel of the lesson, in the page's order */
const items = [];
/** @type {{ item: HTMLElement, place: Comment, opener: Element | null, inert: Element[] } | null} */
let shown = null;
/** @type {HTMLElement | null} */
let view = null;

/** What the item shows, for the view's heading and the button's name. @param {HTMLElement} item */
function nameOf(item) {
  const canvas = item.querySelector('canvas');
  if (item.matches('figure')) return `Рисунок: ${canvas?.dataset.label ?? canvas?.getAttribute('aria-label') ?? item.id}`;
  return `Тренажёр: ${item.getAttribute('aria-label') ?? item.id}`;
}

/** The canvas scale for this window: 2 at 1280 × 720 and up, less on a smaller screen. */
const scale = () => Math.max(1, Math.min(MOST_SCALE, innerWidth / 640, innerHeight / 360));

/** The view: a modal dialog of its own (a div, so that the Fullscreen API can show it alone). */
function makeView() {
  const title = el('h2', { id: 'present-title', tabindex: '-1' });
  const counter = el('span', { class: 'present-counter', 'aria-live': 'polite' });
  const button = (/** @type {string} */ text, /** @type {() => void} */ onclick, attrs = {}) =>
    el('button', { type: 'button', onclick, ...attrs }, text);
  const contrast = button('Высокий контраст', toggleContrast, { 'aria-pressed': 'false', 'data-present': 'contrast' });
  const full = button('Во весь экран', toggleFullscreen, { 'data-present': 'fullscreen' });
  if (!document.fullscreenEnabled) full.hidden = true;
  const root = el(
    'div',
    { class: 'present-view', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'present-title', hidden: '' },
    el(
      'div',
      { class: 'present-bar' },
      title,
      el(
        'div',
        { class: 'present-buttons' },
        button('←', () => step(-1), { 'data-present': 'previous', 'aria-label': 'Предыдущий рисунок' }),
        counter,
        button('→', () => step(1), { 'data-present': 'next', 'aria-label': 'Следующий рисунок' }),
        contrast,
        full,
        button('Закрыть (Esc)', close, { 'data-present': 'close' }),
      ),
    ),
    el(
      'p',
      { class: 'present-help', id: 'present-help' },
      'PageDown, → — следующий рисунок; PageUp, ← — предыдущий; на ползунке эти клавиши двигают ползунок; Esc — выход.',
    ),
    el('div', { class: 'present-stage' }),
  );
  root.setAttribute('aria-describedby', 'present-help');
  root.addEventListener('keydown', onKey);
  document.addEventListener('fullscreenchange', () => {
    full.textContent = document.fullscreenElement ? 'Выйти из полноэкранного режима' : 'Во весь экран';
  });
  document.body.append(root);
  return root;
}

/** Shows `item` in the view (replacing the one shown). @param {HTMLElement} item @param {Element | null} opener */
export function present(item, opener = document.activeElement) {
  view ??= makeView();
  if (shown) putBack(false);
  const place = document.createComment('present');
  item.before(place);
  /** @type {Element[]} */
  const inert = [];
  if (!shown) {
    // Everything but the view is out of reach while it is open (the modal's own focus trap).
    for (const child of document.body.children)
      if (child !== view && !child.hasAttribute('inert')) {
        child.setAttribute('inert', '');
        inert.push(child);
      }
  }
  shown = { item, place, opener: shown?.opener ?? opener, inert: shown?.inert ?? inert };
  view.querySelector('.present-stage')?.append(item);
  const k = String(Math.round(scale() * 100) / 100);
  item.querySelectorAll('canvas').forEach((c) => (c.dataset.scale = k));
  view.hidden = false;
  document.documentElement.classList.add('presenting');
  const title = /** @type {HTMLElement} */ (view.querySelector('#present-title'));
  title.textContent = nameOf(item);
  const at = items.indexOf(item);
  /** @type {HTMLElement} */ (view.querySelector('.present-counter')).textContent = `${at + 1} из ${items.length}`;
  view
    .querySelector('[data-present=contrast]')
    ?.setAttribute('aria-pressed', String(document.documentElement.dataset.theme === 'contrast'));
  // Focus on the heading: the clicker's PageDown steps through the figures until the teacher
  // tabs to a slider. A figure's chart is scrolled into the window whole.
  title.focus({ preventScroll: true });
  if (item.matches('figure')) item.querySelector('canvas')?.scrollIntoView({ block: 'nearest' });
  else view.scrollTop = 0;
  const q = pageParams();
  q.set('present', item.id);
  setPageParams(q);
  // A canvas whose size did not change is redrawn for its new scale too.
  requestAnimationFrame(redrawEvery);
}

/** Returns the shown item to its place in the lesson. @param {boolean} leaving */
function putBack(leaving) {
  if (!shown) return;
  const { item, place } = shown;
  place.replaceWith(item);
  item.querySelectorAll('canvas').forEach((c) => delete c.dataset.scale);
  if (leaving) {
    shown.inert.forEach((e) => e.removeAttribute('inert'));
    const opener = shown.opener;
    shown = null;
    if (view) view.hidden = true;
    document.documentElement.classList.remove('presenting');
    if (document.fullscreenElement === view) document.exitFullscreen().catch(() => {});
    const q = pageParams();
    q.delete('present');
    setPageParams(q);
    const back = opener instanceof HTMLElement && opener.isConnected ? opener : item.querySelector('.present-open button');
    if (back instanceof HTMLElement) back.focus();
    requestAnimationFrame(redrawEvery);
  }
}

/** Leaves the view; focus returns to the control that opened it. */
export function close() {
  putBack(true);
}

/** The next (+1) or previous (−1) figure or panel of the lesson, round the end. @param {number} by */
function step(by) {
  if (!shown || !items.length) return;
  const at = items.indexOf(shown.item);
  present(items[(at + by + items.length) % items.length], null);
}

/** The theme switch's choice before the view turned high contrast on (null: it did not). @type {string | null} */
let themeBefore = null;
function toggleContrast() {
  const select = document.getElementById('theme-switch');
  if (!(select instanceof HTMLSelectElement) || !view) return;
  const on = document.documentElement.dataset.theme !== 'contrast';
  // Through the page's own theme switch (remembered like the reader's choice); off goes back to
  // the choice before, or to «как в системе».
  if (on) themeBefore = select.value;
  select.value = on ? 'contrast' : (themeBefore ?? 'auto');
  if (!on) themeBefore = null;
  select.dispatchEvent(new Event('change'));
  view.querySelector('[data-present=contrast]')?.setAttribute('aria-pressed', String(on));
}

function toggleFullscreen() {
  if (!view) return;
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else view.requestFullscreen().catch(() => {});
}

/** Keys of a field that uses ←/→ itself (text, a list, a radio group). */
const OWN_ARROWS = 'input:not([type=checkbox]):not([type=button]):not([type=submit]):not([type=range]), select, textarea';

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (event.key === 'Escape') {
    event.preventDefault();
    close();
    return;
  }
  const slider = target instanceof HTMLInputElement && target.type === 'range';
  if (slider && (event.key === 'PageUp' || event.key === 'PageDown')) {
    // A tenth of the range per press, the same in every browser, on the slider's grid.
    event.preventDefault();
    const [min, max, grid] = [Number(target.min), Number(target.max), Number(target.step) || 1];
    const by = Math.max(grid, Math.round((max - min) / 10 / grid) * grid) * (event.key === 'PageUp' ? 1 : -1);
    const next = Math.min(max, Math.max(min, Number(target.value) + by));
    target.value = String(min + Math.round((next - min) / grid) * grid);
    target.dispatchEvent(new Event('input', { bubbles: true }));
    target.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  if (slider || (target instanceof Element && target.matches(OWN_ARROWS))) return;
  const by = { PageDown: 1, ArrowRight: 1, PageUp: -1, ArrowLeft: -1 }[event.key];
  if (by) {
    event.preventDefault();
    step(by);
  }
}

/**
 * Gives every figure and trainer panel not yet wired its «На проектор» button; with
 * `fromAddress`, opens the view the page's address names (`present=ID`), or says why not.
 * @param {boolean} [fromAddress]
 */
export function wirePresent(fromAddress = false) {
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(ITEMS))) {
    if (items.includes(item)) continue;
    const name = nameOf(item);
    const open = el('button', { type: 'button', 'aria-label': `На проектор: ${name[0].toLowerCase()}${name.slice(1)}` }, 'На проектор');
    open.addEventListener('click', () => present(item, open));
    item.prepend(el('p', { class: 'present-open' }, open));
    items.push(item);
  }
  if (!shown) items.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  if (!fromAddress) return;
  const id = pageParams().get('present');
  if (id === null) return;
  const item = items.find((i) => i.id === id);
  if (item) {
    present(item, null);
    return;
  }
  const note = el(
    'p',
    { class: 'present-missing', role: 'alert' },
    `Адрес страницы просит показать на проекторе «${id.slice(0, 40)}», но в этом уроке нет рисунка или тренажёра с таким id. ` +
      `Есть: ${items.map((i) => i.id).join(', ') || 'ничего'}.`,
  );
  document.querySelector('main h1')?.after(note);
}
