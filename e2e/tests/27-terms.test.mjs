// @ts-check
// One term per concept, the glossary's (www/glossary.mjs, its one source, after the course's
// shared/course/terms.md): no lesson, page script or Russian string of the core (trainer forms,
// figures, messages) uses the words the glossary replaced; the build writes the glossary onto
// the contents page and links the lessons' terms to it, inflected forms too. No browser needed.
import { it } from 'node:test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { assert, ROOT } from '../harness.mjs';
import { GLOSSARY } from '../../www/glossary.mjs';
import { glossaryList, linkTerms } from '../../scripts/glossary.mjs';

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
