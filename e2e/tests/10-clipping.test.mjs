// The first live figure: the PPO clipping plot on lesson 5.
import { openPage, waitReady, canvasSignature, setSlider, percentile, assert, ARTIFACTS } from '../harness.mjs';
import { join } from 'node:path';

const PAGE = 'lesson-05.html';

export const tests = [
  {
    name: 'slider redraws the clipping figure; crisp on hi-DPI; table recomputed',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + PAGE);
      await waitReady(page);
      const before = await canvasSignature(page, '#canvas-clipping');
      assert(before.inked > 0.01, `canvas looks blank (${before.inked})`);
      assert(before.width === before.cssWidth * 2, `backing width ${before.width} != CSS ${before.cssWidth} × DPR 2`);
      const outside = await page.textContent('[data-value=outside]');
      const active = await page.textContent('[data-value=active]');
      const kl = await page.textContent('[data-value=kl]');
      assert(outside === '1' && active === '0,5' && kl === '0,143841', `worked rows: ${outside} ${active} ${kl}`);
      await setSlider(page, '#clip-eps', 0.45);
      const after = await canvasSignature(page, '#canvas-clipping');
      assert(after.hash !== before.hash, 'canvas did not change with ε');
      assert(await page.textContent('output[for=clip-eps]') === '0,45', 'slider output not updated');
      // With ε = 0.45 the ratios 0.5 and 1.5 are still outside [0.55, 1.45].
      await setSlider(page, '#clip-eps', 0.5);
      assert(await page.textContent('[data-value=outside]') === '0', 'ε = 0.5 should leave no ratio outside');
      await page.waitForTimeout(400);
      assert(new URL(page.url()).searchParams.get('eps') === '0.5', `URL not updated: ${page.url()}`);
      await page.screenshot({ path: join(ARTIFACTS, 'lesson-05-clipping.png'), fullPage: true });
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'redraw time over 120 slider moves (p95 ≤ 16 ms)',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + PAGE);
      await waitReady(page);
      await page.evaluate(() => { window.pgbookTimings.clipping = []; });
      for (let i = 0; i < 120; i++) {
        await setSlider(page, '#clip-eps', (0.05 + (i % 46) * 0.01).toFixed(2));
      }
      const t = await page.evaluate(() => window.pgbookTimings.clipping);
      assert(t.length >= 100, `only ${t.length} redraws recorded`);
      const p50 = percentile(t, 50), p95 = percentile(t, 95);
      assert(p95 <= 16, `p95 redraw ${p95.toFixed(2)} ms > 16 ms`);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${t.length} moves`;
    },
  },
  {
    name: 'an out-of-range ε from the URL shows a message, not a broken figure',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + PAGE + '?eps=5');
      await waitReady(page);
      const msg = await page.textContent('#figure-clipping .figure-error');
      assert(await page.isVisible('#figure-clipping .figure-error'), 'no visible error');
      assert(msg.includes('вне допустимого диапазона'), `message: ${msg}`);
      // Moving the slider recovers.
      await setSlider(page, '#clip-eps', 0.3);
      assert(!(await page.isVisible('#figure-clipping .figure-error')), 'error did not clear');
      // A value the Rust core rejects (ε ≥ 1) comes back as the core's message.
      await page.evaluate(() => { try { window.pgbookWasm.draw_clipping('canvas-clipping', 1.5); } catch (e) { window.lastError = e.message; } });
      const rustMsg = await page.evaluate(() => window.lastError);
      assert(/clip_epsilon/.test(rustMsg), `core error: ${rustMsg}`);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'a panic inside wasm is shown to the reader',
    async run({ browser, url }) {
      const { page, context, problems, expectProblems } = await openPage(browser, url + PAGE);
      await waitReady(page);
      await page.evaluate(() => { try { window.pgbookWasm.self_test_panic(); } catch (e) { /* RuntimeError: unreachable */ } });
      await page.waitForSelector('.fatal', { timeout: 5000 });
      const text = await page.textContent('.fatal');
      assert(text.includes('self-test: a deliberate panic'), `banner: ${text}`);
      expectProblems(/self-test: a deliberate panic|unreachable/);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
];
