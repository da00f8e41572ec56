// @ts-check
// Issue 43's trial in a loop (e2e/offline-trial.mjs), to measure how often the book fails
// offline after a first visit:
//   node e2e/offline-trials.mjs [TRIALS] [--wait issue|said] [--load document|ready] [--idle] [--skip PAGE,…] [--no-settle]
//     [--root SITE] (another build, e.g. an older commit's) [--full] (with --load document: each
//     lesson in turn loaded whole, as 40-offline does)
// Each browser of $PGBOOK_BROWSERS (default both) runs TRIALS trials (default 30) in one
// browser, a fresh context each, under one busy loop per core (--idle: none). One JSON line
// per trial, then each browser's failure rate with the failures' messages.
import { launch, BROWSERS } from './harness.mjs';
import { cpuLoad, offlineTrial } from './offline-trial.mjs';
import { LESSONS } from '../www/book.mjs';

const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => {
  const i = args.indexOf(name);
  return i < 0 ? null : (args.splice(i, 2)[1] ?? '');
};
const idle = args.includes('--idle');
if (idle) args.splice(args.indexOf('--idle'), 1);
const load = /** @type {'document' | 'ready'} */ (flag('--load') ?? 'ready');
const wait = /** @type {'issue' | 'said'} */ (flag('--wait') ?? 'issue');
const noSettle = args.includes('--no-settle');
if (noSettle) args.splice(args.indexOf('--no-settle'), 1);
const skip = (flag('--skip') ?? '').split(',').filter(Boolean);
const root = flag('--root') ?? undefined;
const rotate = args.includes('--full');
if (rotate) args.splice(args.indexOf('--full'), 1);
const trials = Number(args[0] ?? 30);

const stress = idle ? null : cpuLoad();
try {
  for (const name of BROWSERS) {
    const browser = await launch(name, { serviceWorkers: true });
    let failed = 0;
    /** @type {Map<string, number>} */
    const messages = new Map();
    try {
      for (let i = 0; i < trials; i++) {
        const r = await offlineTrial(browser, {
          wait,
          load,
          skip,
          noSettle,
          root,
          full: rotate ? LESSONS[i % LESSONS.length].file : '',
        }).catch((e) => ({
          failures: [{ page: '(trial)', message: String(e?.message ?? e).split('\n')[0] }],
          pages: [],
          said: null,
          ms: 0,
        }));
        if (r.failures.length) failed++;
        for (const f of r.failures) {
          const key = `${f.page}: ${f.message.replace(/127\.0\.0\.1:\d+/g, 'HOST')}`;
          messages.set(key, (messages.get(key) ?? 0) + 1);
        }
        console.log(
          JSON.stringify({ browser: name, trial: i + 1, pages: r.pages.length, failed: r.failures.length, ms: r.ms, failures: r.failures }),
        );
      }
    } finally {
      await browser.close();
    }
    console.log(
      `${name}: ${failed} of ${trials} trials failed (load: ${idle ? 'none' : 'a busy loop per core'}; wait: ${wait}; pages checked: ${load})`,
    );
    for (const [m, n] of [...messages].sort((a, b) => b[1] - a[1])) console.log(`  ${n}× ${m}`);
  }
} finally {
  await stress?.stop();
}
