// @ts-check
// Finding things (issue 40), in both browsers: the contents beside every page (every lesson,
// the page's sections, the section in view; the skip link; on a phone a menu that Esc closes,
// focus back on its button); the search (`/`, inflected forms, snippets with the matches
// marked, the arrows and Esc, the section highlighted on arrival, every page reachable, from
// the one file opened from disk too); the glossary's popovers by keyboard and by touch; the
// reader's progress recorded, shown, cleared and brought back, and a damaged record reported
// and replaced; axe on each of these open. Every page's contents and term links as loaded are
// checked by 20-lessons' visit (axe); printing without them by 95-a11y's print test; the
// search's speed by `node e2e/bench.mjs search` (gated in `gates`).
import { after, before, it } from 'node:test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { forEachBrowser, assert, axe, checkTab, SITE } from '../harness.mjs';
import { LESSONS } from '../../www/book.mjs';
import { packedPages } from '../../scripts/onefile.mjs';

/** @typedef {import('../harness.mjs').Tab} Tab */

const PHONE = { width: 390, height: 800 };

/** axe's verdict on the page in its current state, as an assertion. @param {Tab} tab @param {string} where */
async function noViolations(tab, where) {
  const found = await axe(tab);
  assert(found.rules === 0, `axe (WCAG 2.2 AA), ${where}: ${found.lines.join('\n')}`);
}

/** Types `text` into the search box as one edit and waits for its answer. @param {Tab} tab @param {string} text */
async function searchFor(tab, text) {
  await tab.fill('#search-input', text);
  await tab.waitFor(() => document.querySelector('.search')?.getAttribute('data-ready') === '1', null);
  await tab.waitFor((q) => /** @type {HTMLInputElement} */ (document.getElementById('search-input')).value === q && !document.getElementById('search-results')?.hidden && /Найдено|Ничего/.test(document.querySelector('.search-note')?.textContent ?? ''), text);
  return tab.eval(() =>
    [...document.querySelectorAll('#search-results li a')].map((a) => ({
      href: a.getAttribute('href') ?? '',
      where: a.querySelector('.search-where')?.textContent ?? '',
      marks: [...a.querySelectorAll('mark')].map((m) => m.textContent ?? ''),
    })),
  );
}

