// @ts-check
// The search's speed (issue 40; `node e2e/bench.mjs search`, and its gate in `gates`): the
// library's size, the index built on the search box's first focus (the served book from
// search-docs.json, the one-file book from its templates, opened from disk), against loading
// an index serialised beforehand (the alternative the build could have written), and every
// keystroke of a set of queries typed letter by letter, timed from the input event to the
// results on the page (the search and the list's DOM; no layout): p50, p95, the most.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SITE, launch, percentile } from './harness.mjs';

/** A query's answer, from keystroke to the list on the page, within this (p95 over every keystroke). */
export const SEARCH_QUERY_BUDGET_MS = 50;

/** What readers type: inflected forms, two-word phrases, English, code names, a typo. */
const QUERIES = [
  'градиентом',
  'опорного уровня',
  'обрыв рекурсии',
  'эффективный размер выборки',
  'клиппирования',
  'преимуществом',
  'временной разности',
  'KL в награде',
  'reward-to-go',
  'trace_cut',
  'дисконтирование',
  'маской ответа',
  'нормировка на стандартное отклонение',
  'граница буфера',
  'энтропийный бонус',
  'GSPO',
  'начальное значение',
  'градиетн', // a typo
];

/**
 * Runs in the page: focuses the search, waits for its index, then types every query letter by
 * letter and times each keystroke's handling; also builds the index again from the same
 * sections synchronously and loads it from its own JSON, for the two ways' cost.
 * @param {string[]} queries
 */
const typeQueries = async (queries) => {
  const input = /** @type {HTMLInputElement} */ (document.getElementById('search-input'));
  const box = /** @type {HTMLElement} */ (input.closest('.search'));
  const t0 = performance.now();
  input.focus();
  while (!box.dataset.ready) await new Promise((r) => setTimeout(r, 5));
  const ready_ms = performance.now() - t0;
  /** @type {number[]} */
  const times = [];
  let results = 0;
  for (const q of queries)
    for (let n = 1; n <= q.length; n++) {
      input.value = q.slice(0, n);
      const s = performance.now();
      input.dispatchEvent(new Event('input'));
      times.push(performance.now() - s);
      if (n === q.length) results += document.querySelectorAll('#search-results li').length;
      await new Promise((r) => setTimeout(r, 0));
    }
  return { ready_ms, times, results, docs: window.pgbookSearchBuilt?.sections ?? 0 };
};

/**
 * Runs in the served page: the two ways to get the index, timed (5 times each): building it
 * from search-docs.json's sections at once (what the page does, in tasks), and loading an index
 * serialised as JSON (what a build-time index would be), with that JSON's size.
 */
const twoWays = async () => {
  const engine = await import(/** @type {string} */ (new URL('js/search-engine.js', document.baseURI).href));
  const docs = await (await fetch('search-docs.json')).json();
  const build = [];
  const load = [];
  let json = '';
  for (let i = 0; i < 5; i++) {
    let t = performance.now();
    const index = engine.newIndex();
    index.addAll(docs);
    build.push(performance.now() - t);
    json = JSON.stringify(index);
    t = performance.now();
    engine.loadIndex(json);
    load.push(performance.now() - t);
  }
  return { build, load, json };
};

/** @param {number[]} xs */
const stats = (xs) => ({ p50_ms: percentile(xs, 50), p95_ms: percentile(xs, 95), max_ms: Math.max(...xs), n: xs.length });

/**
 * The measurements, per browser and per book (served, one file from disk); `gate` (when given)
 * gets each browser's and book's keystroke p95 against SEARCH_QUERY_BUDGET_MS.
 * @param {{ server: { url: string }, chromium: import('./harness.mjs').Browser, out: (kind: string, data: object) => void }} context
 * @param {((gate: string, ok: boolean, data: object) => void) | null} [gate]
 */
export async function searchBench({ server, chromium, out }, gate = null) {
  const engine = readFileSync(join(SITE, 'js', 'search-engine.js'));
  const docs = readFileSync(join(SITE, 'search-docs.json'));
  if (!gate)
    out('search_size', {
      library_bytes: engine.length,
      library_gzip_bytes: gzipSync(engine, { level: 9 }).length,
      docs_bytes: docs.length,
      docs_gzip_bytes: gzipSync(docs, { level: 9 }).length,
      onefile_bytes: statSync(join(SITE, 'pgbook.html')).size,
    });
  const folder = mkdtempSync(join(tmpdir(), 'pgbook-search-bench-'));
  copyFileSync(join(SITE, 'pgbook.html'), join(folder, 'pgbook.html'));
  const book = pathToFileURL(join(folder, 'pgbook.html')).href;
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {[string, import('./harness.mjs').Browser][]} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      for (const [form, url, options] of /** @type {[string, string, import('./harness.mjs').TabOptions][]} */ ([
        ['served', `${server.url}gae.html`, { deviceScaleFactor: 1 }],
        ['onefile', `${book}#gae`, { deviceScaleFactor: 1, file: book }],
      ])) {
        const tab = await browser.open(url, options);
        try {
          await tab.waitReady();
          const r = await tab.eval(typeQueries, QUERIES);
          const keys = stats(r.times);
          const data = { browser: name, book: form, sections: r.docs, index_ready_ms: r.ready_ms, keystrokes: keys, results: r.results };
          if (gate) gate('search_query', keys.p95_ms <= SEARCH_QUERY_BUDGET_MS, { ...data, budget_ms: SEARCH_QUERY_BUDGET_MS });
          else out('search', data);
          if (!gate && form === 'served') {
            const w = await tab.eval(twoWays);
            out('search_index', {
              browser: name,
              build_from_sections_ms: stats(w.build),
              load_serialised_ms: stats(w.load),
              serialised_bytes: w.json.length,
              serialised_gzip_bytes: gzipSync(w.json, { level: 9 }).length,
            });
          }
        } finally {
          await tab.close();
        }
      }
    }
  } finally {
    await firefox.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
