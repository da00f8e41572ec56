// @ts-check
// Every page: rendered math and no raw TeX, worked numbers filled by wasm, every slider
// redraws its figure, out-of-range values give a message, keyboard control, phone width, and
// a screenshot of each lesson. A lesson's read-only checks share one visit. Redraw times and
// first paint are measured by e2e/bench.mjs (scripts/bench.sh), not here.
import { it } from 'node:test';
import { readFileSync } from 'node:fs';
import { forEachBrowser, assert, axe, canvasHash, RAW_TEX } from '../harness.mjs';
import { LESSONS } from '../../www/book.mjs';

/**
 * What a reader trips on in the layout (runs in the page): a formula or table wider than its box
 * that does not scroll, or scrolls without the scroll cue (book.css's data-scrolls shadows); a
 * slider whose value sits on another row than the slider. Boxes not laid out (a closed fold) are
 * skipped. @returns {string[]}
 */
function layoutProblems() {
  /** @type {string[]} */
  const bad = [];
  const name = (/** @type {Element} */ e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} «${(e.textContent ?? '').trim().slice(0, 40)}»`;
  const scrolls = (/** @type {Element} */ e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX);
  for (const box of document.querySelectorAll('main .math-display, main .math, main table')) {
    const el = /** @type {HTMLElement} */ (box);
    if (el.getClientRects().length === 0 || el.closest('details:not([open])')) continue;
    // The nearest box that may scroll it, itself included.
    /** @type {HTMLElement | null} */
    let scroller = el;
    while (scroller && scroller.tagName !== 'MAIN' && !scrolls(scroller)) scroller = scroller.parentElement;
    if (!scroller || scroller.tagName === 'MAIN') {
      const column = /** @type {HTMLElement} */ (el.parentElement).getBoundingClientRect();
      const r = el.getBoundingClientRect();
      if (r.right > column.right + 1 || r.left < column.left - 1) bad.push(`wider than its column, no scroll: ${name(el)}`);
    } else if (scroller.scrollWidth > scroller.clientWidth + 1 && !scroller.hasAttribute('data-scrolls')) {
      bad.push(`scrolls without a cue: ${name(scroller)}`);
    }
  }
  for (const slider of document.querySelectorAll('main input[type=range]')) {
    const output = slider.id ? document.querySelector(`output[for="${slider.id}"]`) : null;
    if (!output || slider.getClientRects().length === 0) continue;
    const a = slider.getBoundingClientRect();
    const b = output.getBoundingClientRect();
    if (Math.abs(a.top + a.height / 2 - (b.top + b.height / 2)) > Math.max(a.height, b.height) / 2) bad.push(`the value of #${slider.id} is on another row`);
  }
  return bad;
}

/**
 * The lessons' Python beside their formulas (www/python/, issue 39): one fold per placeholder of
 * the page's source, closed while reading, its code the functions' files; the keyboard opens
 * and closes it.
 * @param {import('../harness.mjs').Tab} tab @param {string} file
 */
async function checkSnippets(tab, file) {
  const source = readFileSync(new URL(`../../www/pages/${file}`, import.meta.url), 'utf8');
  const placed = [...source.matchAll(/<div class="snippet" data-snippet="([^"]+)"><\/div>/g)].map((m) => m[1]);
  /** @type {{ names: string, open: boolean, code: string }[]} */
  const folds = await tab.eval(() =>
    /** @type {HTMLDetailsElement[]} */ ([...document.querySelectorAll('details.snippet')]).map((d) => ({
      names: d.dataset.snippet ?? '',
      open: d.open,
      code: d.querySelector('pre.python')?.textContent ?? '',
    })),
  );
  assert(JSON.stringify(folds.map((f) => f.names)) === JSON.stringify(placed), `${file}: snippets ${folds.map((f) => f.names).join(' | ')} for ${placed.join(' | ')}`);
  for (const f of folds) {
    assert(!f.open, `${file}: the fold of ${f.names} is open while reading`);
    for (const name of f.names.split(' ')) {
      const text = readFileSync(new URL(`../../www/python/${name}.py`, import.meta.url), 'utf8');
      const body = text.slice(text.indexOf(`def ${name}(`)).trim();
      assert(f.code.includes(body), `${file}: the fold of ${f.names} lacks www/python/${name}.py as written`);
    }
  }
  if (!folds.length) return;
  const open = () => tab.eval(() => /** @type {HTMLDetailsElement} */ (document.querySelector('details.snippet')).open);
  await tab.press('details.snippet > summary', 'Enter');
  assert(await open(), `${file}: Enter on the first fold's summary leaves it closed`);
  await tab.press('details.snippet > summary', 'Enter');
  assert(!(await open()), `${file}: Enter again leaves the first fold open`);
}

