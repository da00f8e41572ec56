// @ts-check
// The two browsers behind one interface, Tab (tab.mjs): Debian's Chromium (chromium.mjs) and
// Debian's Firefox ESR (firefox.mjs), neither of whose drivers downloads anything.
import { launchChromium } from './chromium.mjs';
import { launchFirefox } from './firefox.mjs';

export { ARTIFACTS, Tab, assert, canvasHash, pageReady, runEnded } from './tab.mjs';
export { CHROMIUM, CHROMIUM_ARGS, mainThreadTasks } from './chromium.mjs';

/**
 * @typedef {import('./tab.mjs').TabOptions} TabOptions
 * @typedef {import('./tab.mjs').MainThreadTask} MainThreadTask
 * @typedef {{ name: string, open: (url: string, options?: TabOptions) => Promise<import('./tab.mjs').Tab>, close: () => Promise<void> }} Browser
 */

/**
 * @param {string} name chromium | firefox
 * @param {{ serviceWorkers?: boolean, reducedMotion?: boolean }} [options] `reducedMotion`: the
 *   reader asked the system for less motion (prefers-reduced-motion: reduce)
 * @returns {Promise<Browser>}
 */
export function launch(name, { serviceWorkers = false, reducedMotion = false } = {}) {
  if (name === 'chromium') return launchChromium(serviceWorkers, reducedMotion);
  if (name === 'firefox') return launchFirefox(serviceWorkers, reducedMotion);
  throw new Error(`unknown browser ${name} (PGBOOK_BROWSERS takes chromium, firefox)`);
}
