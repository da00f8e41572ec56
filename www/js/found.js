// @ts-check
// A section reached from a search result is highlighted on arrival: its heading, and in its
// text the words the search matched. The result's page leaves a note in sessionStorage as the
// reader follows it (js/search.js); this page reads it when it loads or when its fragment
// changes (a result on the same page), and only for its own page and section.
import { ONE_FILE, parseFragment } from './links.js';

const KEY = 'pgbook-found';

/** A followed result. @typedef {{ page: string, anchor: string, words: string[] }} Found */

/** This page's name (a file without `.html`) and the anchor its address names. */
export function here() {
  if (ONE_FILE) {
    const { page, anchor } = parseFragment(location.hash);
    return { page, anchor };
  }
  const file = location.pathname.split('/').pop() || 'index.html';
  let anchor = '';
  try {
    anchor = decodeURIComponent(location.hash.slice(1));
  } catch {
    /* a malformed fragment names no section */
  }
  return { page: file.replace(/\.html$/, '') || 'index', anchor };
}

/** Notes the result the reader follows. @param {Found} found */
export function noteFound(found) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(found));
  } catch {
    /* without storage the section is reached, only not highlighted */
  }
}

/** The elements of a section: its heading and what follows it up to the next heading. @param {HTMLElement} heading */
function sectionOf(heading) {
  const parts = [heading];
  if (heading.tagName === 'DT') {
    const dd = heading.nextElementSibling;
    if (dd instanceof HTMLElement) parts.push(dd);
    return parts;
  }
  for (let e = heading.nextElementSibling; e && !/^H[1-3]$/.test(e.tagName); e = e.nextElementSibling)
    if (e instanceof HTMLElement) parts.push(e);
  return parts;
}

/**
 * Marks `words` (lower case) in the text of `elements`, outside formulas, controls and code.
 * @param {HTMLElement[]} elements @param {string[]} words
 */
function markWords(elements, words) {
  if (!words.length) return;
  const wanted = new Set(words);
  for (const root of elements) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) =>
        n.parentElement?.closest('math, code, pre, button, select, script, mark, [hidden]')
          ? NodeFilter.FILTER_REJECT
          : NodeFilter.FILTER_ACCEPT,
    });
    /** @type {Text[]} */
    const texts = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(/** @type {Text} */ (n));
    for (const text of texts) {
      const value = text.data;
      const hits = [...value.matchAll(/[\p{L}\p{N}]+/gu)].filter((m) => wanted.has(m[0].toLowerCase()));
      if (!hits.length) continue;
      const pieces = document.createDocumentFragment();
      let at = 0;
      for (const m of hits) {
        pieces.append(value.slice(at, m.index));
        const mark = document.createElement('mark');
        mark.className = 'found-word';
        mark.textContent = m[0];
        pieces.append(mark);
        at = m.index + m[0].length;
      }
      pieces.append(value.slice(at));
      text.replaceWith(pieces);
    }
  }
}

/** The page this document loaded as (the one-file book loads anew for another page). */
let loadedAs = '';

/** Highlights the section a followed result named, if this page is where it leads. */
export function highlightArrival() {
  let found;
  try {
    found = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
  } catch {
    return;
  }
  const { page, anchor } = here();
  if (!found || found.page !== page || page !== loadedAs || found.anchor !== anchor) return;
  sessionStorage.removeItem(KEY);
  const heading = anchor ? document.getElementById(anchor) : document.querySelector('main h1');
  if (!(heading instanceof HTMLElement)) return;
  document.querySelectorAll('.found').forEach((e) => e.classList.remove('found'));
  heading.classList.add('found');
  markWords(
    sectionOf(heading),
    Array.isArray(found.words)
      ? found.words.filter((/** @type {unknown} */ w) => typeof w === 'string').map((/** @type {string} */ w) => w.toLowerCase())
      : [],
  );
}

/** Highlights on arrival and whenever the fragment changes to a followed result on this page. */
export function wireArrival() {
  loadedAs = here().page;
  highlightArrival();
  addEventListener('hashchange', () => highlightArrival());
}
