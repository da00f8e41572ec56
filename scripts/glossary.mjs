// @ts-check
// The glossary at build time (www/glossary.mjs is its one source): the contents page's list of
// terms, and in every lesson a link from each term's first use in a section to its entry, found
// by the search's Russian stemmer (www/js/search-engine.js), so «опорного уровня» links as
// «опорный уровень» does. The page carries the definitions of the terms it links in a
// <template id="glossary-defs">, which js/glossary.js shows in a popover on hover, focus or tap.
import { GLOSSARY } from '../www/glossary.mjs';
import { stemWord, wordsOf } from '../www/js/search-engine.js';

/** @typedef {import('../www/glossary.mjs').Term} Term */

export class GlossaryError extends Error {}

/** @param {string} s */
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The term's own words, without markup (its popover's and the search's title). @param {Term} t */
export const termText = (t) =>
  t.term
    .replace(/<span class="math">([\s\S]*?)<\/span>/g, (_, tex) => tex.replace(/\\/g, ''))
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');

/**
 * The contents page's glossary: one entry per term, its anchor `term-ID` (the lessons' links
 * and the search arrive there).
 */
export function glossaryList() {
  const ids = new Set();
  const entries = GLOSSARY.map((t) => {
    if (ids.has(t.id)) throw new GlossaryError(`www/glossary.mjs: the id ${t.id} is used twice`);
    ids.add(t.id);
    return `<div class="term-entry"><dt id="term-${t.id}">${t.term} <span class="term-en" lang="en">${escapeHtml(t.en)}</span></dt><dd>${t.def}</dd></div>`;
  });
  return `<dl class="glossary">\n${entries.join('\n')}\n</dl>`;
}

/**
 * Every phrase that links, as the stems of its words, longest first: the stems of each `match`
 * phrase and of each extra form.
 * @returns {{ stems: string[], term: Term }[]}
 */
function phrases() {
  const all = GLOSSARY.flatMap((term) =>
    [...term.match, ...(term.forms ?? [])].map((p) => {
      const stems = wordsOf(p).map((w) => stemWord(w.word));
      if (!stems.length) throw new GlossaryError(`www/glossary.mjs: ${term.id} has an empty phrase`);
      return { stems, term };
    }),
  );
  return all.sort((a, b) => b.stems.length - a.stems.length);
}

/** Elements whose text never links: headings, links, controls, formulas, code, hidden explanations. */
const NO_LINK = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'a',
  'button',
  'label',
  'select',
  'option',
  'textarea',
  'summary',
  'code',
  'pre',
  'script',
  'style',
  'template',
  'canvas',
  'output',
  'figcaption',
  'th',
  'dt',
  'kbd',
]);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** What may stand between the words of a phrase: spaces, a no-break space, a hyphen or dash. */
const BETWEEN = /^(?:\s|&nbsp;|\u00a0|-|–)+$/;

/**
 * Links, in every section of a lesson's body (a section starts at each h2 and h3), the first use
 * of each glossary term to its entry on the contents page (`index.html#term-ID`), and appends
 * the definitions of the linked terms as <template id="glossary-defs">. Runs before the
 * formulas are rendered: TeX is left alone (`span.math`), as are headings, links, controls and
 * code.
 * @param {string} html @returns {{ html: string, linked: string[] }}
 */
export function linkTerms(html) {
  const all = phrases();
  /** @type {Set<string>} */
  let used = new Set(); // terms linked in this section
  /** @type {Set<string>} */
  const linked = new Set();
  /** @type {string[]} */
  const stack = [];
  let blocked = 0; // depth inside an element whose text does not link
  const TOKEN = /<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|[^<]+/g;
  const out = html.replace(TOKEN, (whole, close, rawTag, attrs = '') => {
    if (whole.startsWith('<!--')) return whole;
    if (rawTag) {
      const tag = rawTag.toLowerCase();
      if (close) {
        const depth = stack.lastIndexOf(tag);
        if (depth >= 0) {
          if (blocked && depth < blocked) blocked = 0;
          stack.length = depth;
        }
        return whole;
      }
      if (VOID.has(tag) || attrs.trimEnd().endsWith('/')) return whole;
      stack.push(tag);
      if (tag === 'h2' || tag === 'h3') used = new Set();
      const hidden = /\shidden(?=[\s=>]|$)/.test(` ${attrs}`) || /\sdata-why/.test(` ${attrs}`);
      const math = tag === 'span' && /class="(?:math|math-display)"/.test(attrs);
      if (!blocked && (NO_LINK.has(tag) || hidden || math || (tag === 'p' && /class="math-display"/.test(attrs)))) blocked = stack.length;
      return whole;
    }
    if (blocked) return whole;
    return linkText(whole, all, used, linked);
  });
  const defs = GLOSSARY.filter((t) => linked.has(t.id)).map(
    (t) =>
      `<div data-term="${t.id}"><p class="term-name">${escapeHtml(termText(t))} <span class="term-en" lang="en">${escapeHtml(t.en)}</span></p><p>${t.def}</p></div>`,
  );
  return { html: defs.length ? `${out}\n<template id="glossary-defs">${defs.join('')}</template>\n` : out, linked: [...linked] };
}

/**
 * One run of text with its terms' first uses linked.
 * @param {string} text @param {{ stems: string[], term: Term }[]} all @param {Set<string>} used @param {Set<string>} linked
 */
function linkText(text, all, used, linked) {
  // Entities are not words: «&nbsp;» would read as the word «nbsp».
  const words = wordsOf(text).filter(
    (w) => !(text[w.start - 1] === '&' && text[w.end] === ';') && !(text[w.start - 2] === '&' && text[w.start - 1] === '#'),
  );
  const stems = words.map((w) => stemWord(w.word));
  let result = '';
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const found = all.find(
      (p) =>
        !used.has(p.term.id) &&
        !/[-–]/.test(text[words[i].start - 1] ?? '') &&
        !/[-–]/.test(text[words[i + p.stems.length - 1]?.end] ?? '') &&
        p.stems.every((s, k) => stems[i + k] === s && (k === 0 || BETWEEN.test(text.slice(words[i + k - 1].end, words[i + k].start)))),
    );
    if (!found) continue;
    const last = words[i + found.stems.length - 1];
    used.add(found.term.id);
    linked.add(found.term.id);
    result += `${text.slice(at, words[i].start)}<a class="term" href="index.html#term-${found.term.id}" data-term="${found.term.id}">${text.slice(words[i].start, last.end)}</a>`;
    at = last.end;
    i += found.stems.length - 1;
  }
  return result + text.slice(at);
}
