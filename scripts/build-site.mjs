// @ts-check
// Builds the book into one self-contained folder (site/ by default): every page is its body
// from www/pages/ inside the generated frame (head, navigation, table of contents, pager,
// footer), every formula is rendered to MathML by KaTeX here (a TeX error fails the build),
// the static assets and the wasm package are copied, and the service worker is stamped with
// a hash of everything it caches. Nobody edits the output by hand.
// Usage: node scripts/build-site.mjs [out-dir [sources-dir]]
import katex from 'katex';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BOOK_TITLE, LESSONS, MOVED } from '../www/book.mjs';
import { formatNumber } from '../www/js/format.js';
import { ONE_FILE, OneFileError, writeOneFile } from './onefile.mjs';
import { formatValue, numberTableHtml } from '../www/js/numbers.js';
import { GlossaryError, glossaryList, linkTerms } from './glossary.mjs';
import { contentsNav, headingIds, HEADER_TOOLS, SEARCH_BOX, SKIP_LINK } from './outline.mjs';
import { writeSearch } from './search-docs.mjs';
import { CodeError, NOTEBOOK, embedCodeExercises, embedSnippets } from './code-exercises.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'www');
/** Copied as they are; pkg/ is what scripts/build-wasm.sh writes; README.txt tells whoever finds
 * the folder (on a USB stick, say) how to open it. */
const ASSETS = ['css', 'js', 'pkg', 'favicon.svg', 'README.txt'];

/** @param {string} s */
const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** @type {Record<string, string>} */
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", nbsp: '\u00a0' };
/** The text the browser would see (the fragments write <, >, & in TeX as entities). @param {string} s */
const decodeHtml = (s) => s.replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (_, e) => ENTITIES[e]);

export class BuildError extends Error {}

/**
 * Replaces the TeX inside every `<span class="math">` and `<p class="math-display">` with
 * KaTeX's MathML. `where` names the source in error messages.
 * @param {string} html
 * @param {string} where
 */
export function renderMath(html, where) {
  return html.replace(/<(span|p) class="(math|math-display)">([\s\S]*?)<\/\1>/g, (whole, tag, cls, tex, offset) => {
    const line = html.slice(0, offset).split('\n').length;
    let mathml;
    try {
      mathml = katex.renderToString(decodeHtml(tex), {
        output: 'mathml',
        displayMode: cls === 'math-display',
        throwOnError: true,
        strict: 'error',
      });
    } catch (e) {
      throw new BuildError(`${where}:${line}: ${e instanceof Error ? e.message : e}\n  in the formula: ${tex.trim()}`);
    }
    return `<${tag} class="${cls}">${fixedAccents(mathml)}</${tag}>`;
  });
}

/**
 * KaTeX writes \hat, \tilde and \bar as an accent `<mo>` with the ASCII ^ or ~ (or ˉ) and no
 * `stretchy`: MathML Core's operator dictionary makes those stretchy, so Firefox draws \hat as a
 * \widehat over the whole base, and the ASCII caret is a text glyph that sits high. TeX's
 * accents have a fixed size: the spacing accents U+02C6 ˆ and U+02DC ˜ with stretchy="false"
 * look the same in Chromium and Firefox (docs/notes.md, issue 38's hats).
 * @param {string} mathml
 */
export function fixedAccents(mathml) {
  /** @type {Record<string, string>} */
  const spacing = { '^': 'ˆ', '~': '˜', ˉ: 'ˉ' };
  return mathml.replace(/<mo>([\^~ˉ])<\/mo><\/mover>/g, (_, /** @type {string} */ c) => `<mo stretchy="false">${spacing[c]}</mo></mover>`);
}

/**
 * The core's numbers for the pages: the wasm package in `src/pkg` (the same module the page
 * runs), loaded in Node. This is the one place the build asks the core for a lesson's numbers:
 * `worked_examples()` (every worked example, the profiles' settings, the core's constants, the
 * figures' parameters) and `russian_count` (a number with its agreeing noun).
 * @param {string} src
 * Also lesson 10's coding exercises and their notebook (lessons::code).
 * @returns {Promise<{ values: unknown, count: (n: number, digits: number, forms: string[]) => string,
 *   code: import('./code-exercises.mjs').Exercise[], notebook: string }>}
 */
