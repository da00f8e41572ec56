// @ts-check
// The book in one file (site/pgbook.html, scripts/onefile.mjs), copied alone into an empty
// folder and opened from disk (file://) with every request but that file refused: the table of
// contents and the pager go through every page inside the file, each lesson's first figure
// redraws, a figure's state lives in the fragment and survives a reload, Back returns, an
// exercise is checked right and wrong; every trainer runs from the link `pgbook train … --url
// --url-base file:///…/pgbook.html` prints and equals the CLI line for line; a two-configuration
// comparison equals it too; a policy downloads and loads back; refused storage is said in
// Russian while a run paused early, resumed and reset goes on. One tab per test; the runs are
// the smoke profiles on one seed.
import { it, before, after } from 'node:test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ARTIFACTS, SITE, assert, assertSameLines, checkTab, cliLines, cliText, countWorkers, forEachBrowser, waitWorkersSaid } from '../harness.mjs';
import { BOOK_TITLE, LESSONS } from '../../www/book.mjs';
import { OneFileError, assertSelfContained, fragmentLinks, packedPages } from '../../scripts/onefile.mjs';

/** @typedef {import('../harness.mjs').Tab} Tab */

/** The folder holding only the copy of the file, and the file's URL. */
let folder = '';
let book = '';
before(() => {
  folder = mkdtempSync(join(tmpdir(), 'pgbook-onefile-'));
  copyFileSync(join(SITE, 'pgbook.html'), join(folder, 'pgbook.html'));
  book = pathToFileURL(join(folder, 'pgbook.html')).href;
});
after(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Opens the file at `fragment` in a tab that may load nothing but it, runs `check`, and fails
 * on any problem the page had (a console error, a request refused).
 * @template T @param {import('../harness.mjs').Env} env @param {string} fragment @param {(tab: Tab) => Promise<T>} check
 */
async function withFile(env, fragment, check) {
  return checkTab(await env.browser.open(book + fragment, { deviceScaleFactor: 1, file: book }), async (tab) => {
    await tab.waitReady();
    return check(tab);
  });
}

/**
 * Does `act` in the page (a click, a new fragment, Back) and waits until the file has loaded
 * anew and is ready: another page or state of the one file is a fresh load of it.
 * @param {Tab} tab @param {() => Promise<unknown>} act
 */
async function newLoad(tab, act) {
  await tab.eval(() => {
    window.pgbookOldPage = true;
  });
  await act();
  await tab.waitFor(() => !window.pgbookOldPage, null, 60_000);
  await tab.waitReady();
}

/** @param {Tab} tab @param {string} href */
const go = (tab, href) => newLoad(tab, () => tab.eval((h) => void location.assign(h), href));

/** The page's first live figure with a slider: moves the slider a few steps and tells whether its canvas changed. @param {Tab} tab */
async function redrawFirstFigure(tab) {
  const slider = await tab.eval(() => {
    const input = /** @type {HTMLInputElement | null} */ (document.querySelector('figure.live input[type=range][data-param]'));
    return input && { id: `#${input.id}`, canvas: `#${input.closest('figure')?.querySelector('canvas')?.id}`, key: input.dataset.url ?? '', value: +input.value, step: +input.step, max: +input.max };
  });
  if (!slider) return null;
  const before = await tab.canvas(slider.canvas);
  const value = Number((slider.value + slider.step * 5 <= slider.max ? slider.value + slider.step * 5 : slider.value - slider.step * 5).toFixed(6));
  await tab.setSlider(slider.id, value);
  const after = await tab.canvas(slider.canvas);
  assert(before.inked > 0.01 && after.hash !== before.hash, `${slider.id}: the figure was not redrawn`);
  return { ...slider, value };
}

it('site/pgbook.html: at most 3 MB, every page once and gzipped, the built wasm inside; the build refuses a file that would load anything', () => {
  const path = join(SITE, 'pgbook.html');
  const bytes = statSync(path).size;
  // 2.5 MB until session 16; the transformer (in both modules: the attention figure runs it),
  // the prepared comparisons' verdicts and the legends' recording backend added 486 KB of wasm
  // (gzipped and base64'd inside): docs/notes.md, «the one file's budget». Session 18 halved
  // it (1.43 MB): the pages gzipped, one copy of the core (docs/notes.md, «Session 18»).
  assert(bytes <= 3_000_000, `pgbook.html has ${bytes} bytes`);
  const text = readFileSync(path, 'utf8');
  // The pages' templates are in it gzipped, a page apiece (≈ 860 KB less than as text):
  // none as text, each packed page its own templates.
  assert(!/<template id="(page|contents)-/.test(text), 'a page template stored as text, not gzipped');
  const packed = packedPages(text);
  for (const { page, html } of packed)
    assert(
      [...html.matchAll(/<template id="([^"]+)"/g)].map((m) => m[1]).join() === `page-${page},contents-${page}`,
      `the packed page ${page} holds ${html.slice(0, 80)}`,
    );
  const html = [text, ...packed.map((p) => p.html)].join('\n');
  const pages = [...html.matchAll(/<template id="page-([^"]+)"/g)].map((m) => m[1]);
  const files = ['index', ...LESSONS.map((l) => l.file.replace('.html', ''))];
  assert(JSON.stringify(pages) === JSON.stringify(files), `templates ${pages.join(', ')}`);
  for (const [i, l] of LESSONS.entries()) {
    const h1 = `<h1>Урок ${i + 1}. ${l.title}</h1>`;
    assert(html.split(h1).length === 2, `${l.file}: its heading ${html.split(h1).length - 1} times in the file`);
  }
  // The served book offers the file; the file does not offer itself.
  assert(readFileSync(join(SITE, 'index.html'), 'utf8').includes('<a href="pgbook.html" download>') && !html.includes('data-served'), 'the offer of the file');
  const wasm = [...text.matchAll(/<script type="application\/gzip" data-wasm="([^"]+)">([^<]*)<\/script>/g)];
  // One copy of the core: the figures-only module is a part of the whole one (scripts/onefile.mjs, SUBSUMED).
  assert(wasm.map((m) => m[1]).join() === 'pkg/pgbook_bg.wasm', `the wasm in the file: ${wasm.map((m) => m[1]).join(', ')}`);
  for (const [, file, base64] of wasm)
    assert(gunzipSync(Buffer.from(base64, 'base64')).equals(readFileSync(join(SITE, file))), `${file}: not the built module`);
  const links = new Set(['index.html', 'ppo.html']);
  assert(
    fragmentLinks('<a href="ppo.html?run=ppo&amp;seeds=11#trainer-ppo">x</a> <a href="#notation">y</a>', 'index', links) ===
      '<a href="#ppo/trainer-ppo?run=ppo&amp;seeds=11">x</a> <a href="#index/notation">y</a>',
    'the links between pages as fragments',
  );
  for (const bad of ['<link rel="stylesheet" href="css/book.css">', '<img src="figure.png">', '<a href="reinforce.html">', '<style>x{background:url(paper.png)}</style>']) {
    let refused = false;
    try {
      assertSelfContained(`<p>${bad}</p>`);
    } catch (e) {
      refused = e instanceof OneFileError;
    }
    assert(refused, `the build let through ${bad}`);
  }
});

forEachBrowser((env) => {
  it('one file alone, nothing else loaded: every page through the pager, a figure redrawn on each, state in the fragment, Back, an exercise right and wrong', { timeout: 240_000 }, async (t) => {
    await withFile(env, '', async (tab) => {
      assert((await tab.text('h1')) === BOOK_TITLE, `the file opens on «${await tab.text('h1')}»`);
      const toc = await tab.eval(() => [...document.querySelectorAll('nav.toc a')].map((a) => a.getAttribute('href')));
      const pages = LESSONS.map((l) => `#${l.file.replace('.html', '')}`);
      assert(JSON.stringify(toc) === JSON.stringify(pages), `table of contents ${toc.join(', ')}`);
      /** @type {string[]} */
      const redrawn = [];
      for (const [i, lesson] of LESSONS.entries()) {
        await newLoad(tab, () => tab.click(i === 0 ? 'nav.toc a' : 'nav.pager a:last-child'));
        const page = await tab.eval(() => ({
          h1: document.querySelector('h1')?.textContent ?? '',
          title: document.title,
          hash: location.hash,
          math: document.querySelectorAll('.math math, .math-display math').length,
          fatal: document.querySelector('.fatal')?.textContent ?? null,
          failed: document.querySelectorAll('figure.failed').length,
          panels: document.querySelectorAll('[id^="trainer-"][data-status]').length,
          exercises: document.querySelectorAll('form[data-exercise]').length,
          sheets: document.querySelectorAll('.worksheet-controls button').length, // issue 42's print buttons
        }));
        assert(page.h1 === `Урок ${i + 1}. ${lesson.title}` && page.title.startsWith(page.h1), `page ${i + 1}: «${page.h1}», «${page.title}»`);
        assert(page.hash === pages[i], `page ${i + 1} at ${page.hash}`);
        assert(page.math > 0 && !page.fatal && page.failed === 0 && page.sheets > 0, `${lesson.file}: ${JSON.stringify(page)}`);
        const slider = await redrawFirstFigure(tab);
        if (slider) redrawn.push(lesson.file);
        else assert(page.panels + page.exercises > 0, `${lesson.file}: neither a figure nor a trainer nor an exercise`);
        if (slider && redrawn.length === 1) {
          // The figure's state is in the fragment: a reload (or a link to it) keeps it.
          const pair = `${slider.key}=${slider.value}`;
          await tab.waitFor((p) => location.hash.split('?')[1]?.split('&').includes(p), pair, 10_000);
          await tab.reload();
          assert((await tab.value(slider.id)) === String(slider.value), `${pair} lost on reload: ${await tab.value(slider.id)}`);
        }
      }
      // Lesson 10's exercises: one checked wrong, then right.
      const spec = await tab.eval(() => Object.entries(window.pgbookWasm.worked_examples().exercises).find(([, e]) => e.options > 0));
      assert(spec, 'no exercise with options');
      const [n, ex] = spec;
      const form = `form[data-exercise="${n}"]`;
      /** @param {number[]} marks */
      const answer = async (marks) => {
        await tab.eval(
          ([f, m]) =>
            document.querySelectorAll(`${f} input[name=option]`).forEach((o) => {
              /** @type {HTMLInputElement} */ (o).checked = /** @type {number[]} */ (m).includes(Number(/** @type {HTMLInputElement} */ (o).value));
            }),
          /** @type {[string, number[]]} */ ([form, marks]),
        );
        await tab.click(`${form} button[type=submit]`);
        return (await tab.text(`${form} [data-feedback]`)) ?? '';
      };
      const wrong = await answer(ex.correct_options.slice(1));
      const right = await answer(ex.correct_options);
      assert(wrong.startsWith('Неверно') && right.startsWith('Верно'), `exercise ${n}: «${wrong}», «${right}»`);
      // The coding exercises' notebook travels inside the file, as a data: link.
      const notebook = await tab.eval(async () => {
        const a = /** @type {HTMLAnchorElement | null} */ (document.querySelector('#code-notebook a[download]'));
        return a && { name: a.getAttribute('download'), scheme: a.href.slice(0, 5), text: await (await fetch(a.href)).text() };
      });
      const built = readFileSync(join(SITE, 'pgbook-exercises.ipynb'), 'utf8');
      assert(notebook?.name === 'pgbook-exercises.ipynb' && notebook.scheme === 'data:' && notebook.text === built, `the notebook from the file: ${notebook?.name}, ${notebook?.scheme}`);
      if (env.name === 'chromium') {
        const file = await tab.download('#code-notebook a[download]');
        assert(file.name === 'pgbook-exercises.ipynb' && file.text === built, `downloaded ${file.name} from the file`);
      }
      // Back is the page before, loaded anew; a page the file does not have opens the contents.
      await newLoad(tab, () => tab.eval(() => history.back()));
      assert((await tab.text('h1'))?.startsWith(`Урок ${LESSONS.length - 1}.`), `Back opened «${await tab.text('h1')}»`);
      // A fragment made before the pages were renamed opens the page's new name, state kept.
      await go(tab, '#lesson-04/figure-gae?gamma=0.9');
      const moved = await tab.eval(() => ({ hash: location.hash, h1: document.querySelector('h1')?.textContent ?? '' }));
      const gae = LESSONS.findIndex((l) => l.file === 'gae.html');
      assert(moved.hash === '#gae/figure-gae?gamma=0.9' && moved.h1.startsWith(`Урок ${gae + 1}.`), `an old fragment: ${JSON.stringify(moved)}`);
      // The projector view from the fragment (issue 42), as on the served site.
      await go(tab, '#gae?present=figure-gae');
      const shown = await tab.eval(() => document.querySelector('.present-view:not([hidden]) .present-stage > *')?.id ?? null);
      assert(shown === 'figure-gae', `#gae?present=figure-gae shows ${shown}`);
      await go(tab, '#lesson-99');
      assert((await tab.text('h1')) === BOOK_TITLE && /нет страницы «lesson-99»/.test((await tab.text('.link-error')) ?? ''), 'an unknown page');
      t.diagnostic(`${env.name}: ${LESSONS.length} lessons opened, figures redrawn on ${redrawn.join(', ')}`);
    });
  });

  it('every trainer from the link the CLI prints equals the CLI; a two-configuration comparison; a policy file out and back; a run paused early, resumed and reset while storage is refused', { timeout: 300_000 }, async (t) => {
    // A page with a trainer panel: it loads the whole core, whose registry lists the trainers.
    await withFile(env, '#ppo', async (tab) => {
      /** @type {{ name: string, page: string }[]} */
      const trainers = await tab.eval(() => /** @type {any} */ (window.pgbookWasm).trainer_list());
      /** @type {string[]} */
      const notes = [];
      for (const { name } of trainers) {
        const args = ['train', name, '--profile', 'smoke', '--seed', '11'];
        const link = cliText([...args, '--url', '--url-base', book]).trim();
        assert(link.startsWith(`${book}#`), `the CLI's link ${link}`);
        await go(tab, link);
        await tab.runToEnd(`#trainer-${name}`, 120_000);
        const file = await tab.download(`#trainer-${name} .downloads button:nth-child(2)`);
        assertSameLines(file.text, [...args, '--threads', '1', '--json'], `${name}: ${file.name}`);
        notes.push(`${name} ${file.text.trim().split('\n').length} lines`);
        if (name !== 'ppo') continue;
        // The trained policy: downloaded, loaded back, its greedy episode is the CLI's replay.
        const policy = await tab.download('#trainer-ppo .policy-download');
        const path = join(ARTIFACTS, `${env.name}-onefile-policy.json`);
        writeFileSync(path, policy.text);
        const [native] = cliLines(['replay', path, '--json']);
        await tab.eval((text) => {
          window.pgbookRuns.policy = undefined;
          const input = /** @type {HTMLInputElement} */ (document.querySelector('#ppo-policy-file'));
          const files = new DataTransfer();
          files.items.add(new File([text], 'policy.json', { type: 'application/json' }));
          input.files = files.files;
          input.dispatchEvent(new Event('change'));
        }, policy.text);
        const replayed = await tab.waitFor(() => window.pgbookRuns.policy, null, 10_000);
        assert(replayed.episode_return === native.episode_return && replayed.episode.length === native.states.flat().length, `replay ${replayed.episode_return} vs CLI ${native.episode_return}`);
      }
      // The transformer policy (f32, sampled through its KV cache) from the CLI's link: a short run.
      const transformer = ['train', 'sequence', '--profile', 'transformer', '--seed', '2', '--set', 'iterations=4'];
      await go(tab, cliText([...transformer, '--url', '--url-base', book]).trim());
      await tab.runToEnd('#trainer-sequence', 120_000);
      const lines = await tab.download('#trainer-sequence .downloads button:nth-child(2)');
      assertSameLines(lines.text, [...transformer, '--threads', '1', '--json'], `transformer: ${lines.name}`);
      notes.push(`transformer ${lines.text.trim().split('\n').length} lines`);
      // Lesson 10's pipeline (SFT, then GRPO with dynamic sampling; pass@k) from the CLI's link.
      const r1 = ['train', 'sequence', '--profile', 'r1_smoke', '--seed', '5', '--set', 'dynamic_sampling=true'];
      await go(tab, cliText([...r1, '--url', '--url-base', book]).trim());
      await tab.runToEnd('#trainer-sequence', 120_000);
      const r1Lines = await tab.download('#trainer-sequence .downloads button:nth-child(2)');
      assertSameLines(r1Lines.text, [...r1, '--threads', '1', '--json'], `r1_smoke: ${r1Lines.name}`);
      notes.push(`r1_smoke ${r1Lines.text.trim().split('\n').length} lines`);
      // Two configurations on one seed: each is the CLI's run of it.
      const q = new URLSearchParams([['run', 'ppo'], ['cfg', 'smoke'], ['cfg', 'smoke;gamma=0.98'], ['seeds', '11']]);
      await go(tab, `#ppo/trainer-ppo?${q}`);
      await tab.runToEnd('#trainer-ppo', 120_000);
      assert((await tab.count('#ppo-comparison tbody tr')) === 2, 'the results table of two configurations');
      for (const [c, set] of /** @type {[number, string[]][]} */ ([[0, []], [1, ['--set', 'gamma=0.98']]])) {
        const lines = await tab.eval((k) => /** @type {any} */ (window.pgbookPanels.ppo).board.json_lines_of(k), c);
        assertSameLines(lines, ['train', 'ppo', '--profile', 'smoke', ...set, '--seed', '11', '--threads', '1', '--json'], `configuration ${c}`);
      }
      // Storage refused (as some browsers do for a page from disk): the history says why, the
      // run goes on. The run is paused before its workers are ready (the file's workers get
      // their wasm in a first message), resumed, finished, and reset.
      await go(tab, '#gae');
      await countWorkers(tab);
      await tab.eval(() => {
        indexedDB.open = () => {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        };
      });
      await tab.select('#a2c-profile', 'smoke');
      await tab.fill('#a2c-seeds', '11');
      await tab.eval(() => {
        const buttons = [...document.querySelectorAll('#trainer-a2c button')];
        for (const t of ['Старт', 'Пауза']) /** @type {HTMLButtonElement} */ (buttons.find((b) => b.textContent === t)).click();
      });
      await waitWorkersSaid(tab, 'started');
      const paused = await tab.eval(() => window.pgbookRuns.a2c?.[0]?.reports.length ?? 0);
      assert((await tab.status('#trainer-a2c')) === 'paused' && paused === 0, `an early pause: ${await tab.status('#trainer-a2c')}, ${paused} updates`);
      await tab.clickButton('#trainer-a2c', 'Продолжить');
      await tab.runToEnd('#trainer-a2c', 120_000);
      await tab.waitFor(() => !(/** @type {HTMLElement} */ (document.querySelector('#trainer-a2c .history-note')).hidden), null, 10_000);
      const note = (await tab.text('#trainer-a2c .history-note')) ?? '';
      assert(/книга открыта из файла/.test(note) && /работают как обычно/.test(note), `note «${note}»`);
      await tab.clickButton('#trainer-a2c', 'Сброс');
      assert((await tab.status('#trainer-a2c')) === 'idle', `after Reset: ${await tab.status('#trainer-a2c')}`);
      t.diagnostic(`${env.name}: ${notes.join(', ')}; comparison and policy as the CLI's`);
    });
  });

  it('a class link from disk: a seat run in the file\'s worker gives the CLI\'s code, with its QR code; codes merge into the band', { timeout: 180_000 }, async () => {
    const sets = ['--set', 'num_updates=40', '--set', 'evaluation_every=4'];
    const codes = cliText(['train', 'a2c', '--profile', 'smoke', ...sets, '--seeds', '6,7,8', '--class-code']).trim().split('\n');
    await withFile(env, '#index/class?class=a2c&config=smoke;num_updates=40;evaluation_every=4&n=12', async (tab) => {
      await tab.waitFor(() => document.querySelector('#class-seat') !== null, null, 30_000);
      await tab.fill('#class-seat', '7');
      await tab.clickButton('[data-class-student]', 'Запустить');
      await tab.waitFor(() => document.querySelector('#class-code, [data-class-student] [role="alert"]') !== null, null, 120_000);
      assert((await tab.value('#class-code')) === codes[1], `the file's code of seed 7: ${await tab.value('#class-code')}, the CLI's ${codes[1]}`);
      assert((await tab.count('[data-class-code] .class-qr svg')) === 1, 'the code as a QR code');
      await tab.fill('#class-codes', codes.join('\n'));
      await tab.clickButton('[data-class-teacher]', 'Собрать');
      await tab.waitFor(() => document.querySelector('#class-band')?.getAttribute('data-drawn') === '3', null, 10_000);
      assert((await tab.count('[data-class-table] tbody tr')) === 3, 'the class table from the file');
    });
  });
});
