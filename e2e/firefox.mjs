// The readers' other browser: Debian's Firefox ESR, driven by geckodriver over WebDriver BiDi
// (playwright-core only drives its own patched Firefox, which must not be downloaded here).
// Every page renders its math and redraws its figures, both trainers finish in workers with
// the native CLI's numbers, and nothing logs an error, throws, or asks for anything but
// 127.0.0.1. Prints "firefox: N passed, M failed" and exits non-zero on any failure.
// Usage: node --experimental-websocket e2e/firefox.mjs [name filter]
import { LESSONS } from '../www/js/lessons.js';
import { startServer, assert, cliLines, compareReports, canvasHash, RAW_TEX } from './harness.mjs';
import { startGeckodriver, Session } from './bidi.mjs';

async function checkPage(s, url, file) {
  await s.load(url + file);
  const r = await s.eval((rawTex) => {
    const math = [...document.querySelectorAll('.math, .math-display')];
    return {
      math: math.length,
      unrendered: math.filter((el) => !el.querySelector('math')).length,
      raw: (document.body.innerText.match(new RegExp(rawTex)) || [null])[0],
      missing: [...document.querySelectorAll('[data-worked]')].filter((el) => !el.textContent.trim()).map((el) => el.dataset.worked),
      fatal: document.querySelector('.fatal')?.textContent ?? null,
      failed: [...document.querySelectorAll('figure.failed')].map((f) => f.dataset.figure),
      figures: [...document.querySelectorAll('figure.live')].map((f) => f.dataset.figure),
    };
  }, RAW_TEX.source);
  assert(!r.fatal, `${file}: ${r.fatal}`);
  assert(r.unrendered === 0, `${file}: ${r.unrendered} of ${r.math} formulas not rendered`);
  assert(!r.raw, `${file}: raw TeX visible: ${r.raw}`);
  assert(r.missing.length === 0, `${file}: worked values missing: ${r.missing.join(', ')}`);
  assert(r.failed.length === 0, `${file}: figures failed: ${r.failed.join(', ')}`);
  // Every live figure redraws when its first slider moves.
  for (const fig of r.figures) {
    const changed = await s.eval(`async (fig) => {
      const hash = ${canvasHash};
      const f = document.querySelector('figure[data-figure=' + fig + ']');
      const canvas = f.querySelector('canvas'), input = f.querySelector('input[data-param]');
      const before = hash(canvas);
      input.value = String(Number(input.min) + (Number(input.max) - Number(input.min)) * 0.37);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => requestAnimationFrame(() => r()));
      const after = hash(canvas);
      return { before: before.hash, after: after.hash, inked: after.inked, failed: f.classList.contains('failed') };
    }`, fig);
    assert(!changed.failed && changed.inked > 0.01, `${file}: figure ${fig} is empty or failed`);
    assert(changed.before !== changed.after, `${file}: figure ${fig} did not redraw`);
  }
  return r;
}

// A run started by its URL; returns the page's collected reports once it finished.
async function runFromUrl(s, url, path, root, runs) {
  await s.load(url + path);
  const status = await s.waitRunEnded(root, 120_000);
  const errors = await s.eval((sel) => document.querySelector(sel).querySelector('[role=alert]:not([hidden])')?.textContent ?? null, root);
  assert(status === 'finished', `${root}: ${status}${errors ? `: ${errors}` : ''}`);
  return s.eval(runs);
}

