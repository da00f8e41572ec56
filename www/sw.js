// @ts-check
/// <reference lib="webworker" />
// The service worker: keeps the whole built book — the one-file edition too — in one cache
// named by the build's hash, so after the first visit every lesson, figure and trainer works
// without the server. Installing is filling that cache, file by file: the worker becomes
// active (and `navigator.serviceWorker.ready` resolves) only once every file is in it, and the
// page says the book works offline only when its controller reports the cache complete
// (js/offline.js). Meanwhile the worker tells every page of the book how far it got; a failed
// install keeps what it saved, and the next attempt fetches only the rest. A new build is a new
// cache, filled completely before it takes over (the page offers the reader a reload), and
// the old one is deleted then: a page never gets new JavaScript beside an old wasm module or
// the reverse, and no file of another build gets in (each file's hash is checked).
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

// scripts/build-site.mjs replaces this line with the build's version, files, sizes and hashes.
/** @type {{ version: string, files: string[], bytes: number[], hashes: string[] }} */
const BUILD = { version: 'dev', files: [], bytes: [], hashes: [] };
const CACHE = `pgbook-${BUILD.version}`;
/** Where the book's files are: the folder of this script. */
const BASE = new URL('./', sw.location.href).href;
const INDEX = new Map(BUILD.files.map((f, i) => [f, i]));
/** Files fetched at once while filling: the reader's connection is used, not flooded. */
const PARALLEL = 4;

/**
 * What the cache holds now, as the pages get it (js/offline.js's OfflineStatus): counts, bytes,
 * the missing files (pages first), and `failure` when the last fill stopped on a file.
 * @typedef {{ type: 'pgbook-offline', version: string, files: number, saved: number, bytes: number,
 *   savedBytes: number, missing: string[], complete: boolean, filling: boolean,
 *   failure: { file: string, reason: string } | null }} Status
 */

/** @type {{ file: string, reason: string } | null} */
let failure = null;
/** @type {Promise<void> | null} */
let filling = null;

/** The build's files this worker's cache holds. @param {Cache} cache */
async function cachedFiles(cache) {
  const keys = await cache.keys();
  return new Set(keys.map((r) => r.url.slice(BASE.length)).filter((f) => INDEX.has(f)));
}

/** @returns {Promise<Status>} */
async function status() {
  const have = await cachedFiles(await caches.open(CACHE));
  const missing = BUILD.files.filter((f) => !have.has(f));
  // Pages first: what a reader misses most.
  missing.sort((a, b) => Number(!a.endsWith('.html')) - Number(!b.endsWith('.html')));
  const total = BUILD.bytes.reduce((s, b) => s + b, 0);
  const savedBytes = BUILD.files.reduce((s, f, i) => s + (have.has(f) ? BUILD.bytes[i] : 0), 0);
  return {
    type: 'pgbook-offline',
    version: BUILD.version,
    files: BUILD.files.length,
    saved: have.size,
    bytes: total,
    savedBytes,
    missing,
    complete: missing.length === 0,
    filling: filling !== null,
    failure,
  };
}

/** Every page of the book, controlled or not (a first visit's page is not), gets `message`. @param {Status} message */
async function tell(message) {
  for (const client of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })) client.postMessage(message);
}

/** @param {ArrayBuffer} data */
async function hashOf(data) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One file into the cache, straight from the server (`reload`: never from the HTTP cache of an
 * older build), refused unless it is this build's.
 * @param {Cache} cache @param {string} file
 */
async function save(cache, file) {
  let response;
  try {
    response = await fetch(new Request(file, { cache: 'reload' }));
  } catch {
    throw new Error('сервер книги не отвечает');
  }
  if (!response.ok) throw new Error(`сервер ответил ${response.status}`);
  const body = await response.arrayBuffer();
  if ((await hashOf(body)) !== BUILD.hashes[/** @type {number} */ (INDEX.get(file))]) throw new Error('на сервере уже другая версия книги');
  // The body as it arrived decoded: only its type goes with it (not the transfer's encoding).
  const headers = { 'Content-Type': response.headers.get('Content-Type') ?? 'application/octet-stream' };
  await cache.put(new URL(file, BASE).href, new Response(body, { headers }));
}

