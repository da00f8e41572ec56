// The live trainers in Web Workers: runs complete, pause/stop/restart, failures are shown
// and recoverable, the main thread never blocks, settings travel in the URL, and the browser
// computes the same numbers as the native CLI.
import { openPage, waitReady, assert, cliLines, compareReports, ARTIFACTS } from '../harness.mjs';
import { join } from 'node:path';

const status = (page, id) => page.$eval(id, (e) => e.dataset.status);
async function waitStatus(page, id, wanted, timeout = 60_000) {
  await page.waitForFunction(([sel, w]) => w.includes(document.querySelector(sel)?.dataset.status), [id, wanted], { timeout });
  return status(page, id);
}

// Long tasks observed after `since` (page time, ms).
async function longTasksSince(page, since) {
  return page.evaluate((t) => performance.getEntriesByType('longtask').filter((e) => e.startTime >= t).map((e) => Math.round(e.duration)), since);
}

// Counts Worker constructions (to prove invalid settings start none).
async function countWorkers(page) {
  await page.evaluate(() => {
    const Original = window.Worker;
    window.pgbookWorkersCreated = 0;
    window.Worker = class extends Original { constructor(...a) { super(...a); window.pgbookWorkersCreated++; } };
  });
}

export const tests = [
  {
    name: 'PPO smoke, two seeds in parallel workers: completes, curves drawn, no long task, summary table',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + 'lesson-06.html', { deviceScaleFactor: 1 });
      await waitReady(page);
      await countWorkers(page);
      await page.selectOption('#ppo-profile', 'smoke');
      await page.fill('#ppo-seeds', '11, 37');
      const since = await page.evaluate(() => performance.now());
      const t0 = Date.now();
      await page.click('#trainer-ppo button:text("Старт")');
      assert(await page.evaluate(() => window.pgbookWorkersCreated) === 2, 'expected one worker per seed');
      await waitStatus(page, '#trainer-ppo', ['finished', 'failed'], 120_000);
      const wall = (Date.now() - t0) / 1000;
      assert(await status(page, '#trainer-ppo') === 'finished', await page.textContent('#trainer-ppo .figure-error'));
      const rows = await page.$$eval('#ppo-summary tbody tr', (trs) => trs.length);
      assert(rows === 2, `summary has ${rows} rows`);
      const long = await longTasksSince(page, since);
      assert(long.length === 0, `main-thread tasks over 50 ms during training: ${long.join(', ')}`);
      const runs = await page.evaluate(() => window.pgbookRuns.ppo.map((s) => ({ seed: s.seed, updates: s.reports.length, final: s.summary.final_evaluation_mean, first: s.evaluations[0]?.mean })));
      await page.locator('#trainer-ppo').screenshot({ path: join(ARTIFACTS, 'trainer-ppo-smoke.png') });
      // The curves download as CSV (median, quartiles, every seed) and JSON (everything).
      for (const [button, name, check] of [
        ['CSV', 'ppo-cartpole.csv', (t) => t.startsWith('env_steps,median,q25,q75,seed_11,seed_37\n') && t.trim().split('\n').length > 10],
        ['JSON', 'ppo-cartpole.json', (t) => JSON.parse(t).length === 2],
      ]) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#trainer-ppo .downloads button:text("${button}")`)]);
        assert(download.suggestedFilename() === name, `download named ${download.suggestedFilename()}`);
        const path = join(ARTIFACTS, name);
        await download.saveAs(path);
        const text = (await import('node:fs')).readFileSync(path, 'utf8');
        assert(check(text), `${name} content: ${text.slice(0, 80)}`);
      }
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return `${wall.toFixed(1)} s; ` + runs.map((r) => `seed ${r.seed}: ${r.updates} updates, eval ${r.first?.toFixed(1)} → ${r.final.toFixed(1)}`).join('; ');
    },
  },
  {
    name: 'sequence smoke from a shared link: starts on load and completes',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + 'lesson-08.html?run=sequence&profile=smoke&seed=5&reduction=sequence_mean');
      await waitReady(page);
      assert(await page.inputValue('#seq-reduction') === 'sequence_mean', 'reduction from the URL not applied');
      await waitStatus(page, '#trainer-sequence', ['finished', 'failed']);
      assert(await status(page, '#trainer-sequence') === 'finished', await page.textContent('#trainer-sequence .figure-error'));
      const n = await page.$$eval('#seq-first-batch tbody tr', (t) => t.length);
      assert(n > 0, 'first batch not shown');
      const greedy = await page.$$eval('#seq-greedy tbody tr', (t) => t.length);
      assert(greedy === 3, 'greedy answers not shown');
      const rise = await page.evaluate(() => { const r = window.pgbookRuns.sequence.reports; return [r[0].eval_mean_reward, r.at(-1).eval_mean_reward]; });
      assert(rise[1] > rise[0] + 0.3, `mean reward did not rise: ${rise}`);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return `eval mean reward ${rise[0].toFixed(3)} → ${rise[1].toFixed(3)}`;
    },
  },
  {
    name: 'pause, resume, stop, and start again after a stop',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + 'lesson-06.html', { deviceScaleFactor: 1 });
      await waitReady(page);
      await page.selectOption('#ppo-profile', 'full');
      await page.fill('#ppo-seeds', '11');
      await page.click('#trainer-ppo button:text("Старт")');
      await page.waitForFunction(() => (window.pgbookRuns.ppo?.[0]?.reports.length ?? 0) >= 3);
      await page.click('#trainer-ppo button:text("Пауза")');
      assert(await status(page, '#trainer-ppo') === 'paused', 'not paused');
      await page.waitForTimeout(300);
      const a = await page.evaluate(() => window.pgbookRuns.ppo[0].reports.length);
      await page.waitForTimeout(700);
      const b = await page.evaluate(() => window.pgbookRuns.ppo[0].reports.length);
      assert(b - a <= 0, `updates continued while paused (${a} → ${b})`);
      await page.click('#trainer-ppo button:text("Продолжить")');
      await page.waitForFunction((n) => window.pgbookRuns.ppo[0].reports.length > n + 2, b);
      await page.click('#trainer-ppo button:text("Стоп")');
      assert(await status(page, '#trainer-ppo') === 'stopped', 'not stopped');
      const c = await page.evaluate(() => window.pgbookRuns.ppo[0].reports.length);
      await page.waitForTimeout(500);
      assert(await page.evaluate(() => window.pgbookRuns.ppo[0].reports.length) === c, 'updates after stop');
      // The page stays usable: a figure still redraws, and a new run starts and finishes.
      await page.selectOption('#ppo-profile', 'smoke');
      await page.fill('#ppo-seeds', '37');
      await page.click('#trainer-ppo button:text("Старт")');
      await waitStatus(page, '#trainer-ppo', ['finished', 'failed'], 120_000);
      assert(await status(page, '#trainer-ppo') === 'finished', 'restart after stop failed');
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'a worker failure (panic inside wasm) is shown and the run can be restarted',
    async run({ browser, url }) {
      const { page, context, problems, expectProblems } = await openPage(browser, url + 'lesson-08.html');
      await waitReady(page);
      await page.selectOption('#seq-profile', 'full');
      await page.click('#trainer-sequence button:text("Старт")');
      await page.waitForFunction(() => (window.pgbookRuns.sequence?.reports.length ?? 0) >= 2);
      await page.evaluate(() => window.pgbookPanels.sequence.run.sendTo(0, 'fail'));
      await waitStatus(page, '#trainer-sequence', ['failed'], 10_000);
      const msg = await page.textContent('#trainer-sequence .figure-error');
      assert(/Сбой в модуле WebAssembly/.test(msg) && /self-test/.test(msg), `message: ${msg}`);
      expectProblems(/self-test: a deliberate panic|unreachable/);
      await page.selectOption('#seq-profile', 'smoke');
      await page.click('#trainer-sequence button:text("Старт")');
      await waitStatus(page, '#trainer-sequence', ['finished', 'failed']);
      assert(await status(page, '#trainer-sequence') === 'finished', 'restart after failure did not finish');
      assert(await page.isHidden('#trainer-sequence .figure-error'), 'old error still shown');
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'invalid settings are refused with a message before any worker starts',
    async run({ browser, url }) {
      const { page, context, problems } = await openPage(browser, url + 'lesson-06.html');
      await waitReady(page);
      await countWorkers(page);
      for (const seeds of ['abc', '', '11, -3', '1.5']) {
        await page.fill('#ppo-seeds', seeds);
        await page.click('#trainer-ppo button:text("Старт")');
        assert(await page.isVisible('#trainer-ppo .figure-error'), `no message for seeds "${seeds}"`);
      }
      assert(await page.evaluate(() => window.pgbookWorkersCreated) === 0, 'a worker was started for invalid settings');
      const p2 = await openPage(browser, url + 'lesson-08.html?run=sequence&profile=huge&seed=5');
      await waitReady(p2.page);
      assert(/неизвестный профиль/.test(await p2.page.textContent('#trainer-sequence .figure-error')), 'bad profile in URL not refused');
      const p3 = await openPage(browser, url + 'lesson-08.html?run=sequence&profile=smoke&seed=x');
      await waitReady(p3.page);
      assert(/seed/.test(await p3.page.textContent('#trainer-sequence .figure-error')), 'bad seed in URL not refused');
      for (const p of [p2, p3]) { assert(p.problems.length === 0, p.problems.join('\n')); await p.context.close(); }
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
    },
  },
  {
    name: 'same seed, same numbers: the browser equals the native CLI',
    async run({ browser, url }) {
      const notes = [];
      // Sequence, smoke, seed 5.
      const native = cliLines(['train', 'sequence', '--profile', 'smoke', '--seed', '5', '--json']).filter((l) => l.kind === 'iteration');
      let { page, context, problems } = await openPage(browser, url + 'lesson-08.html?run=sequence&profile=smoke&seed=5&reduction=token_mean');
      await waitReady(page);
      await waitStatus(page, '#trainer-sequence', ['finished', 'failed']);
      const seqBrowser = await page.evaluate(() => window.pgbookRuns.sequence.reports);
      let c = compareReports(seqBrowser, native, 'sequence');
      assert(c.worst <= 1e-9, `sequence: first iterations differ by ${c.worst} (relative)`);
      notes.push(`sequence: ${c.identical}/${c.compared} iterations bit-identical`);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      // PPO, smoke, seed 11.
      const ppoNative = cliLines(['train', 'ppo', '--profile', 'smoke', '--seeds', '11', '--json']).filter((l) => l.kind === 'update');
      ({ page, context, problems } = await openPage(browser, url + 'lesson-06.html?run=ppo&profile=smoke&seeds=11'));
      await waitReady(page);
      await waitStatus(page, '#trainer-ppo', ['finished', 'failed'], 120_000);
      const ppoBrowser = await page.evaluate(() => window.pgbookRuns.ppo[0].reports);
      c = compareReports(ppoBrowser, ppoNative, 'ppo');
      assert(c.worst <= 1e-9, `ppo: first updates differ by ${c.worst} (relative)`);
      notes.push(`ppo: ${c.identical}/${c.compared} updates bit-identical`);
      assert(problems.length === 0, problems.join('\n'));
      await context.close();
      return notes.join('; ');
    },
  },
];
