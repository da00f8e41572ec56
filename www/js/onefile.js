// @ts-check
// The one-file book's start (site/pgbook.html, written by scripts/onefile.mjs), run before
// app.js. The file carries every page's templates and each wasm module gzipped in base64, and
// the trainers' worker as text; it loads nothing, so it works opened from disk (file://),
// where browsers refuse module files, module workers and fetching wasm. This module shows the
// page the fragment names (links.js: `#gae/anchor?gamma=0.95`), unpacked first (app.js waits
// for it: this module's top level awaits; js/onefile-pages.js), compiles each wasm module
// once, when first asked for, and hands the compiled module to every worker it starts (one copy
// in the file; a worker on file:// may not fetch even the page's blob URLs). Another page, or
// another state of this one, is a fresh load of the file, as a link between files of the
// served book would be: no listener, worker or figure of the previous page survives.
import { MOVED } from './moved.js';
import { parseFragment } from './links.js';
import { NO_GUNZIP, gunzip, pageNames, unpackPages } from './onefile-pages.js';

// Scroll positions are ours: a reload for another page must not keep the last page's.
history.scrollRestoration = 'manual';

/** Whether a trainer runs or is paused on this page (its panel's data-status). */
const training = () => document.querySelector('[data-status="running"], [data-status="paused"]') !== null;

/**
 * A fragment made before a page was renamed (`#lesson-04/…`) names the page's new name instead,
 * in place: its anchor and state are kept.
 */
function followMoved() {
  const { page } = parseFragment(location.hash);
  const moved = MOVED[`${page}.html`];
  if (moved) history.replaceState(history.state, '', `#${moved.replace(/\.html$/, '')}${location.hash.slice(1 + page.length)}`);
}

/** The page the fragment names, unpacked, in <main>, at its anchor or where the reader left it. */
async function showPage() {
  const { page, anchor } = parseFragment(location.hash);
  const main = /** @type {HTMLElement} */ (document.querySelector('main'));
  try {
    await unpackPages([pageNames().includes(page) ? page : 'index']);
  } catch (e) {
    const box = document.createElement('p');
    box.className = 'figure-error';
    box.setAttribute('role', 'alert');
    box.textContent = `Страница книги не открылась: ${NO_GUNZIP ?? (e instanceof Error ? e.message : String(e))}.`;
    main.replaceChildren(box);
    return;
  }
  const own = document.getElementById(`page-${page}`);
  const template = own instanceof HTMLTemplateElement ? own : /** @type {HTMLTemplateElement} */ (document.getElementById('page-index'));
  main.replaceChildren(template.content.cloneNode(true));
  document.title = template.dataset.title ?? document.title;
  // The contents beside the page: this page's (its sections, the page marked).
  const contents = document.getElementById(`contents-${template.id.slice('page-'.length)}`);
  if (contents instanceof HTMLTemplateElement) document.getElementById('contents')?.replaceWith(contents.content.cloneNode(true));
  if (template !== own) {
    const box = document.createElement('p');
    box.className = 'figure-error link-error';
    box.setAttribute('role', 'alert');
    box.textContent = `В книге нет страницы «${page.slice(0, 40)}»: открыто оглавление.`;
    main.prepend(box);
  }
  const saved = /** @type {{ pgbookScroll?: number } | null} */ (history.state)?.pgbookScroll;
  if (anchor) document.getElementById(anchor)?.scrollIntoView();
  else window.scrollTo(0, typeof saved === 'number' ? saved : 0);
}

/** Remembers the scroll position in this history entry, for Back to this page. */
function keepScroll() {
  let timer = 0;
  addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => history.replaceState({ ...history.state, pgbookScroll: window.scrollY }, ''), 300);
  });
}

/**
 * A new fragment: another anchor on this page scrolls there; another page or state loads the
 * file anew (a run in progress is stopped by that, as by leaving a page of the served book, so
 * the reader is asked first).
 */
function followFragment() {
  let leaving = false;
  // Registered before the trainers' own question (trainers.js): asked once, here.
  addEventListener('beforeunload', (e) => {
    if (leaving) e.stopImmediatePropagation();
  });
  addEventListener('hashchange', (e) => {
    const was = parseFragment(new URL(e.oldURL).hash);
    const now = parseFragment(location.hash);
    if (now.page === was.page && now.query === was.query) {
      if (now.anchor) document.getElementById(now.anchor)?.scrollIntoView();
      return;
    }
    if (training() && !confirm('Обучение ещё идёт. Если открыть другую страницу, оно остановится. Открыть?')) {
      history.replaceState(history.state, '', e.oldURL);
      return;
    }
    leaving = true;
    location.reload();
  });
}

/**
 * Every embedded wasm module (`<script type="application/gzip" data-wasm="pkg/NAME_bg.wasm">`)
 * by its path in the served book, compiled when first asked for (a page of figures may need
 * only a small one).
 * @returns {Record<string, Promise<WebAssembly.Module>>}
 */
function embeddedWasm() {
  /** @type {Record<string, Promise<WebAssembly.Module>>} */
  const modules = {};
  for (const script of document.querySelectorAll(/** @type {'script'} */ ('script[type="application/gzip"][data-wasm]'))) {
    const text = script.textContent ?? '';
    script.remove();
    /** @type {Promise<WebAssembly.Module> | null} */
    let compiled = null;
    const compile = async () =>
      WebAssembly.compileStreaming(new Response(gunzip(text), { headers: { 'Content-Type': 'application/wasm' } }));
    Object.defineProperty(modules, script.dataset.wasm ?? '', { enumerable: true, get: () => (compiled ??= compile()) });
  }
  return modules;
}

/**
 * What starts a trainers' worker (pool.js): a classic worker from the bundle the file carries
 * (`<script type="text/plain" id="pgbook-worker" data-wasm="…">`), whose first message is the
 * compiled wasm it imports (or why there is none). Its prelude takes that message before the
 * worker's own handler sees any.
 * @param {Record<string, Promise<WebAssembly.Module>>} modules
 */
function workerFactory(modules) {
  const script = /** @type {HTMLScriptElement} */ (document.getElementById('pgbook-worker'));
  const keys = (script.dataset.wasm ?? '').split(' ').filter(Boolean);
  const prelude = `globalThis.pgbookWasmModules = new Promise((resolve, reject) => {
  const take = (e) => {
    if (e.data?.type !== 'pgbook-wasm') return;
    e.stopImmediatePropagation();
    removeEventListener('message', take);
    if (e.data.modules) resolve(e.data.modules);
    else reject(new Error(e.data.error));
  };
  addEventListener('message', take);
});
`;
  const url = URL.createObjectURL(new Blob([prelude, script.textContent ?? ''], { type: 'text/javascript' }));
  script.remove();
  /** @type {Promise<Record<string, WebAssembly.Module>> | null} */
  let compiled = null;
  return () => {
    const worker = new Worker(url);
    compiled ??= Promise.all(keys.map(async (k) => [k, await modules[k]])).then(Object.fromEntries);
    compiled.then(
      (m) => worker.postMessage({ type: 'pgbook-wasm', modules: m }),
      (e) => worker.postMessage({ type: 'pgbook-wasm', error: e instanceof Error ? e.message : String(e) }),
    );
    return worker;
  };
}

followMoved();
await showPage();
performance.mark('pgbook-page-shown'); // e2e/bench-onefile.mjs reads it
keepScroll();
followFragment();
window.pgbookWasmModules = embeddedWasm();
window.pgbookNewWorker = workerFactory(window.pgbookWasmModules);