/** Fills the cache with what it lacks, telling the pages after each file. */
async function fillCache() {
  const cache = await caches.open(CACHE);
  const have = await cachedFiles(cache);
  const queue = BUILD.files.filter((f) => !have.has(f));
  failure = null;
  await tell(await status());
  const next = async () => {
    for (let file = queue.shift(); file !== undefined && !failure; file = queue.shift()) {
      try {
        await save(cache, file);
      } catch (e) {
        failure ??= { file, reason: e instanceof Error ? e.message : String(e) };
      }
      await tell(await status());
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, next));
  // (set by next(): tsc cannot see it.)
  const stopped = /** @type {{ file: string, reason: string } | null} */ (failure);
  if (stopped) throw new Error(`${stopped.file}: ${stopped.reason}`);
}

/** The one fill in progress (the install's, or a refill a page asked for). */
function fill() {
  filling ??= fillCache().finally(() => {
    filling = null;
    void status().then(tell);
  });
  return filling;
}

sw.addEventListener('install', (event) => event.waitUntil(fill()));

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('pgbook-') && key !== CACHE) await caches.delete(key);
      }
      await sw.clients.claim();
      await tell(await status());
    })(),
  );
});

sw.addEventListener('message', (event) => {
  // The page asks for this when the reader accepts the new build.
  if (event.data === 'activate-new-build') return void sw.skipWaiting();
  if (event.data?.type !== 'pgbook-offline-status') return;
  const source = /** @type {Client | null} */ (event.source);
  event.waitUntil(
    (async () => {
      const now = await status();
      // The active worker's cache lost files (the browser evicted them): fetch them again.
      if (!now.complete && !filling && event.data.refill) void fill().catch(() => {});
      source?.postMessage({ ...now, filling: filling !== null });
      if (filling) await filling.catch(() => {});
    })(),
  );
});

const escapeHtml = (/** @type {string} */ s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const megabytes = (/** @type {number} */ b) => (b / 1048576).toFixed(1).replace('.', ',');

/**
 * What a request the cache cannot answer gets when the server does not answer either: a page
 * in Russian naming what is missing and how much is saved (a navigation), or a 503 whose text
 * says which file is missing (anything else) — never the browser's own network error.
 * @param {Request} request @param {string} file
 */
async function notSaved(request, file) {
  const known = INDEX.has(file);
  if (request.mode !== 'navigate') {
    const text = known
      ? `Файл ${file} не сохранён для чтения без сети, а сервер книги не отвечает.`
      : `Файла ${file} нет в сохранённой книге, а сервер книги не отвечает.`;
    return new Response(text, { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
  const s = await status();
  const list = s.missing.slice(0, 8).map((f) => `<code>${escapeHtml(f)}</code>`);
  const more = s.missing.length > list.length ? ` и ещё файлов: ${s.missing.length - list.length}` : '';
  const saved = `Сохранено ${megabytes(s.savedBytes)} из ${megabytes(s.bytes)} МБ книги (файлов: ${s.saved} из ${s.files}); не хватает: ${list.join(', ')}${more}.`;
  const contents = s.missing.includes('index.html')
    ? ''
    : ` Сохранённое открывается с <a href="${escapeHtml(BASE)}index.html">оглавления</a>.`;
  const what = known
    ? `Страница <code>${escapeHtml(file)}</code> ещё не сохранена для чтения без сети, а сервер книги сейчас не отвечает.`
    : `Страницы <code>${escapeHtml(file)}</code> в сохранённой книге нет, а сервер книги сейчас не отвечает.${contents}`;
  const state = s.complete
    ? ''
    : `<p>${saved}${known ? ` Когда связь вернётся, откройте страницу снова — книга досохранится сама.${contents}` : ''}</p>`;
  const html = `<!doctype html>
<html lang="ru" data-offline-missing>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Нет сети — pgbook</title>
<style>body { font: 1.05rem/1.5 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; color-scheme: light dark; }</style>
<h1>Эта страница сейчас не откроется</h1>
<p>${what}</p>
${state}
</html>
`;
  return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

/** @param {Request} request @param {URL} url */
async function answer(request, url) {
  const cache = await caches.open(CACHE);
  // Pages carry their settings in the query; the folder's URL is its index.html.
  const file = url.pathname.endsWith('/')
    ? `${url.href.slice(BASE.length).split('?')[0]}index.html`
    : url.href.slice(BASE.length).split(/[?#]/)[0];
  const cached = await cache.match(new URL(file, BASE).href, { ignoreSearch: true });
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch {
    return notSaved(request, file);
  }
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !request.url.startsWith(BASE)) return;
  event.respondWith(answer(request, url));
});
