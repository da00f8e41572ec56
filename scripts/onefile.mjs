// @ts-check
// The whole book as one file, site/pgbook.html, for a reader without a network, a server or an
// install: a copy of that file alone, opened by double-click (file://), is the book. It is made
// from the built site (scripts/build-site.mjs calls writeOneFile last), so no lesson exists
// twice: every page's <main> as a <template> (its links turned into fragments, links.js),
// gzipped in base64 (www/js/onefile-pages.js unpacks a page when it is shown), the stylesheet
// and icon inline, the page's module scripts and the trainers' worker bundled by esbuild, and
// every wasm package they import gzipped in base64 once, which page and workers share
// (www/js/onefile.js compiles it once and hands the module to each worker). It loads nothing,
// not even from its own folder: the build fails if anything in it would.
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

export const ONE_FILE = 'pgbook.html';
/** The one-file book's own start, bundled before the page's scripts. */
const START = 'js/onefile.js';

export class OneFileError extends Error {}

/** @param {string} s */
const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The file name of a page without `.html` (the fragment's page). @param {string} file */
const stem = (file) => file.replace(/\.html$/, '');

/**
 * One match of `pattern` in `html`, or a build error naming `what`.
 * @param {string} html @param {RegExp} pattern @param {string} what
 */
function one(html, pattern, what) {
  const m = pattern.exec(html);
  if (!m) throw new OneFileError(`the built ${what} is not where the one-file book looks for it (${pattern})`);
  return m;
}

/**
 * A page's links as the one-file book writes them: `ppo.html?run=ppo#trainer-ppo` →
 * `#ppo/trainer-ppo?run=ppo`, `#notation` → `#PAGE/notation`.
 * @param {string} html @param {string} page this page's stem @param {Set<string>} files every page's file
 */
export function fragmentLinks(html, page, files) {
  return html.replace(/href="([^"]*)"/g, (whole, href) => {
    const m = /^([^?#]*)(\?[^#]*)?(#.*)?$/.exec(href.replace(/&amp;/g, '&'));
    if (!m) return whole;
    const [, file, query = '', hash = ''] = m;
    if (file && !files.has(file)) return whole; // not a page: checked by assertSelfContained
    const target = file ? stem(file) : page;
    const anchor = hash.slice(1);
    return `href="${escapeAttr(`#${target}${anchor ? `/${anchor}` : ''}${query}`)}"`;
  });
}

/** Media types of the files a page offers for download. */
const DOWNLOAD_TYPES = { ipynb: 'application/x-ipynb+json' };

/**
 * A download the page offers (`<a href="FILE" download>` of a file of the build, the exercises'
 * notebook: text) as a data: link, so that the one file carries it; percent-encoded, not in
 * base64, which gzip (the page's, below) packs to two thirds of the size.
 * @param {string} html @param {string} out
 */
export function inlineDownloads(html, out) {
  return html.replace(/<a href="([^"#?:]+)" download>/g, (whole, file) => {
    const type = DOWNLOAD_TYPES[/** @type {keyof typeof DOWNLOAD_TYPES} */ (file.split('.').pop())];
    const path = join(out, file);
    if (!type || !existsSync(path)) return whole; // assertSelfContained names it
    return `<a href="data:${type};charset=utf-8,${encodeURIComponent(readFileSync(path, 'utf8'))}" download="${escapeAttr(file)}">`;
  });
}

/**
 * Every built page as its templates: its <main>'s content (but what only the served book says,
 * `<p data-served>`: where to get the one file), its title; its downloads inline; and the
 * contents beside it.
 * @param {{ file: string, html: string }[]} built @param {string} out
 * @returns {{ page: string, html: string }[]}
 */
