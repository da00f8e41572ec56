// @ts-check
// The GRPO family in the sequence panel: runs on the copy task started from a link equal the
// native CLI's runs iteration for iteration, to the bit (every field, the per-level success
// rates and the new length and KL fields included). The first is GRPO with clip-higher, the
// sequence-level ratio (GSPO) and the KL to the reference in the loss; the others cover the
// remaining estimators, constant_length and the KL in the reward; the transformer profile's
// policy (f32, KV-cache sampling) with clip-higher and k3. The last runs the lab as a
// reader does: two configurations (Dr. GRPO with its entropy bonus under constant_length; GRPO
// with the RLOO and mean estimators' neighbours, k3 in the loss and fewer prompts) on two seeds
// each, every job equal to the CLI's seed, the JSON download the CLI's lines, and the figures,
// the results table and the CSV saying what the runs did.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { forEachBrowser, assert, assertSameLines, cliLines, compareReports, startServer, SITE } from '../harness.mjs';

/** The page's error text for a panel. @param {import('../harness.mjs').Tab} tab @param {string} root */
const panelError = async (tab, root) => (await tab.text(`${root} .figure-error`)) ?? '';

/** Each run: a profile, a seed and its settings (as `--set` pairs and as the link's query). */
const RUNS = [
  {
    profile: 'grpo',
    seed: 3,
    settings: { iterations: '25', clip_epsilon_high: '0.28', ratio_level: 'sequence', kl_placement: 'loss', kl_coef: '0.05', kl_estimator: 'k2' },
  },
  {
    profile: 'rloo',
    seed: 2,
    settings: { iterations: '20', reduction: 'constant_length', advantage_estimator: 'mean_std_population', kl_coef: '0.1' },
  },
  {
    profile: 'dr_grpo',
    seed: 4,
    settings: { iterations: '20', advantage_estimator: 'none', kl_placement: 'loss', kl_coef: '0.1', kl_estimator: 'k1' },
  },
  {
    profile: 'transformer',
    seed: 2,
    settings: { iterations: '6', clip_epsilon_high: '0.28', kl_placement: 'loss', kl_coef: '0.05', kl_estimator: 'k3' },
  },
];

