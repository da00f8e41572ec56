// @ts-check
// The two browsers behind one interface, Tab: Debian's Chromium through playwright-core (over
// CDP) and Debian's Firefox ESR through puppeteer-core (over WebDriver BiDi), neither of which
// downloads anything. A tab records every console error, page error and request to anything
// but 127.0.0.1 (a tab opened on the one-file book: anything but that file) as a problem
// (harness.mjs's withTab fails the test on any).
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where screenshots and downloaded files go. */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const CHROMIUM = process.env.PGBOOK_CHROMIUM || '/usr/bin/chromium';
const FIREFOX = process.env.PGBOOK_FIREFOX || (existsSync('/usr/bin/firefox-esr') ? '/usr/bin/firefox-esr' : '/usr/bin/firefox');

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
const allowed = (url, file) =>
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
 *   goto: (url: string) => Promise<void>,
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

  /** @param {string} url */
  goto(url) {
    return this.driver.goto(url);
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

// ---------- Chromium: playwright-core over CDP ----------

/**
 * @param {import('playwright-core').BrowserContext} context
 * @param {import('playwright-core').Page} page
 * @returns {Driver}
 */
function chromiumDriver(context, page) {
  return {
    goto: async (url) => void (await page.goto(url)),
    url: () => page.url(),
    eval: (fn, arg) => page.evaluate(/** @type {any} */ (fn), arg),
    waitFor: async (fn, arg, timeout) => (await page.waitForFunction(/** @type {any} */ (fn), arg, { timeout, polling: 100 })).jsonValue(),
    click: (selector) => page.click(selector),
    clickButton: (scope, text) => page.click(`${scope} button:text-is("${text}")`),
    fill: (selector, text) => page.fill(selector, text),
    select: async (selector, value) => void (await page.selectOption(selector, value)),
    press: async (selector, key) => {
      await page.focus(selector);
      await page.keyboard.press(key);
    },
    screenshotTo: async (path, selector) => {
      if (selector) await page.locator(selector).screenshot({ path });
      // A whole page in CSS pixels: at the tabs' device pixel ratio of 2 a lesson's PNG was 5–6 MB
      // and took ~2 s to take (0.8 s now); it is for reading, the figures' pixels are tested.
      else await page.screenshot({ path, fullPage: true, scale: 'css' });
    },
    download: async (selector) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
      const path = join(ARTIFACTS, `chromium-${download.suggestedFilename()}`);
      await download.saveAs(path);
      return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
    },
    tasks: async (during) => {
      /** @type {Buffer} */
      let traced = Buffer.alloc(0);
      const browser = context.browser();
      assert(browser, 'a Chromium context without its browser');
      await browser.startTracing(page, { categories: ['toplevel'] });
      const result = await during().finally(() => browser.stopTracing().then((trace) => (traced = trace)));
      return { result, tasks: mainThreadTasks(JSON.parse(traced.toString('utf8'))) };
    },
    close: () => context.close(),
    playwright: page,
  };
}

/** Where a task enters the page's JavaScript (or its wasm) in a `devtools.timeline` trace. */
const SCRIPT_EVENTS = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'RunMicrotasks',
]);

/**
 * The top-level tasks of the busiest renderer main thread in a Chromium trace (the page's:
 * one tab is open at a time), nested tasks folded into the task that runs them.
 * @param {any} trace @returns {MainThreadTask[]}
 */
export function mainThreadTasks(trace) {
  /** @type {any[]} */
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mains = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}/${e.tid}`),
  );
  /** @type {Map<string, any[]>} */
  const byThread = new Map();
  for (const e of events) {
    const key = `${e.pid}/${e.tid}`;
    if (e.ph !== 'X' || !mains.has(key)) continue;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const cpuOf = (/** @type {any[]} */ es) => es.reduce((sum, e) => sum + (e.tdur ?? 0), 0);
  const busiest = [...byThread.values()].sort((a, b) => cpuOf(b) - cpuOf(a))[0] ?? [];
  /** @type {MainThreadTask[]} */
  const tasks = [];
  let end = -Infinity;
  let scriptEnd = -Infinity;
  for (const e of busiest.sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
    if (e.ts < end) {
      // Inside the task before it: a script entry point not inside another counts to its script.
      if (SCRIPT_EVENTS.has(e.name) && e.ts >= scriptEnd) {
        scriptEnd = e.ts + (e.dur ?? 0);
        tasks[tasks.length - 1].script += (e.dur ?? 0) / 1000;
      }
      continue;
    }
    end = e.ts + (e.dur ?? 0);
    const script = SCRIPT_EVENTS.has(e.name) ? (e.dur ?? 0) / 1000 : 0;
    if (script) scriptEnd = end;
    tasks.push({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000, script });
  }
  return tasks;
}

/** @param {boolean} serviceWorkers @param {boolean} reducedMotion */
async function launchChromium(serviceWorkers, reducedMotion) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return {
    name: 'chromium',
    /** @param {string} url @param {TabOptions} [options] @returns {Promise<Tab>} */
    async open(url, { viewport = { width: 1100, height: 900 }, deviceScaleFactor = 2, file } = {}) {
      // Requests a service worker answers bypass context.route: the route check is complete
      // only without one, so only the offline tests allow them.
      const context = await browser.newContext({
        viewport,
        deviceScaleFactor,
        serviceWorkers: serviceWorkers ? 'allow' : 'block',
        ...(reducedMotion ? { reducedMotion: /** @type {const} */ ('reduce') } : {}),
      });
      const page = await context.newPage();
      const tab = new Tab('chromium', chromiumDriver(context, page));
      page.on('console', (msg) => {
        if (msg.type() === 'error') tab.problems.push(`console error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => tab.problems.push(`page error: ${err.message}`));
      page.on('worker', (worker) => {
        worker.on('console', (msg) => {
          if (msg.type() === 'error') tab.problems.push(`worker console error: ${msg.text()}`);
        });
      });
      await context.route('**/*', (route) => {
        if (allowed(route.request().url(), file)) return route.continue();
        tab.problems.push(`request outside ${file ?? '127.0.0.1'}: ${route.request().url()}`);
        return route.abort();
      });
      await page.goto(url);
      return tab;
    },
    close: () => browser.close(),
  };
}