function templates(built, out) {
  const files = new Set(built.map((p) => p.file));
  return built.map(({ file, html }) => {
    const title = one(html, /<title>([\s\S]*?)<\/title>/, `${file}'s title`)[1];
    // Not the page's copy of the glossary's definitions either: the contents page's glossary
    // is in the file once, and js/glossary.js takes them from its template.
    const main = one(html, /<main[^>]*>([\s\S]*)<\/main>/, `${file}'s <main>`)[1]
      .replace(/<p data-served>[\s\S]*?<\/p>\n?/g, '')
      .replace(/<template id="glossary-defs">[\s\S]*?<\/template>\n?/, '');
    // The contents beside the page (its sections, the page marked): onefile.js puts it in place of the frame's.
    const contents = one(html, /<nav class="contents"[\s\S]*?<\/nav>/, `${file}'s contents`)[0];
    const page = stem(file);
    return {
      page,
      html: `<template id="page-${page}" data-title="${title}">${inlineDownloads(fragmentLinks(main, page, files), out)}</template>\n<template id="contents-${page}">${fragmentLinks(contents, page, files)}</template>`,
    };
  });
}

/** gzip at its best, in base64: how the file carries pages and wasm. @param {string | Buffer} data */
const gzip64 = (data) => gzipSync(data, { level: 9 }).toString('base64');

/** The pattern of a packed page in the file: its name and its gzipped templates in base64. */
export const PACKED_PAGE = /<script type="application\/gzip" data-page="([^"]+)">([^<]*)<\/script>/g;

/**
 * The pages a one-file book carries, unpacked (as js/onefile-pages.js does in the page), in order.
 * @param {string} html the file @returns {{ page: string, base64: string, html: string }[]}
 */
export const packedPages = (html) =>
  [...html.matchAll(PACKED_PAGE)].map(([, page, base64]) => ({
    page,
    base64,
    html: gunzipSync(Buffer.from(base64, 'base64')).toString('utf8'),
  }));

/**
 * The frame of the one-file book from the built index page: its head with the stylesheets and
 * icon inline and no script or link that loads a file (the module scripts are returned, to be
 * bundled), its header and footer, an empty <main> that onefile.js fills, and no «opened from
 * disk» warning (the one file works from disk).
 * @param {string} html the built index.html @param {string} out the built site
 * @param {Set<string>} files every page's file
 * @returns {{ before: string, after: string, entries: string[] }}
 */
function frame(html, out, files) {
  /** @type {string[]} */
  const entries = [];
  const head = one(html, /<head>[\s\S]*?<\/head>/, 'index.html <head>')[0]
    .replace(/<script type="module" src="([^"]+)"><\/script>\n?/g, (_, src) => {
      entries.push(src);
      return '';
    })
    .replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, href) => `<style>\n${readFileSync(join(out, href), 'utf8')}</style>`)
    .replace(/<link rel="icon" href="([^"]+)" type="([^"]+)">/g, (_, href, type) => {
      const data = readFileSync(join(out, href)).toString('base64');
      return `<link rel="icon" href="data:${type};base64,${data}">`;
    })
    // Preloads and the like fetch from the folder; the one file has it all.
    .replace(/<link [^>]*href="(?!data:|https?:)[^"]*"[^>]*>\n?/g, '');
  if (!entries.length) throw new OneFileError('the built index.html names no module script to bundle');
  const body = one(html, /<body>([\s\S]*)<\/body>/, 'index.html <body>')[1]
    .replace(/<div class="file-warning"[\s\S]*?<\/div>\n?/, '')
    .replace(/<script>[^<]*file-warning[^<]*<\/script>\n?/, '');
  const [top, bottom] = body.split(/<main[^>]*>[\s\S]*<\/main>/);
  if (bottom === undefined) throw new OneFileError('the built index.html has no <main>');
  const page = (/** @type {string} */ part) => fragmentLinks(part, 'index', files);
  const before = `<!doctype html>\n${one(html, /<html[^>]*>/, 'index.html <html>')[0].replace('<html', '<html data-book="onefile"')}\n${head}\n<body>${page(top)}<main id="main">\n<noscript><p class="figure-error">Книге нужен JavaScript: включите его в браузере и откройте файл снова.</p></noscript>\n</main>`;
  return { before, after: page(bottom), entries };
}

