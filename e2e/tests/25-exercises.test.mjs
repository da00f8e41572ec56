// @ts-check
// Lesson 10: every exercise form is checked by the core — a right answer says so, a wrong one
// says which fields or options are wrong, text that is not a number gets a message; the code
// exercises show the project's Rust function taken from src/rl/ at build time.
import { it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SITE, forEachBrowser, assert } from '../harness.mjs';
import { ROOT, coreNumbers } from '../../scripts/build-site.mjs';
import { NOTEBOOK } from '../../scripts/code-exercises.mjs';

/** Lesson 10's coding exercises as the core describes them (lessons::code), loaded once. */
const { code } = await coreNumbers(join(ROOT, 'www'));

/** A number as a Russian reader types it. @param {number} x */
const typed = (x) => x.toFixed(4).replace('.', ',').replace('-', '−');

forEachBrowser((env) => {
  it('the exercises lesson: every exercise form answers right and wrong answers in Russian', { timeout: 120_000 }, async (t) => {
    await env.withTab('exercises.html', null, async (tab) => {
      await tab.waitReady();
      /** @type {Record<string, { correct_options: number[], options: number, expected: number[] }>} */
      const spec = await tab.eval(() => window.pgbookWasm.worked_examples().exercises);
      const forms = await tab.eval(() => [...document.querySelectorAll('form[data-exercise]')].map((f) => /** @type {HTMLElement} */ (f).dataset.exercise ?? ''));
      // What the reader sees, not the attribute: a stylesheet rule once showed every option's
      // «Верно/Неверно» before the check, `hidden` set and all.
      /** @param {string} form */
      const shownWhys = (form) =>
        tab.eval((f) => [...document.querySelectorAll(`${f} [data-why]`)].filter((w) => getComputedStyle(w).display !== 'none' && /** @type {HTMLElement} */ (w).offsetHeight > 0).length, form);
      for (const n of forms.filter((n) => spec[n].options > 0)) {
        const before = await shownWhys(`form[data-exercise="${n}"]`);
        assert(before === 0, `exercise ${n}: ${before} explanations visible before the check`);
      }
      assert(forms.length === Object.keys(spec).length, `${forms.length} exercise forms for ${Object.keys(spec).length} exercises`);
      for (const n of Object.keys(spec)) assert(forms.includes(n), `no form for exercise ${n}`);
      for (const n of forms) {
        const ex = spec[n];
        const form = `form[data-exercise="${n}"]`;
        const submit = () => tab.click(`${form} button[type=submit]`);
        const feedback = () => tab.text(`${form} [data-feedback]`);
        if (ex.options > 0) {
          const setMarks = (/** @type {number[]} */ marks) =>
            tab.eval(
              ([f, m]) =>
                document.querySelectorAll(`${f} input[name=option]`).forEach((o) => {
                  /** @type {HTMLInputElement} */ (o).checked = /** @type {number[]} */ (m).includes(Number(/** @type {HTMLInputElement} */ (o).value));
                }),
              [form, marks],
            );
          const wrong = [...ex.correct_options.slice(1), ...[1, 2, 3, 4, 5].filter((k) => !ex.correct_options.includes(k)).slice(0, 1)];
          await setMarks(wrong);
          await submit();
          const no = await feedback();
          assert(no?.startsWith('Неверно'), `exercise ${n}, wrong marks: «${no}»`);
          const whys = await shownWhys(form);
          // Only the options judged wrong are explained after a wrong answer.
          const judgedWrong = [1, 2, 3, 4, 5].filter((k) => wrong.includes(k) !== ex.correct_options.includes(k)).length;
          assert(whys === judgedWrong, `exercise ${n}: ${whys} explanations shown, ${judgedWrong} options judged wrong`);
          await setMarks(ex.correct_options);
          await submit();
          const yes = await feedback();
          assert(yes?.startsWith('Верно'), `exercise ${n}, right marks: «${yes}»`);
          const all = await shownWhys(form);
          assert(all === ex.options, `exercise ${n}: ${all} of ${ex.options} explanations shown after the right answer`);
          continue;
        }
        const fill = async (/** @type {string[]} */ values) => {
          for (let i = 0; i < values.length; i++) await tab.fill(`${form} input[name=v${i}]`, values[i]);
        };
        const fields = await tab.count(`${form} input[type=text]`);
        assert(fields === ex.expected.length, `exercise ${n}: ${fields} fields for ${ex.expected.length} values`);
        await fill(ex.expected.map((x, i) => typed(i === 0 ? x + 0.1 : x)));
        await submit();
        const no = await feedback();
        assert(no?.startsWith('Неверно') && no.includes('поля 1'), `exercise ${n}, wrong first field: «${no}»`);
        const invalid = await tab.eval((f) => document.querySelector(`${f} input[name=v0]`)?.getAttribute('aria-invalid'), form);
        assert(invalid === 'true', `exercise ${n}: the wrong field is not marked`);
        // A wrong answer leaves the solution closed: the reader tries again.
        const opened = await tab.eval((f) => document.querySelector(`${f} + details.answer`)?.hasAttribute('open') ?? null, form);
        assert(opened === false, `exercise ${n}: the solution after a wrong answer is ${opened === null ? 'missing' : 'open'}`);
        await fill(['abc']);
        await submit();
        const junk = await feedback();
        assert(junk?.startsWith('Не число'), `exercise ${n}, not a number: «${junk}»`);
        await fill(ex.expected.map(typed));
        await submit();
        const yes = await feedback();
        assert(yes?.startsWith('Верно'), `exercise ${n}, right answer: «${yes}»`);
        const tolerance = await tab.text(`${form} [data-worked="exercises.${n}.tolerance"]`);
        assert(tolerance === '0,005', `exercise ${n}: tolerance shown as «${tolerance}»`);
      }
      t.diagnostic(`${forms.length} exercises checked right and wrong`);
    });
  });

  it('the exercises lesson: the code exercises show the functions of src/rl/ as built', async () => {
    await env.withTab('exercises.html', null, async (tab) => {
      await tab.waitReady();
      /** @type {{ source: string, code: string }[]} */
      const blocks = await tab.eval(() =>
        [...document.querySelectorAll('pre.source')].map((p) => ({ source: /** @type {HTMLElement} */ (p).dataset.source ?? '', code: p.textContent ?? '' })),
      );
      assert(blocks.length >= 6, `${blocks.length} source blocks`);
      for (const { source, code } of blocks) {
        const [file, name] = source.split('#');
        const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
        assert(code.includes(`pub fn ${name}`) && text.includes(code.trim().split('\n').slice(-3).join('\n')), `${source}: not the file's function`);
      }
    });
  });

  it('the exercises lesson: the coding exercises — the stub, the core\'s cases and hints, the solution behind a reveal; «Копировать»; the notebook downloads', async (t) => {
    await env.withTab('exercises.html', null, async (tab) => {
      await tab.waitReady();
      /** @type {{ id: string, stub: string, cases: number, hints: number, solution: string, revealed: boolean }[]} */
      const blocks = await tab.eval(() =>
        /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-code-exercise]')]).map((b) => ({
          id: b.dataset.codeExercise ?? '',
          stub: b.querySelector('.code-stub pre')?.textContent ?? '',
          cases: b.querySelectorAll('details.code-cases li').length,
          hints: b.querySelectorAll('details.code-hints li').length,
          solution: b.querySelector('details.answer pre')?.textContent ?? '',
          revealed: /** @type {HTMLDetailsElement | null} */ (b.querySelector('details.answer'))?.open ?? true,
        })),
      );
      assert(JSON.stringify(blocks.map((b) => b.id)) === JSON.stringify(code.map((c) => c.exercise.id)), `coding exercises ${blocks.map((b) => b.id).join(', ')}`);
      for (const [i, b] of blocks.entries()) {
        const { exercise, stub, solution } = code[i];
        assert(b.stub === stub.trimEnd() && exercise.functions.every((f) => b.stub.includes(`def ${f}(`)) && b.stub.includes('raise NotImplementedError'), `${b.id}: the stub`);
        assert(b.cases === exercise.cases.length && b.cases >= 4, `${b.id}: ${b.cases} cases shown of ${exercise.cases.length}`);
        assert(b.hints === exercise.hints.length && b.hints >= 2, `${b.id}: ${b.hints} hints shown of ${exercise.hints.length}`);
        assert(b.solution === solution.trimEnd() && !b.revealed, `${b.id}: the solution (${b.revealed ? 'open' : 'closed'})`);
      }
      // Copy: the clipboard where the browser allows it, else the stub selected for Ctrl+C.
      await tab.click('button.copy-code');
      const said = String(await tab.waitFor(() => document.querySelector('.copy-status')?.textContent || null, undefined, 5000));
      const selected = await tab.eval(() => getSelection()?.toString() ?? '');
      assert(said.startsWith('Скопировано') || (said.includes('выделена') && selected.trim() === blocks[0].stub.trim()), `copy: «${said}», selected ${selected.length} characters`);
      // The notebook: the build's file, the stubs and no solution.
      /** @type {{ href: string, text: string } | null} */
      const notebook = await tab.eval(async () => {
        const a = /** @type {HTMLAnchorElement | null} */ (document.querySelector('#code-notebook a[download]'));
        return a && { href: a.getAttribute('href') ?? '', text: await (await fetch(a.href)).text() };
      });
      const built = readFileSync(join(SITE, NOTEBOOK), 'utf8');
      assert(notebook?.href === NOTEBOOK && notebook.text === built, `the notebook link: ${notebook?.href}`);
      const cells = JSON.parse(built).cells;
      assert(cells.filter((/** @type {{ source: string[] }} */ c) => c.source.join('').startsWith('check(')).length === code.length, 'a check per exercise');
      assert(!built.includes('running = r[t] + gamma * running'), 'the student\'s notebook holds a solution');
      // Exercises 17–23 describe what the coding exercises ask to write: each links to its
      // «Напишите сами» entry by that entry's own heading (17, softmax, to lesson 1's code).
      /** @type {{ n: number, links: { href: string, text: string, target: string | null }[] }[]} */
      const described = await tab.eval(() =>
        [17, 18, 19, 20, 21, 22, 23].map((n) => {
          let el = document.getElementById(`exercise-${n}`)?.nextElementSibling ?? null;
          while (el && el.tagName !== 'H3' && !el.matches('p.code-link')) el = el.nextElementSibling;
          const anchors = el?.matches('p.code-link') ? [...el.querySelectorAll('a')] : [];
          return {
            n,
            links: anchors.map((a) => {
              const href = a.getAttribute('href') ?? '';
              const target = href.startsWith('#') ? (document.getElementById(href.slice(1))?.textContent ?? null) : null;
              return { href, text: a.textContent ?? '', target };
            }),
          };
        }),
      );
      for (const { n, links } of described) {
        assert(links.length > 0, `exercise ${n}: no link to a coding exercise`);
        for (const l of links.filter((l) => l.href.startsWith('#'))) {
          assert(l.target?.startsWith('Напишите сами') && l.text === `«${l.target}»`, `exercise ${n}: ${l.href} reads «${l.text}», its heading «${l.target}»`);
        }
      }
      const lesson1 = described[0].links.find((l) => !l.href.startsWith('#'))?.href ?? '';
      const [page, id] = lesson1.split('#');
      const html = await tab.eval(async (p) => (await fetch(p)).text(), page);
      assert(html.includes(`id="${id}"`) && html.includes('data-snippet="surrogate_loss surrogate_grad"'), `exercise 17's link ${lesson1}`);
      if (env.name === 'chromium') {
        const file = await tab.download('#code-notebook a[download]');
        assert(file.name === NOTEBOOK && file.text === built, `downloaded ${file.name}`);
      }
      t.diagnostic(`${blocks.length} coding exercises; the notebook ${built.length} bytes`);
    });
  });
});
