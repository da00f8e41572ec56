// @ts-check
// Motion (issue 28, WCAG 2.2.2 and 2.3.3): the CartPole animation of a trainer panel plays by
// itself only when the reader has not asked the system for less motion, and a button stops it;
// with prefers-reduced-motion: reduce the panel shows a still frame and a button that plays the
// episode once. Chromium emulates the preference per context; Firefox takes it as a preference
// of its own browser (ui.prefersReducedMotion).
import { it } from 'node:test';
import { forEachBrowser, assert, canvasHash, countWorkers, waitWorkersSaid } from '../harness.mjs';

const POLE = '#canvas-cartpole';
const PLAY = '#trainer-ppo .pole-play';
/** PPO's full profile, three times as long, in the form: the run outlasts the test's clicks. */
const LONG = 'ppo.html?form=ppo&profile=full&seeds=11&num_updates=600';

/**
 * The distinct pictures the CartPole canvas showed over `frames` animation frames.
 * @param {import('../harness.mjs').Tab} tab @param {number} frames
 */
const picturesOver = (tab, frames) =>
  tab.eval(
    async ([src, sel, n]) => {
      const hash = /** @type {(c: HTMLCanvasElement) => { hash: number }} */ ((0, eval)(`(${src})`));
      const canvas = /** @type {HTMLCanvasElement} */ (document.querySelector(/** @type {string} */ (sel)));
      const seen = new Set([hash(canvas).hash]);
      for (let i = 0; i < /** @type {number} */ (n); i++) {
        await new Promise((r) => requestAnimationFrame(r));
        seen.add(hash(canvas).hash);
      }
      return seen.size;
    },
    /** @type {[string, string, number]} */ ([String(canvasHash), POLE, frames]),
  );

/** Waits until the CartPole canvas shows another picture than now (the animation moves). @param {import('../harness.mjs').Tab} tab */
async function waitMoves(tab) {
  const before = (await tab.canvas(POLE)).hash;
  await tab.waitFor(
    ([src, sel, h]) =>
      /** @type {(c: HTMLCanvasElement) => { hash: number }} */ ((0, eval)(`(${src})`))(/** @type {HTMLCanvasElement} */ (document.querySelector(/** @type {string} */ (sel)))).hash !== h,
    /** @type {[string, string, number]} */ ([String(canvasHash), POLE, before]),
    15_000,
  );
}

/**
 * Lesson 6's PPO panel training (LONG), paused once its first greedy episode has
 * arrived: the episode replays while the run is on, and no new one can come.
 * @param {import('../harness.mjs').Tab} tab
 */
async function pausedWithEpisode(tab) {
  await tab.waitReady();
  await countWorkers(tab);
  await tab.clickButton('#trainer-ppo', 'Старт');
  await tab.waitFor(() => /** @type {any} */ (window).pgbookPanels.ppo.episodes.size > 0, null, 180_000);
  await tab.clickButton('#trainer-ppo', 'Пауза');
  await waitWorkersSaid(tab, 'paused', 120_000);
  // The reader looks at the pole (the animation waits while it is off-screen).
  await tab.eval((sel) => document.querySelector(sel)?.scrollIntoView({ block: 'center' }), POLE);
  await tab.settle();
}

forEachBrowser((env) => {
  it('no motion preference: the episode plays by itself, and a button stops and plays it', { timeout: 360_000 }, async () => {
    await env.withTab(LONG, { deviceScaleFactor: 1 }, async (tab) => {
      const reduced = await tab.eval(() => matchMedia('(prefers-reduced-motion: reduce)').matches);
      assert(!reduced, 'this browser asks for reduced motion');
      await pausedWithEpisode(tab);
      await waitMoves(tab); // plays (and replays) by itself
      assert((await tab.text(PLAY)) === 'Остановить анимацию', `the button says «${await tab.text(PLAY)}» while the episode plays`);
      await tab.click(PLAY);
      const still = await picturesOver(tab, 30);
      assert(still === 1, `stopped, the canvas still showed ${still} pictures`);
      assert((await tab.text(PLAY)) === 'Проиграть эпизод', `the button says «${await tab.text(PLAY)}» once stopped`);
      await tab.click(PLAY);
      await waitMoves(tab);
      await tab.clickButton('#trainer-ppo', 'Стоп');
    });
  });
  // A browser of its own: the animation plays only in a visible tab, and the only tab in its
  // window is one (two files share the browser otherwise).
}, { fresh: true });

forEachBrowser(
  (env) => {
    it('prefers-reduced-motion: a still frame of the episode and a button that plays it once', { timeout: 360_000 }, async () => {
      await env.withTab(LONG, { deviceScaleFactor: 1 }, async (tab) => {
        const reduced = await tab.eval(() => matchMedia('(prefers-reduced-motion: reduce)').matches);
        assert(reduced, 'the browser does not ask for reduced motion');
        await pausedWithEpisode(tab);
        const still = await picturesOver(tab, 30);
        assert(still === 1, `with reduced motion the canvas showed ${still} pictures by itself`);
        const frame = await tab.canvas(POLE);
        assert(frame.inked > 0.005, 'the still frame is empty');
        assert((await tab.text(PLAY)) === 'Проиграть эпизод', `the button says «${await tab.text(PLAY)}»`);
        await tab.click(PLAY);
        await waitMoves(tab);
        // Played once, it stops on its last frame and offers to play again.
        await tab.waitFor((sel) => document.querySelector(sel)?.textContent === 'Проиграть эпизод', PLAY, 30_000);
        const after = await picturesOver(tab, 30);
        assert(after === 1, `after playing once the canvas went on showing ${after} pictures`);
        await tab.clickButton('#trainer-ppo', 'Стоп');
      });
    });
  },
  { reducedMotion: true },
);
