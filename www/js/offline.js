// @ts-check
// Registers the service worker that keeps the book readable offline (sw.js), and tells the
// reader the truth about it. The footer's line says the book is saved only once the worker
// that controls this page reports its cache complete; while the cache fills it says how much
// is saved, and a link followed meanwhile with the server silent gets a Russian message
// naming what is missing instead of the browser's error page. A new build, once cached, is
// offered to the reader; a tab the new build took over in another tab's update reloads
// (or, holding a run or a form, asks the reader to).
import { formatNumber } from './format.js';

/**
 * What a service worker reports of its cache (sw.js's Status).
 * @typedef {{ type: 'pgbook-offline', version: string, files: number, saved: number, bytes: number,
 *   savedBytes: number, missing: string[], complete: boolean, filling: boolean,
 *   failure: { file: string, reason: string } | null }} OfflineStatus
 */

const megabytes = (/** @type {number} */ b) => formatNumber(b / 1048576, 1);
const amount = (/** @type {OfflineStatus} */ s) =>
  `${megabytes(s.savedBytes)} из ${megabytes(s.bytes)} МБ (файлов: ${s.saved} из ${s.files})`;
/** The missing files, pages first, as a sentence's end. @param {OfflineStatus} s */
const missingList = (s) => {
  const shown = s.missing.slice(0, 6);
  const more = s.missing.length - shown.length;
  return `${shown.join(', ')}${more > 0 ? ` и ещё файлов: ${more}` : ''}`;
};

const SAVED = 'Книга сохранена в этом браузере: все её страницы и книга одним файлом откроются и без сети.';

/**
 * The footer's line: its sentence a live region (a change of state is read once; the line
 * enters the page with its first state, which is not read: «saved» on every visit would be
 * noise), the progress beside it only shown.
 */
function statusLine() {
  const line = document.createElement('p');
  line.className = 'offline-status';
  const sentence = document.createElement('span');
  sentence.setAttribute('role', 'status');
  const progress = document.createElement('span');
  line.append(sentence, ' ', progress);
  return {
    /** @returns {string | undefined} */
    get state() {
      return line.dataset.offline;
    },
    /** @param {string} name @param {string} text @param {string} [detail] */
    set(name, text, detail = '') {
      line.dataset.offline = name;
      if (sentence.textContent !== text) sentence.textContent = text;
      progress.textContent = detail;
      if (!line.isConnected) (document.querySelector('footer.site') ?? document.body).append(line);
    },
  };
}

/** Whether the reader changed a field here that the address does not keep (sliders it does). */
let edited = false;
/** @param {Event} e */
const noteEdit = (e) => {
  const t = e.target;
  if (e.isTrusted && t instanceof HTMLElement && !(t instanceof HTMLInputElement && t.type === 'range') && t.id !== 'theme-switch')
    edited = true;
};

/** Whether leaving this page now would lose what the reader made: a run, a changed field. */
function readerHasWork() {
  const panels = /** @type {Record<string, { status: string }> | undefined} */ (window.pgbookPanels);
  return edited || Object.values(panels ?? {}).some((p) => p.status === 'running' || p.status === 'paused');
}

/** This page asked the waiting build to take over (it reloads once that build controls it). */
let updating = false;

/** @param {ServiceWorker} waiting */
function offerUpdate(waiting) {
  if (document.querySelector('.update-ready')) return;
  const bar = document.createElement('div');
  bar.className = 'update-ready';
  bar.setAttribute('role', 'status');
  bar.textContent = 'Вышла новая версия книги, она уже сохранена для чтения без сети. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Перейти на новую версию';
  button.addEventListener('click', () => {
    button.disabled = true;
    updating = true;
    waiting.postMessage('activate-new-build');
  });
  bar.append(button);
  document.body.prepend(bar);
}

/** Another tab moved the book to a new build: this page is still the old one. */
function builtAnew() {
  if (!readerHasWork()) return void location.reload();
  if (document.querySelector('.built-anew')) return;
  document.querySelector('.update-ready')?.remove();
  const bar = document.createElement('div');
  bar.className = 'update-ready built-anew';
  bar.setAttribute('role', 'alert');
  bar.textContent =
    'В другой вкладке книга перешла на новую версию, а эта страница — ещё прежней. Сохраните, что нужно, и перезагрузите её: до тех пор запуски на ней могут не сработать. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Перезагрузить страницу';
  button.addEventListener('click', () => location.reload());
  bar.append(button);
  document.body.prepend(bar);
}

/**
 * While the book is not saved and this page has no service worker behind it, a link the
 * reader follows is tried first: with the server silent, the page says what is missing
 * instead of letting the browser show its own error.
 * @param {() => OfflineStatus | null} last
 */