export async function coreNumbers(src) {
  const pkg = join(src, 'pkg');
  if (!existsSync(join(pkg, 'pgbook_bg.wasm'))) throw new BuildError('www/pkg/ is missing: run scripts/build-wasm.sh first');
  const wasm = await import(pathToFileURL(join(pkg, 'pgbook.js')).href);
  wasm.initSync({ module: readFileSync(join(pkg, 'pgbook_bg.wasm')) });
  // The build's own module (pkg/pgbook_build): what no page needs.
  if (!existsSync(join(pkg, 'pgbook_build_bg.wasm'))) throw new BuildError('www/pkg/pgbook_build is missing: run scripts/build-wasm.sh');
  const build = await import(pathToFileURL(join(pkg, 'pgbook_build.js')).href);
  build.initSync({ module: readFileSync(join(pkg, 'pgbook_build_bg.wasm')) });
  return {
    values: wasm.worked_examples(),
    count: (n, digits, [one, few, many]) => wasm.russian_count(n, digits, one, few, many),
    code: JSON.parse(build.code_exercises()),
    notebook: build.exercise_notebook(),
  };
}

/** The value at a dotted path (`score.logits`). @param {unknown} obj @param {string} path */
const lookup = (obj, path) => path.split('.').reduce((/** @type {any} */ o, k) => (o == null ? undefined : o[k]), obj);

/**
 * Fills every `{{path}}` of a page with the core's value at `path`: `{{path}}` in Russian
 * typography (lists in parentheses, «(1; 0; −1)»), `{{path|4}}` with 4 decimals,
 * `{{path|шаг,шага,шагов}}` with its agreeing noun («32 шага»), `{{path|raw}}` as JavaScript
 * writes it (for attributes: `min`, `data-seeds`), `{{path|checked}}` a checkbox's `checked`;
 * `{{path?words if true:words if false}}` chooses the sentence that fits the core's switch. Inside a formula the decimal comma is TeX's
 * `{,}` and the minus ASCII. An unknown path fails the build.
 * @param {string} html
 * @param {{ values: unknown, count: (n: number, digits: number, forms: string[]) => string }} core
 * @param {string} where
 */
export function fillNumbers(html, core, where) {
  /** @param {string} text @param {boolean} tex */
  const fill = (text, tex) =>
    text
      .replace(/\{\{([A-Za-z0-9_.]+)\?([^:}]*):([^}]*)\}\}/g, (_, path, yes, no) => {
        const v = lookup(core.values, path);
        if (typeof v !== 'boolean') throw new BuildError(`${where}: {{${path}?…}} needs a yes/no value in the core`);
        return v ? yes : no;
      })
      .replace(/\{\{([A-Za-z0-9_.]+)(?:\|([^}]*))?\}\}/g, (_, path, mod = '') => {
        const v = lookup(core.values, path);
        if (v === undefined) throw new BuildError(`${where}: the core has no number at {{${path}}}`);
        if (mod === 'raw') return Array.isArray(v) ? v.join(',') : String(v);
        if (mod === 'checked') return v === true ? 'checked' : '';
        const digits = /^\d+$/.test(mod) ? Number(mod) : 3;
        /** @param {unknown} x @returns {string} */
        const one = (x) => {
          if (Array.isArray(x)) return `(${x.map(one).join('; ')})`;
          let text = formatNumber(x, digits);
          // Thousands apart, as Russian print writes them: «80 000».
          if (typeof x === 'number' && Number.isInteger(x) && Math.abs(x) >= 10000)
            text = text.replace(/\B(?=(\d{3})+$)/g, tex ? '\\,' : '\u00a0');
          return tex ? text.replace(',', '{,}').replace('−', '-') : text;
        };
        if (mod.includes(',')) {
          if (typeof v !== 'number') throw new BuildError(`${where}: {{${path}}} is not a number to count`);
          const counted = core.count(v, digits, mod.split(','));
          // Thousands apart here too: «300 000 шагов».
          return Number.isInteger(v) && Math.abs(v) >= 10000
            ? counted.replace(/^\d+/, (d) => d.replace(/\B(?=(\d{3})+$)/g, '\u00a0'))
            : counted;
        }
        return one(v);
      });
  return fill(
    html.replace(/<(span|p) class="(math|math-display)">([\s\S]*?)<\/\1>/g, (whole) => fill(whole, true)),
    false,
  );
}

/**
 * @typedef {{ kind: 'slider', min: number, max: number, step: number, value: number } | { kind: 'switch', checked: boolean } | { kind: 'flags', records: number }} Control
 * @typedef {{ name: string, id: string, label: string, short: string, url: string, digits: number | null, described_by: string | null, control: Control }} Param
 * @typedef {{ name: string, params: Param[] }} FigureSpec
 */

