// @ts-check
// Debian's Chromium through playwright-core (over CDP), which downloads nothing: the tabs'
// driver, the pool of contexts they take in turn, and the main thread's tasks from a trace.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, allowed, assert, Tab } from './tab.mjs';

/**
 * @typedef {import('./tab.mjs').Driver} Driver
 * @typedef {import('./tab.mjs').MainThreadTask} MainThreadTask
 * @typedef {import('./tab.mjs').TabOptions} TabOptions
 */

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

/** A tab's problems: the page's and its workers' console errors and page errors. @param {import('playwright-core').Page} page @param {Tab} tab */
function watch(page, tab) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') tab.problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => tab.problems.push(`page error: ${err.message}`));
  page.on('worker', (worker) => {
    worker.on('console', (msg) => {
      if (msg.type() === 'error') tab.problems.push(`worker console error: ${msg.text()}`);
    });
  });
}

/**
 * @param {import('playwright-core').BrowserContext} context
 * @param {import('playwright-core').Page} page
 * @param {() => Promise<void>} release closes the page and hands its context to the next tab
 * @returns {Driver}
 */
function chromiumDriver(context, page, release) {
  return {
    beside: async (url) => {
      const other = await context.newPage();
      const tab = new Tab(
        'chromium',
        chromiumDriver(context, other, () => other.close()),
      );
      watch(other, tab);
      await other.goto(url);
      return tab;
    },
    goto: async (url, until = 'load') => void (await page.goto(url, { waitUntil: until })),
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
    close: release,
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

/**
 * A Chromium context the tabs take in turn: a page kept open in it (`keeper`) keeps its renderer,
 * so the next tab's page starts in a process that is already up (a page open and ready cost
 * ~2.2 CPU-s in a new context here, ~1.2 in a kept one). `state` is the tab it serves now.
 * @typedef {{
 *   context: import('playwright-core').BrowserContext,
 *   keeper: import('playwright-core').Page,
 *   session: import('playwright-core').CDPSession,
 *   state: { tab: Tab | null, file: string | undefined, origins: Set<string> },
 * }} PooledContext
 */

/** @param {boolean} serviceWorkers @param {boolean} reducedMotion */
export async function launchChromium(serviceWorkers, reducedMotion) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  /** Idle contexts by their options. @type {Map<string, PooledContext[]>} */
  const idle = new Map();
  /** @param {{ width: number, height: number }} viewport @param {number} deviceScaleFactor @returns {Promise<PooledContext>} */
  async function newContext(viewport, deviceScaleFactor) {
    // Requests a service worker answers bypass context.route: the route check is complete
    // only without one, so only the offline tests allow them.
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor,
      serviceWorkers: serviceWorkers ? 'allow' : 'block',
      ...(reducedMotion ? { reducedMotion: /** @type {const} */ ('reduce') } : {}),
    });
    const keeper = await context.newPage();
    /** @type {PooledContext['state']} */
    const state = { tab: null, file: undefined, origins: new Set() };
    await context.route('**/*', (route) => {
      if (allowed(route.request().url(), state.file)) return route.continue();
      state.tab?.problems.push(`request outside ${state.file ?? '127.0.0.1'}: ${route.request().url()}`);
      return route.abort();
    });
    return { context, keeper, session: await context.newCDPSession(keeper), state };
  }
  return {
    name: 'chromium',
    /** @param {string} url @param {TabOptions} [options] @returns {Promise<Tab>} */
    async open(url, { viewport = { width: 1100, height: 900 }, deviceScaleFactor = 2, file } = {}) {
      const key = JSON.stringify([viewport, deviceScaleFactor]);
      const pooled = idle.get(key)?.pop() ?? (await newContext(viewport, deviceScaleFactor));
      const { context, session, state } = pooled;
      const page = await context.newPage();
      // Each tab starts as a new reader's: what the last one stored is cleared when it closes.
      // With service workers (the offline tests) each tab gets a context of its own.
      const release = async () => {
        await page.close();
        if (serviceWorkers) return context.close();
        for (const origin of state.origins) await session.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
        state.origins.clear();
        state.tab = null;
        idle.set(key, [...(idle.get(key) ?? []), pooled]);
      };
      const tab = new Tab('chromium', chromiumDriver(context, page, release));
      state.tab = tab;
      state.file = file;
      page.on('framenavigated', (frame) => {
        const u = new URL(frame.url());
        if (u.protocol === 'http:' || u.protocol === 'https:') state.origins.add(u.origin);
        else if (u.protocol === 'file:') state.origins.add('file://');
      });
      watch(page, tab);
      await page.goto(url);
      return tab;
    },
    close: () => browser.close(),
  };
}
