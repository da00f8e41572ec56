// @ts-check
// Accessibility (issue 28): axe-core, the engine accessibility audits use, in the states a
// reader reaches (exercises answered right and wrong, the GAE buffer's flags switched, a
// figure's error shown, trainers after a run), in both browsers — every page as loaded is
// checked in 20-lessons' visit of it, and a state here checks the part it changed; then what axe cannot
// check, tested directly: the sliders' keys and Russian value texts, the keyboard's reading
// order and a visible focus, the flags' target size.
import { it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { forEachBrowser, assert, axe, ARTIFACTS } from '../harness.mjs';

/** A number as a Russian reader types it. @param {number} x */
const typed = (x) => x.toFixed(4).replace('.', ',').replace('-', '−');

/**
 * What the keyboard reaches in `scope` (the lesson, or one trainer panel): the element Tab
 * lands on, in order, from the last control before it until focus leaves it, with what a
 * sighted keyboard reader sees of it.
 * @param {import('../harness.mjs').Tab} tab @param {string} [scope]
 */
async function tabStops(tab, scope = 'main') {
  await tab.eval((sel) => {
    const within = /** @type {HTMLElement} */ (document.querySelector(sel));
    // The last control shown before the scope (for the lesson: the contents' last link beside it).
    const before = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex="0"]')].filter(
      (e) =>
        within.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING &&
        !e.closest('[hidden], details:not([open]) > :not(summary)') &&
        e.getClientRects().length > 0,
    );
    const start = /** @type {HTMLElement} */ (before[before.length - 1]);
    start.focus();
    start.dataset.tabAt = '';
  }, scope);
  /** @type {{ name: string, cls: string, after: boolean, ring: boolean, covered: boolean, late: boolean, coveredBy: string, size: [number, number] }[]} */
  const stops = [];
  for (let i = 0; i < 400; i++) {
    await tab.press('[data-tab-at]', 'Tab');
    const stop = await tab.eval(async (sel) => {
      const previous = /** @type {HTMLElement} */ (document.querySelector('[data-tab-at]'));
      delete previous.dataset.tabAt;
      const el = /** @type {HTMLElement} */ (document.activeElement);
      if (!el || el === document.body || !document.querySelector(sel)?.contains(el)) return null;
      el.dataset.tabAt = '';
      el.dataset.tabSeen = '';
      const style = getComputedStyle(el);
      // The middle of the part inside the window: what covers it is what the reader sees. A link
      // that wraps onto a second line has a box whose middle may be other text: each line's
      // middle is asked, and the control is covered when none of them is the control.
      const middle = (/** @type {DOMRect} */ r) => /** @type {[number, number]} */ ([
        (Math.max(r.left, 0) + Math.min(r.right, innerWidth)) / 2,
        (Math.max(r.top, 0) + Math.min(r.bottom, innerHeight)) / 2,
      ]);
      const hitBy = () => {
        const rects = el.getClientRects().length > 1 ? [...el.getClientRects()] : [el.getBoundingClientRect()];
        const hits = rects.map((r) => document.elementFromPoint(...middle(r)));
        return hits.find((h) => h && (h === el || el.contains(h))) ?? hits[0];
      };
      const mine = (/** @type {Element | null} */ h) => !!h && (h === el || el.contains(h));
      // What the reader sees is the page once focus has scrolled it: under load Firefox may
      // finish that scroll a frame after Tab, so a cover is asked again over a few frames.
      let hit = hitBy();
      const first = mine(hit) ? '' : null;
      for (let frame = 0; frame < 4 && !mine(hit); frame++) {
        await new Promise((done) => requestAnimationFrame(() => done(null)));
        hit = hitBy();
      }
      const box = el.getBoundingClientRect();
      const what = (/** @type {Element | null} */ h) =>
        h ? `${h.tagName.toLowerCase()}${h.id ? `#${h.id}` : ''}${h.className ? `.${String(h.className).split(' ').join('.')}` : ''}` : 'nothing (outside the window)';
      return {
        name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''} «${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}»`,
        cls: el.className,
        after: !!(previous.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING),
        ring: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        covered: !mine(hit),
        late: first === null && mine(hit),
        coveredBy: mine(hit) ? '' : `${what(hit)} at y ${Math.round(box.top)}–${Math.round(box.bottom)} of ${innerHeight}`,
        size: /** @type {[number, number]} */ ([box.width, box.height]),
      };
    }, scope);
    if (!stop) break;
    stops.push(stop);
  }
  return stops;
}

/**
 * Tab's stops in `scope` against every control a reader can operate there (a closed <details>
 * shows only its summary): all reached, in reading order, each with a visible ring nothing covers.
 * @param {import('../harness.mjs').Tab} tab @param {string} where @param {string} [scope]
 */
async function checkKeyboard(tab, where, scope = 'main') {
  const stops = await tabStops(tab, scope);
  const wanted = await tab.eval(
    (sel) =>
      [...document.querySelectorAll(`${sel} :is(a[href], button, input, select, textarea, summary, [tabindex="0"])`)].filter((el) => {
        const e = /** @type {HTMLInputElement} */ (el);
        if (e.disabled || e.closest('[hidden]')) return false;
        const closed = e.closest('details:not([open])');
        return !closed || e === closed.querySelector('summary');
      }).length,
    scope,
  );
  assert(stops.length === wanted, `${where}: Tab reaches ${stops.length} of ${wanted} controls (${stops.map((s) => s.name).join(', ')})`);
  const backwards = stops.filter((s) => !s.after).map((s) => s.name);
  assert(backwards.length === 0, `${where}: Tab goes back in the text to ${backwards.join(', ')}`);
  const unringed = stops.filter((s) => !s.ring).map((s) => s.name);
  assert(unringed.length === 0, `${where}: no visible focus on ${unringed.join(', ')}`);
  const covered = stops.filter((s) => s.covered).map((s) => `${s.name} (by ${s.coveredBy})`);
  assert(covered.length === 0, `${where}: the focused control is covered: ${covered.join(', ')}`);
  const late = stops.filter((s) => s.late).map((s) => s.name);
  if (late.length) console.log(`# ${where}: uncovered only a frame after Tab: ${late.join(', ')}`);
  return stops;
}

/** The WCAG contrast ratio of two `#rrggbb` colours. @param {string} a @param {string} b */
export function contrast(a, b) {
  const luminance = (/** @type {string} */ hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Text on its backgrounds (≥ 4.5:1) and the figures' lines and marks (≥ 3:1), as book.css pairs them. */
const TEXT_PAIRS = [
  ['ink', 'paper'], ['ink', 'card'], ['muted', 'paper'], ['muted', 'card'], ['accent', 'paper'], ['accent', 'card'],
  ['accent', 'accent-soft'], ['ink', 'accent-soft'], ['warn', 'warn-soft'], ['warn', 'card'], ['right', 'card'],
  ['on-accent', 'accent'], ['on-accent', 'warn'], ['ink', 'highlight'], ['ink', 'code'], ['fig-ink', 'fig-paper'],
];
const MARKS = ['fig-blue', 'fig-red', 'fig-green', 'fig-grey', 'fig-orange', 'fig-purple', 'fig-ink'];

/** Switches the page's theme with its switch, as a reader does. @param {import('../harness.mjs').Tab} tab @param {string} theme */
async function switchTheme(tab, theme) {
  await tab.select('#theme-switch', theme);
  await tab.waitFor((t) => document.documentElement?.dataset.theme === t, theme);
}

forEachBrowser((env) => {
  it('axe: lesson 9 with every exercise answered wrong, then right', { timeout: 300_000 }, async (t) => {
    await env.withTab('exercises.html', null, async (tab) => {
      await tab.waitReady();
      /** @type {Record<string, { correct_options: number[], options: number, expected: number[] }>} */
      const spec = await tab.eval(() => window.pgbookWasm.worked_examples().exercises);
      for (const right of [false, true]) {
        for (const [n, ex] of Object.entries(spec)) {
          const form = `form[data-exercise="${n}"]`;
          if (ex.options > 0) {
            const marks = right ? ex.correct_options : [1, 2, 3, 4, 5].filter((k) => !ex.correct_options.includes(k));
            await tab.eval(
              ([f, m]) =>
                document.querySelectorAll(`${f} input[name=option]`).forEach((o) => {
                  /** @type {HTMLInputElement} */ (o).checked = /** @type {number[]} */ (m).includes(Number(/** @type {HTMLInputElement} */ (o).value));
                }),
              [form, marks],
            );
          } else {
            for (let i = 0; i < ex.expected.length; i++) await tab.fill(`${form} input[name=v${i}]`, typed(right ? ex.expected[i] : ex.expected[i] + 0.1));
          }
          await tab.click(`${form} button[type=submit]`);
          const said = await tab.text(`${form} [data-feedback]`);
          assert(said?.startsWith(right ? 'Верно' : 'Неверно'), `exercise ${n}: «${said}»`);
        }
        const found = await axe(tab, ['form.exercise', 'details.answer']);
        t.diagnostic(`exercises.html answered ${right ? 'right' : 'wrong'}: ${found.rules} rules, ${found.nodes} elements`);
        assert(found.rules === 0, found.lines.join('\n'));
      }
    });
  });

  it('axe: each trainer after a short run, with its settings and saved runs open', { timeout: 400_000 }, async (t) => {
    for (const [path, panel] of [
      // Short runs (a few updates, one seed): what the panel shows after a run, not learning.
      ['baselines.html?run=reinforce&profile=smoke&seeds=11&env_step_budget=4000', '#trainer-reinforce'],
      ['ppo.html?run=ppo&profile=smoke&seeds=11&num_updates=4', '#trainer-ppo'],
      ['sequences.html?run=sequence&profile=smoke&seed=5&iterations=4', '#trainer-sequence'],
    ]) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        await tab.runToEnd(panel, 180_000);
        // The results' tables are laid out after the run's end; app.js makes a box that now
        // scrolls focusable a moment later (its 150 ms debounce): what the reader's keyboard meets.
        const marked = () =>
          tab.waitFor(
            (p) => [...document.querySelectorAll(`${p} .table-wrap`)].every((b) => b.scrollWidth <= b.clientWidth + 1 || b.hasAttribute('tabindex')),
            panel,
            10_000,
          );
        await marked();
        const run = await axe(tab, [panel]);
        await tab.eval((p) => document.querySelectorAll(`${p} details`).forEach((d) => ((/** @type {HTMLDetailsElement} */ (d)).open = true)), panel);
        await marked();
        const open = await axe(tab, [panel]);
        t.diagnostic(`${path}: after the run ${run.nodes} elements, settings and saved runs open ${open.nodes}`);
        assert(run.rules === 0 && open.rules === 0, [...run.lines, ...open.lines].join('\n'));
      });
    }
  });

  it('axe: a two-configuration comparison — its bands, results table and words, another run in detail', { timeout: 300_000 }, async (t) => {
    await env.withTab('ppo.html?run=ppo&seeds=11,37&cfg=smoke&cfg=smoke;clip_coef=off', null, async (tab) => {
      await tab.waitReady();
      await tab.runToEnd('#trainer-ppo', 240_000);
      const shown = await tab.eval(() => ({
        rows: document.querySelectorAll('#ppo-comparison tbody tr').length,
        words: document.querySelector('#trainer-ppo [data-comparison-text]')?.textContent ?? '',
        chips: document.querySelectorAll('#trainer-ppo .config-chip').length,
      }));
      assert(shown.rows === 2 && shown.words.length > 20 && shown.chips === 2, `the comparison is not shown: ${JSON.stringify(shown)}`);
      const compared = await axe(tab, ['#trainer-ppo']);
      // Another configuration's run in detail, the settings of configuration B and the saved runs open.
      await tab.select('#ppo-chosen', '3');
      await tab.click('#trainer-ppo .config-chip[data-config="1"]');
      await tab.eval(() => document.querySelectorAll('#trainer-ppo details').forEach((d) => ((/** @type {HTMLDetailsElement} */ (d)).open = true)));
      const detail = await axe(tab, ['#trainer-ppo']);
      t.diagnostic(`comparison of two configurations: ${compared.nodes} elements; run B·37 in detail, everything open: ${detail.nodes}`);
      assert(compared.rules === 0 && detail.rules === 0, [...compared.lines, ...detail.lines].join('\n'));
    });
  });

  it('axe: the GRPO lesson with every slider at both ends, its numbers open, a refused link value, and each theme', { timeout: 180_000 }, async (t) => {
    await env.withTab('grpo.html', null, async (tab) => {
      await tab.waitReady();
      /** @type {string[]} */
      const sliders = await tab.eval(() => [...document.querySelectorAll('figure.live input[type=range]')].map((i) => `#${i.id}`));
      assert(sliders.length >= 3, `grpo.html has ${sliders.length} sliders`);
      await tab.eval(() => document.querySelectorAll('details').forEach((d) => ((/** @type {HTMLDetailsElement} */ (d)).open = true)));
      /** @type {string[]} */
      const states = [];
      for (const key of ['Home', 'End']) {
        for (const s of sliders) await tab.press(s, key);
        const found = await axe(tab, ['figure.live', 'details']);
        states.push(`sliders ${key}, numbers open: ${found.nodes}`);
        assert(found.rules === 0, `sliders at ${key}: ${found.lines.join('\n')}`);
      }
      for (const theme of ['dark', 'contrast']) {
        await switchTheme(tab, theme);
        const found = await axe(tab);
        states.push(`${theme}: ${found.nodes}`);
        assert(found.rules === 0, `${theme}: ${found.lines.join('\n')}`);
      }
      await tab.select('#theme-switch', 'auto'); // Firefox's tabs share their storage
      t.diagnostic(`grpo.html: ${states.join('; ')}`);
    });
    await env.withTab('grpo.html?dg=abc&klshift=99', null, async (tab) => {
      await tab.waitReady();
      await tab.waitFor(() => document.querySelectorAll('.figure-error:not([hidden])').length >= 2, null);
      const found = await axe(tab, ['figure.live']);
      t.diagnostic(`grpo.html with two refused link values: ${found.nodes}`);
      assert(found.rules === 0, found.lines.join('\n'));
    });
  });

  it('axe: lesson 4 with the flags switched, and the error messages of figures and trainers', { timeout: 120_000 }, async (t) => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      const flags = await tab.count('input[data-flag]');
      assert(flags > 0, 'lesson 4 has no flags');
      await tab.click('input[data-flag]');
      await tab.click('input[data-flag]:not(:checked)');
      const found = await axe(tab, ['#figure-gae']);
      t.diagnostic(`gae.html flags switched: ${found.rules} rules, ${found.nodes} elements`);
      assert(found.rules === 0, found.lines.join('\n'));
    });
    // Errors shown: a figure's value refused, a figure that cannot be drawn, trainers' links refused.
    for (const [path, box] of [
      ['gae.html?gamma=', '#figure-gae .figure-error'],
      [`clipping.html?eps=0.${'7'.repeat(400)}`, '#figure-clipping .figure-error'],
      ['ppo.html?run=ppo&profile=smoke&seeds=1e99', '#trainer-ppo .figure-error'],
      ['sequences.html?run=sequence&profile=nonexistent', '#trainer-sequence .figure-error'],
    ]) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        await tab.waitFor((b) => document.querySelector(b)?.textContent, box);
        const found = await axe(tab, [box.split(' ')[0]]);
        t.diagnostic(`${path.slice(0, 40)} with its error: ${found.rules} rules, ${found.nodes} elements`);
        assert(found.rules === 0, found.lines.join('\n'));
      });
    }
  });

  for (const path of ['gae.html', 'clipping.html', 'exercises.html']) {
    it(`keyboard: every control of ${path} in reading order, each with a visible focus ring`, { timeout: 300_000 }, async (t) => {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        const stops = await checkKeyboard(tab, path);
        t.diagnostic(`${path}: ${stops.length} tab stops`);
      });
    });
  }

  it("keyboard: lesson 6's panel after a short run, settings and saved runs open — every control in reading order, focus visible", { timeout: 400_000 }, async (t) => {
    await env.withTab('ppo.html?run=ppo&profile=smoke&seeds=11', null, async (tab) => {
      await tab.waitReady();
      await tab.runToEnd('#trainer-ppo', 180_000);
      // The run is saved: its entry (Показать, Рядом, Удалить) is in the history list.
      await tab.waitFor(() => document.querySelectorAll('#trainer-ppo .history-list li').length > 0, null);
      const closed = await checkKeyboard(tab, 'lesson 6, panel as the run left it', '#trainer-ppo');
      await tab.eval(() => document.querySelectorAll('#trainer-ppo details').forEach((d) => ((/** @type {HTMLDetailsElement} */ (d)).open = true)));
      // A second configuration: the bar has two chips, «+ конфигурация» and its removal.
      await tab.click('#trainer-ppo .config-add');
      const open = await checkKeyboard(tab, 'lesson 6, panel with its settings and saved runs open, two configurations', '#trainer-ppo');
      const names = open.map((s) => s.name).join(' | ');
      const bar = ['config-chip', 'config-add', 'config-remove'].map((c) => open.filter((s) => s.cls.split(' ').includes(c)).length);
      assert(bar.join() === '2,1,1', `the configuration bar: ${bar} chips, add and remove buttons reached`);
      const fields = await tab.count('#trainer-ppo details.trainer-settings :is(input, select):not(:disabled)');
      const reachedFields = await tab.eval(() => document.querySelectorAll('#trainer-ppo details.trainer-settings :is(input, select)[data-tab-seen]').length);
      assert(fields > 10 && reachedFields === fields, `the settings form: ${reachedFields} of its ${fields} fields reached`);
      assert(/«загрузить и посмотреть»/.test(names) && /«скачать»/.test(names), `policy-file controls not reached: ${names}`);
      assert(/«Показать»/.test(names) && /«Рядом»/.test(names) && /«Удалить»/.test(names), `the saved run's buttons not reached: ${names}`);
      t.diagnostic(`lesson 6's panel: ${closed.length} tab stops as left, ${open.length} with everything open`);
    });
  });

  it('sliders: arrows, Page Up/Down, Home/End, each announced in Russian («γ = 0,99»)', async () => {
    for (const [path, ids] of /** @type {[string, string[]][]} */ ([
      ['gae.html', ['gae-gamma', 'gae-lambda']],
      ['clipping.html', ['clip-eps', 'drift-eps', 'drift-steps']],
    ])) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        for (const id of ids) {
          const read = () =>
            tab.eval((i) => {
              const s = /** @type {HTMLInputElement} */ (document.getElementById(i));
              return {
                value: Number(s.value),
                min: Number(s.min),
                max: Number(s.max),
                step: Number(s.step),
                text: s.getAttribute('aria-valuetext'),
                label: s.dataset.label,
                shown: document.querySelector(`output[for="${i}"]`)?.textContent,
              };
            }, id);
          const start = await read();
          const check = async (/** @type {string} */ key, /** @type {(v: number) => boolean} */ ok) => {
            const before = await read();
            await tab.press(`#${id}`, key);
            const now = await read();
            assert(ok(now.value), `${path} #${id}: ${key} moved ${before.value} to ${now.value}`);
            const grid = (now.value - now.min) / now.step;
            assert(Math.abs(grid - Math.round(grid)) < 1e-6, `${path} #${id}: ${key} left ${now.value} off the grid`);
            assert(now.text === `${now.label} = ${now.shown}`, `${path} #${id}: aria-valuetext «${now.text}», the page shows ${now.label} = ${now.shown}`);
            assert(!/\./.test(now.text ?? '.'), `${path} #${id}: «${now.text}» is not written the Russian way`);
            return now.value;
          };
          const eps = start.step / 2;
          await check('Home', (v) => v === start.min);
          await check('ArrowRight', (v) => Math.abs(v - (start.min + start.step)) < eps);
          await check('ArrowUp', (v) => Math.abs(v - (start.min + 2 * start.step)) < eps);
          await check('ArrowLeft', (v) => Math.abs(v - (start.min + start.step)) < eps);
          await check('ArrowDown', (v) => Math.abs(v - start.min) < eps);
          const paged = await check('PageUp', (v) => v > start.min + start.step - eps);
          await check('PageDown', (v) => v < paged);
          await check('End', (v) => v === start.max);
        }
      });
    }
  });

  it('lesson 4: every flag is a target of at least 24 × 24 px, at desktop and phone width', async () => {
    for (const viewport of [null, { width: 390, height: 844 }]) {
      await env.withTab('gae.html', viewport && { viewport }, async (tab) => {
        await tab.waitReady();
        const small = await tab.eval(() =>
          [...document.querySelectorAll('input[data-flag]')]
            .map((f) => f.getBoundingClientRect())
            .filter((r) => r.width < 24 || r.height < 24)
            .map((r) => `${r.width}×${r.height}`),
        );
        assert(small.length === 0, `flags below 24 × 24 px: ${small.join(', ')}`);
        const count = await tab.count('input[data-flag]');
        assert(count > 0, "lesson 4 has no flags");
      });
    }
  });

  it('themes: every text ≥ 4.5:1, figure lines and marks and the focus ring ≥ 3:1, and axe finds nothing in any theme', { timeout: 180_000 }, async (t) => {
    // One visit per page, the themes switched in it as a reader does.
    for (const path of ['gae.html', 'ppo.html', 'r1zero.html']) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        if (path === 'r1zero.html') {
          // Lesson 10's token inspector, open: one group's tables of tokens.
          await tab.eval(() => /** @type {HTMLButtonElement} */ (document.querySelector('[data-inspector-show]')).click());
          // ... once app.js has made its scrolling boxes keyboard-scrollable (after a debounce).
          await tab.waitFor(
            () => {
              const wraps = [...document.querySelectorAll('#token-inspector .table-wrap')];
              return wraps.length > 1 && wraps.every((w) => w.scrollWidth <= w.clientWidth + 1 || w.hasAttribute('tabindex'));
            },
            null,
            60_000,
          );
        }
        for (const theme of ['light', 'dark', 'contrast']) {
          await switchTheme(tab, theme);
          if (path === 'gae.html') {
            const names = [...new Set([...TEXT_PAIRS.flat(), ...MARKS, 'focus'])];
            /** @type {Record<string, string>} */
            const colors = await tab.eval((list) => {
              const style = getComputedStyle(document.documentElement);
              return Object.fromEntries(list.map((n) => [n, style.getPropertyValue(`--${n}`).trim()]));
            }, names);
            const low = [
              ...TEXT_PAIRS.filter(([f, b]) => contrast(colors[f], colors[b]) < 4.5).map(([f, b]) => `text ${f} on ${b}: ${contrast(colors[f], colors[b]).toFixed(2)}`),
              ...MARKS.filter((m) => contrast(colors[m], colors['fig-paper']) < 3).map((m) => `${m} on fig-paper: ${contrast(colors[m], colors['fig-paper']).toFixed(2)}`),
              ...['paper', 'card'].filter((b) => contrast(colors.focus, colors[b]) < 3).map((b) => `focus on ${b}`),
            ];
            const least = Math.min(...MARKS.map((m) => contrast(colors[m], colors['fig-paper'])));
            const leastText = Math.min(...TEXT_PAIRS.map(([f, b]) => contrast(colors[f], colors[b])));
            t.diagnostic(`${theme}: least text contrast ${leastText.toFixed(2)}, least figure mark ${least.toFixed(2)}`);
            assert(low.length === 0, `${theme}: ${low.join('; ')}`);
          }
          const found = await axe(tab);
          t.diagnostic(`${path} in the ${theme} theme: ${found.rules} rules, ${found.nodes} elements`);
          // What a reader sees in each theme: lesson 4's GAE figure, lesson 6's trainer panel,
          // lesson 10's token inspector.
          const shot = { 'gae.html': '#figure-gae', 'ppo.html': '#trainer-ppo', 'r1zero.html': '#token-inspector' }[path];
          await tab.screenshot(`theme-${theme}-${path.replace('.html', '')}`, shot);
          assert(found.rules === 0, `${theme}: ${found.lines.join('\n')}`);
        }
        await tab.select('#theme-switch', 'auto'); // Firefox's tabs share their storage
        if (path === 'r1zero.html') {
          // A group past the batch: the core refuses it, the page says so in Russian.
          await tab.eval(() => {
            /** @type {HTMLInputElement} */ (document.querySelector('#inspector-group')).value = '99';
            /** @type {HTMLButtonElement} */ (document.querySelector('[data-inspector-show]')).click();
          });
          const text = await tab.waitFor(() => {
            const box = /** @type {HTMLElement} */ (document.querySelector('[data-inspector-error]'));
            return box.hidden ? null : box.textContent;
          }, null);
          assert(/^Не удалось показать группу: .*group/.test(text ?? ''), `the refusal: ${text}`);
        }
      });
    }
  });

  it('themes: switching redraws every canvas in the theme\'s colours, keeps the sliders, and is remembered', { timeout: 120_000 }, async () => {
    await env.withTab('gae.html', null, async (tab) => {
      await tab.waitReady();
      await tab.press('#gae-gamma', 'Home');
      await tab.press('#gae-lambda', 'End');
      const sliders = () => tab.eval(() => [...document.querySelectorAll('input[type=range]')].map((i) => /** @type {HTMLInputElement} */ (i).value));
      const before = await sliders();
      const canvases = await tab.eval(() => [...document.querySelectorAll('canvas')].map((c) => `#${c.id}`));
      assert(canvases.length > 0, 'no canvas');
      /** @type {Record<string, number>} */
      const hashes = {};
      for (const c of canvases) hashes[c] = (await tab.canvas(c)).hash;
      for (const theme of ['dark', 'contrast', 'light']) {
        await switchTheme(tab, theme);
        const paper = await tab.eval(() => getComputedStyle(document.documentElement).getPropertyValue('--fig-paper').trim());
        for (const c of canvases) {
          const now = (await tab.canvas(c)).hash;
          assert(now !== hashes[c], `${theme}: ${c} was not redrawn`);
          hashes[c] = now;
          const corner = await tab.eval((sel) => {
            const canvas = /** @type {HTMLCanvasElement} */ (document.querySelector(sel));
            const [r, g, b] = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(1, 1, 1, 1).data;
            return `#${[r, g, b].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
          }, c);
          assert(corner === paper, `${theme}: ${c}'s background is ${corner}, the theme's ${paper}`);
        }
        const after = await sliders();
        assert(after.join() === before.join(), `${theme}: the sliders moved from ${before} to ${after}`);
      }
      await switchTheme(tab, 'dark');
      // Remembered on the next page (a Chromium tab is a fresh context: same tab); «как в
      // системе» forgets it.
      await tab.goto(env.url + 'clipping.html');
      await tab.waitReady();
      const shown = await tab.eval(() => [document.documentElement.dataset.theme, /** @type {HTMLSelectElement} */ (document.getElementById('theme-switch')).value]);
      assert(shown.join() === 'dark,dark', `the next page shows the theme ${shown}`);
      await tab.select('#theme-switch', 'auto');
      const stored = await tab.eval(() => localStorage.getItem('pgbook-theme'));
      assert(stored === null, `«как в системе» left ${stored} stored`);
      // Storage refused: the page still switches and says the choice is not remembered.
      await tab.eval(() => {
        Storage.prototype.setItem = () => {
          throw new DOMException('refused', 'SecurityError');
        };
      });
      await switchTheme(tab, 'contrast');
      const note = await tab.text('#theme-note');
      assert(note?.includes('не запомнится'), `no note when storage is refused: «${note}»`);
    });
  });

  it("themes: the system's dark or high-contrast preference is the default, followed live (Chromium)", async (t) => {
    if (env.name !== 'chromium') return t.skip('the preference is emulated through playwright');
    await env.withTab('gae.html', null, async (tab) => {
      const page = tab.playwright;
      assert(page, 'no playwright page');
      const theme = () => tab.eval(() => document.documentElement.dataset.theme);
      for (const [media, wanted] of /** @type {[Parameters<typeof page.emulateMedia>[0], string][]} */ ([
        [{ colorScheme: 'dark' }, 'dark'],
        [{ colorScheme: 'light', contrast: 'more' }, 'contrast'],
        [{ colorScheme: 'light', contrast: 'no-preference' }, 'light'],
      ])) {
        await page.emulateMedia(media);
        await tab.goto(env.url + 'gae.html');
        await tab.waitReady();
        assert((await theme()) === wanted, `${JSON.stringify(media)}: the page opened in ${await theme()}`);
      }
      // «как в системе» follows a change of the system's setting without a reload, figures too.
      const before = (await tab.canvas('#canvas-gae')).hash;
      await page.emulateMedia({ colorScheme: 'dark' });
      await tab.waitFor(() => document.documentElement?.dataset.theme === 'dark', null);
      const after = (await tab.canvas('#canvas-gae')).hash;
      assert(after !== before, 'the figure was not redrawn when the system turned dark');
    });
  });

  it('print: lessons 4 and 6 print their figures as images, with descriptions and numbers, and no controls (Chromium)', { timeout: 240_000 }, async (t) => {
    if (env.name !== 'chromium') return t.skip('only Chromium prints to PDF headless');
    // Lesson 6 after a short PPO run (its curves print) and before one (a line says so).
    for (const path of ['gae.html', 'ppo.html?run=ppo&profile=smoke', 'ppo.html']) {
      await env.withTab(path, null, async (tab) => {
        await tab.waitReady();
        if (path.includes('run=')) await tab.runToEnd('#trainer-ppo', 120_000);
        const page = tab.playwright;
        assert(page, 'no playwright page');
        await page.emulateMedia({ media: 'print' });
        // What a browser's print does first (printToPDF itself does not announce it).
        await tab.eval(() => dispatchEvent(new Event('beforeprint')));
        const state = await tab.eval(() => {
          const shown = (/** @type {Element} */ e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
          // A trainer that was not run prints a line saying so instead of its empty figures.
          const idle = [...document.querySelectorAll('section.trainer[data-status=idle]')];
          const canvases = [...document.querySelectorAll('canvas')].filter((c) => c.width > 0 && !c.closest('[data-status=idle]'));
          return {
            // A Python fold's summary prints as its code's title (issue 39: book.css's print rules).
            controls: [...document.querySelectorAll('input, button, select, textarea, nav, header.site, footer.site, summary:not(details.snippet > summary)')]
              .filter(shown)
              .map((e) => e.outerHTML.slice(0, 80)),
            canvases: canvases.length,
            canvasesShown: canvases.filter(shown).length,
            images: [...document.querySelectorAll('img.print-copy')].filter(shown).length,
            idleSaid: idle.filter((panel) => getComputedStyle(panel, '::before').content.includes('не запускался')).length,
            idle: idle.length,
            described: [...document.querySelectorAll('p.print-copy')].filter((p) => shown(p) && (p.textContent ?? '').length > 20).length,
            numbers: [...document.querySelectorAll('details.figure-numbers table')].filter((table) => shown(table) && table.querySelectorAll('tr').length > 1).length,
            figures: [...document.querySelectorAll('figure.live')].length,
            unbroken: [...document.querySelectorAll('figure.live')].every((f) => getComputedStyle(f).breakInside === 'avoid'),
          };
        });
        assert(state.controls.length === 0, `${path}: controls printed: ${state.controls.join(', ')}`);
        assert(state.images === state.canvases && state.canvasesShown === 0, `${path}: ${state.images} images for ${state.canvases} canvases (${state.canvasesShown} canvases printed)`);
        assert(state.described >= state.figures && state.numbers === state.figures, `${path}: ${state.figures} figures, ${state.described} descriptions, ${state.numbers} number tables`);
        assert(state.unbroken, `${path}: a figure may split across pages`);
        assert(state.idleSaid === state.idle, `${path}: ${state.idle} trainers not run, ${state.idleSaid} say so`);
        const pdf = await page.pdf({ format: 'A4', printBackground: true });
        writeFileSync(join(ARTIFACTS, `${path.replace(/\.html.*/, '').concat(path.includes('run=') ? '-run' : '')}.pdf`), pdf);
        const text = pdf.toString('latin1');
        const pages = (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
        const images = (text.match(/\/Subtype\s*\/Image/g) ?? []).length;
        t.diagnostic(`${path}: ${pages} A4 pages, ${images} images in the PDF, ${state.images} canvases printed, ${state.idle} trainers not run`);
        assert(pages > 1 && images >= state.images && (state.idle > 0 || images > 0), `${path}: ${pages} pages, ${images} images for ${state.images} canvases`);
        await tab.eval(() => dispatchEvent(new Event('afterprint')));
        await page.emulateMedia({ media: null });
        const left = await tab.count('.print-copy');
        assert(left === 0, `${path}: ${left} print copies left after printing`);
      });
    }
  });
  it("Firefox: a formula laid out while its page is still arriving is no page error; a wrong formula is", async (t) => {
    if (env.name !== 'firefox') return t.skip('only Firefox reports MathML markup');
    // A page in two parts: the server sends the second only once the page has laid out the
    // first, which ends inside a fraction (what a slow network or a busy server does).
    const top = '<!doctype html><html lang="ru"><meta charset="utf-8"><title>формула</title><body><p>Дробь:</p>';
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      if (req.url === '/laid-out') return res.end('');
      if (req.url === '/wrong') return res.end(`${top}<math><msub><mi>x</mi></msub></math>`);
      const rest = () => res.end('<mi>b</mi></mfrac></math><p>Конец.</p>');
      server.once('laid-out', rest);
      res.write(
        `${top}<script>const w = setInterval(() => { if (!document.querySelector('mfrac')) return; clearInterval(w); ` +
          `void document.body.offsetHeight; fetch('/laid-out'); }, 10);</script><math><mfrac><mi>a</mi>`,
      );
    });
    server.on('request', (req) => req.url === '/laid-out' && server.emit('laid-out'));
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r(null)));
    const url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
    try {
      const tab = await env.browser.open(`${url}/halves`);
      try {
        await tab.eval(() => new Promise((r) => requestAnimationFrame(() => r(null))));
        const reported = tab.problems.filter((p) => p.includes('Invalid markup')).length;
        await tab.checkMathReports();
        t.diagnostic(`a page in two halves: Firefox reported ${reported} MathML error(s); after the check: ${tab.problems.length} problems`);
        assert(reported > 0, 'Firefox did not report the half-arrived fraction (nothing to check)');
        assert(tab.problems.length === 0, tab.problems.join('\n'));
      } finally {
        await tab.close();
      }
      const wrong = await env.browser.open(`${url}/wrong`);
      try {
        await wrong.settle();
        assert(wrong.problems.some((p) => /children for <msub\/>/.test(p)), `a wrong <msub> is not reported: ${wrong.problems.join('; ')}`);
      } finally {
        await wrong.close();
      }
    } finally {
      await new Promise((r) => server.close(() => r(null)));
    }
  });

});