/**
 * Writes every figure control of a page from the core's table (lessons::figures::FIGURES):
 * `{{param.FIGURE.NAME}}` becomes the slider (`<span class="slider"><label>… <input type="range"
 * id data-param data-url data-label min max step value></label><output></output></span>`) or
 * the switch (`<label><input type="checkbox" …> …</label>`). A figure's per-record flags
 * (`kind: 'flags'`) stay the page's own table. An unknown figure or parameter fails the build.
 * @param {string} html
 * @param {{ values: unknown }} core
 * @param {string} where
 */
export function fillControls(html, core, where) {
  const figures = /** @type {FigureSpec[]} */ (lookup(core.values, 'figures'));
  return html.replace(/\{\{param\.([a-z0-9_]+)\.([a-z0-9_]+)\}\}/g, (_, figure, name) => {
    const p = figures.find((f) => f.name === figure)?.params.find((q) => q.name === name);
    if (!p) throw new BuildError(`${where}: the core declares no figure parameter {{param.${figure}.${name}}}`);
    const c = p.control;
    const data = `id="${p.id}" data-param="${p.name}" data-url="${p.url}" data-label="${escapeHtml(p.short)}"`;
    if (c.kind === 'switch') return `<label for="${p.id}"><input type="checkbox" ${data}${c.checked ? ' checked' : ''}> ${p.label}</label>`;
    if (c.kind !== 'slider')
      throw new BuildError(`${where}: {{param.${figure}.${name}}} is a table of flags, which the page writes itself`);
    const digits = p.digits === null ? '' : ` data-digits="${p.digits}"`;
    const described = p.described_by === null ? '' : ` aria-describedby="${p.described_by}"`;
    const range = `min="${c.min}" max="${c.max}" step="${c.step}" value="${c.value}"`;
    return `<span class="slider"><label for="${p.id}">${p.label} <input type="range" ${data}${digits} ${range}${described}></label><output for="${p.id}"></output></span>`;
  });
}

/** An attribute of an element's attribute text, decoded (null: absent). @param {string} attrs @param {string} name */
const attribute = (attrs, name) => {
  const m = attrs.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? decodeHtml(m[1]) : null;
};

/**
 * Writes every worked example into the page: `<span data-worked="PATH" [data-digits="N"]></span>` (any empty element)
 * gets the core's value at PATH as the lesson text writes it (numbers.js's formatValue),
 * `<div data-worked-table="PATH" [data-digits] [data-row-labels="a|b"] [data-col-labels]></div>`
 * its table. None depends on the reader, so the page computes none of them: it carries them
 * (printing and a page without wasm show them too). An unknown path fails the build.
 * @param {string} html
 * @param {{ values: unknown }} core
 * @param {string} where
 */
