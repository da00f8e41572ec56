// Every lesson: rendered math and no raw TeX, worked numbers filled by wasm, every slider
// redraws its figure (timed), out-of-range values give a message, keyboard control, phone
// width, first paint, and a screenshot of each lesson.
import { openPage, waitReady, canvasSignature, setSlider, percentile, assert, ARTIFACTS, RAW_TEX } from '../harness.mjs';
import { LESSONS } from '../../www/js/lessons.js';
import { join } from 'node:path';


async function checkLesson(browser, url, lesson) {
  const { page, context, problems } = await openPage(browser, url + lesson.file, { deviceScaleFactor: 1 });
  await waitReady(page);
  const report = await page.evaluate((rawTex) => {
    const math = [...document.querySelectorAll('.math, .math-display')];
    const unrendered = math.filter((el) => !el.querySelector('math')).map((el) => el.textContent.slice(0, 60));
    const text = document.body.innerText;
    const raw = text.match(new RegExp(rawTex));
    const worked = [...document.querySelectorAll('[data-worked]')];
    const missing = worked.filter((el) => !el.textContent.trim() || el.textContent === '?').map((el) => el.dataset.worked);
    const tables = [...document.querySelectorAll('[data-worked-table]')].filter((el) => !el.querySelector('table')).map((el) => el.dataset.workedTable);
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const unlabeled = [...document.querySelectorAll('input, select, button')].filter((el) => el.type !== 'hidden' && !(el.labels?.length || el.getAttribute('aria-label') || el.textContent.trim())).map((el) => el.id || el.outerHTML.slice(0, 60));
    return { mathCount: math.length, unrendered, raw: raw && raw[0], worked: worked.length, missing, tables, fcp, words: text.split(/\s+/).length, unlabeled,
      h1: document.querySelector('h1')?.textContent, pager: document.querySelectorAll('nav.pager a').length };
  }, RAW_TEX.source);
  assert(report.h1, 'no <h1>');
  assert(report.mathCount > 0, 'no formulas on the page');
  assert(report.unrendered.length === 0, `formulas not rendered: ${report.unrendered.join(' | ')}`);
  assert(!report.raw, `raw TeX visible: ${report.raw}`);
  assert(report.missing.length === 0, `worked values missing: ${report.missing.join(', ')}`);
  assert(report.tables.length === 0, `worked tables missing: ${report.tables.join(', ')}`);
  assert(report.unlabeled.length === 0, `controls without a label: ${report.unlabeled.join(', ')}`);
  assert(report.pager === 2, 'lesson navigation missing');
  assert(report.fcp !== null && report.fcp <= 1000, `first contentful paint ${report.fcp} ms`);
  await page.screenshot({ path: join(ARTIFACTS, lesson.file.replace('.html', '.png')), fullPage: true });
  assert(problems.length === 0, problems.join('\n'));
  await context.close();
  return report;
}

