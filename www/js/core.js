// @ts-check
// Which wasm module the page runs (scripts/build-wasm.sh builds both from the one crate): the
// whole core on a page with a trainer panel or a prepared comparison, the figures-only module
// on a page that only draws figures (a tenth of its size, nothing of the trainers). Figures,
// themes and exercises call the loaded one through `core`.

/** @typedef {typeof import('../pkg/pgbook_figures.js')} FiguresCore */
/** @typedef {typeof import('../pkg/pgbook.js')} FullCore */

/** The loaded module (set by loadCore before anything draws). @type {FiguresCore} */
export let core = /** @type {any} */ (null);

/** Whether this page has a trainer panel or a prepared comparison, which need the whole core. */
export const needsTrainers = () => document.querySelector('[id^="trainer-"], [data-prepared]') !== null;

/** The whole core, loaded once (a trainer page's module, or a link's on another page). @type {Promise<FullCore> | null} */
let full = null;
export function loadFull() {
  return (full ??= import('../pkg/pgbook.js').then(async (m) => {
    await m.default();
    return m;
  }));
}

/** Loads the module this page needs and makes it `core`. */
export async function loadCore() {
  if (needsTrainers()) core = await loadFull();
  else {
    const m = await import('../pkg/pgbook_figures.js');
    await m.default();
    core = m;
  }
  return core;
}
