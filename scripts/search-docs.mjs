// @ts-check
// The served book's search (issue 40): the library bundled for the page and the book's text
// section by section, written when the site is built. js/search.js builds the index from
// search-docs.json on the search box's first use (measured against loading an index serialised
// here: docs/notes.md, session 16); the one-file book takes the same sections from its
// templates with the same function (www/js/search-text.js).
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sectionsOf } from '../www/js/search-text.js';

export const SEARCH_DOCS = 'search-docs.json';

/**
 * Every section of the built pages as the search indexes it.
 * @param {{ file: string, html: string }[]} built
 * @returns {import('../www/js/search-engine.js').SearchDoc[]}
 */
export function searchDocs(built) {
  let id = 0;
  return built.flatMap(({ file, html }) => {
    const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';
    const title = (/<h1>([\s\S]*?)<\/h1>/.exec(main)?.[1] ?? file).replace(/<[^>]*>/g, '');
    const page = file.replace(/\.html$/, '');
    return sectionsOf(main.replace(/<h1>[\s\S]*?<\/h1>/, ''), title).map((s) => ({ id: id++, page, title, ...s }));
  });
}

/**
 * Writes `out/search-docs.json` and bundles js/search-engine.js (MiniSearch and the stemmer)
 * over the copy of its source.
 * @param {string} out @param {{ file: string, html: string }[]} built @param {string} src
 */
export async function writeSearch(out, built, src) {
  writeFileSync(join(out, SEARCH_DOCS), JSON.stringify(searchDocs(built)));
  await build({
    entryPoints: [join(src, 'js', 'search-engine.js')],
    outfile: join(out, 'js', 'search-engine.js'),
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    charset: 'utf8',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    // The packages are the repository's, wherever the sources being built are (a test's copy).
    nodePaths: [join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules')],
  });
}
