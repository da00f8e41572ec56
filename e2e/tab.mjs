// @ts-check
// The page a test drives, the same in both browsers: Tab, built on a Driver (chromium.mjs,
// firefox.mjs). A tab records every console error, page error and request to anything but
// 127.0.0.1 (a tab opened on the one-file book: anything but that file) as a problem
// (harness.mjs's withTab fails the test on any).
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where screenshots and downloaded files go. */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/** @param {unknown} cond @param {string} message @returns {asserts cond} */
export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** @param {string} url */
const local = (url) => {
  const u = new URL(url);
  return ['data:', 'blob:', 'about:'].includes(u.protocol) || u.hostname === '127.0.0.1';
};

/**
 * The requests a tab lets through: to 127.0.0.1 and files; with `file` (the one-file book),
 * only that file (its fragment aside) — every other request, to 127.0.0.1 too, is refused.
 * @param {string} url @param {string} [file]
 */
export const allowed = (url, file) =>
  file === undefined
    ? local(url) || url.startsWith('file:')
    : ['data:', 'blob:', 'about:'].includes(new URL(url).protocol) || url.split('#')[0] === file;

/**
 * `file`: the page is that file:// URL and may load nothing else (allowed()).
 * @typedef {{ viewport?: { width: number, height: number }, deviceScaleFactor?: number, file?: string }} TabOptions
 * @typedef {{ name: string, text: string }} Download
 */

/**
 * What each browser's driver provides for one page; everything else a test uses is built on it.
 * @typedef {{
 *   goto: (url: string, until?: 'load' | 'domcontentloaded') => Promise<void>,
 *   url: () => string,
 *   eval: (fn: Function, arg: unknown) => Promise<any>,
 *   waitFor: (fn: Function, arg: unknown, timeout: number) => Promise<any>,
 *   click: (selector: string) => Promise<void>,
 *   clickButton: (scope: string, text: string) => Promise<void>,
 *   fill: (selector: string, text: string) => Promise<void>,
 *   select: (selector: string, value: string) => Promise<void>,
 *   press: (selector: string, key: string) => Promise<void>,
 *   screenshotTo: (path: string, selector?: string) => Promise<void>,
 *   download: (selector: string) => Promise<Download>,
 *   tasks: (<T>(during: () => Promise<T>) => Promise<{ result: T, tasks: MainThreadTask[] }>) | null,
 *   close: () => Promise<void>,
 *   beside: (url: string) => Promise<Tab>,
 *   playwright?: import('playwright-core').Page,
 * }} Driver
 */

/**
 * One top-level task of the page's main thread: its wall time and the CPU time the thread got
 * in it (ms). On a machine whose cores the trainers' workers fill, a task's wall time grows
 * with the time the thread waited for a core; its CPU time is the page's own work. `script` is
 * the wall time of the page's scripts in it (with the compiling, layout and garbage collection
 * they cause), when the trace has the `devtools.timeline` category, else 0.
 * @typedef {{ wall: number, cpu: number, script: number }} MainThreadTask
 */

/** One page in its own browser context (own storage, own service worker registrations). */
export class Tab {
  /** @param {string} browser @param {Driver} driver */
  constructor(browser, driver) {
    this.browser = browser;
    this.driver = driver;
    /** @type {string[]} */
    this.problems = [];
  }

  /** Some tests provoke an error on purpose: drop exactly the expected ones. @param {RegExp} pattern */
  expectProblems(pattern) {
    this.problems = this.problems.filter((p) => !pattern.test(p));
  }