forEachBrowser((env) => {
  for (const { profile, seed, settings } of RUNS) {
    const label = `${profile} ${Object.entries(settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`;
    it(`${label}: the browser equals the CLI`, { timeout: 240_000 }, async (t) => {
      const set = Object.entries(settings).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
      const native = cliLines(['train', 'sequence', '--profile', profile, '--seed', String(seed), '--json', ...set]).filter((l) => l.kind === 'iteration');
      assert(native.length === Number(settings.iterations), `the CLI printed ${native.length} iterations`);
      assert(
        native.every((r) => r.success_by_level.length === 4 && typeof r.kl_to_reference === 'number' && 'mean_length_incorrect' in r),
        'the CLI lines lack the new fields',
      );
      assert(
        native.some((r) => r.kl_to_reference > 0),
        'the policy never left its reference',
      );
      const query = Object.entries(settings)
        .map(([k, v]) => `${k}=${v}`)
        .join('&');
      await env.withTab(`sequences.html?run=sequence&profile=${profile}&seed=${seed}&${query}`, null, async (tab) => {
        await tab.waitReady();
        await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 180_000);
        assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
        const reports = await tab.eval(() => window.pgbookRuns.sequence.reports);
        const c = compareReports(reports, native, profile);
        assert(c.identical === c.compared, `${label}: only the first ${c.identical} of ${c.compared} iterations are bit-identical (worst relative difference ${c.worst})`);
        for (const [i, r] of reports.entries()) {
          assert(JSON.stringify(r.success_by_level) === JSON.stringify(native[i].success_by_level), `iteration ${i + 1}: success by level differs`);
          assert(r.mean_length_incorrect === native[i].mean_length_incorrect, `iteration ${i + 1}: mean_length_incorrect differs`);
        }
        t.diagnostic(`${label}: ${c.identical}/${c.compared} iterations bit-identical`);
      });
    });
  }

  it('the lab: two configurations on two seeds, each job equal to the CLI, with its words and tables', { timeout: 300_000 }, async (t) => {
    const seeds = [2, 7];
    /** @type {{ profile: string, set: Record<string, string> }[]} */
    const configs = [
      { profile: 'dr_grpo', set: { iterations: '12' } },
      { profile: 'grpo', set: { iterations: '12', advantage_estimator: 'rloo', prompts_per_iteration: '5', kl_coef: '0.05' } },
    ];
    /** @type {{ profile: string, set: Record<string, string> }} */
    const third = { profile: 'rloo', set: { iterations: '12', advantage_estimator: 'mean', reduction: 'sequence_sum_mean' } };
    const cfg = [...configs, third].map((c) => `cfg=${[c.profile, ...Object.entries(c.set).map(([k, v]) => `${k}=${v}`)].join(';')}`).join('&');
    /** @param {{ profile: string, set: Record<string, string> }} c */
    const args = (c) => ['train', 'sequence', '--profile', c.profile, '--seeds', seeds.join(','), '--threads', '1', '--json', ...Object.entries(c.set).flatMap(([k, v]) => ['--set', `${k}=${v}`])];
    await env.withTab(`sequences.html?run=sequence&seed=${seeds.join(',')}&${cfg}`, { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 280_000);
      assert((await tab.status('#trainer-sequence')) === 'finished', await panelError(tab, '#trainer-sequence'));
      const runs = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).runs());
      assert(runs.length === 6, `${runs.length} jobs`);
      for (const [c, conf] of [...configs, third].entries()) {
        const native = cliLines(args(conf)).filter((l) => l.kind === 'iteration');
        for (const [i, seed] of seeds.entries()) {
          const run = runs[c * seeds.length + i];
          assert(run.seed === seed, `job ${c}/${i}: seed ${run.seed}`);
          const mine = native.filter((l) => l.seed === seed);
          const cmp = compareReports(run.reports, mine, `${conf.profile} seed ${seed}`);
          assert(cmp.identical === cmp.compared, `${conf.profile} seed ${seed}: ${cmp.identical}/${cmp.compared} iterations bit-identical`);
        }
      }
      // The JSON download of the chosen run's configuration is the CLI's output for it.
      await tab.select('#seq-chosen', '2');
      const lines = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).board.json_lines_of(1));
      assertSameLines(lines, args(configs[1]), 'configuration B');
      // Both figures say in words what the runs did: every configuration at iteration 12.
      const label = (await tab.eval(() => document.querySelector('#canvas-seq-curve')?.getAttribute('aria-label'))) ?? '';
      for (const letter of ['A', 'B', 'C']) assert(label.includes(`${letter}: после итерации 12`), `curve: ${label}`);
      assert(label.includes('по 2 начальным значениям'), `curve: ${label}`);
      const detail = (await tab.text('#trainer-sequence figure:nth-of-type(2) figcaption')) ?? '';
      assert(/энтропия/.test(detail) && /KL к опорной политике/.test(detail), `detail: ${detail}`);
      // The results table adds the lengths of incorrect answers, the KL and the entropy.
      const head = (await tab.text('#seq-comparison thead')) ?? '';
      assert(/длина неверных ответов в конце/.test(head) && /энтропия в конце/.test(head), `table head: ${head}`);
      const results = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).board.results());
      assert(
        results.every((/** @type {any} */ r) => r.finished === 2 && r.extra.length === 3 && r.extra[2].value.median > 0),
        `results ${JSON.stringify(results)}`,
      );
      // Every job's seed and iteration in the CSV.
      const csv = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).board.csv());
      const rows = csv.trim().split('\n');
      assert(rows[0].startsWith('configuration,seed,iteration,') && rows.length === 1 + 6 * 12, `csv: ${rows.length} rows, ${rows[0]}`);
      assert((await tab.count('#seq-summary-table tbody tr')) === 6, 'a row per job');
      t.diagnostic(`${env.name}: 6 jobs bit-identical; ${results.map((/** @type {any} */ r) => `${r.label}: ${r.score.median}`).join('; ')}`);
    });
  });

  it('a sequence run saved in the previous format (version 1, no own columns) still shows', { timeout: 120_000 }, async () => {
    await env.withTab('sequences.html?run=sequence&profile=smoke&seed=5&iterations=4', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 60_000);
      await tab.waitFor(() => document.querySelectorAll('#seq-history li').length >= 1, null, 10_000);
      // The saved record as version 1 wrote it: no `extra` in its results.
      const [r] = (await tab.savedRuns()).filter((x) => x.kind === 'sequence');
      await tab.replaceSavedRuns([{ ...r, version: 1, results: r.results.map((/** @type {any} */ x) => ({ ...x, extra: undefined })) }]);
      // The lesson again without `run=` in its address: a reload would start that run again,
      // and its first iterations would race the saved run shown below.
      await tab.goto(await tab.eval(() => location.origin + location.pathname));
      await tab.waitReady();
      await tab.waitFor(() => document.querySelectorAll('#seq-history li button').length > 0, null, 10_000);
      await tab.eval(() => /** @type {HTMLButtonElement} */ ([...document.querySelectorAll('#seq-history li button')].find((b) => b.textContent === 'Показать')).click());
      await tab.waitStatus('#trainer-sequence', ['finished'], 10_000);
      const reports = await tab.eval(() => /** @type {any} */ (window.pgbookPanels.sequence).runs()[0].reports.length);
      assert(reports === 4, `${reports} iterations shown`);
      const label = (await tab.eval(() => document.querySelector('#canvas-seq-curve')?.getAttribute('aria-label'))) ?? '';
      assert(label.includes('после итерации 4'), `curve: ${label}`);
    });
  });

  it('lesson 9’s GRPO | Dr. GRPO | RLOO | Dr. GRPO with sequence_mean block runs on lesson 8 from its link and fills the lesson with the lab’s columns', { timeout: 300_000 }, async () => {
    // The block is four full configurations on five seeds (a minute or more per browser): a copy
    // of the site runs the same four, shortened, on two seeds; its own origin, its own history.
    const dir = mkdtempSync(join(tmpdir(), 'pgbook-site-'));
    cpSync(SITE, dir, { recursive: true });
    const file = join(dir, 'grpo.html');
    const html = readFileSync(file, 'utf8');
    const block = /(id="prepared-recipes"[^>]*?data-seeds=")([^"]*)("\s+data-cfg=")([^"]*)(")/;
    const [, , seeds, , cfg] = html.match(block) ?? [];
    assert(seeds === '1,2,3,4,5' && cfg === 'grpo|dr_grpo|rloo|dr_grpo;reduction=sequence_mean', `lesson 9's recipes block: seeds «${seeds}», «${cfg}»`);
    const short = cfg
      .split('|')
      .map((c) => `${c};iterations=6`)
      .join('|');
    writeFileSync(file, html.replace(block, (_, a, _s, b, _c, e) => `${a}1,2${b}${short}${e}`));
    const server = await startServer({ root: dir });
    const tab = await env.browser.open(server.url + 'grpo.html', { deviceScaleFactor: 1 });
    try {
      await tab.waitReady();
      const box = '#prepared-recipes [data-prepared-result]';
      // The lesson reads the history (asynchronously) and promises its numbers.
      await tab
        .waitFor((sel) => /Когда сравнение закончится/.test(document.querySelector(sel)?.textContent ?? ''), box, 10_000)
        .catch(async () => assert(false, `before the run the lesson says «${await tab.text(box)}»`));
      const listed = await tab.count('#prepared-recipes .prepared-configs li');
      assert(listed === 4, `${listed} configurations listed`);
      await tab.click('#prepared-recipes a.prepared-run');
      await tab.waitFor(() => location.pathname.endsWith('sequences.html'), null, 20_000);
      await tab.waitReady();
      await tab.waitStatus('#trainer-sequence', ['finished', 'failed'], 240_000);
      assert((await tab.status('#trainer-sequence')) === 'finished', (await tab.text('#trainer-sequence .figure-error')) ?? '');
      await tab.waitFor(() => document.querySelectorAll('#seq-history li').length === 1, null, 10_000);
      const panel = (await tab.text('#seq-comparison .comparison-text')) ?? '';
      await tab.goto(server.url + 'grpo.html');
      await tab.waitReady();
      await tab.waitFor((sel) => document.querySelectorAll(`${sel} tbody tr`).length === 4, box, 10_000);
      const head = (await tab.text(`${box} thead`)) ?? '';
      assert(/длина неверных ответов в конце/.test(head) && /KL к опорной политике в конце/.test(head), `lesson table head: ${head}`);
      const text = (await tab.text(`${box} .comparison-text`)) ?? '';
      assert(text === panel && /длина неверных ответов в конце — медиана/.test(text), `lesson «${text}» ≠ panel «${panel}»`);
      await tab.settle();
      assert(tab.problems.length === 0, tab.problems.join('\n'));
    } finally {
      await tab.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
