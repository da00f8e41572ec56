// @ts-check
// Figures' state in the URL: a shared value the slider cannot take exactly is refused with a
// message and the figure is drawn at the slider's value (so figure, thumb and URL agree); a
// huge value never widens the page; a page opened from disk says how to start the book.
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { forEachBrowser, assert, SITE } from '../harness.mjs';

/** [query, figure, the refused slider, another slider of the figure (or itself)] */
const CASES = [
  ['gae.html?gamma=', 'gae', '#gae-gamma', '#gae-lambda'],
  ['baselines.html?g=0x10', 'baselines', '#baselines-g', '#baselines-g'],
  ['gae.html?gamma=%200.5', 'gae', '#gae-gamma', '#gae-lambda'],
  ['gae.html?gamma=0.5%20', 'gae', '#gae-gamma', '#gae-lambda'],
  ['gae.html?lambda=0.555', 'gae', '#gae-lambda', '#gae-gamma'],
  ['tokens.html?teps=0.2000001', 'tokens', '#tokens-eps', '#tokens-eps'],
  ['gae.html?gamma=1e-1', 'gae', '#gae-gamma', '#gae-lambda'],
];

forEachBrowser((env) => {
  it('a URL value the slider cannot take exactly is refused; figure, slider and URL agree', { timeout: 120_000 }, async () => {
    // One tab for every case: each is a fresh navigation (a new document), not a fresh context.
    await env.withTab('', null, async (tab) => {
      /** @type {Record<string, number>} canvas hash of each page as it opens without a query */
      const reference = {};
      for (const [query, fig] of CASES) {
        const page = query.split('?')[0];
        if (reference[page] !== undefined) continue;
        await tab.goto(env.url + page);
        await tab.waitReady();
        reference[page] = (await tab.canvas(`#canvas-${fig}`)).hash;
      }
      for (const [query, fig, slider, other] of CASES) {
        await tab.goto(env.url + query);
        await tab.waitReady();
        const box = `#figure-${fig} .figure-error`;
        assert(await tab.visible(box), `${query}: no message`);
        const msg = (await tab.text(box)) ?? '';
        assert(/вне допустимого диапазона/.test(msg) && /Рисунок построен для/.test(msg), `${query}: message «${msg}»`);
        assert(!(await tab.eval((f) => document.querySelector(`#figure-${f}`)?.classList.contains('failed'), fig)), `${query}: figure marked failed`);
        const drawn = await tab.canvas(`#canvas-${fig}`);
        assert(drawn.hash === reference[query.split('?')[0]], `${query}: the figure is not the one at the slider's value`);
        // Moving a slider writes every slider's value, the refused one's included, to the URL.
        const before = Number(await tab.value(slider));
        await tab.press(other, 'ArrowLeft');
        await tab.waitFor(
          ([s, q]) => new URL(location.href).searchParams.get(q) === /** @type {HTMLInputElement} */ (document.querySelector(s)).value,
          [slider, /** @type {string} */ (query.split('?')[1].split('=')[0])],
          5000,
        );
        if (other !== slider) assert(Number(await tab.value(slider)) === before, `${query}: the refused slider moved`);
        assert(!(await tab.visible(box)), `${query}: the message stayed after the reader moved a slider`);
      }
    });
  });

  it('a 20,000-character value never widens the page; messages quote a short prefix', { timeout: 120_000 }, async () => {
    const huge = '7'.repeat(20_000);
    for (const viewport of [
      { width: 1100, height: 900 },
      { width: 390, height: 844 },
    ]) {
      for (const [path, box] of [
        [`gae.html?gamma=${huge}`, '#figure-gae .figure-error'],
        [`clipping.html?eps=0.${huge}`, '#figure-clipping .figure-error'],
        [`sequences.html?run=sequence&profile=smoke&seed=${huge}`, '#trainer-sequence .figure-error'],
        [`ppo.html?run=ppo&profile=smoke&seeds=${huge}`, '#trainer-ppo .figure-error'],
      ]) {
        await env.withTab(path, { viewport }, async (tab) => {
          await tab.waitReady();
          assert(await tab.visible(box), `${path.slice(0, 40)}…: no message`);
          const overflow = await tab.eval(() => document.documentElement.scrollWidth - window.innerWidth);
          assert(overflow <= 1, `${path.slice(0, 40)}… at ${viewport.width} px: the page is ${overflow} px wider than the window`);
          if (box.startsWith('#figure')) {
            const length = ((await tab.text(box)) ?? '').length;
            assert(length < 400, `${path.slice(0, 40)}…: a message of ${length} characters`);
          }
        });
      }
    }
  });

  it('a page opened from disk (file://) says, in Russian, how to start the book', async () => {
    const url = pathToFileURL(join(SITE, 'clipping.html')).href;
    const tab = await env.browser.open(url);
    try {
      await tab.waitFor(() => document.readyState === 'complete', null, 10_000);
      assert(await tab.visible('#file-warning'), 'no message on a page opened from disk');
      const text = (await tab.text('#file-warning')) ?? '';
      assert(/python3 -m http\.server/.test(text) && /scripts\/serve\.sh/.test(text) && /http:\/\/127\.0\.0\.1:8000\//.test(text), text);
      // The same lesson in the book in one file, beside it: it runs from disk.
      const onefile = await tab.eval(() => /** @type {HTMLAnchorElement} */ (document.getElementById('file-warning-onefile')).href);
      assert(onefile.endsWith('/pgbook.html#clipping'), onefile);
      // What the browser itself logs about refusing modules from file:// is expected.
      tab.expectProblems(/CORS|file:|module|origin|ERR_FAILED/i);
      assert(tab.problems.length === 0, tab.problems.join('\n'));
    } finally {
      await tab.close();
    }
    await env.withTab('clipping.html', null, async (tab) => {
      await tab.waitReady();
      assert(!(await tab.visible('#file-warning')), 'the disk message shows on a served page');
      // The page's address before the pages were named by subject still arrives, query and
      // fragment kept (a run link or bookmark made before).
      await tab.goto(`${env.url}lesson-05.html?q=1#notation`);
      await tab.waitFor(() => location.pathname.endsWith('/clipping.html') && location.search === '?q=1' && location.hash === '#notation', null, 10_000);
    });
  });
});