/** @param {import('../harness.mjs').Tab} tab */
function pageReport(tab) {
  return tab.eval((rawTex) => {
    const math = [...document.querySelectorAll('.math, .math-display')];
    const unrendered = math.filter((el) => !el.querySelector('math')).map((el) => (el.textContent ?? '').slice(0, 60));
    const text = document.body.innerText;
    const raw = text.match(new RegExp(rawTex));
    const worked = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-worked]')]);
    const missing = worked.filter((el) => !(el.textContent ?? '').trim() || el.textContent === '?').map((el) => el.dataset.worked);
    const tables = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-worked-table]')])
      .filter((el) => !el.querySelector('table'))
      .map((el) => el.dataset.workedTable);
    const unlabeled = /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('input, select, button')])
      .filter((el) => el.type !== 'hidden' && !(el.labels?.length || el.getAttribute('aria-label') || (el.textContent ?? '').trim()))
      .map((el) => el.id || el.outerHTML.slice(0, 60));
    return {
      mathCount: math.length,
      unrendered,
      raw: raw && raw[0],
      worked: worked.length,
      missing,
      tables,
      words: text.split(/\s+/).length,
      unlabeled,
      h1: document.querySelector('h1')?.textContent,
      pager: document.querySelectorAll('nav.pager a').length,
      fatal: document.querySelector('.fatal')?.textContent ?? null,
      failed: /** @type {HTMLElement[]} */ ([...document.querySelectorAll('figure.failed')]).map((f) => f.dataset.figure),
      scripts: [...document.scripts].map((s) => s.src).filter(Boolean),
    };
  }, RAW_TEX.source);
}

/**
 * Moves every control of the page's live figures that the URL keeps (a slider one step, a
 * switch clicked), waits for the URL to follow, and returns the link with the values and the
 * pictures it must reopen (null: no such control).
 * @param {import('../harness.mjs').Tab} tab
 */
async function moveForLink(tab) {
  /** @type {{ id: string, url: string, type: string, canvas: string }[]} */
  const sliders = await tab.eval(() =>
    [...document.querySelectorAll('figure.live[data-figure] input[data-param][data-url]')].map((el) => {
      const i = /** @type {HTMLInputElement} */ (el);
      return { id: '#' + i.id, url: i.dataset.url ?? '', type: i.type, canvas: '#' + i.closest('figure')?.querySelector('canvas')?.id };
    }),
  );
  if (!sliders.length) return null;
  for (const s of sliders) {
    if (s.type === 'checkbox') {
      await tab.click(s.id);
      continue;
    }
    const input = await tab.eval((id) => {
      const i = /** @type {HTMLInputElement} */ (document.querySelector(id));
      return { min: +i.min, max: +i.max, step: +i.step, value: +i.value };
    }, s.id);
    const target = input.value + input.step <= input.max ? input.value + input.step : input.value - input.step;
    await tab.setSlider(s.id, Number(target.toFixed(6)));
  }
  const ids = sliders.map((s) => s.id);
  const values = await controlValues(tab, ids);
  await tab.waitFor(
    ([urls, vals]) => urls.every((u, i) => new URL(location.href).searchParams.get(u) === vals[i]),
    [sliders.map((s) => s.url), values],
    5000,
  );
  const canvases = [...new Set(sliders.map((s) => s.canvas))];
  const hashes = [];
  for (const c of canvases) hashes.push((await tab.canvas(c)).hash);
  return { url: tab.url(), ids, values, canvases, hashes };
}

