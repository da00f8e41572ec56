// @ts-check
// The class experiment's merge (issue 42; `node e2e/bench.mjs class`): thirty codes made by the
// CLI pasted into the contents page's #class, timed from the click on «Собрать» to the band
// drawn (the table, the core's merge and the canvas), in Chromium and Firefox ESR, served.
// The first merge loads the whole core; the figure reported is the median of the later ones.
import { execFileSync } from 'node:child_process';
import { CLI, launch, percentile } from './harness.mjs';

const SETS = ['--set', 'num_updates=40', '--set', 'evaluation_every=4'];

/** Thirty codes of the cheap class (tests/class.rs's), eight seeds a call. */
function codes() {
  const out = [];
  for (let s = 1; s <= 30; s += 8) {
    const seeds = Array.from({ length: Math.min(8, 31 - s) }, (_, i) => s + i).join(',');
    out.push(
      ...execFileSync(CLI, ['train', 'a2c', '--profile', 'smoke', ...SETS, '--seeds', seeds, '--class-code'], { encoding: 'utf8' })
        .trim()
        .split('\n'),
    );
  }
  return out;
}

/**
 * In the page: pastes `text`, clicks «Собрать» and waits for the band drawn; the milliseconds.
 * @param {string} text
 */
const pasteAndDraw = async (text) => {
  const area = /** @type {HTMLTextAreaElement} */ (document.getElementById('class-codes'));
  const button = /** @type {HTMLButtonElement} */ (
    [...document.querySelectorAll('[data-class-teacher] button')].find((b) => b.textContent === 'Собрать')
  );
  document.getElementById('class-band')?.removeAttribute('data-drawn');
  area.value = text;
  const t0 = performance.now();
  button.click();
  while (document.getElementById('class-band')?.dataset.drawn !== '30') await new Promise((r) => setTimeout(r, 1));
  return performance.now() - t0;
};

/** @param {{ server: { url: string }, chromium: import('./harness.mjs').Browser, out: (kind: string, data: object) => void }} context */
export async function classBench({ server, chromium, out }) {
  const text = codes().join('\n');
  const firefox = await launch('firefox');
  try {
    for (const [name, browser] of /** @type {[string, import('./harness.mjs').Browser][]} */ ([
      ['chromium', chromium],
      ['firefox', firefox],
    ])) {
      const tab = await browser.open(`${server.url}index.html?class=a2c&config=smoke;num_updates=40;evaluation_every=4&n=30#class`, {
        deviceScaleFactor: 1,
      });
      try {
        await tab.waitReady();
        await tab.waitFor(() => document.getElementById('class-codes') !== null, null, 30_000);
        const times = [];
        for (let i = 0; i < 6; i++) times.push(await tab.eval(pasteAndDraw, text));
        out('class_merge', {
          browser: name,
          codes: 30,
          first_ms: times[0],
          median_ms: percentile(times.slice(1), 50),
          most_ms: Math.max(...times.slice(1)),
        });
      } finally {
        await tab.close();
      }
    }
  } finally {
    await firefox.close();
  }
}
