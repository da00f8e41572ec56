// @ts-check
// The class experiment (the contents page's #class, issue 42): a student opens a class link,
// runs one seed in a worker and gets the CLI's code for that seed; the teacher pastes twelve
// codes made by the CLI and gets the CLI's band and table; a duplicate, a truncated code and a
// code of another configuration are refused with their reasons; a forged fingerprint is found
// by recomputing its seed; the result is saved in history and survives a reload.
import { it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forEachBrowser, assert, axe, cliText, CLI } from '../harness.mjs';

/** The cheap class of tests/class.rs: A2C's smoke profile, 40 updates, evaluated every 4. */
const SETS = ['--set', 'num_updates=40', '--set', 'evaluation_every=4'];
const CLASS = 'index.html?class=a2c&config=smoke;num_updates=40;evaluation_every=4&n=12#class';

/** The CLI's codes of `seeds` (at most eight a call). @param {number[]} seeds @param {string[]} [more] */
const cliCodes = (seeds, more = []) => cliText(['train', 'a2c', '--profile', 'smoke', ...SETS, ...more, '--seeds', seeds.join(','), '--class-code']).trim().split('\n');

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `code` with one bit of its fingerprint flipped and its checksum made right again: a forgery
 * only recomputing the seed finds (the layout of src/class/code.rs; a one-digit seed).
 * @param {string} code
 */
function forge(code) {
  const bits = [...code.replace(/-/g, '')].flatMap((c) => [...ALPHABET.indexOf(c).toString(2).padStart(5, '0')].map(Number));
  /** @param {number[]} payload */
  const crc32 = (payload) => {
    let crc = 0xffffffff;
    for (const b of payload) {
      const top = ((crc >>> 31) & 1) ^ b;
      crc = (crc << 1) >>> 0;
      if (top) crc = (crc ^ 0x04c11db7) >>> 0;
    }
    return ~crc >>> 0;
  };
  const toNumber = (/** @type {number[]} */ bs) => bs.reduce((v, b) => v * 2 + b, 0);
  const pad = [0, 1, 2, 3, 4].find((p) => {
    const end = bits.length - 32 - p;
    return bits.slice(end + 32).every((b) => b === 0) && toNumber(bits.slice(end, end + 32)) === crc32(bits.slice(0, end));
  });
  assert(pad !== undefined, `the test cannot read the code ${code}`);
  const end = bits.length - 32 - /** @type {number} */ (pad);
  const payload = bits.slice(0, end);
  payload[5 + 3 + 40 + 5 + 20] ^= 1; // version, trainer, hash, a one-chunk seed; mid-fingerprint
  const crc = crc32(payload).toString(2).padStart(32, '0');
  const all = [...payload, ...[...crc].map(Number), ...Array(/** @type {number} */ (pad)).fill(0)];
  const chars = [];
  for (let i = 0; i < all.length; i += 5) chars.push(ALPHABET[toNumber(all.slice(i, i + 5))]);
  return chars.join('').replace(/(.{5})(?=.)/g, '$1-');
}

