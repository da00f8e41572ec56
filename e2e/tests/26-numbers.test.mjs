// @ts-check
// The lessons' numbers come from the core: a page source that types a number the core exports
// (a worked example's inputs, a profile's seeds, a constant, a slider's range) fails here, as
// does a figure control the core's table does not declare; and
// the build fills `{{path}}` from the same wasm module the page runs (no browser needed).
import { describe, it } from 'node:test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assert, ROOT } from '../harness.mjs';
import { BuildError, coreNumbers, fillControls, fillNumbers } from '../../scripts/build-site.mjs';

const PAGES = join(ROOT, 'www', 'pages');
const core = await coreNumbers(join(ROOT, 'www'));
/** @type {any} */
const values = core.values;

/** A number as a lesson might type it: decimal comma (or TeX's `{,}`), either minus. @param {number} x */
const typed = (x) => {
  const [int, frac] = String(Math.abs(x)).split('.');
  const digits = int.length > 3 ? `${int.slice(0, -3)}(?:\\s|\\\\,|&nbsp;)?${int.slice(-3)}` : int;
  return `${x < 0 ? '(?:−|-)' : ''}${digits}${frac ? `(?:,|\\{,\\})${frac}` : ''}`;
};
/** A list as a lesson might type it: any of «;», «,», «и» between, TeX spaces allowed. @param {number[]} xs */
const typedList = (xs) => xs.map(typed).join('\\s*(?:;|,| и )\\s*(?:\\\\\\s*)?');

/** The exported values a lesson must never type, by the core path that holds them. */
const lists = [
  'score.logits',
  'returns.rewards',
  'bstar.q',
  'rloo.rewards',
  'constants.bandit_logits',
  'constants.bandit_success',
  'gae.rewards',
  'gae.values',
  'gae.next_values',
  'ppo.ratio',
  'ppo.advantage',
  'ppo.clip_interval',
  'tokens.input_ids.0',
  'tokens.input_ids.1',
  'tokens.advantages',
  'trainers.ppo_full.seeds',
  'trainers.ppo_smoke.seeds',
  'grpo.kl_reference_logits',
  'grpo.kl_direction',
];
const scalars = ['simulation.groups', 'simulation.seed', 'constants.cartpole_max_steps', 'trainers.solved_threshold'];
/** Numbers checked only in the pages that use their example (by a path prefix they quote). */
const local = { 'gae.': ['gae.rewards.1'] };

/** @param {string} path */
const at = (path) => path.split('.').reduce((/** @type {any} */ o, k) => o?.[k], values);

/** A page's text with the build's placeholders taken out: what is left was typed by hand. @param {string} file */
const typedText = (file) => readFileSync(join(PAGES, file), 'utf8').replace(/\{\{[^}]*\}\}/g, '⟨core⟩');

const files = readdirSync(PAGES).filter((f) => f.endsWith('.html'));

