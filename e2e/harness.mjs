// @ts-check
// The page tests' one interface to both browsers. Each test file registers its tests once
// with forEachBrowser(); they run in Debian's Chromium (playwright-core, over CDP) and in
// Debian's Firefox ESR (puppeteer-core, over WebDriver BiDi), neither of which downloads
// anything (browsers.mjs: launch; tab.mjs, chromium.mjs, firefox.mjs: the Tab and its drivers). A tab fails its test on any console
// error, page error, or request to anything but 127.0.0.1. The browser set comes from $PGBOOK_BROWSERS (default "chromium,firefox").
// Under e2e/run.mjs (the whole suite in one process per browser) every file shares one server
// and one browser per kind; a file run alone launches its own. No test gates on time: speed is
// e2e/bench.mjs's (scripts/bench.sh), and waits are on the page's state, never fixed sleeps.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, before, after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { assert, launch, Tab } from './browsers.mjs';

// The browsers' side (browsers.mjs), through this one interface.
export { Tab };
export { ARTIFACTS, CHROMIUM_ARGS, assert, canvasHash, launch, pageReady, runEnded } from './browsers.mjs';
/**
 * @typedef {import('./browsers.mjs').Browser} Browser
 * @typedef {import('./browsers.mjs').TabOptions} TabOptions
 * @typedef {import('./browsers.mjs').MainThreadTask} MainThreadTask
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SITE = join(ROOT, 'site');

export const BROWSERS = (process.env.PGBOOK_BROWSERS ?? 'chromium,firefox')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

// TeX that would mean a formula was shown unrendered.
export const RAW_TEX =
  /\\(frac|hat|mathbb|nabla|sum|operatorname|theta|pi|log|varepsilon|lambda|gamma|mid|left|right|text|begin)\b|\$[^$\s][^$]*\$|\^\{|_\{/;

/**
 * @typedef {{ url: string, stop: () => Promise<void> }} Server
 */

/**
 * The book's own server (scripts/serve.py) on a free loopback port.
 * @param {{ root?: string, env?: Record<string, string> }} [options]
 * @returns {Promise<Server>}
 */
