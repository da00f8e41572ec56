// @ts-check
// The contents beside every page (nav#contents, written by the build: scripts/outline.mjs):
// the section in view marked as the reader scrolls (IntersectionObserver: nothing is measured
// on a scroll event), what the reader has read marked from js/progress.js (and recorded as
// they read), the exercises solved, «Продолжить с …» on the contents page, and on a narrow
// screen the contents as a menu (its button in the header; Esc or a link closes it, and focus
// goes back to the button).
import { ProgressStore } from './progress.js';

/** Where a section counts as reached: its heading above this share of the window's height. */
const LINE = 0.3;

/** @param {string} tag @param {string} cls @param {string} text */
const span = (tag, cls, text) => {
  const e = document.createElement(tag);
  e.className = cls;
  e.textContent = text;
  return e;
};

/** The skip link goes to the text in both books (the one-file book's fragments name pages). */
function wireSkipLink() {
  const skip = document.querySelector('a.skip-link');
  const main = document.querySelector('main');
  if (!skip || !main) return;
  skip.addEventListener('click', (e) => {
    e.preventDefault();
    main.tabIndex = -1;
    main.focus();
  });
}

/** On a narrow screen the contents is a menu over the page. @param {HTMLElement} nav */
function wireMenu(nav) {
  const toggle = /** @type {HTMLButtonElement | null} */ (document.querySelector('.contents-toggle'));
  const closeButton = nav.querySelector('.contents-close');
  if (!toggle) return;
  const outside = () =>
    /** @type {HTMLElement[]} */ ([...document.querySelectorAll('main, footer.site, .search, header.site .theme, header.site .brand')]);
  const open = () => document.documentElement.dataset.contents === 'open';
  /** @param {boolean} on @param {boolean} [refocus] */
  const set = (on, refocus = true) => {
    if (on === open()) return;
    toggle.setAttribute('aria-expanded', String(on));
    if (on) document.documentElement.dataset.contents = 'open';
    else delete document.documentElement.dataset.contents;
    for (const e of outside()) e.inert = on;
    if (on) {
      const here = nav.querySelector('[aria-current="location"]') ?? nav.querySelector('[aria-current="page"]') ?? nav.querySelector('a');
      /** @type {HTMLElement | null} */ (here)?.focus();
    } else if (refocus) toggle.focus();
  };
  toggle.addEventListener('click', () => set(!open()));
  closeButton?.addEventListener('click', () => set(false));
  nav.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a')) set(false, false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && open()) {
      e.preventDefault();
      set(false);
    }
  });
  // The menu is for a narrow screen: widened, the page shows the contents beside it.
  matchMedia('(min-width: 64em)').addEventListener('change', (m) => m.matches && set(false, false));
  document.addEventListener('pointerdown', (e) => {
    if (open() && e.target instanceof Node && !nav.contains(e.target) && !toggle.contains(e.target)) set(false, false);
  });
}

/**
 * Marks every page's progress in the contents, the sections of this page reached, and the
 * clear button's box.
 * @param {HTMLElement} nav @param {ProgressStore} store
 */