describe('numbers from the core', () => {
  it('no page types a list or a constant the core exports', () => {
    /** @type {string[]} */
    const found = [];
    for (const path of lists) {
      const v = at(path);
      assert(Array.isArray(v) && v.length >= 2, `${path} is not a list in the core`);
      // Short lists only inside brackets (a bare «2, 0» is too common); long ones anywhere.
      const body = typedList(v);
      const re =
        v.length >= 4
          ? new RegExp(`(?<![\\d,.])${body}(?![\\d]|\\{,\\}|,\\d)`)
          : new RegExp(`[([]\\s*(?:\\\\\\s*)?${body}\\s*[)\\]]`);
      for (const file of files) if (re.test(typedText(file))) found.push(`${file}: ${path} = ${v.join(', ')}`);
    }
    for (const path of scalars) {
      const v = at(path);
      assert(typeof v === 'number', `${path} is not a number in the core`);
      const re = new RegExp(`(?<![\\d,.{])${typed(v)}(?![\\d]|\\{,\\}|,\\d)`);
      for (const file of files) if (re.test(typedText(file))) found.push(`${file}: ${path} = ${v}`);
    }
    // A page that takes an example from the core never types that example's numbers either
    // (the exercises lesson's answer once said «Награда 100» of the GAE example, a number too common to
    // look for in every page).
    for (const [prefix, paths] of Object.entries(local)) {
      for (const file of files) {
        const text = typedText(file);
        if (!readFileSync(join(PAGES, file), 'utf8').includes(prefix)) continue;
        for (const path of paths) {
          const re = new RegExp(`(?<![\\d,.{])${typed(at(path))}(?![\\d]|\\{,\\}|,\\d)`);
          if (re.test(text)) found.push(`${file}: ${path} = ${at(path)}`);
        }
      }
    }
    // Lesson 1's chosen action as a formula's index: π(2), e_2.
    const action = new RegExp(`\\\\pi\\(\\s*${at('score.action')}\\s*\\)|e_\\{?\\s*${at('score.action')}(?!\\d)`);
    for (const file of files) if (action.test(typedText(file))) found.push(`${file}: score.action = ${at('score.action')} in a formula`);
    // Counts written as words: «на пяти начальных значениях» is a profile's seed count.
    const words = /(?:^|[^а-яё])(?:одно|одном|одного|одним|два|двух|двум|двумя|три|трёх|трём|тремя|четыре|четырёх|четырём|пять|пяти|пятью|шесть|шести|семь|семи|восемь|восьми|десять|десяти)\s+начальн/i;
    for (const file of files) {
      const m = typedText(file).match(words);
      if (m) found.push(`${file}: «${m[0].trim()}» — a seed count typed as a word`);
    }
    assert(found.length === 0, `numbers typed instead of taken from the core:\n${found.join('\n')}`);
  });

  it("lesson 4's flag table has one column per record of the core's buffer", () => {
    // The flags' `checked` come from the core record by record; the columns themselves are
    // written out, so a buffer of another length must fail here, not leave a record unshown.
    const html = readFileSync(join(PAGES, 'gae.html'), 'utf8');
    const n = values.constants.gae_buffer.records;
    for (const flag of ['terminated', 'trace_cut']) {
      const records = [...html.matchAll(new RegExp(`data-flag="${flag}"[^>]*data-record="(\\d+)"`, 'g'))].map((m) => Number(m[1]));
      assert(records.join() === [...Array(n).keys()].join(), `${flag}: records ${records.join()} for a buffer of ${n}`);
    }
    const header = html.match(/<th scope="row">шаг t<\/th>((?:<td>\d+<\/td>)+)/);
    assert(header && [...header[1].matchAll(/<td>(\d+)<\/td>/g)].map((m) => m[1]).join() === [...Array(n).keys()].join(), 'the «шаг t» row');
  });

  it("the sentences that depend on a profile's switches are chosen by the core", () => {
    // Lessons 5 and 6 describe what the `full` profile does; a sentence that holds only for
    // today's switches would turn false when a switch changes (audit I6.3).
    const need = {
      'clipping.html': ['trainers.ppo_full.config.anneal_clip'],
      'ppo.html': [
        'trainers.ppo_full.entropy_bonus',
        'trainers.ppo_full.config.clip_vloss',
        'trainers.ppo_full.config.anneal_clip',
        'trainers.ppo_full.config.anneal_lr',
      ],
      'sequences.html': ['trainers.sequence_full.single_seed'],
    };
    /** @type {string[]} */
    const missing = [];
    for (const [file, paths] of Object.entries(need)) {
      const html = readFileSync(join(PAGES, file), 'utf8');
      for (const path of paths) {
        assert(typeof at(path) === 'boolean', `${path} is not a switch in the core`);
        if (!html.includes(`{{${path}?`)) missing.push(`${file}: no {{${path}?…:…}}`);
      }
    }
    assert(missing.length === 0, missing.join('\n'));
  });

  it("the figures' controls are the core's table, and the prepared comparisons' seeds the core's", () => {
    /** @type {string[]} */
    const bad = [];
    /** @type {{ name: string, params: { name: string, url: string, control: { kind: string } }[] }[]} */
    const figures = values.figures;
    /** Declared parameters no page shows yet, as FIGURE.NAME. */
    const unseen = new Set(figures.flatMap((f) => f.params.map((p) => `${f.name}.${p.name}`)));
    for (const file of files) {
      const html = readFileSync(join(PAGES, file), 'utf8');
      /** The figure around position `at` (its data-figure), if any. @param {number} at */
      const figureAt = (at) => {
        const open = html.lastIndexOf('<figure', at);
        if (open < 0 || html.lastIndexOf('</figure>', at) > open) return null;
        return html.slice(open, html.indexOf('>', open)).match(/data-figure="([^"]+)"/)?.[1] ?? null;
      };
      const declared = (/** @type {string | null} */ figure, /** @type {string} */ name) =>
        figures.find((f) => f.name === figure)?.params.find((p) => p.name === name);
      // A control written by hand: its attributes would not be the table's.
      for (const [input] of html.matchAll(/<input type="range"[^>]*>|<input[^>]* data-param="[^"]*"[^>]*>/g)) bad.push(`${file}: a control typed by hand: ${input.slice(0, 60)}…`);
      for (const m of html.matchAll(/\{\{param\.([a-z0-9_]+)\.([a-z0-9_]+)\}\}/g)) {
        const p = declared(m[1], m[2]);
        if (!p) bad.push(`${file}: {{param.${m[1]}.${m[2]}}}: the core declares no such parameter`);
        else if (figureAt(m.index ?? 0) !== m[1]) bad.push(`${file}: {{param.${m[1]}.${m[2]}}} outside <figure data-figure="${m[1]}">`);
        else if (!unseen.delete(`${m[1]}.${m[2]}`)) bad.push(`${file}: {{param.${m[1]}.${m[2]}}} twice`);
      }
      // Per-record flags: the page writes their table; each is a declared parameter of kind flags.
      for (const m of html.matchAll(/<input[^>]* data-flag="([^"]+)" data-url="([^"]+)"[^>]*>/g)) {
        const figure = figureAt(m.index ?? 0);
        const p = declared(figure, m[1]);
        if (!p || p.control.kind !== 'flags' || p.url !== m[2]) bad.push(`${file}: data-flag="${m[1]}" data-url="${m[2]}" is not a declared flag of ${figure}`);
        else unseen.delete(`${figure}.${m[1]}`);
      }
      for (const [, seeds] of html.matchAll(/data-seeds="([^"]*)"/g)) if (!/^\{\{(trainers|prepared)\.[a-z0-9_.]+\|raw\}\}$/.test(seeds)) bad.push(`${file}: data-seeds="${seeds}"`);
    }
    assert(bad.length === 0, bad.join('\n'));
    assert(unseen.size === 0, `figure parameters the core declares and no page shows: ${[...unseen].join(', ')}`);
  });

  it('writes a control from the table: a slider, a switch, its attributes; an unknown parameter fails', () => {
    const fill = (/** @type {string} */ html) => fillControls(html, core, 'test.html');
    const slider = fill('{{param.seqratio.delta}}');
    assert(
      slider ===
        '<span class="slider"><label for="seqratio-delta">сдвиг логарифма на токен δ <input type="range" id="seqratio-delta" data-param="delta" data-url="delta" data-label="δ" data-digits="3" min="-0.05" max="0.05" step="0.001" value="0.01"></label><output for="seqratio-delta"></output></span>',
      slider,
    );
    const on = fill('{{param.tokens.eos}}');
    assert(on === '<label for="tokens-eos"><input type="checkbox" id="tokens-eos" data-param="eos" data-url="teos" data-label="«EOS в маске»" checked> EOS в маске</label>', on);
    assert(fill('{{param.clipping.eps}}').includes(' value="0.2" aria-describedby="clip-caption">'), 'aria-describedby');
    for (const unknown of ['{{param.clipping.epsilon}}', '{{param.nope.eps}}', '{{param.gae.terminated}}']) {
      let threw = false;
      try {
        fill(unknown);
      } catch (e) {
        threw = e instanceof BuildError;
      }
      assert(threw, `${unknown} did not fail the build`);
    }
  });

  it('fills values, agreeing nouns, formulas, attributes and switches; an unknown path fails', () => {
    const fill = (/** @type {string} */ html) => fillNumbers(html, core, 'test.html');
    assert(fill('{{ppo.ratio}}') === '(1,5; 0,5; 1,5; 0,5)', fill('{{ppo.ratio}}'));
    assert(fill('<span class="math">r = {{ppo.ratio.0}}</span>') === '<span class="math">r = 1{,}5</span>', 'TeX decimal comma');
    assert(fill('{{trainers.ppo_full.seeds|raw}}') === values.trainers.ppo_full.seeds.join(','), 'raw list');
    const groups = String(values.simulation.groups);
    assert(fill('{{simulation.groups}}') === `${groups.slice(0, -3)}\u00a0${groups.slice(-3)}`, 'thousands apart');
    const steps = values.trainers.ppo_full.config.num_steps;
    assert(fill('{{trainers.ppo_full.config.num_steps|шаг,шага,шагов}}') === core.count(steps, 3, ['шаг', 'шага', 'шагов']), 'noun');
    const budget = values.trainers.reinforce_full.env_step_budget;
    const spaced = fill('{{trainers.reinforce_full.env_step_budget|шаг,шага,шагов}}');
    assert(budget >= 10000 && spaced === core.count(budget, 3, ['шаг', 'шага', 'шагов']).replace(String(budget), `${String(budget).slice(0, -3)}\u00a0${String(budget).slice(-3)}`), `a large count, thousands apart: «${spaced}»`);
    assert(fill('{{constants.gae_buffer.terminated.0|checked}}') === '', 'checked');
    assert(fill('{{trainers.ppo_full.entropy_bonus?да:нет}}') === (values.trainers.ppo_full.entropy_bonus ? 'да' : 'нет'), 'switch');
    for (const bad of ['{{no.such.path}}', '{{ppo.ratio?a:b}}', '{{ppo.ratio|шаг,шага,шагов}}']) {
      let error = null;
      try {
        fill(bad);
      } catch (e) {
        error = e;
      }
      assert(error instanceof BuildError, `${bad}: no BuildError`);
    }
  });

  it("Russian numerals agree with their nouns (the core's one rule)", () => {
    const forms = ['шаг', 'шага', 'шагов'];
    /** @type {[number, string][]} */
    const cases = [
      [1, '1 шаг'],
      [2, '2 шага'],
      [5, '5 шагов'],
      [11, '11 шагов'],
      [12, '12 шагов'],
      [21, '21 шаг'],
      [22, '22 шага'],
      [25, '25 шагов'],
      [101, '101 шаг'],
      [111, '111 шагов'],
      [0.5, '0,5 шага'],
    ];
    for (const [n, want] of cases) assert(core.count(n, 2, forms) === want, `${n}: ${core.count(n, 2, forms)}`);
  });
});
