// @ts-check
// A page's text as the search indexes it, section by section: from the built page's HTML
// when the site is built (scripts/search-docs.mjs: the served book's search-docs.json), and
// from the one-file book's <template>s on the search's first use (js/search.js) — one
// function, so both books find the same. A section starts at a heading with an id (h2, h3) or
// a glossary entry (<dt id>); what the reader cannot see is left out: hidden elements (an
// exercise's explanations before it is checked), answers (<details class="answer">), controls,
// code, scripts and templates, and a formula's TeX (its MathML's tokens are kept, run together).

/** Elements whose content is never text to find. */
const SKIP = new Set([
  'script',
  'style',
  'template',
  'canvas',
  'button',
  'select',
  'option',
  'textarea',
  'annotation',
  'nav',
  'noscript',
  'pre',
]);
/** Classes of what is not prose: a figure's controls and messages, answers, a trainer's panel. */
const SKIP_CLASS = /(?:^|\s)(?:answer|controls|figure-error|trainer)(?:\s|$)/;
/** Elements inside a line of text: no space where they start or end. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'cite',
  'code',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'output',
  'q',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'var',
  'math',
  'semantics',
  'mrow',
  'mi',
  'mn',
  'mo',
  'ms',
  'mtext',
  'msub',
  'msup',
  'msubsup',
  'mfrac',
  'msqrt',
  'mroot',
  'mover',
  'munder',
  'munderover',
  'mstyle',
  'mpadded',
  'mphantom',
  'mspace',
  'menclose',
  'mtable',
  'mtr',
  'mtd',
  'mlabeledtr',
  'annotation',
]);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** @type {Record<string, string>} */
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };

/** @param {string} s */
const decode = (s) =>
  s
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, e) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
      return ENTITIES[e] ?? whole;
    })
    .replace(/[\u2061-\u2064\u00ad]/g, ''); // MathML's invisible operators, soft hyphens

/** The value of attribute `name` in a tag's attribute text, or null. @param {string} attrs @param {string} name */
function attr(attrs, name) {
  const m = new RegExp(`(?:^|\\s)${name}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+)))?(?=\\s|/|$)`).exec(attrs);
  return m ? decode(m[1] ?? m[2] ?? m[3] ?? '') : null;
}

/** One section's text: its heading's anchor and text. @typedef {{ anchor: string, heading: string, text: string }} Section */

/**
 * The sections of a page's HTML (its <main>), in order; the first, before any heading, has the
 * anchor '' and the heading `top`.
 * @param {string} html @param {string} top the page's title
 * @returns {Section[]}
 */
export function sectionsOf(html, top) {
  /** @type {{ anchor: string, heading: string, parts: string[] }[]} */
  const sections = [{ anchor: '', heading: top, parts: [] }];
  /** @type {string[]} */
  const stack = [];
  let skipping = 0; // depth inside an element whose text is left out
  /** @type {{ tag: string, depth: number, parts: string[] } | null} */
  let heading = null;
  const TOKEN = /<!-{2}[\s\S]*?-->|<(\/?)([a-zA-Z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|[^<]+|</g;
  for (const m of html.matchAll(TOKEN)) {
    const [whole, close, rawTag, attrs = ''] = m;
    if (whole.startsWith('<!')) continue; // a comment (written so that no «<!--» stands in an inline script)
    if (!rawTag) {
      if (skipping) continue;
      const text = decode(whole);
      (heading ? heading.parts : sections[sections.length - 1].parts).push(text);
      continue;
    }
    const tag = rawTag.toLowerCase();
    const gap = INLINE.has(tag) ? '' : ' ';
    if (close) {
      const depth = stack.lastIndexOf(tag);
      if (depth < 0) continue;
      if (skipping && depth < skipping) skipping = 0;
      if (heading && depth < heading.depth) {
        const text = heading.parts.join('').replace(/\s+/g, ' ').trim();
        sections.push({ anchor: heading.tag, heading: text, parts: [] });
        heading = null;
      } else if (!skipping) (heading ? heading.parts : sections[sections.length - 1].parts).push(gap);
      stack.length = depth;
      continue;
    }
    if (VOID.has(tag) || attrs.trimEnd().endsWith('/')) {
      if (!skipping) (heading ? heading.parts : sections[sections.length - 1].parts).push(gap);
      continue;
    }
    stack.push(tag);
    if (skipping) continue;
    const cls = attr(attrs, 'class') ?? '';
    if (SKIP.has(tag) || attr(attrs, 'hidden') !== null || SKIP_CLASS.test(cls)) {
      skipping = stack.length;
      continue;
    }
    const id = attr(attrs, 'id');
    if (id && !heading && (tag === 'h2' || tag === 'h3' || tag === 'dt')) {
      heading = { tag: id, depth: stack.length, parts: [] };
      continue;
    }
    (heading ? heading.parts : sections[sections.length - 1].parts).push(gap);
  }
  return sections
    .map((s) => ({ anchor: s.anchor, heading: s.heading, text: s.parts.join('').replace(/\s+/g, ' ').trim() }))
    .filter((s, i) => i > 0 || s.text);
}