export function fillWorked(html, core, where) {
  let filled = 0;
  const out = html.replace(/<([a-z]+)(\s(?:[^>]*?\s)?data-worked(-table)?="([^"]+)"[^>]*)><\/\1>/g, (whole, tag, attrs, table, path) => {
    const v = lookup(core.values, path);
    const digits = Number(attribute(attrs, 'data-digits') ?? 3);
    if (v === undefined || (table && !Array.isArray(v)))
      throw new BuildError(`${where}: the core has no ${table ? 'table' : 'value'} at data-worked${table ?? ''}="${path}"`);
    filled++;
    if (!table) return `<${tag}${attrs}>${escapeHtml(formatValue(v, digits))}</${tag}>`;
    const rows = /** @type {unknown[]} */ (v);
    const labels = (/** @type {string} */ name) => attribute(attrs, name)?.split('|');
    const body = numberTableHtml(
      /** @type {unknown[][]} */ (Array.isArray(rows[0]) ? rows : [rows]),
      digits,
      labels('data-row-labels'),
      labels('data-col-labels'),
    );
    return `<${tag}${attrs}>${body}</${tag}>`;
  });
  const marked = (html.match(/\sdata-worked(-table)?="/g) ?? []).length;
  if (marked !== filled) throw new BuildError(`${where}: data-worked only on an empty element (${marked - filled} other)`);
  return out;
}

/**
 * Sets <html data-theme> before the first paint: the reader's remembered choice (app.js's
 * theme switch), else high contrast or dark when the system asks for it, else light. Storage
 * may be refused (private windows, blocked cookies): then the system's choice holds.
 */
const THEME_SCRIPT = `(function(){var t;try{t=localStorage.getItem('pgbook-theme')}catch(e){}if(['light','dark','contrast'].indexOf(t)<0)t=matchMedia('(prefers-contrast: more)').matches?'contrast':matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';document.documentElement.dataset.theme=t})();`;

/**
 * The glue of the wasm module a page loads (js/core.js's needsTrainers: a trainer panel or a
 * prepared comparison needs the whole core, other pages the figures-only one), fetched beside
 * the page's scripts. Not the .wasm itself: a preload of it (1.3 MB) would compete with the
 * page's text for the network (Lighthouse's LCP on slow 4G went from 2.2 to 8.7 s with it).
 * @param {string} body
 */
const preloads = (body) =>
  `<link rel="modulepreload" href="pkg/${/\sid="trainer-|\sdata-prepared="/.test(body) ? 'pgbook' : 'pgbook_figures'}.js">`;

/** The longest a page's description gets (search engines show about this much). */
const DESCRIPTION_CHARS = 200;
/**
 * A page's <meta name="description">: its lead paragraph as plain text (whole sentences, or cut
 * at a word), after the page's heading; without a lead, the heading and the book.
 * @param {string} heading @param {string} body
 */
export function description(heading, body) {
  const lead = body.match(/<p class="lead">([\s\S]*?)<\/p>/)?.[1];
  if (!lead) return `${heading}. Интерактивный учебник «${BOOK_TITLE}».`;
  const text = decodeHtml(lead.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= DESCRIPTION_CHARS) return text;
  const cut = text.slice(0, DESCRIPTION_CHARS);
  // A sentence ends at a period after a word of three letters or more («Dr. GRPO» goes on).
  const ends = [...cut.matchAll(/[\p{L}\d)»]{3}\.(?= )/gu)].map((m) => m.index + m[0].length);
  const sentence = ends.length ? ends[ends.length - 1] : 0;
  return sentence > DESCRIPTION_CHARS / 2 ? cut.slice(0, sentence) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

/**
 * The frame every page shares: the header (the contents' menu button on a phone, the search
 * box, the theme), the contents beside the text (scripts/outline.mjs), the page.
 * @param {{ title: string, heading: string, body: string, after: string, contents: string }} page
 */
function frame({ title, heading, body, after, contents }) {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description(heading, body))}">
<script>${THEME_SCRIPT}</script>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="css/book.css">
<script type="module" src="js/app.js"></script>
${preloads(body)}
</head>
<body>
${SKIP_LINK}
<header class="site">${HEADER_TOOLS}<a class="brand" href="index.html">pgbook <small>· градиенты политики</small></a>${SEARCH_BOX}<label class="theme">Оформление <select id="theme-switch"><option value="auto">как в системе</option><option value="light">светлое</option><option value="dark">тёмное</option><option value="contrast">высокий контраст</option></select></label></header>
<div class="file-warning" id="file-warning" role="alert" hidden>Книга открыта прямо с диска (file://), а так браузер не запускает модули этой страницы: рисунки и тренажёры не работают. Откройте из этой же папки <a id="file-warning-onefile" href="${ONE_FILE}">${ONE_FILE}</a> — вся книга в одном файле, она работает и с диска. Или запустите в папке книги <code>python3 -m http.server 8000 --bind 127.0.0.1</code> (или <code>scripts/serve.sh</code> в исходниках) и откройте <a href="http://127.0.0.1:8000/">http://127.0.0.1:8000/</a>.</div>
<script>if (location.protocol === 'file:') { document.getElementById('file-warning').hidden = false; document.getElementById('file-warning-onefile').href += '#' + (location.pathname.split('/').pop() || 'index.html').replace(/\\.html$/, '') + location.search; }</script>
<div class="book">
${contents}
<main id="main">
<h1>${escapeHtml(heading)}</h1>
${body.trimEnd()}
${after}
</main>
</div>
<footer class="site">pgbook · Rust + WebAssembly</footer>
</body>
</html>
`;
}

/** @param {string} href @param {string} text */
const link = (href, text) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;

function toc() {
  const items = LESSONS.map((l, i) => `<li value="${i + 1}">${link(l.file, l.title)}</li>`).join('\n');
  return `<nav class="toc" aria-label="Оглавление">\n<h2>Оглавление</h2>\n<ol>\n${items}\n</ol>\n</nav>`;
}

/** @param {number} i */
function pager(i) {
  const prev = LESSONS[i - 1];
  const next = LESSONS[i + 1];
  return `<nav class="pager" aria-label="Переход между уроками">${link(prev ? prev.file : 'index.html', prev ? `← ${prev.title}` : '← Оглавление')}${link(next ? next.file : 'index.html', next ? `${next.title} →` : 'Оглавление →')}</nav>`;
}

/** Every page: its output name and finished HTML. */
/**
 * The text of `pub fn NAME` in the Rust file `file` (relative to the repository), with its doc
 * comment: from the comment's first line to the function's closing brace at column 0.
 * @param {string} file @param {string} name
 */
export function rustFunction(file, name) {
  const path = join(ROOT, file);
  if (!existsSync(path)) throw new BuildError(`source ${file} does not exist`);
  const lines = readFileSync(path, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith(`pub fn ${name}(`) || l.startsWith(`pub fn ${name}<`));
  if (start < 0) throw new BuildError(`${file} has no pub fn ${name}`);
  let first = start;
  while (first > 0 && lines[first - 1].startsWith('///')) first--;
  const end = lines.findIndex((l, i) => i > start && l === '}');
  if (end < 0) throw new BuildError(`${file}: pub fn ${name} has no closing brace at column 0`);
  return lines.slice(first, end + 1).join('\n');
}

/**
 * Fills every `<pre class="source" data-source="FILE#NAME"></pre>` with that function's source,
 * taken when the site is built so the lesson shows the code the book runs.
 * @param {string} html
 */
export function embedSources(html) {
  return html.replace(/<pre class="source" data-source="([^"#]+)#([A-Za-z0-9_]+)"><\/pre>/g, (_, file, name) => {
    const code = escapeHtml(rustFunction(file, name));
    return `<pre class="source" data-source="${file}#${name}"><code>${code}</code></pre>`;
  });
}

/** @param {string} [src] @param {Awaited<ReturnType<typeof coreNumbers>>} [known] the core, when loaded already */
export async function pages(src = SRC, known) {
  const core = known ?? (await coreNumbers(src));
  const placed = new Set();
  const files = ['index.html', ...LESSONS.map((l) => l.file)];
  const present = readdirSync(join(src, 'pages')).filter((f) => f.endsWith('.html'));
  const unlisted = present.filter((f) => !files.includes(f));
  if (unlisted.length) throw new BuildError(`www/pages/ has pages missing from www/book.mjs: ${unlisted.join(', ')}`);
  /**
   * A page's body filled and rendered, and the contents beside it: its headings get anchors, a
   * lesson's terms link to the glossary, the contents page gets the glossary.
   * @param {string} file
   */
  const page = (file) => {
    const path = join(src, 'pages', file);
    if (!existsSync(path)) throw new BuildError(`www/book.mjs lists ${file}, but www/pages/${file} does not exist`);
    const where = `www/pages/${file}`;
    const { html, headings } = headingIds(
      fillWorked(fillNumbers(fillControls(readFileSync(path, 'utf8'), core, where), core, where), core, where),
    );
    let linked;
    if (file === 'index.html') {
      if (!html.includes('<div data-glossary></div>')) throw new BuildError(`${where}: no <div data-glossary></div> for the glossary`);
      // «Продолжить с …» (js/contents.js fills it from the reader's progress), then the page.
      linked = `<p class="continue" data-continue hidden></p>\n${html.replace('<div data-glossary></div>', glossaryList())}`;
    } else linked = linkTerms(html).html;
    const code = embedCodeExercises(embedSnippets(embedSources(renderMath(linked, where)), join(src, 'python'), where), core.code, where);
    code.seen.forEach((id) => placed.add(id));
    return {
      body: code.html,
      contents: renderMath(contentsNav(LESSONS, file, headings), `${where} (its headings in the contents)`),
    };
  };
  const built = [
    { file: 'index.html', html: frame({ title: BOOK_TITLE, heading: BOOK_TITLE, ...page('index.html'), after: toc() }) },
    ...LESSONS.map((l, i) => ({
      file: l.file,
      html: frame({
        title: `Урок ${i + 1}. ${l.title} — pgbook`,
        heading: `Урок ${i + 1}. ${l.title}`,
        ...page(l.file),
        after: pager(i),
      }),
    })),
  ];
  const missing = core.code.filter((e) => !placed.has(e.exercise.id)).map((e) => e.exercise.id);
  if (missing.length)
    throw new BuildError(`no page has the coding exercise(s) ${missing.join(', ')} (<div class="code-exercise" data-code-exercise="ID">)`);
  return built;
}

/**
 * The page left under a renamed page's old name: it sends the reader on to the new one with the
 * same query and fragment (a run link or bookmark made before the rename), and says where, for a
 * browser without scripts.
 * @param {string} to the new file
 */
export function redirectPage(to) {
  const target = escapeHtml(to);
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Страница переехала — pgbook</title>
<link rel="canonical" href="${target}">
<script>location.replace(${JSON.stringify(to)} + location.search + location.hash);</script>
</head>
<body>
<p>Эта страница книги теперь по адресу <a href="${target}">${target}</a>.</p>
</body>
</html>
`;
}

/** @param {string} dir @returns {string[]} paths relative to dir, sorted */
function listFiles(dir) {
  /** @type {string[]} */
  const out = [];
  /** @param {string} d */
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Writes out/sw.js: the service worker with the list of every file in `out` (the one-file book
 * last: the largest, and the one a reader of the served book needs least), each file's size
 * (the page shows how much is saved) and the start of its SHA-256 (the worker keeps no file of
 * another build), and a version that is the hash of them all, so any change to the build
 * replaces it.
 * @param {string} out
 * @param {string} [src]
 */
export function writeServiceWorker(out, src = SRC) {
  const files = listFiles(out)
    .filter((f) => f !== 'sw.js')
    .sort((a, b) => Number(a === ONE_FILE) - Number(b === ONE_FILE));
  const hash = createHash('sha256');
  /** @type {number[]} */
  const bytes = [];
  /** @type {string[]} */
  const hashes = [];
  for (const f of files) {
    const data = readFileSync(join(out, f));
    bytes.push(data.length);
    hashes.push(createHash('sha256').update(data).digest('hex').slice(0, 16));
    hash.update(`${f}\0`).update(data).update('\0');
  }
  const version = hash.digest('hex').slice(0, 16);
  const template = readFileSync(join(src, 'sw.js'), 'utf8');
  const stamp = `const BUILD = ${JSON.stringify({ version, files, bytes, hashes })};`;
  const line = "const BUILD = { version: 'dev', files: [], bytes: [], hashes: [] };";
  if (!template.includes(line)) throw new BuildError('www/sw.js: BUILD line not found');
  writeFileSync(join(out, 'sw.js'), template.replace(line, stamp));
  return { version, files };
}

/** @param {string} out @param {string} [src] the sources (www/) */
export async function buildSite(out, src = SRC) {
  const core = await coreNumbers(src);
  const built = await pages(src, core); // before touching `out`: a TeX error leaves the last good build in place
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const { file, html } of built) writeFileSync(join(out, file), html);
  for (const [from, to] of Object.entries(MOVED)) {
    if (!built.some((p) => p.file === to)) throw new BuildError(`www/book.mjs: MOVED sends ${from} to ${to}, which is not a page`);
    if (built.some((p) => p.file === from)) throw new BuildError(`www/book.mjs: ${from} is both a page and MOVED`);
    writeFileSync(join(out, from), redirectPage(to));
  }
  for (const a of ASSETS)
    cpSync(join(src, a), join(out, a), {
      recursive: true,
      filter: (p) => !p.endsWith('.d.ts') && !p.endsWith('.gitignore') && !p.includes('pgbook_build'),
    });
  writeFileSync(join(out, NOTEBOOK), core.notebook); // the coding exercises to take home (the student's copy)
  await writeSearch(out, built, src); // the search's library bundled and its sections, cached offline like the rest
  await writeOneFile(out, built);
  return writeServiceWorker(out, src); // last: it lists every file, the one-file book too
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(ROOT, 'site'));
  try {
    const { version, files } = await buildSite(out, resolve(process.argv[3] ?? SRC));
    const bytes = files.reduce((n, f) => n + statSync(join(out, f)).size, 0);
    console.error(`[build] ${relative(process.cwd(), out) || '.'}/: ${files.length + 1} files, ${bytes} bytes, build ${version}`);
    console.error(
      `[build] ${relative(process.cwd(), join(out, ONE_FILE))}: ${statSync(join(out, ONE_FILE)).size} bytes, the whole book in one file`,
    );
  } catch (e) {
    if (!(e instanceof BuildError || e instanceof OneFileError || e instanceof CodeError || e instanceof GlossaryError)) throw e;
    console.error(`[build] error: ${e.message}`);
    process.exit(1);
  }
}
