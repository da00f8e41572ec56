// @ts-check
// The book in one file against the served book (`node e2e/bench.mjs onefile`): the file's size
// and its wasm payload, and for every page, in Chromium and in Firefox ESR, the first
// contentful paint and the moment every figure is drawn (app.js's `pgbook-ready` mark), median
// of 3 fresh loads — the file copied alone into an empty folder and opened from disk, the same
// page served by scripts/serve.py.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SITE, launch, percentile } from './harness.mjs';
import { LESSONS } from '../www/book.mjs';

/** Runs in the page once it is ready: its first contentful paint and its figures drawn, in ms from the navigation. */
const loadTimes = () => ({
  fcp_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  ready_ms: performance.getEntriesByName('pgbook-ready')[0]?.startTime ?? NaN,
});

/** @param {import('./bench-runs.mjs').BenchContext} context */
export async function oneFile({ server, chromium, out }) {
  const html = readFileSync(join(SITE, 'pgbook.html'), 'utf8');
  const wasm = [...html.matchAll(/<script type="application\/gzip" data-wasm="([^"]+)">([^<]*)<\/script>/g)].map((m) => ({
    wasm: m[1],
    base64_bytes: m[2].length,
    wasm_bytes: statSync(join(SITE, m[1])).size,
  }));
  out('onefile_size', { bytes: statSync(join(SITE, 'pgbook.html')).size, wasm });
  const folder = mkdtempSync(join(tmpdir(), 'pgbook-onefile-bench-'));
  copyFileSync(join(SITE, 'pgbook.html'), join(folder, 'pgbook.html'));
  const book = pathToFileURL(join(folder, 'pgbook.html')).href;
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {[string, import('./harness.mjs').Browser][]} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
        for (const [form, url, options] of /** @type {[string, string, import('./harness.mjs').TabOptions][]} */ ([
          ['onefile', `${book}#${file.replace('.html', '')}`, { deviceScaleFactor: 1, file: book }],
          ['served', server.url + file, { deviceScaleFactor: 1 }],
        ])) {
          const runs = [];
          for (let i = 0; i < 3; i++) {
            const tab = await browser.open(url, options);
            await tab.waitReady();
            runs.push(await tab.eval(loadTimes));
            await tab.close();
          }
          out('onefile_load', {
            browser: name,
            form,
            page: file,
            fcp_median_ms: percentile(
              runs.map((r) => r.fcp_ms),
              50,
            ),
            ready_median_ms: percentile(
              runs.map((r) => r.ready_ms),
              50,
            ),
            ready_ms: runs.map((r) => Math.round(r.ready_ms)),
          });
        }
      }
    }
  } finally {
    await firefox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
