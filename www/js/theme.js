// @ts-check
// Themes (light, dark, high contrast: the reader's choice remembered, else the system's) and
// printing (each canvas as the image it shows, on light paper, with its description).
import { core } from './core.js';
import { redrawEvery } from './canvas.js';

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
export function usePalette() {
  const style = getComputedStyle(document.documentElement);
  core.set_palette(FIGURE_COLORS.map((c) => style.getPropertyValue(`--fig-${c}`).trim()));
}

/** Switches the page to `theme` and redraws every canvas in its colours (sliders and runs stay). @param {string} theme */
function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  usePalette();
  redrawEvery();
}

export function wireThemeSwitch() {
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
export function wirePrint() {
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
    // The figures' numbers and the lessons' Python print open.
    opened = [...document.querySelectorAll(/** @type {'details'} */ ('details.figure-numbers:not([open]), details.snippet:not([open])'))];
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
