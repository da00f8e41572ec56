// @ts-check
// One term per concept, the glossary's (www/glossary.mjs, its one source, after the course's
// shared/course/terms.md): no lesson, page script or Russian string of the core (trainer forms,
// figures, messages) uses the words the glossary replaced; the build writes the glossary onto
// the contents page and links the lessons' terms to it, inflected forms too. One meaning per
// letter and lesson: every letter the pages' formulas use (read from their TeX by KaTeX's
// parser) has its row in the front page's table of symbols for that lesson, and no row names a
// letter a lesson does not use. Each lesson links to its exercises. No browser needed.
import { it } from 'node:test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import katex from 'katex';
import { assert, ROOT } from '../harness.mjs';
import { LESSONS } from '../../www/book.mjs';
import { GLOSSARY } from '../../www/glossary.mjs';
import { glossaryList, linkTerms } from '../../scripts/glossary.mjs';
import { stemWord } from '../../www/js/search-engine.js';

/** Replaced word → the glossary's term, from the glossary's entries. Cyrillic has no \b in JavaScript: explicit edges. */
const REPLACED = GLOSSARY.flatMap((t) => t.replaces ?? []);

/** @param {string} dir @param {(f: string) => boolean} keep @returns {string[]} */
const walk = (dir, keep) =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, keep) : keep(p) ? [p] : [];
  });

it("the lessons, the page scripts and the core's Russian use the glossary's terms", () => {
  const files = [
    ...walk(join(ROOT, 'www', 'pages'), (f) => f.endsWith('.html')),
    ...walk(join(ROOT, 'www', 'js'), (f) => f.endsWith('.js')),
    ...walk(join(ROOT, 'src'), (f) => f.endsWith('.rs')),
  ];
  /** @type {string[]} */
  const found = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const [re, term] of REPLACED) {
          const m = line.toLowerCase().match(re);
          if (m) found.push(`${relative(ROOT, file)}:${i + 1}: «${m[0]}» — the glossary says «${term}»`);
        }
      });
  }
  assert(found.length === 0, found.join('\n'));
});

const PAGES = join(ROOT, 'www', 'pages');
const page = (/** @type {string} */ file) => readFileSync(join(PAGES, file), 'utf8');
const GREEK = new Set(
  'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell'
    .split(' ')
    .map((g) => `\\${g}`),
);
const decode = (/** @type {string} */ s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&');

/**
 * The letters a formula uses, from KaTeX's parse tree: Latin and Greek letters (an accent — hat,
 * bar, tilde — is the letter's estimate, mean or clipped value: the same letter), calligraphic
 * capitals as `\mathcal{L}`; not operator names, text, blackboard or roman names (𝔼, KL, ref), and
 * not the exponential's e (an `e` with a superscript).
 * @param {string} tex @returns {Set<string>}
 */
function lettersOf(tex) {
  /** @type {Set<string>} */
  const found = new Set();
  // @ts-expect-error KaTeX's parser is not in its type declarations
  const tree = katex.__parse(tex, { strict: 'ignore', throwOnError: true });
  /** @param {any} node @param {string} [font] */
  const visit = (node, font) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, font));
    switch (node.type) {
      case 'mathord':
      case 'textord':
        if (/^[A-Za-z]$/.test(node.text) || GREEK.has(node.text)) found.add(font ? `\\${font}{${node.text}}` : node.text);
        return;
      case 'text':
      case 'op':
      case 'operatorname':
        return;
      case 'font':
        if (node.font === 'mathcal') visit(node.body, 'mathcal');
        return;
      case 'supsub':
        if (!(node.base?.type === 'mathord' && node.base.text === 'e' && node.sup)) visit(node.base, font);
        visit(node.sup);
        visit(node.sub);
        return;
      default:
        for (const [k, v] of Object.entries(node)) if (k !== 'loc' && typeof v === 'object') visit(v, font);
    }
  };
  visit(tree);
  return found;
}

/** Every formula's TeX in a page's source, the build's numbers as 0. @param {string} html */
const formulas = (html) =>
  [...html.matchAll(/<(span|p) class="math(?:-display)?">([\s\S]*?)<\/\1>/g)].map((m) => decode(m[2].replace(/\{\{[^}]*\}\}/g, '0')));

