// @ts-check
// The first live figure: the PPO clipping plot on lesson 5.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

const PAGE = 'clipping.html';

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
      // The link follows the slider (written after a short debounce: wait for it).
      await tab.waitFor(() => new URL(location.href).searchParams.get('eps') === '0.5', null, 5000);
      await tab.screenshot('clipping-clipping');
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
      // A value outside the range the core declares comes back as its message, naming ε.
      const rustMsg = await tab.eval(() => {
        try {
          window.pgbookWasm.draw_figure('clipping', 'canvas-clipping', { eps: 1.5 });
          return 'no error';
        } catch (e) {
          return e instanceof Error ? e.message : String(e);
        }
      });
      assert(/^ε: допустимы значения в \[0,05; 0,7\]/.test(rustMsg), `core error: ${rustMsg}`);
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
