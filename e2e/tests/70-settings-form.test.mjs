// @ts-check
// Every setting of a trainer is a control on its panel: generated from the schema, grouped,
// labelled; the form's differences from the profile are stated in words, kept in the URL and
// the share link (the CLI's `--url` prints the same link), checked by wasm before any worker
// starts.
import { it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { forEachBrowser, assert, cliLines, CLI } from '../harness.mjs';


forEachBrowser((env) => {
  it('every field of the schema is a labelled control in its group, on both panels', async (t) => {
    /** @type {string[]} */
    const notes = [];
    for (const [file, root, kind] of [
      ['ppo.html', '#trainer-ppo', 'ppo'],
      ['sequences.html', '#trainer-sequence', 'sequence'],
    ]) {
      const [cli] = cliLines(['settings', kind, '--json']);
      await env.withTab(file, null, async (tab) => {
        await tab.waitReady();
        const form = await tab.eval((r) => {
          const rows = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(`${r} .trainer-settings .setting`)]);
          return {
            names: rows.map((row) => row.dataset.setting),
            groups: [...document.querySelectorAll(`${r} .trainer-settings legend`)].map((l) => l.textContent),
            labelled: rows.every((row) => {
              const input = row.querySelector('input, select');
              const label = row.querySelector('label');
              return input && label && label.htmlFor === input.id && (label.textContent ?? '').length > 2;
            }),
            helped: rows.every((row) => (row.querySelector('small')?.textContent ?? '').length > 10),
          };
        }, root);
        const names = cli.fields.map((/** @type {{ name: string }} */ f) => f.name);
        const sorted = (/** @type {unknown[]} */ xs) => JSON.stringify([...xs].sort());
        assert(sorted(form.names) === sorted(names), `${kind}: controls ${form.names} ≠ schema ${names}`);
        const groups = [...new Set(cli.fields.map((/** @type {{ group_label: string }} */ f) => f.group_label))];
        assert(JSON.stringify(form.groups) === JSON.stringify(groups), `${kind}: groups ${form.groups}`);
        assert(form.labelled && form.helped, `${kind}: a control without its label or help`);
        notes.push(`${kind}: ${names.length} settings in ${groups.length} groups`);
      });
    }
    t.diagnostic(notes.join('; '));
  });

  it('the changes are stated in words and kept in the URL; a profile change resets the form; bad values are refused before any worker', async () => {
    await env.withTab('ppo.html', null, async (tab) => {
      await tab.waitReady();
      await tab.select('#ppo-profile', 'smoke');
      // A decimal comma and a spaced list, as a Russian reader types them.
      await tab.setSettings('ppo', { gamma: '0,98', hidden_sizes: '32, 32', truncation: 'terminal' });
      const changes = (await tab.text('#trainer-ppo .trainer-changes')) ?? '';
      for (const part of ['0,99 → 0,98', '64, 64 → 32, 32', 'bootstrap → terminal']) {
        assert(changes.includes(part), `the changes line «${changes}» lacks «${part}»`);
      }
      const url = new URL(tab.url());
      assert(url.searchParams.get('gamma') === '0.98' && url.searchParams.get('hidden_sizes') === '32,32', `URL ${url.search}`);
      // Another profile: every control shows its values again, nothing differs.
      await tab.select('#ppo-profile', 'cleanrl');
      assert((await tab.value('#ppo-gamma')) === '0.99' && (await tab.value('#ppo-num_steps')) === '128', 'the form kept the old values');
      assert(await tab.eval(() => /** @type {HTMLElement} */ (document.querySelector('#trainer-ppo .trainer-changes')).hidden), 'changes shown');
      // Out of bounds, and a relation between two settings: refused with the setting named.
      for (const [id, value, words] of [
        ['gamma', '1.5', 'γ'],
        ['minibatch_size', '100000', 'мини-пакета'],
        ['clip_coef', 'off', 'клиппировать функцию ценности'],
      ]) {
        await tab.select('#ppo-profile', 'full'); // each case from the profile's own values
        await tab.select('#ppo-profile', 'cleanrl');
        await tab.setSettings('ppo', { [id]: value });
        await tab.clickButton('#trainer-ppo', 'Старт');
        const message = (await tab.text('#trainer-ppo .figure-error')) ?? '';
        assert(message.includes(words), `${id} = ${value}: message «${message}»`);
        assert((await tab.status('#trainer-ppo')) === 'idle', `${id} = ${value}: a run started`);
      }
    });
  });

  // (That such a run equals the CLI's with the same --set, bit for bit, is 80-compare's first
  // test: its configuration B carries these overrides.)
  it('an overridden configuration\'s share link carries it and is the link the CLI prints for the same --set', { timeout: 60_000 }, async () => {
    const set = { num_updates: '2', clip_coef: 'off', boundary_trace_cut: 'false', hidden_sizes: '32,16', ent_coef: '0.01' };
    await env.withTab('ppo.html', { deviceScaleFactor: 1 }, async (tab) => {
      await tab.waitReady();
      await tab.select('#ppo-profile', 'smoke');
      await tab.fill('#ppo-seeds', '11');
      await tab.setSettings('ppo', set);
      await tab.clickButton('#trainer-ppo', 'Старт');
      await tab.runToEnd('#trainer-ppo');
      const share = new URL((await tab.eval(() => /** @type {HTMLAnchorElement} */ (document.querySelector('#trainer-ppo a.share')).href)) ?? '');
      for (const [k, v] of Object.entries(set)) assert(share.searchParams.get(k) === v, `share link ${share.search} lacks ${k}=${v}`);
      // The CLI prints the same link for the same run (`train … --set … --url`).
      const urlArgs = ['train', 'ppo', '--profile', 'smoke', '--seeds', '11', '--url', '--url-base', new URL('.', tab.url()).href];
      for (const [k, v] of Object.entries(set)) urlArgs.push('--set', `${k}=${v}`);
      const cliLink = execFileSync(CLI, urlArgs, { encoding: 'utf8' }).trim();
      const cli = new URL(cliLink);
      const same =
        cli.origin + cli.pathname + cli.hash === share.origin + share.pathname + share.hash &&
        JSON.stringify([...cli.searchParams]) === JSON.stringify([...share.searchParams]);
      assert(same, `the CLI's link ${cliLink} ≠ the page's ${share.href}`);
      const reports = await tab.eval(() => window.pgbookRuns.ppo[0].reports);
      assert(reports.length === 2 && reports.every((/** @type {any} */ r) => r.clip_epsilon === null), 'no clipping in the reports');
    });
  });
});