/** Lessons written as the table writes them: «1–3, 5, 8–10». @param {string} text */
const lessonsOf = (text) =>
  new Set(
    text.split(',').flatMap((part) => {
      const [a, b = a] = part.trim().split('–').map(Number);
      assert(Number.isInteger(a) && Number.isInteger(b) && a <= b, `lessons «${text}»`);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    }),
  );

/** Where each letter is used: letter → lessons (an exercise counts for its lesson). */
function lettersUsed() {
  /** @type {Map<string, Set<number>>} */
  const used = new Map();
  const add = (/** @type {string} */ html, /** @type {number} */ lesson) => {
    for (const tex of formulas(html)) for (const s of lettersOf(tex)) used.set(s, (used.get(s) ?? new Set()).add(lesson));
  };
  LESSONS.forEach((l, i) => {
    const html = page(l.file);
    if (l.file !== 'exercises.html') return add(html, i + 1);
    // Each exercise counts for its lesson; the rest of the page (conclusions, the coding part) for the exercises lesson.
    for (const part of html.split(/(?=<h[23][ >])/)) {
      const m = part.match(/^<h3 id="exercise-\d+" data-lesson="(\d+)"/);
      add(part, m ? Number(m[1]) : i + 1);
    }
  });
  return used;
}

it("the contents page's table of symbols has every letter of every lesson's formulas, one meaning per letter and lesson", () => {
  const used = lettersUsed();
  assert(used.size > 40 && used.get('\\theta')?.size, `${used.size} letters found: the extraction reads no formula`);
  const index = page('index.html');
  const table = index.slice(index.indexOf('<h2 id="notation">'), index.indexOf('<h2 id="terms">'));
  const rows = [...table.matchAll(/<tr data-symbol="([^"]+)"><td>([\s\S]*?)<\/td><td>[\s\S]*?<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => ({
    keys: decode(m[1]).split(' '),
    shown: new Set(formulas(m[2]).flatMap((tex) => [...lettersOf(tex)])),
    lessons: lessonsOf(m[3]),
  }));
  assert(rows.length === (table.match(/<tr data-symbol=/g) ?? []).length, 'a row of the table the test cannot read');
  /** @type {string[]} */
  const bad = [];
  /** @type {Map<string, number>} */
  const meanings = new Map();
  for (const row of rows) {
    for (const key of row.keys) {
      if (!row.shown.has(key)) bad.push(`row ${key}: its symbol column does not show ${key}`);
      for (const lesson of row.lessons) {
        const pair = `${key} in lesson ${lesson}`;
        meanings.set(pair, (meanings.get(pair) ?? 0) + 1);
        if (!used.get(key)?.has(lesson)) bad.push(`${pair}: the table names it, the lesson's formulas do not use it`);
      }
    }
  }
  for (const [pair, n] of meanings) if (n > 1) bad.push(`${pair}: ${n} meanings in the table`);
  for (const [key, lessons] of used) for (const lesson of lessons) if (!meanings.has(`${key} in lesson ${lesson}`)) bad.push(`${key} in lesson ${lesson}: no row in the table`);
  assert(bad.length === 0, bad.join('\n'));
});

