// @ts-check
/// <reference lib="webworker" />
// The service worker: keeps the whole built book in one cache named by the build's hash, so
// after the first visit every lesson, figure and trainer works without the server. A new
// build is a new cache, filled completely before it takes over (the page offers the reader a
// reload), and the old one is deleted then: a page never gets new JavaScript beside an old
// wasm module or the reverse.
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

// scripts/build-site.mjs replaces this line with the build's version and file list.
/** @type {{ version: string, files: string[] }} */
const BUILD = { version: 'dev', files: [] };
const CACHE = `pgbook-${BUILD.version}`;

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `reload`: straight from the server, never from the HTTP cache of an older build.
      await cache.addAll(BUILD.files.map((f) => new Request(f, { cache: 'reload' })));
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('pgbook-') && key !== CACHE) await caches.delete(key);
      }
      await sw.clients.claim();
    })(),
  );
});

// The page asks for this when the reader accepts the new build.
sw.addEventListener('message', (event) => {
  if (event.data === 'activate-new-build') sw.skipWaiting();
});

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== sw.location.origin) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      // Pages carry their settings in the query; the folder's URL is its index.html.
      const key = url.pathname.endsWith('/') ? new URL('index.html', url).href : request;
      return (await cache.match(key, { ignoreSearch: true })) ?? fetch(request);
    })(),
  );
});