const tests = [
  ...['index.html', ...LESSONS.map((l) => l.file)].map((file) => ({
    name: `${file}: math rendered, worked numbers, every figure redraws`,
    run: async (s, url) => {
      const r = await checkPage(s, url, file);
      return `${r.math} formulas, ${r.figures.length} live figures`;
    },
  })),
  {
    name: 'PPO smoke, seeds 11 and 37, in workers: the native CLI numbers',
    run: async (s, url) => {
      const runs = await runFromUrl(s, url, 'lesson-06.html?run=ppo&profile=smoke&seeds=11,37', '#trainer-ppo',
        () => window.pgbookRuns.ppo.map((r) => r.reports));
      const notes = [];
      for (const [i, seed] of [11, 37].entries()) {
        const native = cliLines(['train', 'ppo', '--profile', 'smoke', '--seeds', String(seed), '--json']).filter((l) => l.kind === 'update');
        const c = compareReports(runs[i], native, `ppo seed ${seed}`);
        assert(c.worst <= 1e-9, `ppo seed ${seed}: first updates differ by ${c.worst} (relative)`);
        notes.push(`seed ${seed}: ${c.identical}/${c.compared} updates bit-identical`);
      }
      return notes.join('; ');
    },
  },
  {
    name: 'sequence smoke, seed 5, in a worker: the native CLI numbers',
    run: async (s, url) => {
      const reports = await runFromUrl(s, url, 'lesson-08.html?run=sequence&profile=smoke&seed=5&reduction=token_mean', '#trainer-sequence',
        () => window.pgbookRuns.sequence.reports);
      const native = cliLines(['train', 'sequence', '--profile', 'smoke', '--seed', '5', '--json']).filter((l) => l.kind === 'iteration');
      const c = compareReports(reports, native, 'sequence');
      assert(c.worst <= 1e-9, `sequence: first iterations differ by ${c.worst} (relative)`);
      return `${c.identical}/${c.compared} iterations bit-identical`;
    },
  },
  {
    name: 'a panic inside a worker is shown and the run can be restarted',
    run: async (s, url) => {
      await s.load(url + 'lesson-08.html');
      const start = (profile) => {
        const select = document.querySelector('#seq-profile');
        select.value = profile;
        select.dispatchEvent(new Event('change', { bubbles: true }));
        [...document.querySelectorAll('#trainer-sequence button')].find((b) => b.textContent === 'Старт').click();
        return true;
      };
      const statusIs = (want) => document.querySelector('#trainer-sequence').dataset.status === want;
      await s.eval(start, 'full');
      await s.waitFor(() => (window.pgbookRuns.sequence?.reports.length ?? 0) >= 2, null, 20_000, 'two iterations');
      await s.eval(() => window.pgbookPanels.sequence.run.sendTo(0, 'fail') ?? true);
      await s.waitFor(statusIs, 'failed', 10_000, 'the failure');
      const msg = await s.eval(() => document.querySelector('#trainer-sequence .figure-error').textContent);
      assert(/Сбой в модуле WebAssembly/.test(msg) && /self-test/.test(msg), `message: ${msg}`);
      // The panic is logged on purpose: only that is allowed.
      s.problems = s.problems.filter((p) => !/self-test: a deliberate panic|unreachable/.test(p));
      await s.eval(start, 'smoke');
      await s.waitRunEnded('#trainer-sequence', 60_000);
      const after = await s.eval(() => ({ status: document.querySelector('#trainer-sequence').dataset.status, hidden: document.querySelector('#trainer-sequence .figure-error').hidden }));
      assert(after.status === 'finished', `restart after failure: ${after.status}`);
      assert(after.hidden, 'old error still shown');
    },
  },
];

const only = process.argv[2];
const server = await startServer();
const driver = startGeckodriver();
let passed = 0, failed = 0, session = null;
try {
  const driverUrl = await driver.url;
  session = await Session.open(driverUrl);
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue;
    const t0 = Date.now();
    session.problems = [];
    try {
      const note = await t.run(session, server.url);
      await new Promise((r) => setTimeout(r, 100)); // let late log entries arrive
      assert(session.problems.length === 0, session.problems.join('\n'));
      passed++;
      console.log(`ok   firefox › ${t.name} (${Date.now() - t0} ms)${note ? ` — ${note}` : ''}`);
    } catch (e) {
      failed++;
      console.log(`FAIL firefox › ${t.name} (${Date.now() - t0} ms)\n     ${String(e.stack || e).split('\n').join('\n     ')}`);
    }
  }
} finally {
  await session?.close();
  driver.stop();
  server.stop();
}
console.log(`firefox: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