/** The element that has focus, shortly. @param {Tab} tab */
const focused = (tab) => tab.eval(() => {
  const e = document.activeElement;
  return e ? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.getAttribute('href') ? `[${e.getAttribute('href')}]` : ''}` : '';
});

/** The stored progress record, parsed (null: none). @param {Tab} tab */
const stored = (tab) => tab.eval(() => JSON.parse(localStorage.getItem('pgbook-progress') ?? 'null'));

/** Loads `path` in the same tab (its storage kept) and waits until it is ready. @param {Tab} tab @param {string} url */
async function goTo(tab, url) {
  await tab.eval(() => {
    window.pgbookOldPage = true;
  });
  await tab.goto(url);
  await tab.waitFor(() => !window.pgbookOldPage && document.readyState === 'complete', null);
  await tab.waitReady();
}

/** site/pgbook.html copied alone into an empty folder, and its URL. */
let folder = '';
let book = '';
before(() => {
  folder = mkdtempSync(join(tmpdir(), 'pgbook-find-'));
  copyFileSync(join(SITE, 'pgbook.html'), join(folder, 'pgbook.html'));
  book = pathToFileURL(join(folder, 'pgbook.html')).href;
});
after(() => rmSync(folder, { recursive: true, force: true }));

it('offline: the service worker caches what the search needs (its library and the sections), and the one file carries them', () => {
  const sw = readFileSync(join(SITE, 'sw.js'), 'utf8');
  const files = JSON.parse(/const BUILD = (\{.*\});/.exec(sw)?.[1] ?? '{}').files ?? [];
  for (const f of ['search-docs.json', 'js/search.js', 'js/search-engine.js', 'js/search-text.js', 'js/search-box.js'])
    assert(files.includes(f), `sw.js does not cache ${f}`);
  const engine = readFileSync(join(SITE, 'js', 'search-engine.js'), 'utf8');
  assert(!/from\s*["'](minisearch|@orama)/.test(engine), 'js/search-engine.js was not bundled: it imports from npm');
  const book = packedPages(readFileSync(join(SITE, 'pgbook.html'), 'utf8'));
  assert(
    book.every((p) => !p.html.includes('id="glossary-defs"')) && book.find((p) => p.page === 'index')?.html.includes('id="term-baseline"'),
    'the one file should carry the glossary once, on its contents page',
  );
});

forEachBrowser((env) => {
  it('contents: every lesson and this page\'s sections beside it, the section in view marked, a link there; the skip link', async (t) => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      // The skip link: the first stop of the keyboard, then on to the text.
      await tab.press('body', 'Tab');
      assert((await focused(tab)) === 'a[#main]', `the first Tab stop is ${await focused(tab)}`);
      assert(await tab.visible('a.skip-link'), 'the skip link is not shown when focused');
      await tab.press('a.skip-link', 'Enter');
      assert((await focused(tab)) === 'main#main', `the skip link moved focus to ${await focused(tab)}`);
      const c = await tab.eval(() => ({
        visible: !!document.getElementById('contents')?.getClientRects().length,
        pages: [...document.querySelectorAll('#contents ol.lessons > li > a')].map((a) => a.getAttribute('href')),
        current: [...document.querySelectorAll('#contents [aria-current=page]')].map((a) => a.getAttribute('href')),
        outline: [...document.querySelectorAll('#contents .outline a')].map((a) => a.getAttribute('href')),
        headings: [...document.querySelectorAll('main :is(h2, h3)')].map((h) => `#${h.id}`),
      }));
      assert(c.visible, 'the contents is not beside the page at 1100 px');
      assert(JSON.stringify(c.pages) === JSON.stringify(['index.html', ...LESSONS.map((l) => l.file)]), `lessons: ${c.pages}`);
      assert(c.current.join() === 'gae.html', `marked as this page: ${c.current}`);
      assert(c.outline.length >= 5 && JSON.stringify(c.outline) === JSON.stringify(c.headings), `outline ${c.outline} ≠ headings ${c.headings}`);
      // Scrolled to a section: its entry is marked; a click on another entry goes there.
      const target = c.headings[3];
      await tab.eval((id) => document.querySelector(id)?.scrollIntoView(), target);
      await tab.waitFor((id) => document.querySelector('#contents [aria-current=location]')?.getAttribute('href') === id, target);
      const other = c.headings[6];
      await tab.click(`#contents .outline a[href="${other}"]`);
      await tab.waitFor((id) => location.hash === id && document.querySelector('#contents [aria-current=location]')?.getAttribute('href') === id, other);
      t.diagnostic(`${c.outline.length} sections in the outline`);
    });
  });

  it('contents on a phone: a menu — open, focus inside, the page inert, Esc closes and focus returns; axe with it open', async () => {
    await env.withTab('clipping.html', { viewport: PHONE }, async (tab) => {
      await tab.waitReady();
      assert(!(await tab.visible('#contents')) && (await tab.visible('.contents-toggle')), 'on a phone the contents should wait behind its button');
      await tab.click('.contents-toggle');
      await tab.waitFor(() => document.documentElement.dataset.contents === 'open', null);
      const open = await tab.eval(() => ({
        visible: !!document.getElementById('contents')?.getClientRects().length,
        expanded: document.querySelector('.contents-toggle')?.getAttribute('aria-expanded'),
        inert: /** @type {HTMLElement} */ (document.querySelector('main')).inert,
        focus: document.getElementById('contents')?.contains(document.activeElement),
      }));
      assert(open.visible && open.expanded === 'true' && open.inert && open.focus, `the open menu: ${JSON.stringify(open)}`);
      await noViolations(tab, 'the contents menu open');
      await tab.press(':focus', 'Escape');
      await tab.waitFor(() => document.documentElement.dataset.contents === undefined, null);
      assert((await focused(tab)) === 'button', `Esc left focus on ${await focused(tab)}`);
      assert(!(await tab.eval(() => /** @type {HTMLElement} */ (document.querySelector('main')).inert)), 'the page stayed inert');
      // The close button and a link close it too.
      await tab.click('.contents-toggle');
      await tab.click('.contents-close');
      await tab.waitFor(() => document.documentElement.dataset.contents === undefined, null);
    });
  });

  it('search: `/` focuses it, «градиентом» finds the sections on «градиент» with the matches marked, the arrows and Esc, the section highlighted on arrival; axe with results open', async (t) => {
    await env.withTab('reinforce.html', null, async (tab) => {
      await tab.waitReady();
      const before = await tab.eval(() => performance.getEntriesByType('resource').filter((r) => /\/(search|search-engine|search-text)\.js$|search-docs\.json$/.test(r.name)).length);
      assert(before === 0, 'the search loaded before anyone used it');
      await tab.press('body', '/');
      assert((await focused(tab)) === 'input#search-input', `«/» focused ${await focused(tab)}`);
      const hits = await searchFor(tab, 'градиентом');
      assert(hits.length >= 5, `only ${hits.length} results`);
      const unmarked = hits.filter((h) => !h.marks.length && !/радиент/i.test(h.where));
      assert(unmarked.length === 0, `results without a highlighted match: ${unmarked.map((h) => h.href).join(', ')}`);
      assert(hits.some((h) => h.marks.some((m) => /^градиент$/i.test(m))), `no result marks «градиент» itself: ${hits.map((h) => h.marks.join('/')).join('; ')}`);
      assert(hits.some((h) => /Градиент/.test(h.where)) && hits.some((h) => h.href.startsWith('exercises.html#')), `no section on the gradient: ${hits.map((h) => h.where).join('; ')}`);
      await noViolations(tab, 'search results open');
      // The keyboard: ↓ into the results, ↓ ↑ between them, ↑ back to the box, Esc closes.
      await tab.press('#search-input', 'ArrowDown');
      assert((await focused(tab)) === `a[${hits[0].href}]`, `↓ went to ${await focused(tab)}`);
      await tab.press(':focus', 'ArrowDown');
      assert((await focused(tab)) === `a[${hits[1].href}]`, `↓↓ went to ${await focused(tab)}`);
      await tab.press(':focus', 'ArrowUp');
      await tab.press(':focus', 'ArrowUp');
      assert((await focused(tab)) === 'input#search-input', `↑↑ went to ${await focused(tab)}`);
      await tab.press(':focus', 'Escape');
      assert(!(await tab.visible('#search-results')) && (await focused(tab)) === 'input#search-input', 'Esc did not close the results');
      // A result on another page, followed by the keyboard: its section is highlighted there.
      const result = await searchFor(tab, 'обрыва рекурсии');
      const target = result.find((h) => h.href.startsWith('gae.html#'));
      assert(target, `«обрыва рекурсии» does not find lesson 4: ${result.map((h) => h.href).join(', ')}`);
      await tab.eval(() => {
        window.pgbookOldPage = true;
      });
      await tab.press('#search-input', 'ArrowDown');
      for (let i = 0; i < result.indexOf(target); i++) await tab.press(':focus', 'ArrowDown');
      await tab.press(':focus', 'Enter');
      await tab.waitFor(() => !window.pgbookOldPage && document.readyState === 'complete', null);
      const anchor = target.href.split('#')[1];
      await tab.waitFor((id) => document.getElementById(id)?.classList.contains('found'), anchor);
      const marked = await tab.eval(() => [...document.querySelectorAll('mark.found-word')].map((m) => m.textContent?.toLowerCase()));
      assert(marked.some((w) => w?.startsWith('рекурси')), `the section's matches are not marked: ${marked.join(', ')}`);
      t.diagnostic(`«градиентом»: ${hits.length} results; «обрыва рекурсии» → ${target.href}, ${marked.length} words marked`);
    });
  });

  it('search reaches every page: the first section of each found by its heading', async () => {
    await env.withTab('index.html', null, async (tab) => {
      await tab.waitReady();
      for (const file of ['index.html', ...LESSONS.map((l) => l.file)]) {
        const heading = await tab.eval(async (f) => {
          const html = await (await fetch(f)).text();
          const doc = new DOMParser().parseFromString(html, 'text/html');
          return doc.querySelector('main h2')?.textContent ?? '';
        }, file);
        const hits = await searchFor(tab, heading);
        assert(hits.some((h) => h.href.startsWith(`${file}#`)), `«${heading}» does not find ${file}: ${hits.map((h) => h.href).join(', ')}`);
      }
      // The glossary and the exercises are found too.
      const glossary = await searchFor(tab, 'пессимистического минимума');
      assert(glossary.some((h) => h.href === 'index.html#term-pessimistic-minimum'), `the glossary: ${glossary.map((h) => h.href).join(', ')}`);
    });
  });

  it('search from the one file opened from disk: the index built from its pages, a result on another page highlighted there', async (t) => {
    await checkTab(await env.browser.open(`${book}#index`, { deviceScaleFactor: 1, file: book }), async (tab) => {
      await tab.waitReady();
      const hits = await searchFor(tab, 'клиппированием');
      // The same sections as the served book's, every page's, read from the file's templates.
      const served = JSON.parse(readFileSync(join(SITE, 'search-docs.json'), 'utf8'));
      const own = await tab.eval(() => window.pgbookSearchBuilt?.sections);
      assert(own === served.length, `the one file indexed ${own} sections, the served book ${served.length}`);
      const target = hits.find((h) => h.href.startsWith('#clipping/'));
      assert(target, `no result in lesson 5: ${hits.map((h) => h.href).join(', ')}`);
      await tab.eval(() => {
        window.pgbookOldPage = true;
      });
      await tab.click(`#search-results a[href="${target.href}"]`);
      await tab.waitFor(() => !window.pgbookOldPage, null, 60_000);
      await tab.waitReady();
      const anchor = decodeURIComponent(target.href.split('/')[1]);
      await tab.waitFor((id) => document.getElementById(id)?.classList.contains('found'), anchor);
      const here = await tab.eval(() => ({
        page: document.querySelector('#contents [aria-current=page]')?.getAttribute('href'),
        outline: document.querySelectorAll('#contents .outline a').length,
      }));
      assert(here.page === '#clipping' && here.outline > 3, `the contents after the jump: ${JSON.stringify(here)}`);
      // A term's popover, its definition from the glossary the file carries once.
      const popover = await tab.eval(() => {
        /** @type {HTMLElement} */ (document.querySelector('main a.term')).focus();
        const tip = document.getElementById('term-popover');
        return { shown: !tip?.hidden, text: tip?.textContent ?? '', href: document.querySelector('main a.term')?.getAttribute('href') };
      });
      assert(popover.shown && popover.text.length > 40 && popover.href?.startsWith('#index/term-'), `the one file's popover: ${JSON.stringify(popover)}`);
      t.diagnostic(`${hits.length} results in the one file; ${target.href}`);
    });
  });

  it('glossary: a term\'s popover by keyboard (Esc dismisses it), by hover (the pointer may move onto it) and by touch (a second tap follows the link); axe with it open', async () => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      const term = await tab.eval(() => {
        const a = /** @type {HTMLAnchorElement} */ (document.querySelector('main a.term'));
        a.id = 'first-term';
        return { href: a.getAttribute('href'), id: a.dataset.term };
      });
      assert(term.href === `index.html#term-${term.id}`, `the term links to ${term.href}`);
      // Keyboard: Tab onto the term shows its definition, described by it; Esc hides it.
      await tab.eval(() => {
        const a = /** @type {HTMLElement} */ (document.getElementById('first-term'));
        const all = [...document.querySelectorAll('a[href], button, input, select, summary')];
        /** @type {HTMLElement} */ (all[all.indexOf(a) - 1]).focus();
      });
      await tab.press(':focus', 'Tab');
      assert((await focused(tab)).startsWith('a#first-term'), `Tab went to ${await focused(tab)}`);
      const shown = await tab.eval(() => ({
        visible: !document.getElementById('term-popover')?.hidden,
        text: document.getElementById('term-popover')?.textContent ?? '',
        describedBy: document.getElementById('first-term')?.getAttribute('aria-describedby'),
        role: document.getElementById('term-popover')?.getAttribute('role'),
      }));
      assert(shown.visible && shown.text.length > 40 && shown.describedBy === 'term-popover' && shown.role === 'tooltip', `on focus: ${JSON.stringify(shown)}`);
      await noViolations(tab, 'a glossary popover open');
      await tab.press(':focus', 'Escape');
      assert((await tab.eval(() => document.getElementById('term-popover')?.hidden)) && (await focused(tab)).startsWith('a#first-term'), 'Esc did not dismiss the popover, or moved focus');
      // Hover: the pointer on the term shows it, may move onto the popover (it stays), and leaving both hides it.
      await tab.eval(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());
      /** @param {string} type @param {string} on @param {string} to '' for none */
      const mouse = (type, on, to) =>
        tab.eval(
          ([t, a, b]) =>
            document.querySelector(a)?.dispatchEvent(
              new PointerEvent(t, { pointerType: 'mouse', bubbles: true, relatedTarget: b ? document.querySelector(b) : null }),
            ),
          [type, on, to],
        );
      const hidden = () => tab.eval(() => document.getElementById('term-popover')?.hidden);
      await mouse('pointerover', '#first-term', '');
      assert(!(await hidden()), 'hover did not show the definition');
      await mouse('pointerout', '#first-term', '#term-popover');
      await mouse('pointerover', '#term-popover', '');
      await tab.eval(() => new Promise((r) => setTimeout(r, 600)));
      assert(!(await hidden()), 'the popover went away when the pointer moved onto it');
      await mouse('pointerout', '#term-popover', 'main h1');
      await tab.waitFor(() => document.getElementById('term-popover')?.hidden, null, 5000);
      // Touch: a tap shows the definition and stays on the page; a tap elsewhere closes it; two taps follow the link.
      /** @param {string} selector */
      const tap = (selector) =>
        tab.eval((s) => {
          const e = /** @type {HTMLElement} */ (document.querySelector(s));
          e.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', bubbles: true, isPrimary: true }));
          e.dispatchEvent(new PointerEvent('pointerup', { pointerType: 'touch', bubbles: true, isPrimary: true }));
          e.click();
        }, selector);
      await tab.eval(() => {
        window.pgbookOldPage = true;
      });
      await tap('#first-term');
      assert(!(await tab.eval(() => document.getElementById('term-popover')?.hidden)), 'a tap did not show the definition');
      assert(tab.url().endsWith('gae.html') && (await tab.eval(() => window.pgbookOldPage)), `a first tap left the page: ${tab.url()}`);
      await tap('main h1');
      assert(await tab.eval(() => document.getElementById('term-popover')?.hidden), 'a tap elsewhere did not close it');
      await tap('#first-term');
      await tap('#first-term');
      await tab.waitFor(() => !window.pgbookOldPage && document.readyState === 'complete', null);
      assert(tab.url().endsWith(term.href ?? ''), `two taps went to ${tab.url()}`);
    });
  });

  it('progress: sections and lessons read and exercises solved, recorded and shown; «Продолжить с …»; cleared and brought back; a damaged record reported and replaced; axe on each', async (t) => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      // Firefox's tabs share a profile: start from nothing.
      await tab.eval(() => localStorage.removeItem('pgbook-progress'));
      await tab.reload();
      await tab.eval(() => document.querySelectorAll('main h2')[2].scrollIntoView());
      await tab.waitFor(() => (JSON.parse(localStorage.getItem('pgbook-progress') ?? 'null')?.pages?.gae?.sections.length ?? 0) >= 3, null);
      const partway = await stored(tab);
      assert(!partway.pages.gae.read && partway.last.page === 'gae' && partway.last.anchor, `part of lesson 4: ${JSON.stringify(partway)}`);
      await tab.waitFor(() => /\d+\/\d+/.test(document.querySelector('#contents li[data-page=gae] .progress-mark')?.textContent ?? ''), null);
      await tab.eval(() => scrollTo(0, document.documentElement.scrollHeight));
      await tab.waitFor(() => JSON.parse(localStorage.getItem('pgbook-progress') ?? 'null')?.pages?.gae?.read === true, null);
      await tab.waitFor(() => document.querySelector('#contents li[data-page=gae]')?.classList.contains('read'), null);
      const reached = await tab.count('#contents .outline li.reached');
      const sections = await tab.count('#contents .outline li');
      assert(reached === sections, `${reached} of ${sections} sections marked reached at the end`);
      await noViolations(tab, 'the contents with progress');
      // An exercise solved.
      await goTo(tab, `${env.url}exercises.html`);
      for (const v of ['2', '4']) await tab.click(`form[data-exercise="1"] input[value="${v}"]`);
      await tab.click('form[data-exercise="1"] button[type=submit]');
      await tab.waitFor(() => document.querySelector('form[data-exercise="1"]')?.getAttribute('data-checked') === 'right', null);
      await tab.waitFor(() => JSON.parse(localStorage.getItem('pgbook-progress') ?? 'null')?.exercises?.includes(1), null);
      const solved = await tab.eval(() => ({
        outline: document.querySelectorAll('#contents .outline li.solved').length,
        said: document.querySelector('#contents li[data-page=exercises] > a')?.textContent ?? '',
        summary: document.querySelector('#contents .progress-status')?.textContent ?? '',
      }));
      assert(solved.outline === 1 && /решено упражнений: 1/.test(solved.said) && /решено упражнений: 1/.test(solved.summary), `solved: ${JSON.stringify(solved)}`);
      // The contents page: «Продолжить с …» the last section reached; after a lesson read to its
      // end, the first lesson not read.
      await goTo(tab, `${env.url}index.html`);
      const continued = () => tab.eval(() => ({ text: document.querySelector('p.continue')?.textContent ?? '', href: document.querySelector('p.continue a')?.getAttribute('href') }));
      const last = await continued();
      assert(/^Продолжить с Урок \d+\. Выводы и упражнения — «Упражнение 1\./.test(last.text) && last.href === 'exercises.html#exercise-1', `continue: ${JSON.stringify(last)}`);
      await noViolations(tab, 'the contents page with «Продолжить с»');
      await tab.eval(() => {
        const p = JSON.parse(localStorage.getItem('pgbook-progress') ?? '{}');
        p.last = { page: 'gae', anchor: 'itogi-uroka', title: 'Урок 4. GAE и две маски', heading: 'Итоги урока', at: new Date().toISOString() };
        localStorage.setItem('pgbook-progress', JSON.stringify(p));
      });
      await tab.reload();
      const next = await continued();
      assert(next.href === 'reinforce.html' && /Логарифмическая производная/.test(next.text), `after a lesson read: ${JSON.stringify(next)}`);
      // Cleared, then brought back.
      await tab.click('#contents .progress-clear');
      assert((await stored(tab)) === null, 'clearing left the record');
      const cleared = await tab.eval(() => ({
        marks: document.querySelectorAll('#contents .progress-mark, #contents li.read').length,
        button: document.querySelector('#contents .progress-clear')?.textContent,
        continued: document.querySelector('p.continue')?.hasAttribute('hidden'),
      }));
      assert(cleared.marks === 0 && cleared.button === 'Вернуть отметки' && cleared.continued, `cleared: ${JSON.stringify(cleared)}`);
      await tab.click('#contents .progress-clear');
      const back = await stored(tab);
      assert(back?.pages?.gae?.read === true && back.exercises.includes(1), `brought back: ${JSON.stringify(back)}`);
      // A damaged record: reported on the page, the readable part kept, the record replaced.
      await tab.eval(() => localStorage.setItem('pgbook-progress', JSON.stringify({ version: 1, pages: { gae: { sections: 5 }, ppo: { sections: ['a'], total: 3, read: false, at: '2026-12-04T00:00:00Z' } }, exercises: [1], last: null })));
      await tab.reload();
      const damaged = await tab.eval(() => ({ said: document.querySelector('#contents .progress-status')?.textContent ?? '', shown: !document.querySelector('#contents [data-progress]')?.hasAttribute('hidden') }));
      assert(damaged.shown && /не годятся \(повреждены: страница «gae»\)/.test(damaged.said), `damaged: ${JSON.stringify(damaged)}`);
      const replaced = await stored(tab);
      assert(!replaced.pages.gae && replaced.pages.ppo.sections[0] === 'a' && replaced.exercises.join() === '1', `replaced with ${JSON.stringify(replaced)}`);
      await noViolations(tab, 'a damaged record reported');
      await tab.eval(() => localStorage.setItem('pgbook-progress', '{"version": 1, "pages": {'));
      await tab.reload();
      assert(/запись не читается/.test((await tab.text('#contents .progress-status')) ?? ''), 'unreadable JSON was not reported');
      assert((await stored(tab))?.version === 1, 'unreadable JSON was not replaced');
      t.diagnostic(`lesson 4: ${sections} sections; ${JSON.stringify(damaged.said)}`);
      await tab.eval(() => localStorage.removeItem('pgbook-progress'));
    });
  });

  it('axe: the search results, a popover and the contents in the dark and high-contrast themes', async () => {
    await env.withTab('tokens.html', null, async (tab) => {
      await tab.waitReady();
      for (const theme of ['dark', 'contrast']) {
        await tab.select('#theme-switch', theme);
        await tab.waitFor((th) => document.documentElement.dataset.theme === th, theme);
        await tab.eval(() => document.querySelectorAll('main h2')[1].scrollIntoView());
        await searchFor(tab, 'маска ответа');
        await noViolations(tab, `${theme}: search results`);
        await tab.eval(() => /** @type {HTMLElement} */ (document.querySelector('main a.term')).focus());
        await tab.waitFor(() => !document.getElementById('term-popover')?.hidden, null);
        await noViolations(tab, `${theme}: a popover`);
      }
    });
  });
});