function showProgress(nav, store) {
  const { pages, exercises } = store.progress;
  for (const li of nav.querySelectorAll(/** @type {'li'} */ ('ol.lessons > li[data-page]'))) {
    const stored = pages[li.dataset.page ?? ''];
    const p = stored && (stored.read || stored.sections.length) ? stored : undefined; // opened, nothing reached yet: no mark
    const link = li.querySelector(':scope > a');
    link?.querySelectorAll('.progress-mark, .progress-said').forEach((e) => e.remove());
    li.classList.toggle('read', !!p?.read);
    li.classList.toggle('started', !!p && !p.read);
    let text = '';
    if (p?.read) text = 'прочитан';
    else if (p) text = `разделов: ${p.sections.length} из ${p.total}`;
    if (li.dataset.page === 'exercises' && exercises.length) text += `${text ? '; ' : ''}решено упражнений: ${exercises.length}`;
    if (!text) continue;
    const mark = span('span', 'progress-mark', p?.read ? ' ✓' : p ? ` ${p.sections.length}/${p.total}` : '');
    mark.setAttribute('aria-hidden', 'true');
    link?.append(mark, span('span', 'progress-said visually-hidden', ` (${text})`));
  }
  const here = nav.querySelector('li.here')?.getAttribute('data-page') ?? '';
  const reached = new Set(pages[here]?.sections ?? []);
  for (const a of nav.querySelectorAll(/** @type {'a'} */ ('a[data-anchor]')))
    a.parentElement?.classList.toggle('reached', reached.has(a.dataset.anchor ?? ''));
  if (here === 'exercises') markSolved(nav, exercises);
  const box = /** @type {HTMLElement | null} */ (nav.querySelector('[data-progress]'));
  if (!box) return;
  const summary = /** @type {HTMLElement} */ (box.querySelector('.progress-status'));
  const lessons = nav.querySelectorAll('ol.lessons > li[data-page]:not([data-page="index"])').length;
  const read = Object.entries(pages).filter(([page, p]) => page !== 'index' && p.read).length;
  const said = store.any ? `Прочитано уроков: ${read} из ${lessons}; решено упражнений: ${exercises.length}.` : '';
  summary.textContent = [store.problem ? `${store.problem}.` : '', said].filter(Boolean).join(' ');
  box.hidden = !summary.textContent && box.dataset.cleared === undefined;
}

/** The exercises solved, marked on their headings in the outline. @param {HTMLElement} nav @param {number[]} solved */
function markSolved(nav, solved) {
  for (const form of document.querySelectorAll(/** @type {'form'} */ ('form[data-exercise]'))) {
    let heading = form.previousElementSibling;
    while (heading && heading.tagName !== 'H3') heading = heading.previousElementSibling;
    const link = heading?.id ? nav.querySelector(`a[data-anchor="${CSS.escape(heading.id)}"]`) : null;
    const done = solved.includes(Number(form.dataset.exercise));
    link?.parentElement?.classList.toggle('solved', done);
    link?.querySelector('.progress-said')?.remove();
    if (done) link?.append(span('span', 'progress-said visually-hidden', ' (решено)'));
  }
}

/** The contents page's «Продолжить с …»: the last section reached, or the next lesson after a finished one. @param {HTMLElement} nav @param {ProgressStore} store */
function showContinue(nav, store) {
  const box = document.querySelector('[data-continue]');
  if (!(box instanceof HTMLElement)) return;
  const { last, pages } = store.progress;
  const lessons = /** @type {HTMLAnchorElement[]} */ ([...nav.querySelectorAll('ol.lessons > li[data-page]:not([data-page="index"]) > a')]);
  /** @type {{ href: string, text: string } | null} */
  let target = null;
  if (last && !pages[last.page]?.read) {
    const lesson = lessons.find((a) => a.parentElement?.dataset.page === last.page);
    const href = lesson?.getAttribute('href') ?? '';
    if (lesson)
      target = {
        href: last.anchor ? `${href}${href.includes('#') ? '/' : '#'}${encodeURIComponent(last.anchor)}` : href,
        text: `${last.title}${last.heading ? ` — «${last.heading}»` : ''}`,
      };
  } else if (last) {
    const next = lessons.find((a) => !pages[a.parentElement?.dataset.page ?? '']?.read);
    if (next) target = { href: next.getAttribute('href') ?? '', text: next.textContent?.replace(/\s+/g, ' ').trim() ?? '' };
  }
  box.hidden = !target;
  if (!target) return;
  const a = document.createElement('a');
  a.href = target.href;
  a.textContent = target.text;
  box.replaceChildren('Продолжить с ', a);
}

/**
 * Scrolls the contents beside the page (when it scrolls: the exercises' long outline) so that
 * the section in view stays in view there too. Measured only when that section changes.
 * @param {HTMLElement} nav @param {HTMLElement} link
 */