/**
 * A wasm module the one file does not carry, for the one it carries that does all it does: the
 * figures-only module is the whole core without the trainers (scripts/build-wasm.sh, js/core.js),
 * and the whole core is in the file anyway, for the trainers' workers.
 */
const SUBSUMED = { 'pkg/pgbook_figures_bg.wasm': 'pkg/pgbook_bg.wasm' };

/** A .wasm file's path relative to `out`, with `/`. @param {string} out @param {string} file */
const wasmKey = (out, file) => relative(out, file).split('\\').join('/');

/**
 * The wasm-bindgen glue modules (a `NAME.js` beside its `NAME_bg.wasm`; SUBSUMED's whole core
 * for the figures') the bundle imports,
 * each wrapped so that its `init()` without arguments instantiates the embedded module that
 * onefile.js compiles (`globalThis.pgbookWasmModules`, by the .wasm's path in the site: on the
 * page a promise of each; in a worker a promise of them all, the page's first message).
 * @param {string} out @param {Set<string>} wasm the .wasm files met, relative to `out`
 * @returns {import('esbuild').Plugin}
 */
function embeddedWasm(out, wasm) {
  return {
    name: 'pgbook-embedded-wasm',
    setup(b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.namespace === 'embedded-wasm' || !args.importer) return undefined;
        const asked = join(args.resolveDir, args.path).replace(/\.js$/, '_bg.wasm');
        if (!existsSync(asked)) return undefined;
        const key = SUBSUMED[/** @type {keyof typeof SUBSUMED} */ (wasmKey(out, asked))] ?? wasmKey(out, asked);
        if (!existsSync(join(out, key))) throw new OneFileError(`${key} (for ${args.path}) is not in the built site`);
        wasm.add(key);
        return { path: join(out, key).replace(/_bg\.wasm$/, '.js'), namespace: 'embedded-wasm' };
      });
      b.onLoad({ filter: /.*/, namespace: 'embedded-wasm' }, (args) => {
        const key = wasmKey(out, args.path.replace(/\.js$/, '_bg.wasm'));
        const real = JSON.stringify(args.path);
        return {
          resolveDir: dirname(args.path),
          contents: `import init from ${real};\nexport * from ${real};\nexport default async (arg) => init(arg ?? { module_or_path: await (await globalThis.pgbookWasmModules)[${JSON.stringify(key)}] });\n`,
        };
      });
    },
  };
}

/**
 * The worker scripts the bundled modules start (`new Worker(…)` of a `new URL('./X.js',
 * import.meta.url)` in the same module), relative to `out`.
 * @param {string} out @param {Set<string>} workers
 * @returns {import('esbuild').Plugin}
 */
function workerScripts(out, workers) {
  return {
    name: 'pgbook-worker-scripts',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (text.includes('new Worker('))
          for (const m of text.matchAll(/new URL\('(\.{1,2}\/[^']+\.js)', import\.meta\.url\)/g))
            workers.add(
              relative(out, join(dirname(args.path), m[1]))
                .split('\\')
                .join('/'),
            );
        return undefined;
      });
    },
  };
}

/**
 * One bundle of `entries` (paths relative to `out`), run in order: an ES module, or (`classic`)
 * a classic script — Chromium runs no module worker from a blob URL on file:// — whose top
 * level may still await.
 * @param {string} out @param {string[]} entries @param {import('esbuild').Plugin[]} plugins
 * @param {boolean} [classic]
 */
