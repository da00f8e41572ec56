// @ts-check
// The book's Russian full-text search: MiniSearch over the book's sections with the Snowball
// Russian stemmer (@orama/stemmers), so that «градиентом», «градиента» and «градиенты» all
// find «градиент». The same stemmer links the lessons' terms to the glossary when the site is
// built (scripts/glossary.mjs). The one module with npm imports on the page: the build bundles
// it into site/js/search-engine.js, and the page loads it on the search box's first use.
import MiniSearch from 'minisearch';
import { stemmer } from '@orama/stemmers/russian';

/**
 * One section of the book as the search sees it: the page (a file's name without `.html`), the
 * anchor of its heading ('' for the page's top), the page's and the section's titles, its text.
 * @typedef {{ id: number, page: string, anchor: string, title: string, heading: string, text: string }} SearchDoc
 */
/** A piece of a snippet: text, marked where it matched. @typedef {{ text: string, mark: boolean }} Piece */
/** @typedef {{ doc: SearchDoc, score: number, terms: string[], pieces: Piece[] }} Hit */

/** A word: letters and digits (Cyrillic, Latin, Greek). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A word's stem: lower case, «ё» as «е», Snowball's Russian stem for a Cyrillic word (a noun in
 * «-в» whole, see below), whose fleeting vowel before a last н, к, л, р or ц is dropped — Snowball keeps it in the nominative
 * only («уровень» → уровен, «уровня» → уровн; «отрезок», «отрезка»; «токен» and «токена» alike).
 * @param {string} word
 */
export function stemWord(word) {
  const w = word.toLowerCase().replace(/ё/g, 'е');
  if (!/[а-я]/.test(w)) return w;
  let s = stems.get(w);
  if (s !== undefined) return s;
  s = stemmer(w);
  // Snowball reads a final «в», «ив», «ыв» as a perfective gerund and strips it, so the noun's
  // nominative loses what its other cases keep («обрыв» → обр, «обрыва» → обрыв; «состав»,
  // «состава»): such a word is its own stem (a gerund then stands apart from its verb).
  if (/^[иы]?в$/.test(w.slice(s.length)) && w.startsWith(s)) s = w;
  if (s.length >= 5 && /[бвгджзклмнпрстфхцчшщ][ео][нклрц]$/.test(s)) s = s.slice(0, -2) + s.slice(-1);
  if (stems.size > 50_000) stems.clear();
  stems.set(w, s);
  return s;
}
/** Stems already found: the book has ~3,600 distinct words in ~18,000 (the stemmer is most of the index's build). */
const stems = new Map();

/** The words of `text` with where each starts and ends. @param {string} text */
export function wordsOf(text) {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
}

/** @param {string} text */
const tokenize = (text) => text.match(WORD) ?? [];

/**
 * How a query matches: every word (AND); the last one also as the start of a word, as the reader types it.
 * @type {import('minisearch').SearchOptions}
 */
const SEARCH = {
  combineWith: 'AND',
  boost: { heading: 3 },
  prefix: (/** @type {string} */ term, /** @type {number} */ i, /** @type {string[]} */ terms) =>
    i === terms.length - 1 && term.length >= 3,
  // One typo (or a fleeting vowel the stemmer keeps: «уровень» → уровен, «уровня» → уровн) in a long stem.
  fuzzy: (/** @type {string} */ term) => (term.length >= 6 ? 0.2 : 0),
};

/** How the index reads the sections. */
const OPTIONS = {
  fields: ['heading', 'text'],
  tokenize,
  processTerm: (/** @type {string} */ term) => stemWord(term),
  searchOptions: SEARCH,
};

/** An empty index of SearchDocs. */
export function newIndex() {
  return new MiniSearch(OPTIONS);
}

/** An index serialised with JSON.stringify (e2e/bench-search.mjs times this against building one). @param {string} json */
export function loadIndex(json) {
  return MiniSearch.loadJSON(json, OPTIONS);
}

/**
 * The index of `docs`, built a few sections per task so that no task holds the page long.
 * @param {SearchDoc[]} docs
 */
export async function buildIndex(docs) {
  const index = newIndex();
  await index.addAllAsync(docs, { chunkSize: 8 });
  return index;
}

/** How much text a snippet shows around its matches. */
const SNIPPET_CHARS = 160;

/**
 * The part of `text` with the most of the matched words, cut at words, each match marked.
 * @param {string} text @param {Set<string>} stems the stems that matched
 * @returns {Piece[]}
 */
export function snippet(text, stems) {
  const words = wordsOf(text);
  const hits = words.filter((w) => stems.has(stemWord(w.word)));
  // The window that starts at a match and holds the most matches.
  let best = { from: 0, count: 0 };
  for (let i = 0; i < hits.length; i++) {
    let count = 0;
    for (let j = i; j < hits.length && hits[j].end - hits[i].start <= SNIPPET_CHARS; j++) count++;
    if (count > best.count) best = { from: hits[i].start, count };
  }
  // A little of what comes before the first match, cut at a word.
  let start = Math.max(0, best.from - 40);
  if (start > 0) start = words.find((w) => w.start >= start)?.start ?? start;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) end = [...words].reverse().find((w) => w.end <= end)?.end ?? end;
  /** @type {Piece[]} */
  const pieces = [];
  let at = start;
  for (const h of hits) {
    if (h.start < start || h.end > end) continue;
    if (h.start > at) pieces.push({ text: text.slice(at, h.start), mark: false });
    pieces.push({ text: text.slice(h.start, h.end), mark: true });
    at = h.end;
  }
  if (at < end) pieces.push({ text: text.slice(at, end), mark: false });
  if (start > 0) pieces.unshift({ text: '…', mark: false });
  if (end < text.length) pieces.push({ text: '…', mark: false });
  return pieces;
}

/**
 * The sections that match `query`, best first (at most `limit`), each with its snippet, and how
 * many matched in all. Every word must match; when no section matches them all, the sections
 * that match any word are given (`all` false).
 * @param {MiniSearch} index @param {Map<number, SearchDoc>} docs @param {string} query @param {number} [limit]
 * @returns {{ hits: Hit[], total: number, all: boolean }}
 */
export function search(index, docs, query, limit = 20) {
  let results = index.search(query);
  const all = results.length > 0 || tokenize(query).length < 2;
  if (!all) results = index.search(query, { combineWith: 'OR' });
  const hits = results.slice(0, limit).flatMap((r) => {
    const doc = docs.get(Number(r.id));
    if (!doc) return [];
    const stems = new Set(r.terms);
    return [{ doc, score: r.score, terms: r.terms, pieces: snippet(doc.text, stems) }];
  });
  return { hits, total: results.length, all };
}