function keepInView(nav, link) {
  if (nav.scrollHeight <= nav.clientHeight || document.documentElement.dataset.contents === 'open') return;
  const box = nav.getBoundingClientRect();
  const at = link.getBoundingClientRect();
  if (at.top < box.top || at.bottom > box.bottom) nav.scrollTop += at.top - box.top - box.height / 3;
}

/**
 * Marks the section in view and records what the reader reaches. A heading is reached once it
 * is above the line at LINE of the window (the observer's root reaches far above the window, so
 * a jump past a heading counts too); the end of the page reaches every section.
 * @param {HTMLElement} nav @param {ProgressStore} store @param {() => void} redraw
 */
function spy(nav, store, redraw) {
  const page = nav.querySelector('li.here')?.getAttribute('data-page') ?? '';
  const links = new Map(
    /** @type {HTMLAnchorElement[]} */ ([...nav.querySelectorAll('a[data-anchor]')]).map((a) => [a.dataset.anchor ?? '', a]),
  );
  const headings = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('main :is(h2, h3)[id]')]).filter((h) => links.has(h.id));
  const title = document.querySelector('main h1')?.textContent ?? '';
  if (!headings.length || typeof IntersectionObserver === 'undefined') return;
  const above = new Set();
  let atEnd = false;
  /** @type {HTMLAnchorElement | null} */
  let current = null;
  const update = () => {
    const passed = atEnd ? headings : headings.filter((h) => above.has(h));
    const now = passed.length ? (links.get(passed[passed.length - 1].id) ?? null) : null;
    if (now !== current) {
      current?.removeAttribute('aria-current');
      now?.setAttribute('aria-current', 'location');
      current = now;
      if (now) keepInView(nav, now);
    }
    if (page === 'index') return;
    const last = passed[passed.length - 1];
    const place = { page, anchor: last?.id ?? '', title, heading: last?.textContent?.trim() ?? '' };
    if (
      store.reach(
        page,
        passed.map((h) => h.id),
        headings.length,
        place,
      )
    )
      redraw();
  };
  const line = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) above.add(e.target);
        else above.delete(e.target);
      }
      update();
    },
    { rootMargin: `100000% 0px -${100 - LINE * 100}% 0px` },
  );
  headings.forEach((h) => line.observe(h));
  const end = document.querySelector('main > :last-child');
  if (end)
    new IntersectionObserver((entries) => {
      atEnd = entries[entries.length - 1].isIntersecting;
      update();
    }).observe(end);
}

export function wireContents() {
  const nav = document.getElementById('contents');
  if (!nav) return;
  wireSkipLink();
  wireMenu(nav);
  const store = new ProgressStore();
  const redraw = () => {
    showProgress(nav, store);
    showContinue(nav, store);
  };
  redraw();
  spy(nav, store, redraw);
  document.addEventListener('exercise-checked', (e) => {
    const { exercise, correct } = /** @type {CustomEvent<{ exercise: number, correct: boolean }>} */ (e).detail;
    if (correct && store.solve(exercise)) redraw();
  });
  const box = /** @type {HTMLElement | null} */ (nav.querySelector('[data-progress]'));
  const clear = /** @type {HTMLButtonElement | null} */ (box?.querySelector('.progress-clear') ?? null);
  /** @type {import('./progress.js').Progress | null} */
  let kept = null;
  clear?.addEventListener('click', () => {
    if (!box) return;
    // The summary changes as the reader reads, so it is no live region; this is said once.
    const said = nav.querySelector('p.progress-announce');
    if (kept) {
      store.restore(kept);
      kept = null;
      clear.textContent = 'Забыть, что прочитано';
      delete box.dataset.cleared;
      redraw();
      if (said) said.textContent = 'Отметки о прочитанном возвращены.';
      return;
    }
    kept = store.clear();
    box.dataset.cleared = '';
    redraw();
    /** @type {HTMLElement} */ (box.querySelector('.progress-status')).textContent = 'Отметки о прочитанном и решённом удалены.';
    if (said) said.textContent = 'Отметки о прочитанном и решённом удалены.';
    clear.textContent = 'Вернуть отметки';
  });
}
