// @ts-check
// Page wiring: loads the wasm core and starts each part of the page — figures and their
// controls (figures.js, sliders.js), exercises, themes and printing (theme.js), the trainers —
// the contents beside the page, the search box and the glossary's popovers (contents.js,
// search-box.js, glossary.js) — and makes wide boxes keyboard-scrollable. No number shown on the page is computed here:
// figures come from the Rust core; the worked examples, formulas, navigation and the table of
// contents were written into the page when the site was built (scripts/build-site.mjs). Each
// part starts in a task of its own and the figures are drawn one per task, so that no task of
// the load keeps the page from answering for long (< 50 ms, on a phone too).
import { announceFigures } from './announce.js';
import { wireContents } from './contents.js';
import { wireGlossary } from './glossary.js';
import { wireSearchBox } from './search-box.js';
import { wireCopyButtons } from './copy-code.js';
import { loadCore, loadFull, needsTrainers } from './core.js';
import { messageOf, nextTask } from './dom.js';
import { wireExercises } from './exercises.js';
import { showFatal } from './fatal.js';
import { useNumerals } from './format.js';
import { ONE_FILE } from './links.js';
import { registerOffline } from './offline.js';
import { wirePresent } from './present.js';
import { wireFigures } from './sliders.js';
import { wireWorksheet } from './worksheet.js';
import { usePalette, wirePrint, wireThemeSwitch } from './theme.js';

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

// ---------- scrolled boxes: a wide formula or table scrolls, and the keyboard can scroll it ----------
const SCROLLERS = '.math-display, .math, .table-wrap, details.figure-numbers table, pre.source, pre.python, table.record-flags';
let marking = 0; // the latest markScrollers pass: an older one still measuring gives way
/**
 * Makes every box that scrolls now focusable (so arrows scroll it) and no other. Every box is
 * measured before any is changed (a change between two reads would make the next read lay out
 * the page again), in slices of a few milliseconds with a task between them: lesson 11 has
 * hundreds of formulas.
 */
async function markScrollers() {
  const pass = ++marking;
  const all = [...document.querySelectorAll(/** @type {'div'} */ (SCROLLERS))];
  /** @type {[HTMLElement, boolean][]} */
  const measured = [];
  while (measured.length < all.length) {
    const t0 = performance.now();
    while (measured.length < all.length && performance.now() - t0 < 8) {
      const box = all[measured.length];
      measured.push([box, ['auto', 'scroll'].includes(getComputedStyle(box).overflowX) && box.scrollWidth > box.clientWidth + 1]);
    }
    if (measured.length < all.length) await nextTask();
    if (pass !== marking) return;
  }
  for (const [box, scrolls] of measured) {
    if (scrolls && !box.hasAttribute('tabindex')) box.tabIndex = 0;
    else if (!scrolls && box.tabIndex === 0) box.removeAttribute('tabindex');
    // The scroll cue (book.css): shadows on the edges with more to see.
    box.toggleAttribute('data-scrolls', scrolls);
  }
  // Said on <html> while a pass is due: a check of the page (axe) waits for the boxes to be marked.
  document.documentElement.removeAttribute('data-marking-scrollers');
}
/** Marks the scrolling boxes now and whenever the layout may have changed; resolves once marked. */
function keyboardScrolling() {
  let timer = 0;
  const later = () => {
    clearTimeout(timer);
    document.documentElement.setAttribute('data-marking-scrollers', '');
    timer = window.setTimeout(markScrollers, 150);
  };
  addEventListener('resize', later);
  // A figure's «Числа рисунка» or a lesson's source box may only scroll once opened.
  document.addEventListener('toggle', later, true);
  // A redrawn figure's table or a run's results table may start or stop scrolling.
  /** @param {Node} n */
  const touches = (n) => {
    // A cell's new text arrives as a text node: its element is what may now be wider.
    const el = n instanceof Element ? n : n.parentElement;
    return el !== null && (el.matches(SCROLLERS) || el.closest(SCROLLERS) !== null || el.querySelector(SCROLLERS) !== null);
  };
  new MutationObserver((records) => {
    if (records.some((r) => [...r.addedNodes].some(touches))) later();
  }).observe(document.querySelector('main') ?? document.body, { childList: true, subtree: true });
  return markScrollers();
}

async function main() {
  // Opened from disk: module workers and wasm cannot load; the page frame already shows how
  // to start a server instead. The one-file book (pgbook.html) carries them all, and needs no
  // service worker to be read offline.
  if (location.protocol === 'file:' && !ONE_FILE) return;
  if (!ONE_FILE) registerOffline();
  // The wasm starts loading first; meanwhile, in a task of their own, what needs no wasm: the
  // contents, the search box and the glossary's popovers.
  const loading = loadCore();
  loading.catch(() => {}); // reported below, once awaited
  await nextTask();
  wireContents();
  wireSearchBox();
  const glossary = wireGlossary();
  let wasm;
  try {
    wasm = await loading;
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
  const drawn = wireFigures();
  announceFigures();
  wireExercises();
  wireCopyButtons();
  wirePresent();
  await nextTask();
  // Measured once the figures are drawn: their tables are filled by then.
  const marked = drawn.then(keyboardScrolling, keyboardScrolling);
  await nextTask();
  // The trainers' panels (and a link that names a trainer, which may lead to another page).
  if (needsTrainers() || /[?&#](run|form)=/.test(location.search + location.hash)) {
    try {
      const [full, { setupTrainers }, { measureSpeed }] = await Promise.all([
        loadFull(),
        import('./trainers.js'),
        import('./run-progress.js'),
      ]);
      await setupTrainers(full);
      // The panels' estimates wait for this machine's speed, which a worker measures.
      if (document.querySelector('[id^="trainer-"]')) await measureSpeed();
    } catch (e) {
      showFatal(`Не удалось загрузить модуль WebAssembly: ${messageOf(e)}`);
    }
  }
  // The token inspector (lesson «R1-Zero во вкладке») loads the whole core on first use.
  const inspector = document.querySelector('[data-inspector]');
  // A failed import (offline with a cache that lost it, or a page left mid-load) is said, not thrown.
  if (inspector instanceof HTMLElement)
    try {
      await import('./inspector.js').then((m) => m.wireInspector(inspector));
    } catch (e) {
      showFatal(`Не удалось загрузить инспектор токенов: ${messageOf(e)}`);
    }
  // The class experiment (the contents page's #class) loads the whole core on first use.
  const classRoot = document.querySelector('[data-class]');
  if (classRoot instanceof HTMLElement)
    try {
      await import('./class.js').then((m) => m.wireClass(classRoot));
    } catch (e) {
      showFatal(`Не удалось загрузить эксперимент класса: ${messageOf(e)}`);
    }
  await Promise.all([drawn, marked, glossary]);
  wirePresent(true); // the panels' buttons, and the view the address names (present=ID)
  wireWorksheet(); // once the prepared comparisons have their run links
  document.documentElement.dataset.ready = '1'; // every figure drawn, every panel set up
  performance.mark('pgbook-ready'); // e2e/bench.mjs onefile reads it
}

main();