  /**
   * Opens `url`; returns once the page has loaded (`until` 'domcontentloaded': once its
   * document has arrived and been parsed, before its scripts' and styles' loads end).
   * @param {string} url @param {'load' | 'domcontentloaded'} [until]
   */
  goto(url, until = 'load') {
    return this.driver.goto(url, until);
  }
  url() {
    return this.driver.url();
  }
  /**
   * Runs `fn(arg)` in the page and returns its (JSON-able) result.
   * @template T, A
   * @param {(arg: A) => T | Promise<T>} fn
   * @param {A} [arg]
   * @returns {Promise<T>}
   */
  eval(fn, arg) {
    return this.driver.eval(fn, arg);
  }
  /**
   * Waits until `fn(arg)` is truthy in the page; returns that value.
   * @template T, A
   * @param {(arg: A) => T} fn
   * @param {A} arg
   * @returns {Promise<T>}
   */
  waitFor(fn, arg, timeout = 30_000) {
    return this.driver.waitFor(fn, arg, timeout);
  }
  /** @param {string} selector */
  click(selector) {
    return this.driver.click(selector);
  }
  /** A button by its exact visible text inside `scope`. @param {string} scope @param {string} text */
  clickButton(scope, text) {
    return this.driver.clickButton(scope, text);
  }
  /** @param {string} selector @param {string} text */
  fill(selector, text) {
    return this.driver.fill(selector, text);
  }
  /** @param {string} selector @param {string} value */
  select(selector, value) {
    return this.driver.select(selector, value);
  }
  /** Focuses `selector` and presses `key` as a reader would. @param {string} selector @param {string} key */
  press(selector, key) {
    return this.driver.press(selector, key);
  }
  /** Clicks `selector` and returns the file it makes the browser download. @param {string} selector */
  download(selector) {
    return this.driver.download(selector);
  }
  /**
   * Runs `during` while the browser traces the page's main thread, and returns its result with
   * the main thread's top-level tasks; `tasks` is null in a browser without such a trace
   * (Firefox over WebDriver BiDi).
   * @template T @param {() => Promise<T>} during
   * @returns {Promise<{ result: T, tasks: MainThreadTask[] | null }>}
   */
  async traceTasks(during) {
    if (!this.driver.tasks) return { result: await during(), tasks: null };
    return this.driver.tasks(during);
  }
  close() {
    return this.driver.close();
  }
  /**
   * Opens `url` in another tab of this tab's browser context (the same storage and service
   * worker registrations, as a reader's second tab); close it before this one.
   * @param {string} url
   */
  beside(url) {
    return this.driver.beside(url);
  }
  /**
   * Lets the page's late log entries arrive before its problems are read: a round trip to the
   * page and back after one animation frame (the browser's events come in order).
   */
  async settle() {
    await this.eval(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    await this.checkMathReports();
  }

  /**
   * Firefox lays out a page while it is still arriving, and reports a MathML element whose
   * last child the parser has not added yet as «Invalid markup: Incorrect number of children
   * for <msub/> tag» (a page sent in pieces with pauses between them shows it every time; the
   * static server under load did so now and then). Such a report stands only if an element of
   * that tag has the wrong number of children in the page as loaded.
   */
  async checkMathReports() {
    const REPORT = /Invalid markup: Incorrect number of children for <(\w+)\/> tag/;
    const tags = [...new Set(this.problems.map((p) => REPORT.exec(p)?.[1]).filter((t) => t !== undefined))];
    if (!tags.length) return;
    /** @type {string[]} */
    const wrong = await this.eval((list) => {
      /** @type {Record<string, number>} */
      const children = { msub: 2, msup: 2, mfrac: 2, mroot: 2, munder: 2, mover: 2, msubsup: 3, munderover: 3 };
      return list.filter((t) => !(t in children) || [...document.getElementsByTagName(t)].some((e) => e.children.length !== children[t]));
    }, tags);
    this.problems = this.problems.filter((p) => {
      const tag = REPORT.exec(p)?.[1];
      return tag === undefined || wrong.includes(tag);
    });
  }

  /* Built on the above, the same in every browser. */

  /** Chromium's playwright page, for what only it can do (print to PDF); null in Firefox. */
  get playwright() {
    return this.driver.playwright ?? null;
  }
  /** The full page, or the element `selector`, to e2e/artifacts/<browser>-<name>.png. @param {string} name @param {string} [selector] */
  screenshot(name, selector) {
    return this.driver.screenshotTo(join(ARTIFACTS, `${this.browser}-${name}.png`), selector);
  }
  /** @param {string} selector */
  text(selector) {
    return this.eval((s) => document.querySelector(s)?.textContent ?? null, selector);
  }
  /** @param {string} selector */
  value(selector) {
    return this.eval((s) => /** @type {HTMLInputElement | null} */ (document.querySelector(s))?.value ?? null, selector);
  }
  /** @param {string} selector */
  count(selector) {
    return this.eval((s) => document.querySelectorAll(s).length, selector);
  }
  /** Rendered with a size and not hidden (like playwright's isVisible). @param {string} selector */
  visible(selector) {
    return this.eval((s) => {
      const e = document.querySelector(s);
      if (!e) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    }, selector);
  }
  /** The page has loaded its wasm and drawn. */
  waitReady(timeout = 60_000) {
    return this.waitFor(pageReady, null, timeout);
  }
  /**
   * Reloads the page and waits until the new one is ready. The old page is marked first:
   * `location.reload()` returns before the navigation starts, and a wait that ran on the old,
   * ready page would let the next step read a page that is still loading.
   */
  async reload(timeout = 60_000) {
    await this.eval(() => {
      window.pgbookOldPage = true;
      location.reload();
    });
    await this.waitFor(() => !window.pgbookOldPage, null, timeout);
    await this.waitReady(timeout);
  }
  /**
   * Waits for trainer panel `selector` to reach one of the `wanted` statuses. A panel that
   * refused to start (at rest, its alert shown: a link or settings it did not accept) will not
   * get there: the wait fails at once with the panel's message instead of at its timeout.
   * @param {string} selector @param {string[]} wanted @returns {Promise<string>}
   */
  async waitStatus(selector, wanted, timeout = 60_000) {
    await this.waitFor(
      ([sel, w]) => {
        const root = /** @type {HTMLElement | null} */ (document.querySelector(sel));
        const status = root?.dataset.status ?? '';
        if (w.includes(status)) return true;
        const alert = /** @type {HTMLElement | null | undefined} */ (root?.querySelector(':scope .figure-error'));
        return status !== 'running' && status !== 'paused' && !!alert && !alert.hidden && !!alert.textContent;
      },
      /** @type {[string, string[]]} */ ([selector, wanted]),
      timeout,
    );
    const status = await this.status(selector);
    if (!wanted.includes(status)) {
      throw new Error(
        `${selector}: waited for ${wanted.join('/')}, but the panel is ${status}: ${(await this.text(`${selector} .figure-error`)) ?? ''}`,
      );
    }
    return status;
  }
  /**
   * The book's saved runs as IndexedDB holds them, every kind. They cross as JSON text: the
   * drivers serialise nested objects differently.
   * @returns {Promise<any[]>}
   */
  async savedRuns() {
    const text = await this.eval(
      () =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('pgbook', 1);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const get = open.result.transaction('runs').objectStore('runs').getAll();
            get.onsuccess = () => {
              open.result.close();
              resolve(JSON.stringify(get.result));
            };
            get.onerror = () => reject(get.error);
          };
        }),
    );
    return JSON.parse(String(text));
  }
  /** Replaces every saved run with `records` (as an older build or a damaged disk left them). @param {any[]} records */
  replaceSavedRuns(records) {
    return this.eval(
      (records) =>
        new Promise((resolve, reject) => {
          const open = indexedDB.open('pgbook', 1);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('runs', 'readwrite');
            const runs = tx.objectStore('runs');
            runs.clear();
            for (const r of JSON.parse(records)) runs.add(r);
            tx.oncomplete = () => {
              open.result.close();
              resolve(null);
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      JSON.stringify(records),
    );
  }
  /** A trainer panel's data-status. @param {string} selector */
  status(selector) {
    return this.eval((s) => /** @type {HTMLElement} */ (document.querySelector(s)).dataset.status ?? '', selector);
  }
  /** Sets a slider's value and fires the `input` event a reader's drag would. @param {string} selector @param {number | string} value */
  setSlider(selector, value) {
    return this.eval(([s, v]) => {
      const el = /** @type {HTMLInputElement} */ (document.querySelector(s));
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, /** @type {[string, number | string]} */ ([selector, value]));
  }
  /** @param {string} selector */
  canvas(selector) {
    return this.eval(
      ([src, s]) =>
        /** @type {(c: HTMLCanvasElement) => CanvasSignature} */ ((0, eval)(`(${src})`))(
          /** @type {HTMLCanvasElement} */ (document.querySelector(s)),
        ),
      [String(canvasHash), selector],
    );
  }
  /** Waits for trainer panel `root`'s run to end and fails unless it finished (with the panel's message). @param {string} root */
  async runToEnd(root, timeout = 60_000) {
    const status = await this.waitStatus(root, ['finished', 'failed'], timeout);
    assert(status === 'finished', `${root}: the run ${status}: ${(await this.text(`${root} .figure-error`)) ?? ''}`);
  }
  /**
   * Sets `trainer`'s panel controls by setting name as a reader does (the value, then a change
   * event).
   * @param {string} trainer @param {Record<string, string>} values
   */
  setSettings(trainer, values) {
    return this.eval(([t, v]) => {
      for (const [name, value] of Object.entries(v)) {
        const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (document.querySelector(`#${t}-${name}`));
        input.value = value;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }, /** @type {[string, Record<string, string>]} */ ([trainer, values]));
  }
}

// Page-side predicates (their source is sent to the browser, so they use nothing from here):
// the page has loaded its wasm and drawn; a trainer panel's run has ended (its status,
// 'refused' if the panel would not start it, or false while it runs).
export const pageReady = () => document.documentElement?.dataset.ready === '1';
/** @param {string} sel */
export const runEnded = (sel) => {
  const root = /** @type {HTMLElement | null} */ (document.querySelector(sel));
  const st = root?.dataset.status;
  if (st === 'finished' || st === 'failed') return st;
  // At rest with its alert shown: the panel refused the link or the settings; no run will end.
  const alert = /** @type {HTMLElement | null | undefined} */ (root?.querySelector(':scope .figure-error'));
  return st !== 'running' && st !== 'paused' && !!alert && !alert.hidden && !!alert.textContent && 'refused';
};

/** @typedef {{ hash: number, inked: number, width: number, height: number, cssWidth: number }} CanvasSignature */

/**
 * Hash of a canvas's pixels, to tell a redraw from none. Runs in the page.
 * @param {HTMLCanvasElement} c
 * @returns {CanvasSignature}
 */
export function canvasHash(c) {
  const ctx = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let h = 2166136261 >>> 0,
    inked = 0;
  for (let i = 0; i < data.length; i += 4) {
    const v = data[i] ^ (data[i + 1] << 8) ^ (data[i + 2] << 16);
    h = Math.imul(h ^ v, 16777619) >>> 0;
    if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) inked++;
  }
  return { hash: h, inked: inked / (data.length / 4), width: c.width, height: c.height, cssWidth: c.clientWidth };
}