export const tests = [
  {
    name: 'the table of contents lists every lesson and each link opens',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url);
      await waitReady(page);
      const links = await page.$$eval('nav.toc a', (as) => as.map((a) => a.getAttribute('href')));
      assert(links.length === LESSONS.length && LESSONS.length === 9, `TOC has ${links.length} of ${LESSONS.length} lessons`);
      for (const href of links) {
        const res = await page.request.get(url + href);
        assert(res.ok(), `${href}: HTTP ${res.status()}`);
      }
      const icon = await page.request.get(url + 'favicon.svg');
      assert(icon.ok(), 'favicon missing');
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return `${links.length} lessons`;
    },
  },
  ...LESSONS.map((lesson) => ({
    name: `${lesson.file}: math rendered, no raw TeX, worked numbers, first paint, screenshot`,
    async run({ browser, url }) {
      const r = await checkLesson(browser, url, lesson);
      return `${r.mathCount} formulas, ${r.worked} worked values, ~${r.words} words, FCP ${r.fcp.toFixed(0)} ms`;
    },
  })),
  {
    name: 'every slider of every figure redraws it; p95 redraw ≤ 16 ms over ≥ 100 moves',
    async run({ browser, url }) {
      const notes = [];
      for (const lesson of LESSONS) {
        const { page, context, problems } = await openPage(browser, url + lesson.file);
        await waitReady(page);
        const figures = await page.$$eval('figure.live[data-figure]', (fs) => fs.map((f) => ({
          name: f.dataset.figure, canvas: '#' + f.querySelector('canvas').id,
          sliders: [...f.querySelectorAll('input[data-param]')].map((i) => ({ id: '#' + i.id, min: +i.min, max: +i.max, step: +i.step, value: +i.value })),
        })));
        for (const fig of figures) {
          for (const s of fig.sliders) {
            const before = await canvasSignature(page, fig.canvas);
            assert(before.inked > 0.01, `${fig.name}: canvas blank`);
            const target = s.value + s.step * 5 <= s.max ? s.value + s.step * 5 : s.value - s.step * 5;
            await setSlider(page, s.id, target);
            const after = await canvasSignature(page, fig.canvas);
            assert(after.hash !== before.hash, `${fig.name}: moving ${s.id} did not change the figure`);
          }
          await page.evaluate((n) => { window.pgbookTimings[n] = []; }, fig.name);
          const s = fig.sliders[0];
          const steps = Math.round((s.max - s.min) / s.step);
          for (let i = 0; i < 110; i++) {
            const v = s.min + ((i * 7) % (steps + 1)) * s.step;
            await setSlider(page, s.id, Number(v.toFixed(6)));
          }
          const t = await page.evaluate((n) => window.pgbookTimings[n], fig.name);
          assert(t.length >= 100, `${fig.name}: only ${t.length} redraws`);
          const p95 = percentile(t, 95);
          notes.push(`${fig.name} p50 ${percentile(t, 50).toFixed(1)} / p95 ${p95.toFixed(1)} ms`);
          assert(p95 <= 16, `${fig.name}: p95 redraw ${p95.toFixed(2)} ms > 16 ms`);
        }
        assert(problems.length === 0, problems.join('\n'));
        await context.close();
      }
      assert(notes.length >= 4, `expected at least 4 live figures, found ${notes.length}`);
      return notes.join('; ');
    },
  },
  {
    name: 'out-of-range URL values show a message; settings in the URL are restored; keyboard works',
    async run({ browser, url }) {
      const cases = [
        ['lesson-03.html?g=500', '#figure-baselines'],
        ['lesson-04.html?gamma=1.7', '#figure-gae'],
        ['lesson-04.html?lambda=abc', '#figure-gae'],
        ['lesson-05.html?eps=0', '#figure-clipping'],
        ['lesson-07.html?teps=-1', '#figure-tokens'],
      ];
      for (const [path, fig] of cases) {
        const { page, context, problems } = await openPage(browser, url + path);
        await waitReady(page);
        assert(await page.isVisible(`${fig} .figure-error`), `${path}: no visible message`);
        const msg = await page.textContent(`${fig} .figure-error`);
        assert(/вне допустимого диапазона/.test(msg), `${path}: message "${msg}"`);
        assert(problems.length === 0, problems.join('\n'));
        await context.close();
      }
      // A shared link restores the settings.
      const { page, context, problems } = await openPage(browser, url + 'lesson-04.html?gamma=0.5&lambda=0.3');
      await waitReady(page);
      assert(await page.inputValue('#gae-gamma') === '0.5' && await page.inputValue('#gae-lambda') === '0.3', 'URL settings not restored');
      // Keyboard: focus the slider, press the arrow key, the figure redraws.
      const before = await canvasSignature(page, '#canvas-gae');
      await page.focus('#gae-lambda');
      await page.keyboard.press('ArrowRight');
      assert(await page.inputValue('#gae-lambda') === '0.31', 'arrow key did not move the slider');
      const after = await canvasSignature(page, '#canvas-gae');
      assert(before.hash !== after.hash, 'keyboard move did not redraw');
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'readable at phone width: no horizontal scrolling, figures fit',
    async run({ browser, url }) {
      for (const lesson of LESSONS) {
        const { page, context, problems } = await openPage(browser, url + lesson.file, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
        await waitReady(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 1, `${lesson.file}: page is ${overflow}px wider than the phone screen`);
        const canvases = await page.$$eval('figure.live canvas', (cs) => cs.map((c) => [c.clientWidth, c.width]));
        for (const [css, backing] of canvases) assert(backing === css * 3, `${lesson.file}: canvas not crisp at DPR 3 (${backing} vs ${css}×3)`);
        if (lesson.file === 'lesson-04.html') await page.screenshot({ path: join(ARTIFACTS, 'phone-lesson-04.png'), fullPage: false });
        assert(problems.length === 0, problems.join('\n'));
        await context.close();
      }
    },
  },
  {
    name: 'exercise answers are hidden until asked for',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + 'lesson-09.html');
      await waitReady(page);
      const n = await page.$$eval('details.answer', (ds) => ds.length);
      assert(n >= 5, `only ${n} exercises with answers`);
      const first = page.locator('details.answer').first();
      assert(!(await first.evaluate((d) => d.open)), 'answer open before asking');
      await first.locator('summary').click();
      assert(await first.evaluate((d) => d.open), 'answer did not open');
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return `${n} exercises`;
    },
  },
];
