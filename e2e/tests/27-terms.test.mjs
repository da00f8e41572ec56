// @ts-check
// One term per concept, the glossary's (shared/course/terms.md and the front page's «Термины»):
// no lesson, page script or Russian string of the core (trainer forms, figures, messages) uses
// the words the glossary replaced. No browser needed.
import { it } from 'node:test';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { assert, ROOT } from '../harness.mjs';

/** Replaced word → the glossary's term. Cyrillic has no \b in JavaScript: explicit edges. */
const REPLACED = [
  [/базов\S* лини/, 'опорный уровень'],
  [/(?<![а-яё-])батч/, 'пакет'],
  [/мини-батч/, 'мини-пакет'],
  [/(?<![а-яё])след(?![а-яё])|обрывать след|след не/, 'обрыв рекурсии (trace_cut)'],
  [/(?<![а-яё])отдач[аиуейю]/, 'возврат'],
  [/шаг(?:а|у|ом)? обучения/, 'скорость обучения'],
  [/<th>std<|делённ\S* на std|'std'/, 'ст. откл.'],
  [/[а-яё]\s+actor[–-]critic/, 'актор–критик'],
  [/бутстрэп(?!пинг)/, 'бутстрэппинг'],
];

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