forEachBrowser((env) => {
  it('a student gets the CLI code of their seed; twelve codes make the CLI band; bad codes are refused; history keeps it', { timeout: 240_000 }, async () => {
    const codes = [...cliCodes([1, 2, 3, 4, 5, 6]), ...cliCodes([7, 8, 9, 10, 11, 12])];
    assert(codes.length === 12, `the CLI gave ${codes.length} codes`);
    const dir = mkdtempSync(join(tmpdir(), 'pgbook-class-'));
    writeFileSync(join(dir, 'codes.txt'), codes.join('\n'));
    const cli = JSON.parse(execFileSync(CLI, ['class', 'merge', join(dir, 'codes.txt'), '--json'], { encoding: 'utf8' }));
    await env.withTab(CLASS, {}, async (tab) => {
      await tab.waitReady();
      // The student: seat 5 in a worker, the CLI's code for seed 5.
      await tab.waitFor(() => document.querySelector('[data-class-student] button') !== null, null, 30_000);
      await tab.fill('#class-seat', '5');
      await tab.clickButton('[data-class-student]', 'Запустить');
      await tab.waitFor(() => document.querySelector('#class-code') !== null || document.querySelector('[data-class-student] [role="alert"]') !== null, null, 120_000);
      const code = await tab.value('#class-code');
      assert(code === codes[4], `the page's code of seed 5 is not the CLI's:\n page ${code}\n CLI  ${codes[4]}`);

      // The teacher: twelve codes in another order → the CLI's band and table.
      await tab.fill('#class-codes', [...codes].reverse().join('\n'));
      await tab.clickButton('[data-class-teacher]', 'Собрать');
      await tab.waitFor(() => document.querySelectorAll('[data-class-table] tbody tr').length === 12, null, 10_000);
      const page = await tab.eval(() => /** @type {any} */ (window).pgbookClass);
      assert(JSON.stringify(page.curve) === JSON.stringify(cli.curve), `the page's band is not the CLI's:\n page ${JSON.stringify(page.curve)}\n CLI  ${JSON.stringify(cli.curve)}`);
      assert(JSON.stringify(page.result) === JSON.stringify(cli.result), 'the page\'s results are not the CLI\'s');
      assert(JSON.stringify(page.rows.map((/** @type {any} */ r) => r.seed)) === JSON.stringify(cli.rows.map((/** @type {any} */ r) => r.seed)), 'the seeds');
      await tab.waitFor(() => document.querySelector('#class-band')?.getAttribute('data-drawn') === '12', null, 10_000);
      // The student's code, its QR code, the table and the band: WCAG 2.2 AA.
      assert((await tab.count('[data-class-code] .class-qr svg')) === 1, 'the code as a QR code');
      const a11y = await axe(tab, ['[data-class]']);
      assert(a11y.lines.length === 0, `axe on the class section:\n${a11y.lines.join('\n')}`);

      // A duplicate, a truncated code and a code of another configuration: refused, each with its reason.
      const [foreign] = cliCodes([13], ['--set', 'gamma=0.98']);
      await tab.fill('#class-codes', [...codes, codes[0], codes[1].slice(0, -4), foreign].join('\n'));
      await tab.clickButton('[data-class-teacher]', 'Собрать');
      await tab.waitFor(() => document.querySelectorAll('[data-class-refused] li').length === 3, null, 10_000);
      const reasons = await tab.eval(() => [...document.querySelectorAll('[data-class-refused] li')].map((li) => li.textContent ?? ''));
      assert(/строке 13.*уже сдано/.test(reasons[0]), `the duplicate: ${reasons[0]}`);
      assert(/строке 14.*контрольная сумма/.test(reasons[1]), `the truncated code: ${reasons[1]}`);
      assert(/строке 15.*другой конфигурации/.test(reasons[2]), `the foreign code: ${reasons[2]}`);
      assert((await tab.count('[data-class-table] tbody tr')) === 12, 'the good codes stay');

      // A forged fingerprint passes the merge and is found by recomputing its seed; a true code is confirmed.
      const forged = forge(codes[2]);
      await tab.fill('#class-codes', [codes[0], forged].join('\n'));
      await tab.clickButton('[data-class-teacher]', 'Собрать');
      await tab.waitFor(() => document.querySelectorAll('[data-class-table] tbody tr').length === 2, null, 10_000);
      await tab.eval(() => document.querySelectorAll('[data-class-table] tbody tr').forEach((tr) => /** @type {HTMLButtonElement} */ (tr.querySelector('button')).click()));
      await tab.waitFor(() => document.querySelectorAll('[data-class-table] [data-verified]').length === 2, null, 60_000);
      const verdicts = await tab.eval(() => [...document.querySelectorAll('[data-class-table] [data-verified]')].map((s) => s.textContent ?? ''));
      assert(/подтверждён/.test(verdicts[0]), `the true code: ${verdicts[0]}`);
      assert(/отпечаток подделан/.test(verdicts[1]), `the forged code: ${verdicts[1]}`);

      // Saved in history: listed, and still there after a reload.
      await tab.clickButton('[data-class-teacher]', 'Сохранить в историю');
      await tab.waitFor(() => document.querySelectorAll('[data-class-saved] li').length > 0, null, 10_000);
      const saved = await tab.count('[data-class-saved] li');
      await tab.reload();
      await tab.waitFor((n) => document.querySelectorAll('[data-class-saved] li').length === n, saved, 30_000);
    });
    // The teacher makes the class link from a panel's run link (the CLI's --url prints the same).
    await env.withTab('index.html#class', {}, async (tab) => {
      await tab.waitReady();
      await tab.fill('#class-run-link', 'gae.html?run=a2c&profile=smoke&gamma=2');
      await tab.clickButton('[data-class]', 'Сделать ссылку класса');
      await tab.waitFor(() => document.querySelector('[data-class-link] [role="alert"]') !== null, null, 30_000);
      const refused = (await tab.text('[data-class-link] [role="alert"]')) ?? '';
      assert(/γ|gamma/.test(refused), `a bad setting in the run link: ${refused}`);
      const url = cliText(['train', 'a2c', '--profile', 'smoke', ...SETS, '--url']).trim();
      await tab.fill('#class-run-link', url);
      await tab.fill('#class-seats', '12');
      await tab.clickButton('[data-class]', 'Сделать ссылку класса');
      await tab.waitFor(() => document.querySelector('#class-link') !== null, null, 10_000);
      const link = (await tab.value('#class-link')) ?? '';
      const u = new URL(link);
      const q = Object.fromEntries(u.searchParams);
      assert(u.pathname.endsWith('/index.html') && u.hash === '#class', `the class link: ${link}`);
      assert(JSON.stringify(q) === JSON.stringify({ class: 'a2c', config: 'smoke;num_updates=40;evaluation_every=4', n: '12' }), `the class link's state: ${link}`);
      assert((await tab.count('[data-class-link] .class-qr svg')) === 1, 'the class link as a QR code');
    });
    // Or from the panel itself: its configuration's class link, on the contents page.
    await env.withTab('gae.html?form=a2c&profile=smoke&num_updates=40&evaluation_every=4', {}, async (tab) => {
      await tab.waitReady();
      const want = 'class=a2c&config=smoke%3Bnum_updates%3D40%3Bevaluation_every%3D4&n=30';
      await tab.waitFor((w) => (document.querySelector('#trainer-a2c .class-link')?.getAttribute('href') ?? '').includes(w), want, 10_000);
      const href = (await tab.eval(() => document.querySelector('#trainer-a2c .class-link')?.getAttribute('href'))) ?? '';
      assert(href === `index.html?${want}#class`, `the panel's class link: ${href}`);
      await tab.goto(new URL(href, tab.url()).href);
      await tab.waitFor(() => /num_updates=40/.test(document.querySelector('[data-class]')?.textContent ?? ''), null, 30_000);
    });
  });
});
