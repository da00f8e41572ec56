// A small end-to-end harness: starts the textbook's own server on a free loopback port,
// drives Debian's Chromium through playwright-core (which downloads nothing), and fails a test
// on any console error, page error, or request to anything but 127.0.0.1.
import { chromium } from 'playwright-core';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

// TeX that would mean a formula was shown unrendered.
export const RAW_TEX = /\\(frac|hat|mathbb|nabla|sum|operatorname|theta|pi|log|varepsilon|lambda|gamma|mid|left|right|text|begin)\b|\$[^$\s][^$]*\$|\^\{|_\{/;

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

export async function startServer() {
  const server = spawn('python3', [join(ROOT, 'scripts', 'serve.py')], {
    env: { ...process.env, PGBOOK_PORT: '0', PGBOOK_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 10 s')), 10_000);
    server.stdout.on('data', (chunk) => {
      const m = String(chunk).match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); resolve(m[0]); }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, stop: () => server.kill() };
}

export async function launch() {
  return chromium.launch({ executablePath: process.env.PGBOOK_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

// A page that records what must never happen: console errors, page errors, outside requests.
export async function openPage(browser, url, { viewport = { width: 1100, height: 900 }, deviceScaleFactor = 2 } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.protocol === 'data:' || u.protocol === 'blob:' || u.hostname === '127.0.0.1') return route.continue();
    problems.push(`request outside 127.0.0.1: ${route.request().url()}`);
    return route.abort();
  });
  page.on('worker', (worker) => {
    worker.on('console', (msg) => { if (msg.type() === 'error') problems.push(`worker console error: ${msg.text()}`); });
  });
  await page.goto(url);
  return { page, context, problems, expectProblems: (pattern) => {
    // Some tests provoke an error on purpose: drop exactly the expected ones.
    for (let i = problems.length - 1; i >= 0; i--) if (pattern.test(problems[i])) problems.splice(i, 1);
  } };
}

// Page-side predicates (their source is sent to the browser, so they use nothing from here):
// the page has loaded its wasm and drawn; a trainer panel's run has ended (its status, or
// false while it runs).
export const pageReady = () => document.documentElement.dataset.ready === '1';
export const runEnded = (sel) => {
  const st = document.querySelector(sel)?.dataset.status;
  return ['finished', 'failed'].includes(st) && st;
};

export async function waitReady(page) {
  await page.waitForFunction(pageReady, null, { timeout: 20_000 });
}

// Sets a slider's value and fires the `input` event a reader's drag would.
export async function setSlider(page, selector, value) {
  await page.$eval(selector, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

// Hash of a canvas's pixels, to tell a redraw from none. Runs in the page (its source is sent
// to the browser), so it must use nothing from this module.
export function canvasHash(c) {
  const ctx = c.getContext('2d');
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let h = 2166136261 >>> 0, inked = 0;
  for (let i = 0; i < data.length; i += 4) {
    const v = data[i] ^ (data[i + 1] << 8) ^ (data[i + 2] << 16);
    h = Math.imul(h ^ v, 16777619) >>> 0;
    if (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240) inked++;
  }
  return { hash: h, inked: inked / (data.length / 4), width: c.width, height: c.height, cssWidth: c.clientWidth };
}

export async function canvasSignature(page, selector) {
  return page.$eval(selector, canvasHash);
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

// The native CLI that `cargo test` builds (same code, same bits as the wasm).
export const CLI = join(ROOT, 'target', 'debug', 'pgbook');

// Runs the CLI and parses its JSON lines.
export function cliLines(args) {
  assert(existsSync(CLI), `the native CLI is missing at ${CLI} (cargo test builds it)`);
  return execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n').map((l) => JSON.parse(l));
}

// Every number in a report, nested ones (the evaluation inside a PPO report) included.
function numbers(value, path = '', out = {}) {
  if (typeof value === 'number') out[path] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) numbers(v, `${path}.${k}`, out);
  return out;
}

// Compares every numeric field the two reports share; returns the largest relative difference
// over the first five reports and how many reports from the start are identical to the bit.
export function compareReports(browser, native, label) {
  let worst = 0, identical = 0, compared = 0;
  const n = Math.min(browser.length, native.length);
  assert(browser.length === native.length, `${label}: ${browser.length} reports in the browser, ${native.length} from the CLI`);
  for (let i = 0; i < n; i++) {
    let same = true;
    const [nb, nn] = [numbers(browser[i]), numbers(native[i])];
    assert(Object.keys(nb).length > 5, `${label}: report ${i} has too few numbers`);
    for (const [k, v] of Object.entries(nb)) {
      if (typeof nn[k] !== 'number') continue;
      const w = nn[k];
      const rel = Math.abs(v - w) / Math.max(1e-12, Math.abs(w));
      if (v !== w) same = false;
      worst = Math.max(worst, i < 5 ? rel : worst);
    }
    compared++;
    if (same && identical === i) identical++;
  }
  assert(compared > 0, `${label}: nothing to compare`);
  return { worst, identical, compared };
}