async function bundle(out, entries, plugins, classic = false) {
  const result = await build({
    stdin: { contents: entries.map((e) => `import ${JSON.stringify(`./${e}`)};`).join('\n'), resolveDir: out, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    charset: 'utf8',
    legalComments: 'none',
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'silent',
    metafile: true,
    // A classic script has no import.meta; only wasm-bindgen's default path (never taken here) reads it.
    define: classic ? { 'import.meta.url': 'self.location.href' } : {},
    plugins,
  });
  const text = result.outputFiles?.[0]?.text ?? '';
  if (!classic) return text;
  const [output] = Object.values(result.metafile?.outputs ?? {});
  if (!output || output.exports.length || output.imports.length)
    throw new OneFileError(`${entries.join(', ')} bundled with an import or export left: it cannot run as a classic script`);
  return `(async()=>{\n${text}})();\n`;
}

/**
 * Text that sits inside a <script> element as it is: no `</script` or `<!--` in it.
 * @param {string} text @param {string} what
 */
function scriptText(text, what) {
  const safe = text.replace(/<\/script/gi, '<\\/script');
  if (/<!--/.test(safe)) throw new OneFileError(`${what} contains «<!--», which an inline script cannot hold`);
  return safe;
}

/**
 * Fails when the book would load anything: every src, every <link> and every CSS url() must
 * be data (links between pages are fragments).
 * @param {string} html the file without its embedded scripts
 */
export function assertSelfContained(html) {
  const loads = [
    ...[...html.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link [^>]*href="([^"]*)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/url\(\s*['"]?([^'")]*)/g)].map((m) => m[1]),
  ].filter((u) => !u.startsWith('data:'));
  const links = [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]).filter((u) => !/^(#|https?:|mailto:|data:)/.test(u));
  const bad = [...loads, ...links];
  if (bad.length) throw new OneFileError(`${ONE_FILE} would load ${bad.slice(0, 5).join(', ')} from outside the file`);
}

/**
 * Writes `out/pgbook.html` from the built site in `out` and its pages.
 * @param {string} out @param {{ file: string, html: string }[]} built
 * @returns {Promise<{ file: string, bytes: number, wasm: string[], worker: string }>}
 */
export async function writeOneFile(out, built) {
  const index = built.find((p) => p.file === 'index.html');
  if (!index) throw new OneFileError('no index.html among the built pages');
  const files = new Set(built.map((p) => p.file));
  const { before, after, entries } = frame(index.html, out, files);
  /** @type {Set<string>} */
  const pageWasm = new Set();
  /** @type {Set<string>} */
  const workerWasm = new Set();
  /** @type {Set<string>} */
  const workers = new Set();
  const page = await bundle(out, [START, ...entries], [embeddedWasm(out, pageWasm), workerScripts(out, workers)]);
  if (workers.size !== 1)
    throw new OneFileError(`the page starts ${workers.size} worker scripts (${[...workers].join(', ')}); the one-file book carries one`);
  const [workerFile] = workers;
  const worker = await bundle(out, [workerFile], [embeddedWasm(out, workerWasm)], true);
  const wasm = new Set([...pageWasm, ...workerWasm]);
  const pages = templates(built, out);
  const shell = `${before}${after}\n`;
  assertSelfContained(`${shell}${pages.map((p) => p.html).join('\n')}`);
  // A page apiece: a page load unpacks one (and the glossary's), not the book (≈ 6 % larger than one blob).
  const packed = pages.map(({ page, html }) => `<script type="application/gzip" data-page="${page}">${gzip64(html)}</script>`);
  const payload = [...wasm]
    .sort()
    .map((w) => `<script type="application/gzip" data-wasm="${w}">${gzip64(readFileSync(join(out, w)))}</script>`);
  const html = [
    shell,
    ...packed,
    ...payload,
    `<script type="text/plain" id="pgbook-worker" data-wasm="${[...workerWasm].sort().join(' ')}">${scriptText(worker, workerFile)}</script>`,
    `<script type="module">${scriptText(page, 'the page bundle')}</script>`,
    '</body>\n</html>\n',
  ].join('\n');
  const file = join(out, ONE_FILE);
  writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html), wasm: [...wasm], worker: workerFile };
}
