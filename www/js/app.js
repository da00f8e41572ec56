// @ts-check
// Page wiring: loads the wasm core and starts each part of the page — figures and their
// controls (figures.js, sliders.js), the lesson text's numbers (numbers.js), exercises,
// themes and printing (theme.js), the trainers — and makes wide boxes keyboard-scrollable. No
// number shown on the page is computed here: figures and worked values come from the Rust
// core; formulas, navigation and the table of contents were rendered when the site was built
// (scripts/build-site.mjs).
import init, * as wasm from '../pkg/pgbook.js';
import { announceFigures } from './announce.js';
import { messageOf } from './dom.js';
import { wireExercises } from './exercises.js';
import { showFatal } from './fatal.js';
import { useNumerals } from './format.js';
import { ONE_FILE } from './links.js';
import { fillWorked } from './numbers.js';
import { registerOffline } from './offline.js';
import { wireFigures } from './sliders.js';
import { usePalette, wirePrint, wireThemeSwitch } from './theme.js';
import { setupTrainers } from './trainers.js';

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
  // to start a server instead. The one-file book (pgbook.html) carries them all, and needs no
  // service worker to be read offline.
  if (location.protocol === 'file:' && !ONE_FILE) return;
  if (!ONE_FILE) registerOffline();
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
  performance.mark('pgbook-ready'); // every figure drawn: e2e/bench.mjs onefile reads it
}

main();