// ---------- Firefox ESR: puppeteer-core over WebDriver BiDi ----------

/**
 * @param {import('puppeteer-core').BrowserContext} context
 * @param {import('puppeteer-core').Page} page
 * @returns {Driver}
 */
function firefoxDriver(context, page) {
  return {
    goto: async (url) => void (await page.goto(url)),
    url: () => page.url(),
    eval: (fn, arg) => page.evaluate(/** @type {any} */ (fn), arg),
    waitFor: async (fn, arg, timeout) => (await page.waitForFunction(/** @type {any} */ (fn), { timeout, polling: 100 }, arg)).jsonValue(),
    click: (selector) => page.click(selector),
    clickButton: async (scope, text) => {
      // An exact match on the button's text, as the Chromium side's :text-is().
      const handle = await page.evaluateHandle(
        ([s, t]) => [...document.querySelectorAll(`${s} button`)].find((b) => b.textContent === t) ?? null,
        [scope, text],
      );
      const button = handle.asElement();
      assert(button, `no button «${text}» in ${scope}`);
      await /** @type {import('puppeteer-core').ElementHandle<Element>} */ (button).click();
    },
    // As Playwright's fill: the field's text replaced in one edit (one input event, as a paste
    // makes). puppeteer's locator types it key by key, a BiDi round trip per character: lesson
    // 9's exercises took 32 s in Firefox against 10 s in Chromium.
    fill: async (selector, text) => {
      const field = await page.waitForSelector(selector, { visible: true });
      assert(field, `no ${selector} to fill`);
      await field.evaluate((e, t) => {
        /** @type {HTMLInputElement} */ (e).focus();
        document.execCommand('selectAll');
        document.execCommand(t ? 'insertText' : 'delete', false, t);
      }, text);
      await field.dispose();
    },
    select: async (selector, value) => void (await page.select(selector, value)),
    press: async (selector, key) => {
      await page.focus(selector);
      await page.keyboard.press(/** @type {import('puppeteer-core').KeyInput} */ (key));
    },
    screenshotTo: async (path, selector) => {
      const png = /** @type {`${string}.png`} */ (path);
      if (!selector) return void (await page.screenshot({ path: png, fullPage: true }));
      const target = await page.$(selector);
      assert(target, `no ${selector} to screenshot`);
      await target.screenshot({ path: png });
    },
    // WebDriver BiDi has no download events in this Firefox: catch the file the page hands to
    // the browser (an <a download> click on a blob URL) and read it in the page.
    download: async (selector) => {
      await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.pgbookDownload = null;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.download) w.pgbookDownload = fetch(this.href).then(async (r) => ({ name: this.download, text: await r.text() }));
          else click.call(this);
        };
      });
      await page.click(selector);
      return /** @type {Promise<Download>} */ (page.evaluate(() => /** @type {any} */ (window).pgbookDownload));
    },
    tasks: null, // no trace of the main thread's tasks over WebDriver BiDi
    close: () => context.close(),
  };
}

/** @param {boolean} serviceWorkers @param {boolean} reducedMotion */
async function launchFirefox(serviceWorkers, reducedMotion) {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: {
      // No traffic of Firefox's own on a closed network.
      'network.captive-portal-service.enabled': false,
      'network.connectivity-service.enabled': false,
      'dom.serviceWorkers.enabled': serviceWorkers,
      // The system's «reduce motion» (BiDi cannot emulate the media feature).
      ...(reducedMotion ? { 'ui.prefersReducedMotion': 1 } : {}),
    },
  });
  return {
    name: 'firefox',
    /** @param {string} url @param {TabOptions} [options] @returns {Promise<Tab>} */
    async open(url, { viewport = { width: 1100, height: 900 }, deviceScaleFactor = 2, file } = {}) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      const tab = new Tab('firefox', firefoxDriver(context, page));
      await page.setViewport({ ...viewport, deviceScaleFactor });
      page.on('console', (msg) => {
        if (msg.type() === 'error') tab.problems.push(`console error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => tab.problems.push(`page error: ${err instanceof Error ? err.message : err}`));
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (allowed(request.url(), file)) return void request.continue();
        tab.problems.push(`request outside ${file ?? '127.0.0.1'}: ${request.url()}`);
        void request.abort();
      });
      await page.goto(url);
      return tab;
    },
    close: () => browser.close(),
  };
}

/**
 * @typedef {{ name: string, open: (url: string, options?: TabOptions) => Promise<Tab>, close: () => Promise<void> }} Browser
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
