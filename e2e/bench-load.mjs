// @ts-check
// What a reader waits for while a page loads (issue 26), in Debian's Chromium, service workers
// blocked, a fresh browser context (empty cache) per load:
//  - load: per page and CPU speed (1×: a desktop window; 4× slower through CDP's
//    Emulation.setCPUThrottlingRate: a phone's window, Lighthouse's mobile one), the median of
//    `runs` loads of first contentful paint, the first figure drawn (the first frame after a
//    figure's canvas got its first drawing call: measured from outside, so an older build is
//    measured the same way), Total Blocking Time (each long task's time over 50 ms, from first
//    contentful paint to the end of the load) and the longest main-thread task (Chromium's
//    trace, wall time; the Long Tasks API's figure beside it), the longest time the book's
//    own scripts held the thread in one task (the trace's script entry points: what a page of
//    ours can shorten, the rest being the browser's parse, style and layout), and the bytes the page
//    transferred (CDP's Network events: every response's encoded length). The load ends 1 s
//    after the page says it is ready (<html data-ready>). Before the book's pages, a `floor`
//    line: the same measurement of a page of one Russian paragraph and no script, the browser's
//    own cost of any page in this window.
//  - lighthouse: Lighthouse's mobile profile (simulated slow 4G and 4× CPU) on every page, its
//    four category scores and key metrics, when the `lighthouse` package is installed.
import { chromium as playwright } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, mainThreadTasks } from './browsers.mjs';
import { percentile } from './harness.mjs';
import { LESSONS } from '../www/book.mjs';