export async function startServer({ root = SITE, env = {} } = {}) {
  assert(existsSync(join(root, 'index.html')), `${root} has no index.html: run node scripts/build-site.mjs first`);
  const server = spawn('python3', [join(ROOT, 'scripts', 'serve.py')], {
    env: { ...process.env, PGBOOK_PORT: '0', PGBOOK_QUIET: '1', PGBOOK_ROOT: root, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => server.on('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 10 s')), 10_000);
    server.stdout.on('data', (chunk) => {
      const m = String(chunk).match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    stop: async () => {
      server.kill();
      await exited;
    },
  };
}

/**
 * What a test file's tests get: the browser, the server's URL, and withTab(), which opens a
 * page, runs the check, fails on any problem the page had, and always closes the page.
 * @typedef {{
 *   name: string, browser: Browser, server: Server, url: string,
 *   withTab: <T>(path: string, options: TabOptions | null, check: (tab: Tab) => Promise<T>) => Promise<T>,
 * }} Env
 */

/**
 * Under e2e/run.mjs: one server and one browser of each kind (and option set) for every file,
 * launched on first use and closed by closeShared() at the end of the run.
 * @type {{ server: Promise<Server> | null, browsers: Map<string, Promise<Browser>> } | null}
 */
let shared = null;
/** Called by e2e/run.mjs before it imports the test files. */
export function shareAcrossFiles() {
  shared ??= { server: null, browsers: new Map() };
}
/** Closes what shareAcrossFiles() launched. */
export async function closeShared() {
  if (!shared) return;
  const { server, browsers } = shared;
  shared = null;
  for (const b of browsers.values()) await (await b).close();
  await (await server)?.stop();
}

/**
 * Runs `check` on an open tab, then fails the test on any problem the page had (a console
 * error, a refused request) and closes the tab, whatever happened.
 * @template T @param {Tab} tab @param {(tab: Tab) => Promise<T>} check
 */
export async function checkTab(tab, check) {
  try {
    const result = await check(tab);
    await tab.settle();
    assert(tab.problems.length === 0, tab.problems.join('\n'));
    return result;
  } finally {
    await tab.close();
  }
}

/**
 * Registers a test file's tests once per browser, as the suites «chromium» and «firefox».
 * `fresh`: this file needs a browser of its own (a clean profile: Firefox's contexts share
 * one, so saved runs would carry over from other files).
 * @param {(env: Env) => void} register
 * @param {{ serviceWorkers?: boolean, reducedMotion?: boolean, fresh?: boolean }} [options]
 */
export function forEachBrowser(register, options = {}) {
  for (const name of BROWSERS) {
    describe(name, () => {
      const env = /** @type {Env} */ ({ name });
      const own = !shared || options.fresh;
      before(async () => {
        if (own) {
          env.server = await startServer();
          env.browser = await launch(name, options);
        } else if (shared) {
          env.server = await (shared.server ??= startServer());
          const key = `${name}/${options.serviceWorkers ? 'sw' : 'plain'}${options.reducedMotion ? '/still' : ''}`;
          if (!shared.browsers.has(key)) shared.browsers.set(key, launch(name, options));
          env.browser = await /** @type {Promise<Browser>} */ (shared.browsers.get(key));
        }
        env.url = env.server.url;
      });
      after(async () => {
        if (!own) return;
        await env.browser?.close();
        await env.server?.stop();
      });
      env.withTab = async (path, options, check) => checkTab(await env.browser.open(env.url + path, options ?? {}), check);
      register(env);
    });
  }
}

/**
 * Waits until every worker made so far has posted `type` at least `times` times in all (its
 * acknowledgement: worker.js posts `started` when a job begins, `paused` when it stops
 * stepping), after countWorkers(). Returns how many workers there are.
 * @param {Tab} tab @param {string} type @param {number} [timeout]
 */
export const waitWorkersSaid = (tab, type, timeout = 30_000) =>
  tab.waitFor(
    (t) => {
      const w = /** @type {any} */ (window);
      const n = w.pgbookWorkersCreated;
      const said = new Set(
        w.pgbookWorkerLog.filter((/** @type {[number, string]} */ [, m]) => m === t).map((/** @type {[number, string]} */ [id]) => id),
      );
      return n > 0 && said.size === n && n;
    },
    type,
    timeout,
  );

/**
 * Counts Worker constructions and the most alive at once, and logs every message a worker
 * posts (`window.pgbookWorkerLog`: [worker number, message type]) so that a test can wait for
 * the workers' own acknowledgements (worker.js's protocol: ready, started, paused, …).
 * @param {Tab} tab
 */
export const countWorkers = (tab) =>
  tab.eval(() => {
    const Original = window.Worker;
    const w = /** @type {any} */ (window);
    w.pgbookWorkersCreated = 0;
    w.pgbookWorkersAlive = 0;
    w.pgbookWorkersMax = 0;
    w.pgbookWorkerLog = [];
    window.Worker = class extends Original {
      /** @param {ConstructorParameters<typeof Worker>} a */
      constructor(...a) {
        super(...a);
        const id = w.pgbookWorkersCreated++;
        w.pgbookWorkersAlive++;
        w.pgbookWorkersMax = Math.max(w.pgbookWorkersMax, w.pgbookWorkersAlive);
        this.addEventListener('message', (/** @type {MessageEvent<any>} */ e) => w.pgbookWorkerLog.push([id, e.data?.type]));
      }
      terminate() {
        w.pgbookWorkersAlive--;
        super.terminate();
      }
    };
  });

export function percentile(/** @type {number[]} */ xs, /** @type {number} */ p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

// The native CLI that `cargo test` builds (same code, same bits as the wasm).
export const CLI = join(ROOT, 'target', 'debug', 'pgbook');

/** @type {Map<string, string>} */
const cliMemo = new Map();
/** Where the two browsers' processes share the CLI's outputs (keyed by the binary too). */
const CLI_CACHE = join(ROOT, 'target', 'e2e-cli');
/**
 * The CLI's stdout for `args`, computed once per argument list and CLI build (it does not
 * depend on the browser: Chromium's and Firefox's processes, both suites of a file and every
 * file under e2e/run.mjs share it; the CLI's runs were 8 % of the page tests' CPU).
 * @param {string[]} args
 */
export function cliText(args) {
  assert(existsSync(CLI), `the native CLI is missing at ${CLI} (cargo test builds it)`);
  const key = JSON.stringify(args);
  let text = cliMemo.get(key);
  if (text !== undefined) return text;
  const { mtimeMs, size } = statSync(CLI);
  const file = join(CLI_CACHE, createHash('sha256').update(`${mtimeMs} ${size} ${key}`).digest('hex').slice(0, 32));
  if (existsSync(file)) text = readFileSync(file, 'utf8');
  else {
    text = execFileSync(CLI, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    // Written whole under another name first: the other process never reads half a file.
    mkdirSync(CLI_CACHE, { recursive: true });
    writeFileSync(`${file}.${process.pid}`, text);
    renameSync(`${file}.${process.pid}`, file);
  }
  cliMemo.set(key, text);
  return text;
}

/** A summary line without the CLI's wall-time fields (the page's has none). @param {string} line */
const untimed = (line) => {
  const fields = JSON.parse(line);
  delete fields.wall_s;
  delete fields.env_steps_per_s;
  return JSON.stringify(fields);
};

/**
 * The page's JSON-lines download against the CLI's `--json --threads 1` output for `args`: the
 * same lines in the same order, byte for byte (the summaries but for the CLI's timings).
 * @param {string} text @param {string[]} args @param {string} label
 */
export function assertSameLines(text, args, label) {
  const cli = cliText(args).trim().split('\n');
  const page = text.trim().split('\n');
  assert(page.length === cli.length, `${label}: ${page.length} lines on the page, ${cli.length} from the CLI`);
  page.forEach((line, i) => {
    const same = line.includes('"kind":"summary"') ? untimed(line) === untimed(cli[i]) : line === cli[i];
    assert(same, `${label}: line ${i + 1} differs:\n page ${line.slice(0, 200)}\n CLI  ${cli[i].slice(0, 200)}`);
  });
}

/** Runs the CLI (memoised) and parses its JSON lines. @param {string[]} args @returns {any[]} */
export function cliLines(args) {
  return cliText(args)
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/**
 * Every field of a report by its path, nested ones (the evaluation inside a PPO report)
 * included: numbers, strings, booleans and nulls.
 * @param {unknown} value @param {string} [path] @param {Record<string, unknown>} [out]
 */
function leaves(value, path = '', out = {}) {
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, out);
  else out[path] = value;
  return out;
}

/** A JSON line's envelope around the report (train::lines): the page keeps the seed beside it. */
const ENVELOPE = ['.kind', '.seed'];

/**
 * Compares the page's reports with the CLI's lines field by field: the report must have exactly
 * the line's fields but its envelope (a field renamed or dropped on either side fails), and
 * every field that is not a number must be equal. Returns the largest relative difference of a number over all reports
 * and how many reports from the start are identical to the bit.
 * @param {unknown[]} browser @param {unknown[]} native @param {string} label
 */
export function compareReports(browser, native, label) {
  let worst = 0,
    identical = 0,
    compared = 0;
  assert(browser.length === native.length, `${label}: ${browser.length} reports in the browser, ${native.length} from the CLI`);
  for (let i = 0; i < browser.length; i++) {
    let same = true;
    const [lb, ln] = [leaves(browser[i]), leaves(native[i])];
    for (const k of ENVELOPE) delete ln[k];
    const [kb, kn] = [Object.keys(lb).sort(), Object.keys(ln).sort()];
    const onlyPage = kb.filter((k) => !(k in ln));
    const onlyCli = kn.filter((k) => !(k in lb));
    assert(
      onlyPage.length + onlyCli.length === 0,
      `${label}: report ${i}: fields only on the page ${onlyPage.join(', ') || '—'}; only in the CLI ${onlyCli.join(', ') || '—'}`,
    );
    assert(kb.filter((k) => typeof lb[k] === 'number').length > 5, `${label}: report ${i} has too few numbers`);
    for (const k of kb) {
      const [v, w] = [lb[k], ln[k]];
      if (typeof v === 'number' && typeof w === 'number') {
        const rel = v === w ? 0 : Math.abs(v - w) / Math.max(1e-12, Math.abs(w));
        if (v !== w) same = false;
        worst = Math.max(worst, rel);
      } else assert(v === w, `${label}: report ${i}: ${k} is ${JSON.stringify(v)} on the page, ${JSON.stringify(w)} in the CLI`);
    }
    compared++;
    if (same && identical === i) identical++;
  }
  assert(compared > 0, `${label}: nothing to compare`);
  return { worst, identical, compared };
}

/**
 * Asserts that the page's step reports equal, bit for bit, the step lines (updates or
 * iterations) of the CLI's `args` (memoised). Returns the comparison and the CLI's lines.
 * @param {unknown[]} reports @param {string[]} args @param {string} label
 */
export function assertEqualsCli(reports, args, label) {
  const lines = cliLines(args);
  const steps = lines.filter((l) => l.kind !== 'summary');
  const c = compareReports(reports, steps, label);
  assert(
    c.identical === c.compared,
    `${label}: only ${c.identical}/${c.compared} steps bit-identical (worst relative difference ${c.worst})`,
  );
  return { ...c, lines };
}

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's violations of the WCAG 2.2 AA rule sets on the page as it is now: one line per
 * rule with the elements that fail it. `scope` (CSS selectors) limits the check to the part of
 * the page a state changed, once the whole page has passed as loaded: axe's cost grows with
 * the text it checks (colour contrast per text node), and a lesson is long.
 * @param {Tab} tab @param {string[]} [scope]
 * @returns {Promise<{ rules: number, nodes: number, lines: string[] }>}
 */
export async function axe(tab, scope) {
  // The page makes a box that scrolls focusable 150 ms after the layout may have changed
  // (app.js's markScrollers): a box added just before would be checked unmarked. A page that
  // keeps changing (a run going on) is checked as it is after 10 s.
  await tab.waitFor(() => !document.documentElement.hasAttribute('data-marking-scrollers'), null, 10_000).catch(() => {});
  /** @type {{ missing: string[], violations: { id: string, impact: string, help: string, nodes: { target: string[] }[] }[] }} */
  const { missing, violations } = await tab.eval(
    async ([source, tags, include]) => {
      const w = /** @type {any} */ (window);
      if (!w.axe) {
        const script = document.createElement('script');
        script.textContent = /** @type {string} */ (source);
        document.head.append(script);
        script.remove();
      }
      const missing = /** @type {string[]} */ (include ?? []).filter((s) => !document.querySelector(s));
      if (missing.length) return { missing, violations: [] };
      const result = await w.axe.run(include ? { include } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      const violations = result.violations.map((/** @type {any} */ v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target.map(String) })),
      }));
      return { missing, violations };
    },
    /** @type {[string, string[], string[] | null]} */ ([AXE, AXE_TAGS, scope ?? null]),
  );
  assert(missing.length === 0, `axe: nothing on the page matches ${missing.join(', ')}`);
  const lines = violations.map(
    (v) =>
      `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes
        .slice(0, 4)
        .map((n) => n.target.join(' '))
        .join(', ')}${v.nodes.length > 4 ? ', …' : ''}`,
  );
  return { rules: violations.length, nodes: violations.reduce((s, v) => s + v.nodes.length, 0), lines };
}