it('each lesson ends with links to its exercises, and the exercises page lists the same', () => {
  const exercises = page('exercises.html');
  /** @type {Map<number, number[]>} */
  const byLesson = new Map();
  for (const m of exercises.matchAll(/<h3 id="exercise-(\d+)" data-lesson="(\d+)"/g)) byLesson.set(Number(m[2]), [...(byLesson.get(Number(m[2])) ?? []), Number(m[1])]);
  const numbers = [...byLesson.values()].flat();
  assert(numbers.length >= 33 && new Set(numbers).size === numbers.length, `${numbers.length} exercises, some numbered twice`);
  // Every exercise of the page has its heading's anchor (links from lessons arrive there).
  const headings = (exercises.match(/<h3[^>]*>Упражнение \d+\./g) ?? []).length;
  assert(headings === numbers.length, `${headings} exercise headings, ${numbers.length} with an anchor and a lesson`);
  /** @type {string[]} */
  const bad = [];
  LESSONS.forEach((l, i) => {
    if (l.file === 'exercises.html') return;
    const html = page(l.file);
    const links = [...html.matchAll(/<p class="exercise-links">([\s\S]*?)<\/p>/g)];
    const linked = links.flatMap((m) => [...m[1].matchAll(/href="exercises\.html#exercise-(\d+)"/g)].map((x) => Number(x[1])));
    const want = (byLesson.get(i + 1) ?? []).sort((a, b) => a - b);
    if (links.length !== 1 || linked.join() !== want.join()) bad.push(`${l.file}: links ${linked.join(', ')}, its exercises ${want.join(', ')}`);
    if (!html.trimEnd().endsWith('</p>') || html.lastIndexOf('class="exercise-links"') < html.lastIndexOf('<h2')) bad.push(`${l.file}: the links are not at the end`);
  });
  const listed = [...exercises.matchAll(/<li>урок (\d+) — ([^\n]*)<\/li>/g)].map((m) => `${m[1]}: ${[...m[2].matchAll(/#exercise-(\d+)/g)].map((x) => x[1]).join(',')}`);
  const want = [...byLesson].sort(([a], [b]) => a - b).map(([l, ns]) => `${l}: ${ns.sort((a, b) => a - b).join(',')}`);
  if (listed.join(' | ') !== want.join(' | ')) bad.push(`exercises.html's list: ${listed.join(' | ')} against ${want.join(' | ')}`);
  assert(bad.length === 0, bad.join('\n'));
});

it('the glossary: every entry once on the contents page, with its definition', () => {
  const list = glossaryList();
  for (const t of GLOSSARY) {
    assert(list.split(`id="term-${t.id}"`).length === 2, `${t.id}: not exactly once in the list`);
    assert(t.def.length > 40 && t.en && t.match.length, `${t.id}: no definition, English term or phrase to link`);
  }
  assert(REPLACED.length >= 9, `only ${REPLACED.length} replaced words`);
});

it("a lesson's terms link to the glossary once per section, in any inflection; not in headings, formulas, code or links", () => {
  const html = [
    '<h2>Опорный уровень</h2>',
    '<p>Вычтем опорного уровня значение: опорным уровнем служит среднее, и <code>опорный уровень</code> тут ни при чём.</p>',
    '<p>Градиентов логарифмов вероятностей два; <span class="math">\\text{опорный уровень}</span>.</p>',
    '<h3>Дальше</h3>',
    '<p>Опорные уровни снова, <a href="x.html">опорный уровень</a>, мини-пакетами и обрыва рекурсии.</p>',
  ].join('\n');
  const { html: out, linked } = linkTerms(html);
  const links = [...out.matchAll(/<a class="term" href="index\.html#term-([a-z-]+)" data-term="\1">([^<]*)<\/a>/g)].map((m) => `${m[1]}:${m[2]}`);
  assert(
    JSON.stringify(links) ===
      JSON.stringify(['baseline:опорного уровня', 'log-derivative:Градиентов логарифмов вероятностей', 'baseline:Опорные уровни', 'batch:мини-пакетами', 'trace-cut:обрыва рекурсии']),
    `links: ${links.join(', ')}`,
  );
  assert(out.startsWith('<h2>Опорный уровень</h2>'), 'a heading was linked');
  assert(/<template id="glossary-defs">[\s\S]*data-term="baseline"[\s\S]*<\/template>/.test(out), 'the definitions are not on the page');
  assert(linked.length === 4, `linked ${linked.join(', ')}`);
});

it("a noun's cases share one stem (the search and the glossary's links): fleeting vowels, and nouns in «-в» that Snowball reads as gerunds", () => {
  const families = [
    ['градиент', 'градиента', 'градиентом', 'градиенты'],
    ['уровень', 'уровня', 'уровнем'],
    ['отрезок', 'отрезка'],
    ['обрыв', 'обрыва', 'обрывом', 'обрыве'],
    ['состав', 'состава'],
  ];
  for (const words of families) {
    const stems = new Set(words.map(stemWord));
    assert(stems.size === 1, `${words.join(', ')} → ${[...stems].join(', ')}`);
  }
});