/** The pages, in the book's order. */
export const PAGES = ['index.html', ...LESSONS.map((l) => l.file)];
/** Each CPU speed's window: a desktop at full speed, a phone at 4× slower. */
const SPEEDS = [
  { rate: 1, viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 },
  { rate: 4, viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 },
];
/** The floor: a page with a heading and one paragraph, served beside the book's pages. */
export const FLOOR_PAGE = 'pgbook-floor.html';
const FLOOR_HTML = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Пол</title></head>
<body><h1>Пустая страница</h1><p>Одна строка русского текста, без скриптов и стилей: то, что браузер тратит на любую страницу.</p></body></html>`;
/** How long the load is watched after the page is ready (ms): late tasks count too. */
const AFTER_READY_MS = 1000;

/**
 * Runs in the page before its scripts: records long tasks with their start, and the first frame
 * after each figure canvas's first drawing call.
 */
function watchLoad() {
  const w = /** @type {any} */ (window);
  const seen = { tasks: /** @type {[number, number][]} */ ([]), figures: /** @type {number[]} */ ([]), drawn: new WeakSet() };
  w.pgbookLoad = seen;
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => seen.tasks.push([e.startTime, e.duration]))).observe({
      type: 'longtask',
      buffered: true,
    });
  } catch {
    /* no Long Tasks API */
  }
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of /** @type {const} */ (['fillRect', 'fillText', 'stroke', 'fill'])) {
    const original = /** @type {Function} */ (proto[name]);
    /** @this {CanvasRenderingContext2D} @param {any[]} args */
    const wrapped = function (...args) {
      const canvas = this.canvas;
      if (!seen.drawn.has(canvas) && canvas instanceof HTMLCanvasElement && canvas.closest('figure')) {
        seen.drawn.add(canvas);
        requestAnimationFrame(() => seen.figures.push(performance.now()));
      }
      return original.apply(this, args);
    };
    Object.defineProperty(proto, name, { value: wrapped, writable: true, configurable: true });
  }
}

/** Runs in the page once the load is over: what it saw. */
function loadFigures() {
  const w = /** @type {any} */ (window);
  /** @type {{ tasks: [number, number][], figures: number[] }} */
  const seen = w.pgbookLoad;
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
  const tbt = seen.tasks.filter(([start]) => start >= fcp).reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0);
  return {
    fcp_ms: fcp,
    first_figure_ms: seen.figures.length ? Math.min(...seen.figures) : null,
    figures_drawn: seen.figures.length,
    figures: document.querySelectorAll('figure canvas').length,
    tbt_ms: tbt,
    longtask_max_ms: Math.max(0, ...seen.tasks.map(([, d]) => d)),
  };
}

/**
 * One fresh load of `url` at CPU slowdown `rate`.
 * @param {import('playwright-core').Browser} browser @param {string} url @param {typeof SPEEDS[number]} speed
 */
async function oneLoad(browser, url, speed) {
  const context = await browser.newContext({
    viewport: speed.viewport,
    deviceScaleFactor: speed.deviceScaleFactor,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    await page.route(`**/${FLOOR_PAGE}`, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: FLOOR_HTML }));
    await page.addInitScript(watchLoad);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: speed.rate });
    await cdp.send('Network.enable');
    let bytes = 0;
    /** @type {Record<string, number>} */
    const byType = {};
    /** @type {Map<string, string>} */
    const types = new Map();
    cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
      const type = types.get(e.requestId) ?? 'Other';
      byType[type] = (byType[type] ?? 0) + e.encodedDataLength;
    });
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline'] });
    /** @type {Buffer} */
    let traced = Buffer.alloc(0);
    try {
      await page.goto(url);
      if (url.endsWith(FLOOR_PAGE)) await page.waitForLoadState('load');
      else await page.waitForFunction(() => document.documentElement?.dataset.ready === '1', null, { timeout: 180_000, polling: 50 });
      await page.evaluate((ms) => new Promise((r) => setTimeout(r, ms)), AFTER_READY_MS);
    } finally {
      traced = await browser.stopTracing();
    }
    const tasks = mainThreadTasks(JSON.parse(traced.toString('utf8')));
    const seen = await page.evaluate(loadFigures);
    return {
      ...seen,
      longest_task_ms: Math.max(0, ...tasks.map((t) => t.wall)),
      longest_task_cpu_ms: Math.max(0, ...tasks.map((t) => t.cpu)),
      longest_script_ms: Math.max(0, ...tasks.map((t) => t.script)),
      tasks_over_50ms: tasks.filter((t) => t.wall > 50).length,
      bytes,
      by_type: byType,
    };
  } finally {
    await context.close();
  }
}

/** @param {number | null} x */
const round = (x) => (x === null || !Number.isFinite(x) ? null : Math.round(x));

/**
 * Every page at every CPU speed, `runs` loads each: one `load` line per page and speed.
 * @param {{ url: string, out: (kind: string, data: object) => void, runs?: number, pages?: string[], rates?: number[] }} options
 */
export async function loadBench({ url, out, runs = 3, pages = PAGES, rates = [1, 4] }) {
  const browser = await playwright.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  /** @type {any[]} */
  const rows = [];
  try {
    for (const speed of SPEEDS.filter((s) => rates.includes(s.rate))) {
      for (const file of [FLOOR_PAGE, ...pages]) {
        /** @type {Awaited<ReturnType<typeof oneLoad>>[]} */
        const loads = [];
        for (let i = 0; i < runs; i++) loads.push(await oneLoad(browser, url + file, speed));
        const med = (/** @type {(r: typeof loads[number]) => number | null} */ f) => {
          const xs = /** @type {number[]} */ (loads.map(f).filter((x) => x !== null));
          return xs.length ? round(percentile(xs, 50)) : null;
        };
        const row = {
          page: file,
          cpu_slowdown: speed.rate,
          viewport: `${speed.viewport.width}×${speed.viewport.height}@${speed.deviceScaleFactor}`,
          fcp_ms: med((r) => r.fcp_ms),
          first_figure_ms: med((r) => r.first_figure_ms),
          tbt_ms: med((r) => r.tbt_ms),
          longest_task_ms: med((r) => r.longest_task_ms),
          longest_task_max_ms: round(Math.max(...loads.map((r) => r.longest_task_ms))),
          longest_task_cpu_ms: med((r) => r.longest_task_cpu_ms),
          longest_script_ms: med((r) => r.longest_script_ms),
          longest_script_max_ms: round(Math.max(...loads.map((r) => r.longest_script_ms))),
          longtask_api_max_ms: round(Math.max(...loads.map((r) => r.longtask_max_ms))),
          tasks_over_50ms: loads.map((r) => r.tasks_over_50ms),
          figures: loads[0].figures,
          figures_drawn: loads.map((r) => r.figures_drawn),
          bytes: loads[0].bytes,
          by_type: loads[0].by_type,
          runs,
        };
        rows.push(row);
        out('load', row);
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/**
 * Lighthouse's mobile run of every page (its default configuration: simulated slow 4G and 4×
 * CPU on Lighthouse's Moto G Power) in Debian's Chromium, launched by chrome-launcher.
 * @param {{ url: string, out: (kind: string, data: object) => void, pages?: string[] }} options
 */
export async function lighthouseBench({ url, out, pages = PAGES }) {
  /** @type {any} */
  let lighthouse;
  /** @type {any} */
  let launcher;
  try {
    lighthouse = (await import(/* @vite-ignore */ 'lighthouse')).default;
    launcher = await import(/* @vite-ignore */ 'chrome-launcher');
  } catch (e) {
    out('lighthouse', { skipped: `the lighthouse package is not installed (${e instanceof Error ? e.message : e})` });
    return [];
  }
  const flags = CHROMIUM_ARGS.filter((f) => f !== '--headless');
  const chrome = await launcher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...flags] });
  /** @type {any[]} */
  const rows = [];
  try {
    for (const file of pages) {
      const result = await lighthouse(url + file, { port: chrome.port, output: 'json', logLevel: 'error' });
      const lhr = result?.lhr;
      if (!lhr) {
        out('lighthouse', { page: file, error: 'no result' });
        continue;
      }
      /** @param {string} id */
      const score = (id) => (lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100));
      /** @param {string} id */
      const metric = (id) => round(lhr.audits[id]?.numericValue ?? null);
      const failed = Object.values(lhr.categories)
        .flatMap((/** @type {any} */ c) => c.auditRefs.filter((/** @type {any} */ a) => a.weight > 0))
        .map((/** @type {any} */ a) => lhr.audits[a.id])
        .filter((/** @type {any} */ a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
        .map((/** @type {any} */ a) => a.id);
      const row = {
        page: file,
        performance: score('performance'),
        accessibility: score('accessibility'),
        best_practices: score('best-practices'),
        seo: score('seo'),
        fcp_ms: metric('first-contentful-paint'),
        lcp_ms: metric('largest-contentful-paint'),
        tbt_ms: metric('total-blocking-time'),
        cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? null,
        si_ms: metric('speed-index'),
        bytes: metric('total-byte-weight'),
        below_full_score: failed,
        warnings: lhr.runWarnings,
        // Lighthouse's measure of this machine's CPU: its 4× is a slower phone on a slower machine.
        benchmark_index: lhr.environment?.benchmarkIndex ?? null,
      };
      rows.push(row);
      out('lighthouse', row);
    }
  } finally {
    await chrome.kill();
  }
  return rows;
}