function guardLinks(last) {
  /** @type {HTMLAnchorElement | null} */
  let passing = null;
  document.addEventListener('click', (e) => {
    const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
    const s = last();
    if (!s || s.complete || navigator.serviceWorker.controller) return;
    if (!(a instanceof HTMLAnchorElement) || a === passing) return;
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.defaultPrevented) return;
    const url = new URL(a.href);
    if (url.origin !== location.origin || (url.pathname === location.pathname && url.hash)) return;
    e.preventDefault();
    fetch(url.href, { method: 'HEAD', cache: 'no-store' }).then(
      () => {
        passing = a;
        a.click();
        passing = null;
      },
      () => {
        const now = last() ?? s;
        const name = url.pathname.split('/').pop() || 'index.html';
        const saved = ` Сохранено ${amount(now)}; не хватает: ${missingList(now)}. Когда связь вернётся, откройте ссылку снова — книга досохранится сама.`;
        document.querySelector('.offline-missing')?.remove();
        const bar = document.createElement('div');
        bar.className = 'update-ready offline-missing';
        bar.setAttribute('role', 'alert');
        bar.textContent = `Сервер книги не отвечает, а книга ещё не сохранена для чтения без сети, поэтому ${name} сейчас не откроется.${saved}`;
        document.body.prepend(bar);
      },
    );
  });
}

export function registerOffline() {
  if (!('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  /** @type {OfflineStatus | null} */
  let last = null;
  /** The build this page was served by (its controller's), once known. @type {string | null} */
  let version = null;
  /** @type {ReturnType<typeof statusLine> | null} */
  let line = null;
  /** @type {ServiceWorkerRegistration | undefined} */
  let registration;

  /**
   * `active`: the report is the active worker's, the one that answers the book's pages (an
   * installing worker's complete cache serves nothing yet).
   * @param {OfflineStatus} s @param {boolean} active
   */
  const show = (s, active) => {
    line ??= statusLine();
    if (active && s.complete) line.set('saved', SAVED);
    else if (active) {
      // The active worker's cache lost files (the browser evicted them); it fetches them again.
      line.set(
        s.failure ? 'failed' : 'filling',
        s.failure
          ? `Часть книги пропала из памяти браузера и пока не вернулась (${s.failure.reason}): без сети не откроется ${missingList(s)}.`
          : `Часть книги пропала из памяти браузера, сохраняю её заново; пока без сети не откроется ${missingList(s)}.`,
        `Сохранено ${amount(s)}.`,
      );
    } else if (container.controller || registration?.active) {
      // A new build is saved beside the one that answers the book's pages.
      if (line.state === 'saved') line.set('saved', SAVED, s.complete || s.failure ? '' : `Новая версия книги сохраняется: ${amount(s)}.`);
    } else if (s.failure) {
      line.set(
        'failed',
        `Книга не сохранилась для чтения без сети: ${s.failure.file} — ${s.failure.reason}. Без сети она пока не откроется; сохранение продолжится, когда страница книги откроется снова при работающей сети.`,
        `Сохранено ${amount(s)}; не хватает: ${missingList(s)}.`,
      );
    } else {
      line.set(
        'filling',
        'Книга сохраняется для чтения без сети; пока это не закончилось, без сети она не откроется.',
        `Сохранено ${amount(s)}.`,
      );
    }
  };
  // The active worker (this page's controller, or — a page reloaded past the cache — the one
  // that would answer its links).
  const ask = () => (container.controller ?? registration?.active)?.postMessage({ type: 'pgbook-offline-status', refill: true });

  container.addEventListener('message', (e) => {
    const s = /** @type {OfflineStatus} */ (e.data);
    if (s?.type !== 'pgbook-offline') return;
    const source = e.source instanceof ServiceWorker ? e.source : null;
    const active = !!source && (source === container.controller || source.state.startsWith('activat'));
    last = s;
    if (active && container.controller) {
      // A build other than this page's took over (this tab's update, or another tab's).
      if (version !== null && s.version !== version) return void (updating ? location.reload() : builtAnew());
      version = s.version;
    }
    show(s, active);
  });
  container.startMessages();
  document.addEventListener('input', noteEdit, true);
  document.addEventListener('change', noteEdit, true);
  container.addEventListener('controllerchange', () => {
    // A new build reloads the page that accepted it, so that nothing of the old build stays
    // in memory beside the new one; the first install takes control without a reload.
    if (updating) return void location.reload();
    ask();
  });
  guardLinks(() => last);
  container.register(new URL('../sw.js', import.meta.url)).then(
    (r) => {
      if (!r) return; // service workers blocked (a test browser)
      registration = r;
      ask();
      /** @param {ServiceWorker | null} worker */
      const watch = (worker) => {
        if (!worker) return;
        const check = () => {
          if (worker.state === 'installed' && container.controller) offerUpdate(worker);
          // An install that stopped: its last report (sent before) says on which file.
          if (worker.state === 'redundant' && !container.controller && last && !last.complete && !last.failure)
            show({ ...last, failure: { file: last.missing[0] ?? '?', reason: 'сохранение прервалось' } }, false);
        };
        check();
        worker.addEventListener('statechange', check);
        worker.postMessage({ type: 'pgbook-offline-status' });
      };
      watch(r.waiting ?? r.installing);
      r.addEventListener('updatefound', () => watch(r.installing));
    },
    (e) => {
      // Without a service worker the book still works online; offline it does not: say so.
      line ??= statusLine();
      line.set(
        'unavailable',
        `Этот браузер не даёт книге сохраниться для чтения без сети (${e?.message ?? e}); без сети откроется только книга одним файлом.`,
      );
    },
  );
}
