// @ts-check
// The classroom's views (issue 42): the projector view — a figure or a trainer panel alone,
// full window, type ≥ 28 px at 1280 × 720, the figure redrawn at twice the scale, clicker keys,
// Esc, `present=` in the address, axe inside it — and the worksheets printed to PDF (a lesson's
// sheet, the exercises' student copy without solutions and the teacher's with them).
import { it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forEachBrowser, assert, axe, ARTIFACTS } from '../harness.mjs';

forEachBrowser((env) => {
  it('projector view (lesson 4 at 1280 × 720): type ≥ 28 px, the figure redrawn with labels twice as large, clicker keys, Esc, present= in the address, contrast, axe', { timeout: 180_000 }, async (t) => {
    await env.withTab('gae.html', { viewport: { width: 1280, height: 720 } }, async (tab) => {
      await tab.waitReady();
      // Every font the core sets on the GAE canvas while drawing text, in CSS px.
      await tab.eval(() => {
        const w = /** @type {any} */ (window);
        w.gaeFonts = [];
        const fill = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (/** @type {any[]} */ ...args) {
          if (this.canvas.id === 'canvas-gae') w.gaeFonts.push(parseFloat(/([\d.]+)px/.exec(this.font)?.[1] ?? '0') / devicePixelRatio);
          return fill.apply(this, /** @type {any} */ (args));
        };
      });
      const fonts = () =>
        tab.eval(() => {
          const w = /** @type {any} */ (window);
          const all = /** @type {number[]} */ (w.gaeFonts.splice(0));
          return { least: Math.min(...all), most: Math.max(...all), count: all.length };
        });
      await tab.eval(() => {
        const input = /** @type {HTMLInputElement} */ (document.querySelector('#gae-gamma'));
        input.stepDown();
        input.dispatchEvent(new Event('input', { bubbles: true }));
      });
      const onPage = await fonts();
      await tab.click('#figure-gae .present-open button');
      await tab.waitFor(() => document.querySelector('.present-view:not([hidden]) #figure-gae') !== null, null);
      // The canvas is redrawn at its new size and scale (a ResizeObserver's and a frame's redraw).
      await tab.waitFor(() => /** @type {any} */ (window).gaeFonts.length > 0, null);
      await tab.eval(() => new Promise((r) => setTimeout(r, 300)));
      const shown = await fonts();
      const sizes = await tab.eval(() => {
        const px = (/** @type {string} */ s) => parseFloat(getComputedStyle(/** @type {Element} */ (document.querySelector(s))).fontSize);
        const canvas = /** @type {HTMLCanvasElement} */ (document.querySelector('#canvas-gae'));
        return {
          caption: px('#figure-gae figcaption'),
          slider: px('#figure-gae .controls label'),
          title: px('#present-title'),
          button: px('.present-view [data-present=next]'),
          scale: canvas.dataset.scale,
          crisp: canvas.width === Math.round(canvas.clientWidth * devicePixelRatio),
          width: canvas.clientWidth,
          url: location.search,
          focus: document.activeElement?.id,
        };
      });
      t.diagnostic(`${env.name}: ${JSON.stringify(sizes)}; canvas fonts on the page ${JSON.stringify(onPage)}, in the view ${JSON.stringify(shown)}`);
      for (const k of /** @type {const} */ (['caption', 'slider', 'title', 'button'])) assert(sizes[k] >= 28, `${k} is ${sizes[k]} px in the projector view`);
      assert(sizes.scale === '2' && sizes.crisp && sizes.width > 1000, `canvas: scale ${sizes.scale}, crisp ${sizes.crisp}, ${sizes.width} px wide`);
      assert(Math.abs(shown.least / onPage.least - 2) < 0.01 && Math.abs(shown.most / onPage.most - 2) < 0.01, `labels ${JSON.stringify(onPage)} → ${JSON.stringify(shown)}`);
      assert(/present=figure-gae/.test(sizes.url) && sizes.focus === 'present-title', `address ${sizes.url}, focus on ${sizes.focus}`);
      await tab.screenshot('present-gae', '.present-view');
      const found = await axe(tab, ['.present-view']);
      assert(found.rules === 0, `axe in the projector view: ${found.lines.join('\n')}`);
      // A clicker's PageDown steps to the lesson's next figure or panel, PageUp back.
      await tab.press('#present-title', 'PageDown');
      const next = await tab.eval(() => ({ id: document.querySelector('.present-stage > *')?.id, back: !!document.querySelector('main #figure-gae') }));
      assert(next.id === 'trainer-a2c' && next.back, `PageDown showed ${next.id} (figure back in the lesson: ${next.back})`);
      await tab.press('#present-title', 'PageUp');
      assert((await tab.eval(() => document.querySelector('.present-stage > *')?.id)) === 'figure-gae', 'PageUp did not come back');
      // On a slider the same keys move it: a tenth of its range, the figure redrawn.
      const before = Number(await tab.value('#gae-lambda'));
      await tab.press('#gae-lambda', 'PageDown');
      const after = Number(await tab.value('#gae-lambda'));
      await tab.press('#gae-lambda', 'ArrowRight');
      const arrow = Number(await tab.value('#gae-lambda'));
      assert(after < before && arrow > after, `λ ${before} → PageDown ${after} → → ${arrow}`);
      assert((await tab.eval(() => document.querySelector('.present-stage > *')?.id)) === 'figure-gae', 'a key on the slider changed the figure');
      assert((await fonts()).count > 0, 'the slider did not redraw the figure');
      // High contrast from inside the view, and back.
      await tab.click('.present-view [data-present=contrast]');
      assert((await tab.eval(() => document.documentElement.dataset.theme)) === 'contrast', 'no high contrast');
      const dark = await axe(tab, ['.present-view']);
      assert(dark.rules === 0, `axe in the projector view, high contrast: ${dark.lines.join('\n')}`);
      await tab.click('.present-view [data-present=contrast]');
      // The address reopens the view (reload), and Esc leaves it, focus back on its button.
      await tab.eval(() => new Promise((r) => setTimeout(r, 400))); // the address is written after 250 ms
      await tab.reload();
      const reopened = await tab.eval(() => ({ id: document.querySelector('.present-view:not([hidden]) .present-stage > *')?.id, lambda: /** @type {HTMLInputElement} */ (document.querySelector('#gae-lambda')).value }));
      assert(reopened.id === 'figure-gae' && Number(reopened.lambda) === arrow, `after reload: ${JSON.stringify(reopened)}`);
      await tab.press('#present-title', 'Escape');
      const left = await tab.eval(() => ({
        hidden: /** @type {HTMLElement} */ (document.querySelector('.present-view')).hidden,
        home: !!document.querySelector('main #figure-gae'),
        focus: document.activeElement?.closest('.present-open') !== null && document.activeElement?.closest('figure')?.id,
        inert: document.querySelectorAll('[inert]').length,
        url: location.search,
        scale: /** @type {HTMLElement} */ (document.querySelector('#canvas-gae')).dataset.scale ?? null,
      }));
      assert(left.hidden && left.home && left.focus === 'figure-gae' && left.inert === 0 && !left.url.includes('present=') && left.scale === null, `after Esc: ${JSON.stringify(left)}`);
    });
  });

  it('projector view: lesson 6 at 1280 × 720 (screenshot for the closing note), a trainer panel in type ≥ 28 px, axe', { timeout: 120_000 }, async () => {
    await env.withTab('ppo.html?present=trainer-ppo', { viewport: { width: 1280, height: 720 } }, async (tab) => {
      await tab.waitReady();
      const size = await tab.eval(() => {
        const view = document.querySelector('.present-view:not([hidden])');
        const text = [...(view?.querySelectorAll('p, label, li, button, summary, td, th') ?? [])].filter((e) => e.getClientRects().length > 0);
        return { shown: view?.querySelector('.present-stage > *')?.id, least: Math.min(...text.map((e) => parseFloat(getComputedStyle(e).fontSize))), n: text.length };
      });
      assert(size.shown === 'trainer-ppo' && size.least >= 28 && size.n > 10, `lesson 6's panel in the view: ${JSON.stringify(size)}`);
      await tab.screenshot('present-ppo', '.present-view');
      const found = await axe(tab, ['.present-view']);
      assert(found.rules === 0, `axe in the projector view: ${found.lines.join('\n')}`);
    });
  });

  it('worksheets: lesson 4 prints its sheet, the exercises a student copy without solutions and a teacher copy with them (Chromium, PDF)', { timeout: 180_000 }, async (t) => {
    if (env.name !== 'chromium') return t.skip('only Chromium prints to PDF headless');
    /** @type {Record<string, number>} */
    const pages = {};
    for (const [path, copy] of [['gae.html', 'lesson'], ['exercises.html', 'student'], ['exercises.html', 'teacher']]) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        const page = tab.playwright;
        assert(page, 'no playwright page');
        await tab.eval(() => (window.print = () => {}));
        await tab.click(`[data-worksheet=${copy}]`);
        await page.emulateMedia({ media: 'print' });
        const sheet = await tab.eval(() => {
          const shown = (/** @type {Element} */ e) => e.getClientRects().length > 0;
          const ws = /** @type {HTMLElement} */ (document.querySelector('.worksheet'));
          // Text without formulas' TeX annotations, spaces collapsed.
          const norm = (/** @type {Element} */ e) => {
            const copy = /** @type {Element} */ (e.cloneNode(true));
            copy.querySelectorAll('annotation').forEach((a) => a.remove());
            return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
          };
          const text = norm(ws);
          // The page's solutions and the choices' explanations, as the page holds them.
          const solutions = [...document.querySelectorAll('main details.answer > :not(summary), main [data-why]')].map(norm).filter((s) => s.length > 20);
          return {
            main: shown(/** @type {Element} */ (document.querySelector('main'))),
            items: ws.querySelectorAll('.ws-item').length,
            links: [...ws.querySelectorAll('.ws-link a')].map((a) => a.getAttribute('href') ?? ''),
            codes: ws.querySelectorAll('.ws-qr svg').length,
            spaces: ws.querySelectorAll('.ws-space').length,
            exercises: document.querySelectorAll('main h3[id^="exercise-"], main .code-exercise').length,
            figures: document.querySelectorAll('main figure.live, main aside.prepared').length,
            solutions: solutions.length,
            printed: solutions.filter((s) => text.includes(s)).length,
            left: solutions.filter((s) => !text.includes(s)).map((s) => s.slice(0, 60)).slice(0, 3),
          };
        });
        t.diagnostic(`${path} ${copy}: ${JSON.stringify({ ...sheet, links: sheet.links.length })}`);
        assert(!sheet.main, `${path}: the lesson itself prints beside its worksheet`);
        if (copy === 'lesson') {
          assert(sheet.items >= sheet.figures && sheet.spaces >= 2 * sheet.figures, `${path}: ${sheet.items} items, ${sheet.spaces} spaces for ${sheet.figures} experiments`);
          assert(sheet.links.length >= sheet.figures && sheet.links.every((l) => l.startsWith('http://127.0.0.1')), `links: ${sheet.links.join(' ')}`);
          assert(sheet.links.some((l) => /gamma=.*#figure-gae$/.test(l)) && sheet.links.some((l) => /run=ppo.*#trainer-ppo$/.test(l)), `state links: ${sheet.links.join(' ')}`);
          assert(sheet.codes === sheet.links.length, `${sheet.codes} QR codes for ${sheet.links.length} links`);
        } else {
          assert(sheet.items === sheet.exercises && sheet.solutions > 20, `${copy}: ${sheet.items} items of ${sheet.exercises} exercises, ${sheet.solutions} solutions on the page`);
          if (copy === 'student') assert(sheet.printed === 0, `the student copy prints ${sheet.printed} of ${sheet.solutions} solutions`);
          else assert(sheet.printed === sheet.solutions, `the teacher copy prints ${sheet.printed} of ${sheet.solutions} solutions; not: ${sheet.left.join(' | ')}`);
        }
        const pdf = await page.pdf({ format: 'A4', printBackground: true });
        writeFileSync(join(ARTIFACTS, `worksheet-${path.replace('.html', '')}-${copy}.pdf`), pdf);
        pages[copy] = (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
        await tab.eval(() => dispatchEvent(new Event('afterprint')));
        await page.emulateMedia({ media: null });
        assert((await tab.count('.worksheet')) === 0, 'the worksheet is left on the page after printing');
      });
    }
    t.diagnostic(`A4 pages: ${JSON.stringify(pages)}`);
    assert(pages.lesson >= 2 && pages.student >= 5 && pages.teacher > pages.student, `A4 pages: ${JSON.stringify(pages)}`);
  });
});
