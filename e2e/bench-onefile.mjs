// @ts-check
// The book in one file against the served book (`node e2e/bench.mjs onefile`): the file's size
// and its wasm payload, and for every page, in Chromium and in Firefox ESR, the first
// contentful paint, the moment the file's page is unpacked and shown (onefile.js's
// `pgbook-page-shown` mark; none when served) and the moment every figure is drawn (app.js's
// `pgbook-ready` mark), median
// of 3 fresh loads — the file copied alone into an empty folder and opened from disk, the same
// page served by scripts/serve.py.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE, launch, percentile } from './harness.mjs';
import { LESSONS } from '../www/book.mjs';
import { packedPages } from '../scripts/onefile.mjs';

/** Runs in the page once it is ready: its first contentful paint, its page shown and its figures drawn, in ms from the navigation. */
const loadTimes = () => ({
  fcp_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  shown_ms: performance.getEntriesByName('pgbook-page-shown')[0]?.startTime ?? NaN,
  ready_ms: performance.getEntriesByName('pgbook-ready')[0]?.startTime ?? NaN,
});

/** The one-file book's budget: a page's figures drawn within this of opening the file. */
export const ONE_FILE_READY_BUDGET_MS = 1500;

/** site/pgbook.html copied alone into a new temporary folder: the folder and the file's URL. */
function copyAlone() {
  const folder = mkdtempSync(join(tmpdir(), 'pgbook-onefile-bench-'));
  copyFileSync(join(SITE, 'pgbook.html'), join(folder, 'pgbook.html'));
  return { folder, book: pathToFileURL(join(folder, 'pgbook.html')).href };
}

/**
 * Every page opened 3 times in fresh tabs: `url(file)`, and the medians of its load times.
 * @param {import('./harness.mjs').Browser} browser @param {(file: string) => string} url
 * @param {import('./harness.mjs').TabOptions} options
 */
async function pageLoads(browser, url, options) {
  const pages = [];
  for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
    /** @type {{ fcp_ms: number, shown_ms: number, ready_ms: number }[]} */
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const tab = await browser.open(url(file), options);
      await tab.waitReady();
      runs.push(await tab.eval(loadTimes));
      await tab.close();
    }
    const median = (/** @type {'fcp_ms' | 'shown_ms' | 'ready_ms'} */ k) =>
      percentile(
        runs.map((r) => r[k]),
        50,
      );
    pages.push({
      page: file,
      fcp_median_ms: median('fcp_ms'),
      shown_median_ms: median('shown_ms'),
      ready_median_ms: median('ready_ms'),
      ready_ms: runs.map((r) => Math.round(r.ready_ms)),
    });
  }
  return pages;
}

/**
 * The gate of `node e2e/bench.mjs gates`: every page of the file, opened from disk, draws its
 * figures within ONE_FILE_READY_BUDGET_MS (median of 3).
 * @param {string} name @param {import('./harness.mjs').Browser} browser
 * @param {(gate: string, ok: boolean, data: object) => void} gate
 */
export async function oneFileGates(name, browser, gate) {
  const { folder, book } = copyAlone();
  try {
    for (const p of await pageLoads(browser, (file) => `${book}#${file.replace('.html', '')}`, { deviceScaleFactor: 1, file: book }))
      gate('onefile_ready', p.ready_median_ms <= ONE_FILE_READY_BUDGET_MS, { browser: name, ...p, budget_ms: ONE_FILE_READY_BUDGET_MS });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** @param {import('./bench-runs.mjs').BenchContext} context */
export async function oneFile({ server, chromium, out }) {
  const html = readFileSync(join(SITE, 'pgbook.html'), 'utf8');
  const wasm = [...html.matchAll(/<script type="application\/gzip" data-wasm="([^"]+)">([^<]*)<\/script>/g)].map((m) => ({
    wasm: m[1],
    base64_bytes: m[2].length,
    wasm_bytes: statSync(join(SITE, m[1])).size,
  }));
  const pages = packedPages(html).map((p) => ({ page: p.page, base64_bytes: p.base64.length, html_bytes: Buffer.byteLength(p.html) }));
  out('onefile_size', { bytes: statSync(join(SITE, 'pgbook.html')).size, wasm, pages });
  const { folder, book } = copyAlone();
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {[string, import('./harness.mjs').Browser][]} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      const forms = /** @type {[string, (file: string) => string, import('./harness.mjs').TabOptions][]} */ ([
        ['onefile', (file) => `${book}#${file.replace('.html', '')}`, { deviceScaleFactor: 1, file: book }],
        ['served', (file) => server.url + file, { deviceScaleFactor: 1 }],
      ]);
      for (const [form, url, options] of forms)
        for (const p of await pageLoads(browser, url, options)) out('onefile_load', { browser: name, form, ...p });
    }
  } finally {
    await firefox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
