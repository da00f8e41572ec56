// @ts-check
// The site build: a TeX error or a page missing from the list fails it (and leaves the last
// good build in place); the output has every page, no KaTeX script, and a service worker
// that lists every file it caches (the one-file book last) with its size and hash, under the
// build's hash.
import { describe, it } from 'node:test';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, ROOT, SITE } from '../harness.mjs';
import { BuildError, renderMath } from '../../scripts/build-site.mjs';
import { LESSONS, MOVED } from '../../www/book.mjs';

const BUILD = join(ROOT, 'scripts', 'build-site.mjs');

/** A copy of the sources (www/, wasm package included) to break. */
function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'pgbook-build-'));
  cpSync(join(ROOT, 'www'), join(dir, 'www'), { recursive: true });
  return dir;
}

describe('site build', () => {
  it('renders TeX to MathML and names the file and line of a TeX error', () => {
    const html = renderMath('<p>a <span class="math">x &lt; \\frac{1}{2}</span></p>', 'test.html');
    assert(html.includes('<math') && html.includes('<mfrac>') && !html.includes('\\frac{1}{2}</span>'), html);
    let error = null;
    try {
      renderMath('<p>one</p>\n<p class="math-display">\\frac{1}{</p>', 'www/pages/x.html');
    } catch (e) {
      error = e;
    }
    assert(error instanceof BuildError, `no BuildError: ${error}`);
    assert(/www\/pages\/x\.html:2: KaTeX parse error/.test(error.message), error.message);
    // An unknown command is an error too, not red text on the page.
    let unknown = null;
    try {
      renderMath('<span class="math">\\nosuchmacro x</span>', 'y.html');
    } catch (e) {
      unknown = e;
    }
    assert(unknown instanceof BuildError && /Undefined control sequence/.test(unknown.message), String(unknown));
    // \hat, \bar, \tilde keep TeX's fixed size in every browser (a spacing accent, not
    // stretchy); \widehat still stretches.
    const accents = renderMath('<span class="math">\\hat A_t + \\bar R + \\tilde x + \\widehat{B}</span>', 'z.html');
    for (const c of ['ˆ', 'ˉ', '˜']) assert(accents.includes(`<mo stretchy="false">${c}</mo></mover>`), `${c}: ${accents}`);
    assert(!/<mo>[\^~ˉ]<\/mo><\/mover>/.test(accents) && accents.includes('<mo stretchy="true">^</mo></mover>'), accents);
  });

  it('a broken formula fails the build command and leaves the last build in place', () => {
    const dir = scratch();
    try {
      const out = join(dir, 'out');
      execFileSync('node', [BUILD, out, join(dir, 'www')], { stdio: 'pipe' });
      const good = readFileSync(join(out, 'baselines.html'), 'utf8');
      const page = join(dir, 'www', 'pages', 'baselines.html');
      writeFileSync(page, readFileSync(page, 'utf8').replace('<span class="math">', '<span class="math">\\frac{'));
      const r = spawnSync('node', [BUILD, out, join(dir, 'www')], { encoding: 'utf8' });
      assert(r.status === 1, `build exit code ${r.status}`);
      assert(/baselines\.html:\d+: KaTeX parse error/.test(r.stderr), r.stderr);
      assert(readFileSync(join(out, 'baselines.html'), 'utf8') === good, 'the failed build touched the output');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a page file missing from the list (or the reverse) fails the build', () => {
    const dir = scratch();
    try {
      writeFileSync(join(dir, 'www', 'pages', 'lesson-10.html'), '<p>new</p>\n');
      let r = spawnSync('node', [BUILD, join(dir, 'out'), join(dir, 'www')], { encoding: 'utf8' });
      assert(r.status === 1 && /lesson-10\.html/.test(r.stderr), `unlisted page: ${r.status} ${r.stderr}`);
      rmSync(join(dir, 'www', 'pages', 'lesson-10.html'));
      rmSync(join(dir, 'www', 'pages', 'gae.html'));
      r = spawnSync('node', [BUILD, join(dir, 'out'), join(dir, 'www')], { encoding: 'utf8' });
      assert(r.status === 1 && /gae\.html/.test(r.stderr), `missing page: ${r.status} ${r.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the built site: every page framed, no KaTeX, a service worker listing every file', () => {
    for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
      const html = readFileSync(join(SITE, file), 'utf8');
      assert(html.startsWith('<!doctype html>') && html.includes('<footer class="site">'), `${file}: no frame`);
      assert(!/<script[^>]*katex|katex\.min/i.test(html), `${file} still loads KaTeX`);
    }
    assert(!existsSync(join(SITE, 'vendor')), 'site/vendor/ is back');
    const sw = readFileSync(join(SITE, 'sw.js'), 'utf8');
    const m = sw.match(/const BUILD = (\{.*\});/);
    assert(m, 'sw.js is not stamped');
    const build = JSON.parse(m[1]);
    for (const f of ['index.html', 'exercises.html', 'js/app.js', 'js/worker.js', 'pkg/pgbook.js', 'pkg/pgbook_bg.wasm', 'css/book.css', 'favicon.svg', 'README.txt']) {
      assert(build.files.includes(f), `sw.js does not cache ${f}`);
    }
    assert(/^[0-9a-f]{16}$/.test(build.version), build.version);
    // Every file of the site, the one-file book too (last: the largest), with its size and
    // hash, which the service worker checks each fetched file against.
    assert(build.files.length === build.bytes.length && build.files.length === build.hashes.length, 'sw.js: files, bytes and hashes differ in length');
    assert(build.files.at(-1) === 'pgbook.html', `sw.js caches ${build.files.at(-1)} last, not pgbook.html`);
    build.files.forEach((/** @type {string} */ f, /** @type {number} */ i) => {
      const data = readFileSync(join(SITE, f));
      assert(data.length === build.bytes[i], `sw.js: ${f} is ${build.bytes[i]} bytes, the file ${data.length}`);
      assert(createHash('sha256').update(data).digest('hex').startsWith(build.hashes[i]) && build.hashes[i].length === 16, `sw.js: ${f}'s hash`);
    });
    // A renamed page's old address is a redirect page, cached offline like the rest.
    for (const [from, to] of Object.entries(MOVED)) {
      const html = readFileSync(join(SITE, from), 'utf8');
      assert(html.includes(`location.replace(${JSON.stringify(to)} + location.search + location.hash)`), `${from} does not send the reader to ${to}`);
      assert(build.files.includes(from), `sw.js does not cache ${from}`);
    }
  });
});
