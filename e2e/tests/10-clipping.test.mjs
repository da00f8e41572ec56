// @ts-check
// The first live figure: the PPO clipping plot on lesson 5.
import { it } from 'node:test';
import { forEachBrowser, assert, percentile, sleep, REDRAW_BUDGET_MS } from '../harness.mjs';

const PAGE = 'lesson-05.html';

forEachBrowser((env) => {
  it('slider redraws the clipping figure; crisp on hi-DPI; table recomputed', async () => {
    await env.withTab(PAGE, null, async (tab) => {
      await tab.waitReady();
      const before = await tab.canvas('#canvas-clipping');
      assert(before.inked > 0.01, `canvas looks blank (${before.inked})`);
      assert(before.width === before.cssWidth * 2, `backing width ${before.width} != CSS ${before.cssWidth} × DPR 2`);
      const outside = await tab.text('[data-value=outside]');
      const active = await tab.text('[data-value=active]');
      const kl = await tab.text('[data-value=kl]');
      assert(outside === '1' && active === '0,5' && kl === '0,143841', `worked rows: ${outside} ${active} ${kl}`);
      await tab.setSlider('#clip-eps', 0.45);
      const after = await tab.canvas('#canvas-clipping');
      assert(after.hash !== before.hash, 'canvas did not change with ε');
      assert((await tab.text('output[for=clip-eps]')) === '0,45', 'slider output not updated');
      // With ε = 0.45 the ratios 0.5 and 1.5 are still outside [0.55, 1.45].
      await tab.setSlider('#clip-eps', 0.5);
      assert((await tab.text('[data-value=outside]')) === '0', 'ε = 0.5 should leave no ratio outside');
      await sleep(400);
      assert(new URL(tab.url()).searchParams.get('eps') === '0.5', `URL not updated: ${tab.url()}`);
      await tab.screenshot('lesson-05-clipping');
    });
  });

  it('redraw time over 120 slider moves (p95 within the browser budget)', async (t) => {
    await env.withTab(PAGE, null, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        window.pgbookTimings.clipping = [];
      });
      for (let i = 0; i < 120; i++) await tab.setSlider('#clip-eps', (0.05 + (i % 46) * 0.01).toFixed(2));
      const times = await tab.eval(() => window.pgbookTimings.clipping);
      assert(times.length >= 100, `only ${times.length} redraws recorded`);
      const p50 = percentile(times, 50),
        p95 = percentile(times, 95);
      const budget = REDRAW_BUDGET_MS[env.name];
      assert(budget === null || p95 <= budget, `p95 redraw ${p95.toFixed(2)} ms > ${budget} ms`);
      t.diagnostic(`p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${times.length} moves`);
    });
  });

  it('an out-of-range ε from the URL shows a message, not a broken figure', async () => {
    await env.withTab(`${PAGE}?eps=5`, null, async (tab) => {
      await tab.waitReady();
      const msg = (await tab.text('#figure-clipping .figure-error')) ?? '';
      assert(await tab.visible('#figure-clipping .figure-error'), 'no visible error');
      assert(msg.includes('вне допустимого диапазона'), `message: ${msg}`);
      // Moving the slider recovers.
      await tab.setSlider('#clip-eps', 0.3);
      assert(!(await tab.visible('#figure-clipping .figure-error')), 'error did not clear');
      // A value the Rust core rejects (ε ≥ 1) comes back as the core's message.
      const rustMsg = await tab.eval(() => {
        try {
          window.pgbookWasm.draw_clipping('canvas-clipping', 1.5);
          return 'no error';
        } catch (e) {
          return e instanceof Error ? e.message : String(e);
        }
      });
      assert(/clip_epsilon/.test(rustMsg), `core error: ${rustMsg}`);
    });
  });

  it('a panic inside wasm is shown to the reader', async () => {
    await env.withTab(PAGE, null, async (tab) => {
      await tab.waitReady();
      await tab.eval(() => {
        try {
          window.pgbookWasm.self_test_panic();
        } catch {
          /* RuntimeError: unreachable */
        }
      });
      await tab.waitFor(() => !!document.querySelector('.fatal'), null, 5000);
      const text = (await tab.text('.fatal')) ?? '';
      assert(text.includes('self-test: a deliberate panic'), `banner: ${text}`);
      tab.expectProblems(/self-test: a deliberate panic|unreachable/);
    });
  });
});
