// @ts-check
// What a screen reader hears of the page's changes: one sentence when something has happened
// (a run started, paused, ended or failed; a figure settled at new values), never a redraw.
// Text that changes while a run trains or a slider moves stays out of live regions.

/** How long a figure's sliders must rest before its new description is read (ms). */
export const SETTLE_MS = 700;

/**
 * A live region the eye does not see: `status` is read when the reader pauses, `alert` at once.
 * @param {'status' | 'alert'} [role]
 */
export function liveRegion(role = 'status') {
  const region = document.createElement('p');
  region.className = 'visually-hidden';
  region.setAttribute('role', role);
  // The role implies it; said again for screen readers that only know the attribute.
  region.setAttribute('aria-live', role === 'alert' ? 'assertive' : 'polite');
  return region;
}

/**
 * Says `text` in `region`: the sentence replaces the last one as one new node (one mutation),
 * so the same sentence said twice is read twice.
 * @param {HTMLElement} region @param {string} text
 */
export function announce(region, text) {
  const line = document.createElement('span');
  line.textContent = text;
  region.replaceChildren(line);
}

/**
 * Every live figure reads its description once its sliders and switches have rested, not at
 * each step (the slider itself says its value, «γ = 0,99»). An <output> is a live region by
 * default; it repeats the slider's value, so it is silenced.
 */
export function announceFigures() {
  document.querySelectorAll(/** @type {'figure'} */ ('figure.live[data-figure]')).forEach((figure) => {
    figure.querySelectorAll('output').forEach((o) => o.setAttribute('aria-live', 'off'));
    const region = liveRegion();
    figure.append(region);
    let timer = 0;
    figure.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        // A figure that could not be drawn says so in its alert; nothing else to read.
        if (figure.querySelector('.figure-error:not([hidden])')) return;
        const canvas = figure.querySelector('canvas');
        const label = canvas?.getAttribute('aria-label') ?? '';
        const base = canvas?.dataset.label ?? '';
        // The canvas's text alternative without its fixed name: «при γ = 0,99, λ = 0,95. …».
        const said = base && label.startsWith(`${base}; `) ? label.slice(base.length + 2) : label;
        if (said) announce(region, `Рисунок: ${said}`);
      }, SETTLE_MS);
    });
  });
}
