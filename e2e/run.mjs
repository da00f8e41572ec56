// @ts-check
// The page tests in one process: the chosen files' tests, one server and one browser of
// each kind for them all (a file that needs a clean browser launches its own). scripts/test.sh
// runs Chromium's process and two of Firefox's (its files split in two) side by side:
//   PGBOOK_BROWSERS=chromium node e2e/run.mjs              every file in e2e/tests/
//   PGBOOK_BROWSERS=firefox node e2e/run.mjs --browser-only   only the files that use a browser
//   node e2e/run.mjs --skip 40-offline,88-prepared            all but those files
//   node e2e/run.mjs 10-clipping 20-lessons                   only those files
//   node e2e/run.mjs --concurrency 2                          two files at a time (default 1)
// A page test mostly waits (one file keeps about half a core busy), but on two cores two files
// per browser, both browsers and a build beside them overloaded the machine (page loads over
// 30 s, Firefox's driver losing frames): the test command runs one file at a time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT, closeShared, shareAcrossFiles } from './harness.mjs';

const DIR = join(ROOT, 'e2e', 'tests');
const args = process.argv.slice(2);
const flag = (/** @type {string} */ name) => {
  const i = args.indexOf(name);
  return i < 0 ? null : (args.splice(i, 2)[1] ?? '');
};
const browserOnly = args.includes('--browser-only');
if (browserOnly) args.splice(args.indexOf('--browser-only'), 1);
const skip = (flag('--skip') ?? '').split(',').filter(Boolean);
const concurrency = Number(flag('--concurrency') ?? 1);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error('e2e/run.mjs: --concurrency takes a whole number ≥ 1');
  process.exit(2);
}
const only = args;

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.test.mjs'))
  .sort()
  .filter((f) => !skip.some((s) => f.startsWith(s)))
  .filter((f) => !only.length || only.some((s) => f.startsWith(s)))
  .filter((f) => !browserOnly || readFileSync(join(DIR, f), 'utf8').includes('forEachBrowser('));

shareAcrossFiles();
after(closeShared);
describe(`${files.length} files, ${concurrency} at a time`, { concurrency }, async () => {
  for (const f of files) await import(pathToFileURL(join(DIR, f)).href);
});