/** The controls' values as the URL writes them. @param {import('../harness.mjs').Tab} tab @param {string[]} ids */
const controlValues = (tab, ids) =>
  tab.eval(
    (ids) =>
      ids.map((id) => {
        const i = /** @type {HTMLInputElement} */ (document.querySelector(id));
        return i.type === 'checkbox' ? (i.checked ? '1' : '0') : i.value;
      }),
    ids,
  );

forEachBrowser((env) => {
  it('the table of contents lists every lesson and each link opens', async (t) => {
    await env.withTab('', null, async (tab) => {
      await tab.waitReady();
      const links = await tab.eval(() => [...document.querySelectorAll('nav.toc a')].map((a) => a.getAttribute('href') ?? ''));
      const files = LESSONS.map((l) => l.file);
      assert(LESSONS.length > 0 && JSON.stringify(links) === JSON.stringify(files), `TOC ${links.join(', ')} ≠ book.mjs ${files.join(', ')}`);
      for (const href of [...links, 'favicon.svg']) {
        const res = await fetch(env.url + href);
        assert(res.ok, `${href}: HTTP ${res.status}`);
      }
      const r = await pageReport(tab);
      assert(!r.raw && !r.fatal, `index: raw TeX ${r.raw}, fatal ${r.fatal}`);
      const found = await axe(tab);
      assert(found.rules === 0, `axe (WCAG 2.2 AA): ${found.lines.join('\n')}`);
      t.diagnostic(`${links.length} lessons; axe: no violation`);
    });
  });

  /** Live figures checked by the per-lesson visits below (counted once they ran). @type {string[]} */
  const figuresSeen = [];
  for (const lesson of LESSONS) {
    it(`${lesson.file}: math rendered at build time, worked numbers, screenshot; every figure's sliders redraw it, its text alternative and table follow them, nothing added to <body>; its link reopens the same settings and picture`, async (t) => {
      await env.withTab(lesson.file, null, async (tab) => {
        await tab.waitReady();
        const r = await pageReport(tab);
        assert(r.h1, 'no <h1>');
        assert(r.mathCount > 0, 'no formulas on the page');
        assert(r.unrendered.length === 0, `formulas not rendered: ${r.unrendered.join(' | ')}`);
        assert(!r.raw, `raw TeX visible: ${r.raw}`);
        assert(!r.scripts.some((s) => /katex/.test(s)), `the page still loads KaTeX: ${r.scripts.join(', ')}`);
        assert(r.missing.length === 0, `worked values missing: ${r.missing.join(', ')}`);
        assert(r.tables.length === 0, `worked tables missing: ${r.tables.join(', ')}`);
        assert(r.unlabeled.length === 0, `controls without a label: ${r.unlabeled.join(', ')}`);
        assert(r.pager === 2, 'lesson navigation missing');
        // The contents beside it (41-find tests it at work): this page marked, its outline its headings.
        const contents = await tab.eval(() => ({
          current: [...document.querySelectorAll('#contents [aria-current=page]')].map((a) => a.getAttribute('href')),
          outline: [...document.querySelectorAll('#contents .outline a')].map((a) => a.getAttribute('href')).join(' '),
          // A trainer panel's own headings (written by its script) are not the lesson's sections.
          headings: [...document.querySelectorAll('main :is(h2, h3)')]
            .filter((h) => !h.closest('section.trainer'))
            .map((h) => `#${h.id}`)
            .join(' '),
        }));
        assert(contents.current.join() === lesson.file, `the contents marks ${contents.current} as this page`);
        assert(contents.outline && contents.outline === contents.headings, `outline «${contents.outline}» ≠ headings «${contents.headings}»`);
        assert(!r.fatal, `fatal error shown: ${r.fatal}`);
        assert(r.failed.length === 0, `figures failed: ${r.failed.join(', ')}`);
        await tab.screenshot(lesson.file.replace('.html', ''));
        // As loaded, figures drawn: no WCAG 2.2 AA violation axe can find (95-a11y checks the
        // states a reader reaches from here).
        const found = await axe(tab);
        assert(found.rules === 0, `axe (WCAG 2.2 AA): ${found.lines.join('\n')}`);
        // Issue 42: every figure and trainer panel opens on the projector; the lesson prints a worksheet.
        const classroom = await tab.eval(() => ({
          items: [...document.querySelectorAll('figure.live, section.trainer')].map((e) => `${e.id}:${e.querySelector(':scope > .present-open button') ? 'yes' : 'no'}`),
          sheets: [...document.querySelectorAll('.worksheet-controls button')].map((b) => b.textContent),
        }));
        assert(classroom.items.every((i) => i.endsWith(':yes')), `figures or panels without «На проектор»: ${classroom.items.join(' ')}`);
        const sheets = lesson.file === 'exercises.html' ? 'Печать для ученика,Печать для учителя' : 'Рабочий лист';
        assert(classroom.sheets.join() === sheets, `worksheet controls: ${classroom.sheets.join()}`);
        await checkSnippets(tab, lesson.file);

        // A redraw adds nothing to the page (plotters measured each label in a <span> of
        // <body>, a reflow each): every slider moved once under a MutationObserver.
        const added = await tab.eval(async () => {
          /** @type {string[]} */
          const nodes = [];
          const observer = new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((n) => nodes.push(n.nodeName))));
          observer.observe(document.body, { childList: true });
          for (const input of /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll('figure.live input[type=range][data-param]')])) {
            input.stepUp();
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          observer.disconnect();
          return nodes;
        });
        assert(added.length === 0, `redraws added ${added.length} nodes to <body> (${added.slice(0, 5).join(', ')})`);

        const figures = await tab.eval(() =>
          /** @type {HTMLElement[]} */ ([...document.querySelectorAll('figure.live[data-figure]')]).map((f) => ({
            id: f.id,
            name: f.dataset.figure ?? '',
            canvas: '#' + f.querySelector('canvas')?.id,
            sliders: /** @type {HTMLInputElement[]} */ ([...f.querySelectorAll('input[type=range][data-param]')]).map((i) => ({
              id: '#' + i.id,
              max: +i.max,
              step: +i.step,
              value: +i.value,
            })),
          })),
        );
        for (const fig of figures) {
          // Every slider changes the pixels, and the text alternative names the value now shown.
          for (const s of fig.sliders) {
            const before = await tab.canvas(fig.canvas);
            assert(before.inked > 0.01, `${fig.name}: canvas blank`);
            const target = s.value + s.step * 5 <= s.max ? s.value + s.step * 5 : s.value - s.step * 5;
            await tab.setSlider(s.id, Number(target.toFixed(6)));
            const after = await tab.canvas(fig.canvas);
            assert(after.hash !== before.hash, `${fig.name}: moving ${s.id} did not change the figure`);
            const [label, shown] = await tab.eval(
              ([c, i]) => [document.querySelector(c)?.getAttribute('aria-label') ?? '', document.querySelector(`output[for="${i.slice(1)}"]`)?.textContent ?? ''],
              [fig.canvas, s.id],
            );
            assert(shown && label.includes(`= ${shown}`), `${fig.name}: aria-label «${label}» does not name ${s.id} = ${shown}`);
          }
          // The text alternative says what it shows; its table of key numbers is there on request
          // and follows the first control.
          const read = () =>
            tab.eval((id) => {
              const figure = document.getElementById(id);
              const details = figure?.querySelector('details.figure-numbers');
              return {
                open: details instanceof HTMLDetailsElement && details.open,
                label: figure?.querySelector('canvas')?.getAttribute('aria-label') ?? '',
                columns: [...(details?.querySelectorAll('thead th') ?? [])].length,
                table: details?.querySelector('tbody')?.textContent ?? '',
              };
            }, fig.id);
          const closed = await read();
          assert(!closed.open && closed.table === '', `${fig.id}: the table is shown before it is asked for`);
          assert(/\d,\d/.test(closed.label.split('. ').slice(1).join('. ')), `${fig.id}: the text alternative says no number of what it shows: «${closed.label}»`);
          await tab.click(`#${fig.id} details.figure-numbers summary`);
          // The table is filled on the details' toggle event, which follows the click.
          await tab.waitFor((id) => document.querySelectorAll(`#${id} details.figure-numbers thead th`).length > 0, fig.id, 5000);
          const open = await read();
          assert(open.open && open.columns >= 2 && /\d/.test(open.table), `${fig.id}: no table of numbers (${open.columns} columns)`);
          const first = fig.sliders[0];
          if (first) {
            const value = Number(await tab.value(first.id));
            await tab.setSlider(first.id, value + first.step * 3 <= first.max ? value + first.step * 3 : value - first.step * 3);
            const moved = await read();
            assert(moved.table !== open.table && moved.label !== open.label, `${fig.id}: the table or the sentence did not follow ${first.id}`);
          }
        }
        figuresSeen.push(...figures.map((f) => f.id));

        // Every figure round-trips through the URL: its link reopens the same settings and the
        // same picture.
        const moved = await moveForLink(tab);
        if (moved) {
          const link = moved.url.slice(moved.url.indexOf(lesson.file));
          await env.withTab(link, null, async (again) => {
            await again.waitReady();
            const values = await controlValues(again, moved.ids);
            assert(JSON.stringify(values) === JSON.stringify(moved.values), `${link}: sliders ${values} instead of ${moved.values}`);
            for (let i = 0; i < moved.canvases.length; i++) {
              const hash = (await again.canvas(moved.canvases[i])).hash;
              assert(hash === moved.hashes[i], `${link}: ${moved.canvases[i]} differs from the figure the link was taken from`);
            }
          });
        }
        t.diagnostic(
          `${r.mathCount} formulas, ${r.worked} worked values, ~${r.words} words, figures: ${figures.map((f) => f.name).join(', ') || '—'}; ${moved?.ids.length ?? 0} controls round-tripped through the link`,
        );
      });
    });
  }

  it('the lessons hold at least nine live figures, each checked above', () => {
    assert(figuresSeen.length >= 9, `only ${figuresSeen.length} figures: ${figuresSeen.join(', ')}`);
  });

  it('lesson 2: the worked example in the text follows the figure\'s sliders', async () => {
    await env.withTab('returns.html', null, async (tab) => {
      await tab.waitReady();
      const g = '[data-follows="returns.reward_to_go"]';
      assert((await tab.text(g)) === '(1,5; 1; 2)', `G at the defaults: ${await tab.text(g)}`);
      await tab.setSlider('#returns-gamma', 1);
      assert((await tab.text(g)) === '(3; 2; 2)', `G at γ = 1: ${await tab.text(g)}`);
      assert((await tab.text('[data-follows="returns.gamma"]')) === '1', 'γ in the text did not follow');
      await tab.setSlider('#returns-r0', -1);
      assert((await tab.text('[data-follows="returns.weights"]')) === '(1; 2; 2)', `weights: ${await tab.text('[data-follows="returns.weights"]')}`);
    });
  });

  it('lesson 4: the «forgot the trace cut» switch redraws the figure and names itself in the text alternative', async () => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      const before = await tab.canvas('#canvas-gae');
      await tab.click('#gae-forgot');
      const after = await tab.canvas('#canvas-gae');
      assert(after.hash !== before.hash, 'the switch did not change the figure');
      const label = await tab.eval(() => document.querySelector('#canvas-gae')?.getAttribute('aria-label') ?? '');
      assert(label.includes('«забыт trace_cut» = да'), `aria-label «${label}»`);
      await tab.click('#gae-forgot');
      assert((await tab.canvas('#canvas-gae')).hash === before.hash, 'switching back did not restore the figure');
    });
  });

  it('lesson 4: per-record flags move the buffer\'s boundaries, say so in the numbers and travel in the link', async () => {
    const flag = (/** @type {string} */ name, /** @type {number} */ t) => `#figure-gae input[data-flag="${name}"][data-record="${t}"]`;
    const rowOf = (/** @type {import('../harness.mjs').Tab} */ tab, /** @type {number} */ t) =>
      tab.eval((t) => [...(document.querySelectorAll('#figure-gae details.figure-numbers tbody tr')[t]?.children ?? [])].map((c) => c.textContent), t);
    const moved = await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        const d = document.querySelector('#figure-gae details.figure-numbers');
        if (d instanceof HTMLDetailsElement) d.open = true;
      });
      const before = await tab.canvas('#canvas-gae');
      const [, , , , , twoMasks, oneDone] = await rowOf(tab, 8);
      assert(twoMasks !== oneDone, `at the truncation the conventions should differ: ${twoMasks} / ${oneDone}`);
      // The truncation at t = 8 marked as a true terminal: both conventions agree there.
      await tab.click(flag('terminated', 8));
      const after = await tab.canvas('#canvas-gae');
      assert(after.hash !== before.hash, 'the flag did not change the figure');
      const row = await rowOf(tab, 8);
      assert(row[1] === 'да' && row[5] === row[6], `row 8 after the flag: ${row}`);
      // A cut in the middle of episode 2.
      await tab.click(flag('trace_cut', 5));
      const label = await tab.eval(() => document.querySelector('#canvas-gae')?.getAttribute('aria-label') ?? '');
      assert(label.includes('terminated на шагах 3, 8') && label.includes('trace_cut на шагах 3, 5, 8, 11'), `aria-label «${label}»`);
      await tab.waitFor(() => new URL(location.href).searchParams.get('cut') === '3-5-8', undefined, 5000);
      assert(new URL(tab.url()).searchParams.get('term') === '3-8', `link: ${tab.url()}`);
      return { url: tab.url(), hash: (await tab.canvas('#canvas-gae')).hash };
    });
    await env.withTab(moved.url.slice(moved.url.indexOf('gae.html')), null, async (tab) => {
      await tab.waitReady();
      const on = await tab.eval(() => [...document.querySelectorAll('#figure-gae input[data-flag]:checked')].map((i) => `${/** @type {HTMLElement} */ (i).dataset.flag}${/** @type {HTMLElement} */ (i).dataset.record}`));
      assert(JSON.stringify(on) === JSON.stringify(['terminated3', 'terminated8', 'trace_cut3', 'trace_cut5', 'trace_cut8', 'trace_cut11']), `flags from the link: ${on}`);
      assert((await tab.canvas('#canvas-gae')).hash === moved.hash, 'the link drew another figure');
    });
    await env.withTab('gae.html?cut=3-x', null, async (tab) => {
      await tab.waitReady();
      const message = (await tab.text('#figure-gae .figure-error')) ?? '';
      assert(message.includes('trace_cut') && message.includes('«3-x»'), `message «${message}»`);
      const on = await tab.eval(() => [...document.querySelectorAll('#figure-gae input[data-flag="trace_cut"]:checked')].length);
      assert(on === 3, `a refused link keeps the buffer's own cuts: ${on}`);
    });
  });

  it('lesson 3: the z-score switch adds the z-scored estimate on the same groups', async () => {
    await env.withTab('baselines.html', null, async (tab) => {
      await tab.waitReady();
      const before = await tab.canvas('#canvas-baselines');
      await tab.click('#baselines-z');
      assert((await tab.canvas('#canvas-baselines')).hash !== before.hash, 'the switch did not change the figure');
      await tab.click('#figure-baselines details.figure-numbers summary');
      await tab.waitFor(() => document.querySelectorAll('#figure-baselines details.figure-numbers tbody tr').length > 0, undefined, 5000);
      const table = (await tab.text('#figure-baselines details.figure-numbers tbody')) ?? '';
      assert(table.includes('z-оценка'), `table: ${table}`);
      const label = await tab.eval(() => document.querySelector('#canvas-baselines')?.getAttribute('aria-label') ?? '');
      assert(label.includes('z-нормировкой'), `aria-label «${label}»`);
    });
  });

  it('lesson 7: the sequence ratio e^{nδ} follows the length and δ, in the figure and in the text', async () => {
    await env.withTab('tokens.html', null, async (tab) => {
      await tab.waitReady();
      const text = async () => ({
        n: await tab.text('[data-follows="seqratio.length"]'),
        log: await tab.text('[data-follows="seqratio.log_ratio"]'),
        ratio: await tab.text('[data-follows="seqratio.ratio_text"]'),
      });
      const start = await text();
      assert(start.n === '1000' && start.log === '10' && start.ratio === '22\u202F026', `at the defaults: ${JSON.stringify(start)}`);
      const before = await tab.canvas('#canvas-seqratio');
      await tab.setSlider('#seqratio-n', 50);
      const short = await text();
      assert(short.n === '50' && short.log === '0,5' && short.ratio === '1,649', `n = 50: ${JSON.stringify(short)}`);
      assert((await tab.canvas('#canvas-seqratio')).hash !== before.hash, 'the figure did not follow n');
      await tab.setSlider('#seqratio-delta', 0);
      assert((await tab.text('#figure-seqratio [data-value="leaves_text"]'))?.includes('δ = 0'), 'δ = 0 leaves the band nowhere');
    });
  });

  it('lesson 7: the EOS and off-by-one switches and the prompt length move the mask and the reductions', async () => {
    await env.withTab('tokens.html', null, async (tab) => {
      await tab.waitReady();
      const state = async () => ({
        hash: (await tab.canvas('#canvas-tokens')).hash,
        table: (await tab.text('#figure-tokens [data-role=token-reductions]')) ?? '',
      });
      const start = await state();
      for (const [act, what] of [
        [() => tab.click('#tokens-eos'), 'EOS switch'],
        [() => tab.click('#tokens-shift'), 'off-by-one switch'],
        [() => tab.setSlider('#tokens-prompt', 4), 'prompt length'],
      ]) {
        const before = await state();
        await /** @type {() => Promise<unknown>} */ (act)();
        const after = await state();
        assert(after.hash !== before.hash && after.table !== before.table, `${what}: the figure or the reductions did not change`);
      }
      assert(start.table.length > 0, 'no reductions table');
    });
  });

  it('out-of-range URL values show a message; settings in the URL are restored; keyboard works', async () => {
    const cases = [
      ['baselines.html?g=500', '#figure-baselines'],
      ['gae.html?gamma=1.7', '#figure-gae'],
      ['gae.html?lambda=abc', '#figure-gae'],
      ['clipping.html?eps=0', '#figure-clipping'],
      ['tokens.html?teps=-1', '#figure-tokens'],
      ['gae.html?forgot=2', '#figure-gae'],
    ];
    for (const [path, fig] of cases) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        assert(await tab.visible(`${fig} .figure-error`), `${path}: no visible message`);
        const msg = (await tab.text(`${fig} .figure-error`)) ?? '';
        assert(/вне допустимого диапазона/.test(msg), `${path}: message "${msg}"`);
      });
    }
    // A shared link restores the settings.
    await env.withTab('gae.html?gamma=0.5&lambda=0.3', null, async (tab) => {
      await tab.waitReady();
      assert((await tab.value('#gae-gamma')) === '0.5' && (await tab.value('#gae-lambda')) === '0.3', 'URL settings not restored');
      // Keyboard: focus the slider, press the arrow key, the figure redraws.
      const before = await tab.canvas('#canvas-gae');
      await tab.press('#gae-lambda', 'ArrowRight');
      assert((await tab.value('#gae-lambda')) === '0.31', 'arrow key did not move the slider');
      const after = await tab.canvas('#canvas-gae');
      assert(before.hash !== after.hash, 'keyboard move did not redraw');
    });
  });

  it('readable at phone width: no horizontal scrolling, figures fit; at 1280 and 390 px no clipped formula or table without a scroll cue, no wrapped slider row', { timeout: 180_000 }, async () => {
    for (const lesson of LESSONS) {
      await env.withTab(lesson.file, { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 }, async (tab) => {
        await tab.waitReady();
        const bad = await tab.eval(layoutProblems);
        assert(bad.length === 0, `${lesson.file} at 1280 px:\n${bad.join('\n')}`);
      });
      await env.withTab(lesson.file, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 }, async (tab) => {
        await tab.waitReady();
        const overflow = await tab.eval(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 1, `${lesson.file}: page is ${overflow}px wider than the phone screen`);
        const bad = await tab.eval(layoutProblems);
        assert(bad.length === 0, `${lesson.file} at 390 px:\n${bad.join('\n')}`);
        const canvases = await tab.eval(() =>
          /** @type {HTMLCanvasElement[]} */ ([...document.querySelectorAll('canvas')]).map((c) => [c.clientWidth, c.width]),
        );
        for (const [css, backing] of canvases) assert(backing === css * 3, `${lesson.file}: canvas not crisp at DPR 3 (${backing} vs ${css}×3)`);
        if (lesson.file === 'gae.html') await tab.screenshot('phone-gae');
      });
    }
  });

  it('a canvas whose size changes is drawn again, crisp, at its new size (figures, trainer panels)', async () => {
    for (const [file, selector] of [
      ['clipping.html', '#canvas-clipping'],
      ['ppo.html', '#canvas-ppo-curve'],
      ['ppo.html', '#canvas-cartpole'],
      ['sequences.html', 'section.trainer canvas'],
    ]) {
      await env.withTab(file, null, async (tab) => {
        await tab.waitReady();
        const before = await tab.canvas(selector);
        assert(before.width === before.cssWidth * 2 && before.inked > 0.005, `${file} ${selector}: not drawn crisp at first (${JSON.stringify(before)})`);
        // The page's layout changes (a narrower column): no window resize, only the element.
        await tab.eval((s) => {
          const c = /** @type {HTMLCanvasElement} */ (document.querySelector(s));
          c.style.width = `${Math.round(c.clientWidth * 0.6)}px`;
        }, selector);
        await tab.waitFor(
          ([src, s]) => {
            const sig = /** @type {(c: HTMLCanvasElement) => { width: number, cssWidth: number, inked: number }} */ ((0, eval)(`(${src})`))(
              /** @type {HTMLCanvasElement} */ (document.querySelector(s)),
            );
            return sig.width === sig.cssWidth * 2 && sig.inked > 0.005;
          },
          [String(canvasHash), selector],
          5000,
        );
        const after = await tab.canvas(selector);
        assert(after.width < before.width, `${file} ${selector}: backing store kept its old width ${before.width}`);
      });
    }
  });

  it('exercise answers are hidden until asked for', async (t) => {
    await env.withTab('exercises.html', null, async (tab) => {
      await tab.waitReady();
      const n = await tab.count('details.answer');
      assert(n >= 5, `only ${n} exercises with answers`);
      const open = () => tab.eval(() => /** @type {HTMLDetailsElement} */ (document.querySelector('details.answer')).open);
      assert(!(await open()), 'answer open before asking');
      await tab.click('details.answer summary');
      assert(await open(), 'answer did not open');
      t.diagnostic(`${n} exercises`);
    });
  });
});
