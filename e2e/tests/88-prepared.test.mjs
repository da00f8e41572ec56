// @ts-check
// The lessons' prepared comparisons (lessons 2–6, 8, 9 and 10): each lists its configurations
// from the schema and runs them (on the page's own panel, or by a link to the trainer's
// page); once run, its numbers fill the lesson from the reader's finished run — and stay after
// a reload, from the browser's history. A joined block (lesson 6: PPO|REINFORCE) runs each
// trainer on its own panel and puts both runs in one table.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { forEachBrowser, assert, startServer, SITE } from '../harness.mjs';
import { formatNumber } from '../../www/js/format.js';

/** NumPy's default (linear) quantile, as the results table computes it. @param {number[]} xs @param {number} p */
function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  const at = p * (s.length - 1);
  const lo = Math.floor(at);
  return lo + 1 < s.length ? s[lo] + (at - lo) * (s[lo + 1] - s[lo]) : s[lo];
}
/** A results-table cell «median [q25; q75]», or «—» without values. @param {number[]} xs @param {(x: number) => string} f */
const quartCell = (xs, f) => (xs.length ? `${f(quantile(xs, 0.5))} [${f(quantile(xs, 0.25))}; ${f(quantile(xs, 0.75))}]` : '—');

forEachBrowser((env) => {
  it('every prepared comparison lists its configurations and offers its run (a button on its trainer\'s page, else a link there; the two tests below run one of each kind)', { timeout: 60_000 }, async (t) => {
    /** @type {string[]} */
    const seen = [];
    for (const file of ['returns.html', 'baselines.html', 'gae.html', 'clipping.html', 'ppo.html', 'sequences.html', 'grpo.html', 'r1zero.html']) {
      await env.withTab(file, null, async (tab) => {
        await tab.waitReady();
        const boxes = await tab.eval(() =>
          [...document.querySelectorAll('[data-prepared]')].map((b) => ({
            id: b.id,
            configs: (/** @type {HTMLElement} */ (b).dataset.cfg ?? '').split('|').length,
            listed: b.querySelectorAll('.prepared-configs li').length,
            link: /** @type {HTMLAnchorElement | null} */ (b.querySelector('a.prepared-run'))?.href ?? null,
            button: b.querySelector('button.prepared-run') !== null,
            action: b.querySelector('[data-prepared-action]')?.textContent ?? '',
            result: b.querySelector('[data-prepared-result]')?.textContent ?? '',
            // Before its button: the question, the expectation and why the effect may be small;
            // then the predictions the page will check, in the core's words.
            prediction: b.querySelector('.prediction')?.textContent ?? '',
            check: b.querySelector('.prediction-check')?.textContent ?? '',
            before: (() => {
              const p = b.querySelector('.prediction-check');
              const action = b.querySelector('[data-prepared-action]');
              return p !== null && action !== null && (p.compareDocumentPosition(action) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
            })(),
          })),
        );
        assert(boxes.length > 0, `${file}: no prepared comparison`);
        for (const b of boxes) {
          assert(b.listed === b.configs, `${file} ${b.id}: ${b.listed} configurations listed of ${b.configs}`);
          assert(!/не распознано/.test(b.result), `${file} ${b.id}: ${b.result}`);
          assert(/Вопрос\./.test(b.prediction) && /Ожидание\./.test(b.prediction) && /Почему/.test(b.prediction), `${file} ${b.id}: no question, expectation and why: «${b.prediction}»`);
          assert(/: (A|B|C|D) .+[^:]\.$/.test(b.check.replace(/\s+/g, ' ').trim()) || /у [A-D] «/.test(b.check), `${file} ${b.id}: no checkable prediction: «${b.check}»`);
          assert(b.before, `${file} ${b.id}: the prediction is not before its button`);
          // A page with the trainer's panel runs it there; the others link to that page.
          const own = ['returns.html', 'baselines.html', 'ppo.html', 'sequences.html'].includes(file);
          assert(own ? b.button : b.link !== null, `${file} ${b.id}: no way to run it`);
          if (b.link) {
            // A link starts the run on its trainer's page: every configuration, or the one.
            const url = new URL(b.link);
            const page = { ppo: '/ppo.html', reinforce: '/baselines.html', sequence: '/sequences.html' }[url.searchParams.get('run') ?? ''];
            const configs = url.searchParams.getAll('cfg').length || Number(url.searchParams.has('profile'));
            assert(page !== undefined && url.pathname.endsWith(page) && configs >= 1 && configs <= b.configs, `${file}: link ${b.link}`);
            // And it says where the numbers will be: here, once the reader comes back.
            assert(/появятся здесь, когда вы вернётесь/.test(b.action), `${file} ${b.id}: «${b.action}»`);
          }
          seen.push(`${file}#${b.id} (${b.configs})`);
        }
      });
    }
    t.diagnostic(seen.join(', '));
  });

  it('a prepared comparison run from its button fills the lesson with its numbers, and they stay after a reload', { timeout: 300_000 }, async () => {
    // Lesson 8's block is four configurations of the full profile (minutes per browser): a copy
    // of the site runs the same four on the smoke profile; its own origin, its own history.
    const dir = mkdtempSync(join(tmpdir(), 'pgbook-site-'));
    cpSync(SITE, dir, { recursive: true });
    const file = join(dir, 'sequences.html');
    const html = readFileSync(file, 'utf8');
    const block = /(id="prepared-reductions"[^>]*?data-seeds=")([^"]*)("\s+data-cfg=")([^"]*)(")/;
    const cfg = html.match(block)?.[4] ?? '';
    assert(cfg.split('|').length === 4 && cfg.split('|').every((c) => c.startsWith('full')), `lesson 8's block of four full configurations: «${cfg}»`);
    // One seed, as the smoke profile's: the words must say one seed cannot tell.
    const smoke = cfg
      .split('|')
      .map((x) => x.replace(/^full/, 'smoke'))
      .join('|');
    writeFileSync(file, html.replace(block, (_, head, _s, mid, _c, tail) => `${head}5${mid}${smoke}${tail}`));
    const server = await startServer({ root: dir });
    const tab = await env.browser.open(server.url + 'sequences.html', { deviceScaleFactor: 1 });
    try {
      await tab.waitReady();
      await tab.click('#prepared-reductions button.prepared-run');
      assert((await tab.count('#trainer-sequence .config-chip')) === 4, 'the panel did not take the four configurations');
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 240_000);
      assert((await tab.status('#trainer-sequence')) === 'finished', (await tab.text('#trainer-sequence .figure-error')) ?? '');
      const filled = () =>
        tab.eval(() => ({
          rows: document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length,
          text: document.querySelector('#prepared-reductions [data-prepared-result] .comparison-text')?.textContent ?? '',
        }));
      await tab.waitFor(() => document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length === 4, null, 10_000);
      const before = await filled();
      assert(/одному начальному значению/.test(before.text), `the text does not say one seed cannot tell: «${before.text}»`);
      // The lesson's predictions, each checked on these numbers in the core's words.
      const verdict = await tab.eval(() => ({
        summary: document.querySelector('#prepared-reductions .prediction-verdict > p')?.textContent ?? '',
        items: [...document.querySelectorAll('#prepared-reductions .prediction-verdict li')].map((li) => [/** @type {HTMLElement} */ (li).dataset.outcome ?? '', li.textContent ?? '']),
      }));
      assert(/^На ваших числах прогноз/.test(verdict.summary), `summary «${verdict.summary}»`);
      assert(verdict.items.length === 4, `${verdict.items.length} predictions checked`);
      for (const [outcome, text] of verdict.items) {
        assert(['held', 'weak', 'failed'].includes(outcome) && /^Прогноз «.+» (подтвердился|не подтвердился)/.test(text), `${outcome}: ${text}`);
        // One seed: a difference is never "beyond the spread".
        assert(!/сторону и больше разброса/.test(text), text);
      }
      // The numbers are the panel's own results.
      const panel = await tab.eval(() => document.querySelector('#seq-comparison .comparison-text')?.textContent ?? '');
      assert(panel === before.text, `lesson «${before.text}» ≠ panel «${panel}»`);
      await tab.reload();
      await tab.waitFor(() => document.querySelectorAll('#prepared-reductions [data-prepared-result] tbody tr').length === 4, null, 10_000);
      assert((await filled()).text === before.text, 'the reload changed the numbers');
      await tab.settle();
      assert(tab.problems.length === 0, tab.problems.join('\n'));
    } finally {
      await tab.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lesson 6’s joined PPO|REINFORCE block runs each trainer on its panel and puts both in one table, also after a reload', { timeout: 300_000 }, async (t) => {
    // The lesson's block is full|full on five seeds (minutes per browser): a copy of the site
    // runs the same block on the smoke profiles (REINFORCE's cut to a few updates: its smoke
    // run reaches the goal on no seed either) and two seeds; its own origin, its own history.
    const dir = mkdtempSync(join(tmpdir(), 'pgbook-site-'));
    cpSync(SITE, dir, { recursive: true });
    const file = join(dir, 'ppo.html');
    const html = readFileSync(file, 'utf8');
    const block = 'id="prepared-ppo-reinforce" data-prepared="ppo|reinforce" data-seeds="11,37,71,101,131" data-cfg="full|full"';
    assert(html.includes(block), 'lesson 6 has no joined block of PPO full | REINFORCE full on the five course seeds');
    writeFileSync(file, html.replace(block, 'id="prepared-ppo-reinforce" data-prepared="ppo|reinforce" data-seeds="11,37" data-cfg="smoke|smoke;env_step_budget=4000"'));
    const server = await startServer({ root: dir });
    const tab = await env.browser.open(server.url + 'ppo.html', { deviceScaleFactor: 1 });
    const box = '#prepared-ppo-reinforce';
    const resultText = () => tab.text(`${box} [data-prepared-result]`);
    try {
      await tab.waitReady();
      assert((await tab.count(`${box} .prepared-configs li`)) === 2, 'two configurations listed');
      const button = await tab.text(`${box} button.prepared-run`);
      assert(button === 'Запустить PPO (2 начальных значения)', `the button says «${button}»`);
      // The block fills from the saved history (IndexedDB), after the page is ready.
      const waiting = await tab
        .waitFor((sel) => /ещё нет: PPO, REINFORCE/.test(document.querySelector(sel)?.textContent ?? ''), `${box} [data-prepared-result]`, 10_000)
        .then(() => true)
        .catch(() => false);
      assert(waiting, `before any run: «${await resultText()}»`);
      // PPO: the block's button loads it into this page's panel and starts it.
      await tab.click(`${box} button.prepared-run`);
      await tab.waitStatus('#trainer-ppo', ['running', 'finished', 'failed'], 10_000);
      const ppoForm = { profile: await tab.value('#ppo-profile'), seeds: (await tab.value('#ppo-seeds'))?.replace(/\s/g, '') };
      assert(ppoForm.profile === 'smoke' && ppoForm.seeds === '11,37', `the PPO panel took ${JSON.stringify(ppoForm)}`);
      await tab.waitStatus('#trainer-ppo', ['finished', 'failed'], 120_000);
      assert((await tab.status('#trainer-ppo')) === 'finished', (await tab.text('#trainer-ppo .figure-error')) ?? '');
      /** @type {Record<string, { seed: number, summary: any }[]>} */
      const runs = { ppo: await tab.eval(() => window.pgbookRuns.ppo.map((/** @type {any} */ r) => ({ seed: r.seed, summary: r.summary }))) };
      // Half of the comparison is saved: the block waits for the other trainer.
      await tab.waitFor((sel) => /ещё нет: REINFORCE/.test(document.querySelector(sel)?.textContent ?? ''), `${box} [data-prepared-result]`, 10_000);
      // REINFORCE: the block links to lesson 3's panel, where the run starts from the link.
      const link = await tab.eval((sel) => /** @type {HTMLAnchorElement | null} */ (document.querySelector(sel))?.href ?? '', `${box} a.prepared-run`);
      assert(new URL(link).pathname.endsWith('/baselines.html'), `REINFORCE's link: ${link}`);
      await tab.goto(link);
      await tab.waitReady();
      await tab.waitStatus('#trainer-reinforce', ['running', 'finished', 'failed'], 10_000);
      const reinforceForm = { profile: await tab.value('#reinforce-profile'), seeds: (await tab.value('#reinforce-seeds'))?.replace(/\s/g, '') };
      assert(reinforceForm.profile === 'smoke' && reinforceForm.seeds === '11,37', `the REINFORCE panel took ${JSON.stringify(reinforceForm)}`);
      await tab.waitStatus('#trainer-reinforce', ['finished', 'failed'], 200_000);
      assert((await tab.status('#trainer-reinforce')) === 'finished', (await tab.text('#trainer-reinforce .figure-error')) ?? '');
      runs.reinforce = await tab.eval(() => window.pgbookRuns.reinforce.map((/** @type {any} */ r) => ({ seed: r.seed, summary: r.summary })));
      // Back in lesson 6: one table over both, its numbers computed from the panels' runs.
      const expected = ['ppo', 'reinforce'].map((kind, k) => {
        assert(runs[kind].length === 2 && runs[kind].every((r) => r.summary), `${kind}: ${runs[kind].length} finished runs`);
        const finals = runs[kind].map((r) => r.summary.final_evaluation_mean);
        const reached = runs[kind].map((r) => r.summary.solved_from_env_steps).filter((x) => x !== null && x !== undefined);
        return [
          `${'AB'[k]}: ${kind.toUpperCase()}`,
          quartCell(finals, (x) => formatNumber(x, 1)),
          quartCell(reached, (x) => formatNumber(x)),
          `${reached.length} из 2`,
        ];
      });
      const table = () =>
        tab.eval((sel) => [.../** @type {NodeListOf<HTMLTableRowElement>} */ (document.querySelectorAll(`${sel} [data-prepared-result] tbody tr`))].map((tr) => [...tr.cells].map((c) => c.textContent ?? '')), box);
      for (const visit of ['after both runs', 'after a reload']) {
        if (visit === 'after both runs') await tab.goto(server.url + 'ppo.html');
        else await tab.reload();
        await tab.waitReady();
        await tab.waitFor((sel) => document.querySelectorAll(`${sel} [data-prepared-result] tbody tr`).length > 0, box, 10_000);
        const rows = await table();
        assert(rows.length === 2, `${visit}: ${rows.length} rows`);
        const intro = (await tab.text(`${box} [data-prepared-result] > p`)) ?? '';
        assert(/^Ваши запуски от .+ и .+ \(2 начальных значения на конфигурацию\):$/.test(intro), `${visit}: «${intro}»`);
        for (const [k, want] of expected.entries()) {
          const got = rows[k];
          assert(got[0].startsWith(want[0]) && got.slice(1, 4).join(' | ') === want.slice(1).join(' | '), `${visit}, row ${k}: ${got.join(' | ')} ≠ ${want.join(' | ')}`);
        }
        t.diagnostic(`${env.name} ${visit}: ${rows.map((r) => r.join(' | ')).join(' / ')}`);
      }
      await tab.settle(); // let late log entries arrive
      assert(tab.problems.length === 0, tab.problems.join('\n'));
    } finally {
      await tab.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}, { fresh: true });
