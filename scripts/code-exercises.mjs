// @ts-check
// The book's Python (issue 39), written into the pages when the site is built: every
// `<div class="snippet" data-snippet="f g"></div>` beside a formula becomes a fold with those
// functions' source from www/python/ (the very files the test command runs against the core),
// and every `<div class="code-exercise" data-code-exercise="ID"></div>` of lesson 10 the
// exercise the core describes (lessons::code: task, stub, test vectors, hints, solution behind
// a reveal). The notebook of those exercises (NOTEBOOK) is written beside the pages.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LESSONS } from '../www/book.mjs';

/** The notebook's file in the built site (the teacher's copy is `pgbook notebook --teacher`). */
export const NOTEBOOK = 'pgbook-exercises.ipynb';

export class CodeError extends Error {}

/** @param {string} s */
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A task's text as HTML: `code` in backticks becomes <code>. @param {string} text */
const inline = (text) => escapeHtml(text.replace(/\s+/g, ' ').trim()).replace(/`([^`]+)`/g, (_, c) => `<code>${c}</code>`);

/**
 * Fills every snippet placeholder with its functions' files, in a fold closed while reading
 * (a <details>: the keyboard opens it, printing opens it, theme.js).
 * @param {string} html @param {string} dir www/python @param {string} where
 */
export function embedSnippets(html, dir, where) {
  return html.replace(/<div class="snippet" data-snippet="([a-z_ ]+)"><\/div>/g, (_, /** @type {string} */ names) => {
    /** @type {string[]} */
    const files = names.split(' ').map((n) => {
      const path = join(dir, `${n}.py`);
      if (!existsSync(path)) throw new CodeError(`${where}: data-snippet names ${n}, but www/python/${n}.py does not exist`);
      return readFileSync(path, 'utf8').trimEnd();
    });
    // One import line for the fold, then each function.
    const imports = [...new Set(files.flatMap((f) => f.split('\n').filter((l) => /^(import|from) /.test(l))))];
    const bodies = files.map((f) =>
      f
        .split('\n')
        .filter((l) => !/^(import|from) /.test(l))
        .join('\n')
        .trim(),
    );
    const code = [imports.join('\n'), ...bodies].join('\n\n\n');
    const lib = imports.some((l) => l.includes('torch')) ? 'PyTorch' : 'NumPy';
    const label = `Код на Python (${lib}): ${names.split(' ').join(', ')}`;
    return `<details class="snippet" data-snippet="${names}"><summary>${escapeHtml(label)}</summary><pre class="python"><code>${escapeHtml(code)}</code></pre></details>`;
  });
}

/**
 * @typedef {{ function: string, about: string, inputs: Record<string, unknown>, error: boolean,
 *   expected?: Record<string, unknown> }} Case
 * @typedef {{ exercise: { id: string, title: string, task: string, lesson: string, functions: string[],
 *   hints: string[], cases: Case[] }, stub: string, solution: string }} Exercise
 */

/** A value of a case as Python would print it, compactly. @param {unknown} v @returns {string} */
function py(v) {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (Array.isArray(v)) return `[${v.map(py).join(', ')}]`;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(10)));
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** @param {Case} c */
function caseHtml(c) {
  const args = Object.entries(c.inputs)
    .map(([k, v]) => `${k}=${py(v)}`)
    .join(', ');
  const answer = c.error
    ? 'ошибка (raise ValueError)'
    : Object.entries(c.expected ?? {})
        .map(([k, v]) => `${k} = ${py(v)}`)
        .join('; ');
  return `<li>${escapeHtml(c.about)}: <code>${escapeHtml(`${c.function}(${args})`)}</code> → <code>${escapeHtml(answer)}</code></li>`;
}

/** A link to a lesson, «N. Title». @param {string} file @param {string} where */
function lessonLink(file, where) {
  const i = LESSONS.findIndex((l) => l.file === file);
  if (i < 0) throw new CodeError(`${where}: a coding exercise names the lesson ${file}, which www/book.mjs does not list`);
  return `<a href="${file}">${i + 1} «${escapeHtml(LESSONS[i].title)}»</a>`;
}

/**
 * Fills lesson 10's coding exercises from the core's description of them.
 * @param {string} html @param {Exercise[]} exercises @param {string} where
 */
export function embedCodeExercises(html, exercises, where) {
  const seen = new Set();
  const out = html.replace(/<div class="code-exercise" data-code-exercise="([a-z_]+)"><\/div>/g, (_, id) => {
    const found = exercises.find((e) => e.exercise.id === id);
    if (!found) throw new CodeError(`${where}: the core has no coding exercise ${id} (lessons::code)`);
    seen.add(id);
    const { exercise: ex, stub, solution } = found;
    const call = `check(${ex.functions.join(', ')})`;
    return `<div class="code-exercise" data-code-exercise="${id}">
<p>${inline(ex.task)}</p>
<div class="code-stub"><p class="code-label">Заготовка <button type="button" class="copy-code" data-copy="stub-${id}">Копировать</button> <span class="copy-status" role="status"></span></p>
<pre class="python" id="stub-${id}"><code>${escapeHtml(stub.trimEnd())}</code></pre></div>
<p>Проверка — <code>${escapeHtml(call)}</code> в <a href="#code-notebook">тетради</a>: ${ex.cases.length} случаев с ответами ядра книги.
По формулам — урок ${lessonLink(ex.lesson, where)}.</p>
<details class="code-cases"><summary>Проверочные случаи (${ex.cases.length})</summary><ol>
${ex.cases.map(caseHtml).join('\n')}
</ol></details>
<details class="code-hints"><summary>Подсказки: типичные ошибки (${ex.hints.length})</summary><ul>
${ex.hints.map((h) => `<li>${escapeHtml(h)}</li>`).join('\n')}
</ul></details>
<details class="answer"><summary>Показать решение</summary><pre class="python"><code>${escapeHtml(solution.trimEnd())}</code></pre></details>
</div>`;
  });
  return { html: out, seen };
}
