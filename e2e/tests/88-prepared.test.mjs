// @ts-check
// The lessons' prepared comparisons (lessons 2–6 and 8): each lists its configurations
// from the schema and runs them (on the page's own panel, or by a link to the trainer's
// page); once run, its numbers fill the lesson from the reader's finished run — and stay after
// a reload, from the browser's history.
import { it } from 'node:test';
import { forEachBrowser, assert } from '../harness.mjs';

forEachBrowser((env) => {
  it('every prepared comparison lists its configurations and can be run', { timeout: 60_000 }, async (t) => {
    /** @type {string[]} */
    const seen = [];
    for (const file of ['lesson-02.html', 'lesson-03.html', 'lesson-04.html', 'lesson-05.html', 'lesson-06.html', 'lesson-08.html']) {
      await env.withTab(file, null, async (tab) => {
        await tab.waitReady();
        const boxes = await tab.eval(() =>
          [...document.querySelectorAll('[data-prepared]')].map((b) => ({
            id: b.id,
            configs: (/** @type {HTMLElement} */ (b).dataset.cfg ?? '').split('|').length,
            listed: b.querySelectorAll('.prepared-configs li').length,
            link: /** @type {HTMLAnchorElement | null} */ (b.querySelector('a.prepared-run'))?.href ?? null,
            button: b.querySelector('button.prepared-run') !== null,
            result: b.querySelector('[data-prepared-result]')?.textContent ?? '',
          })),
        );
        assert(boxes.length > 0, `${file}: no prepared comparison`);
        for (const b of boxes) {
          assert(b.listed === b.configs, `${file} ${b.id}: ${b.listed} configurations listed of ${b.configs}`);
          assert(!/не распознано/.test(b.result), `${file} ${b.id}: ${b.result}`);
          // A page with the trainer's panel runs it there; the others link to that page.
          const own = ['lesson-02.html', 'lesson-03.html', 'lesson-06.html', 'lesson-08.html'].includes(file);
          assert(own ? b.button : b.link !== null, `${file} ${b.id}: no way to run it`);
          if (b.link) {
            // A link starts the run on its trainer's page: every configuration, or the one.
            const url = new URL(b.link);
            const page = { ppo: '/lesson-06.html', reinforce: '/lesson-03.html', sequence: '/lesson-08.html' }[url.searchParams.get('run') ?? ''];
            const configs = url.searchParams.getAll('cfg').length || Number(url.searchParams.has('profile'));
            assert(page !== undefined && url.pathname.endsWith(page) && configs >= 1 && configs <= b.configs, `${file}: link ${b.link}`);
          }
          seen.push(`${file}#${b.id} (${b.configs})`);
        }
      });
    }
    t.diagnostic(seen.join(', '));
  });

  it('a prepared comparison run from its button fills the lesson with its numbers, and they stay after a reload', { timeout: 400_000 }, async () => {
    await env.withTab('lesson-08.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.click('#prepared-reductions button.prepared-run');
      assert((await tab.count('#trainer-sequence .config-chip')) === 4, 'the panel did not take the four configurations');
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 360_000);
      assert((await tab.status('#trainer-sequence')) === 'finished', (await tab.text('#trainer-sequence .figure-error')) ?? '');
      const filled = () =>
        tab.eval(() => ({
          rows: document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length,
          text: document.querySelector('#prepared-reductions [data-prepared-result] .comparison-text')?.textContent ?? '',
        }));
      await tab.waitFor(() => document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length === 4, null, 10_000);
      const before = await filled();
      assert(/одному начальному значению/.test(before.text), `the text does not say one seed cannot tell: «${before.text}»`);
      // The numbers are the panel's own results.
      const panel = await tab.eval(() => document.querySelector('#seq-comparison .comparison-text')?.textContent ?? '');
      assert(panel === before.text, `lesson «${before.text}» ≠ panel «${panel}»`);
      await tab.eval(() => location.reload());
      await tab.waitReady();
      await tab.waitFor(() => document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length === 4, null, 10_000);
      assert((await filled()).text === before.text, 'the reload changed the numbers');
    });
  });
});
