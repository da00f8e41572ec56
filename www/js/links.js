// @ts-check
// The run-link codec: a configuration as a link writes it (`full;gamma=0.99`) and back; the
// panels and the lessons' prepared comparisons share it.

/** A configuration: a profile and the settings that differ from it. @typedef {{ profile: string, set: [string, string][] }} Config */

/** A link's configuration (`full;gamma=0.99;hidden_sizes=64,64`): the profile, then overrides. @param {string} text @returns {Config} */
export function parseConfig(text) {
  const [profile, ...pairs] = text.split(';');
  /** @type {[string, string][]} */
  const set = pairs
    .filter((p) => p)
    .map((p) => {
      const k = p.indexOf('=');
      return k < 0 ? [p, ''] : [p.slice(0, k), p.slice(k + 1)];
    });
  return { profile, set };
}

/** A configuration as a link writes it. @param {Config} c */
export function configText(c) {
  return [c.profile, ...c.set.map(([k, v]) => `${k}=${v}`)].join(';');
}

/*
 * Where a page keeps its state. The served book: each page its own file, its state in the
 * query (`gae.html?gamma=0.95#figure`). The one-file book (pgbook.html, scripts/onefile.mjs;
 * its <html> says data-book="onefile") is one document whose fragment names the page, an
 * anchor on it and the state: `pgbook.html#gae/figure?gamma=0.95` — a file opened from
 * disk keeps its fragment everywhere, and a link to a state still works.
 */

/** Whether this document is the one-file book. */
export const ONE_FILE = typeof document !== 'undefined' && document.documentElement.dataset.book === 'onefile';

/**
 * A one-file fragment's parts: the page (a file's name without `.html`; `index` when empty),
 * the anchor on it and the state.
 * @param {string} hash `#gae/figure?gamma=0.95` or without the `#`
 * @returns {{ page: string, anchor: string, query: string }}
 */
export function parseFragment(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = text.indexOf('?');
  const path = q < 0 ? text : text.slice(0, q);
  const slash = path.indexOf('/');
  return {
    page: (slash < 0 ? path : path.slice(0, slash)) || 'index',
    anchor: slash < 0 ? '' : decodeURIComponent(path.slice(slash + 1)),
    query: q < 0 ? '' : text.slice(q + 1),
  };
}

/** This page's state (the served page's query; the one-file book's fragment after `?`). */
export function pageParams() {
  return new URLSearchParams(ONE_FILE ? parseFragment(location.hash).query : location.search);
}

/**
 * A link to page `file` (`ppo.html`; null: this page) with state `q` and an anchor.
 * @param {string | null} file @param {URLSearchParams} q @param {string} [anchor]
 */
export function pageLink(file, q, anchor = '') {
  const query = [...q.keys()].length ? `?${q}` : '';
  if (!ONE_FILE) return `${file ?? location.pathname}${query}${anchor ? `#${anchor}` : ''}`;
  const page = file === null ? parseFragment(location.hash).page : file.replace(/\.html$/, '');
  return `#${page}${anchor ? `/${encodeURIComponent(anchor)}` : ''}${query}`;
}

/**
 * The contents page's class experiment for trainer `kind` with configuration `config` and
 * `seats` seats (relative, like `pageLink`; the one file's form in the one file).
 * @param {string} kind @param {Config} config @param {number} seats
 */
export function classPageLink(kind, config, seats) {
  return pageLink('index.html', new URLSearchParams({ class: kind, config: configText(config), n: String(seats) }), 'class');
}

/** The one-file book's page and state as this document shows them (null in the served book). */
let shown = ONE_FILE ? parseFragment(location.hash) : null;

/**
 * Keeps `q` as this page's state in the address, without a new history entry (and, in the
 * one-file book, without showing the page anew: replaceState fires no hashchange).
 * @param {URLSearchParams} q
 */
export function setPageParams(q) {
  if (!shown) {
    history.replaceState(history.state, '', pageLink(null, q, location.hash.slice(1).split('?')[0]));
    return;
  }
  // The fragment names another page or state: the one-file book is leaving for it (onefile.js
  // loads the file anew), and a state written now would ride along to that page.
  const now = parseFragment(location.hash);
  if (now.page !== shown.page || now.query !== shown.query) return;
  const link = pageLink(null, q, now.anchor);
  history.replaceState(history.state, '', link);
  shown = parseFragment(link);
}
