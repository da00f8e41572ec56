// Debian's Firefox ESR driven by geckodriver over WebDriver BiDi, for the Firefox end-to-end
// tests and the browser measurements (playwright-core only drives its own patched Firefox,
// which must not be downloaded here). Needs a global WebSocket (Node 20: --experimental-websocket).
import { spawn } from 'node:child_process';
import { pageReady, runEnded } from './harness.mjs';

const GECKODRIVER = process.env.PGBOOK_GECKODRIVER || 'geckodriver'; // on PATH (scripts/setup.sh)
const FIREFOX = process.env.PGBOOK_FIREFOX || '/usr/bin/firefox-esr';

// geckodriver on a free port; resolves to its base URL once it listens.
export function startGeckodriver() {
  const proc = spawn(GECKODRIVER, ['--port', '0', '--websocket-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('geckodriver did not start in 10 s')), 10_000);
    proc.stdout.on('data', (chunk) => {
      const m = String(chunk).match(/Listening on (127\.0\.0\.1:\d+)/);
      if (m) { clearTimeout(timer); resolve(`http://${m[1]}`); }
    });
    proc.on('exit', (code) => reject(new Error(`geckodriver exited with ${code}`)));
  });
  proc.stderr.resume();
  return { url, stop: () => proc.kill() };
}

// A minimal WebDriver BiDi session: commands, plus every log entry and request it reports.
export class Session {
  static async open(driverUrl) {
    const res = await fetch(`${driverUrl}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities: { alwaysMatch: {
        webSocketUrl: true,
        'moz:firefoxOptions': { binary: FIREFOX, args: ['-headless'], prefs: {
          // No traffic of Firefox's own on a closed network.
          'network.captive-portal-service.enabled': false,
          'network.connectivity-service.enabled': false,
        } },
      } } }),
    });
    const { value } = await res.json();
    if (!value?.capabilities?.webSocketUrl) throw new Error(`no BiDi session: ${JSON.stringify(value)}`);
    const s = new Session(value.capabilities.webSocketUrl);
    s.endpoint = `${driverUrl}/session/${value.sessionId}`;
    await new Promise((resolve, reject) => { s.ws.onopen = resolve; s.ws.onerror = () => reject(new Error('BiDi socket failed')); });
    await s.send('session.subscribe', { events: ['log.entryAdded', 'network.beforeRequestSent'] });
    s.context = (await s.send('browsingContext.getTree', {})).contexts[0].context;
    return s;
  }

  constructor(wsUrl) {
    this.ws = new WebSocket(wsUrl);
    this.next = 1;
    this.pending = new Map();
    this.problems = [];
    this.ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.id && this.pending.has(msg.id)) {
        const { resolve, reject } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.type === 'error') reject(new Error(`${msg.error}: ${msg.message}`)); else resolve(msg.result);
      } else if (msg.method === 'log.entryAdded') {
        const { level, text, type } = msg.params;
        if (level === 'error' || type === 'javascript') this.problems.push(`${type} ${level}: ${text}`);
      } else if (msg.method === 'network.beforeRequestSent') {
        const u = new URL(msg.params.request.url);
        if (!['data:', 'blob:', 'about:'].includes(u.protocol) && u.hostname !== '127.0.0.1') this.problems.push(`request outside 127.0.0.1: ${u.href}`);
      }
    };
  }

  send(method, params) {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  goto(url) {
    return this.send('browsingContext.navigate', { context: this.context, url, wait: 'complete' });
  }

  // Opens a textbook page and waits until its wasm is loaded and its figures drawn.
  async load(url) {
    await this.goto(url);
    await this.waitFor(pageReady, null, 20_000, `${url} to be ready`);
  }

  // Waits until the trainer panel `sel` finished or failed; returns which.
  waitRunEnded(sel, timeoutMs) {
    return this.waitFor(runEnded, sel, timeoutMs, `${sel} to finish`);
  }

  // Evaluates `fn(arg)` in the page (awaiting a promise) and returns its JSON-able result.
  async eval(fn, arg = null) {
    const r = await this.send('script.evaluate', {
      expression: `(async () => JSON.stringify(await (${fn})(${JSON.stringify(arg)})))()`,
      target: { context: this.context }, awaitPromise: true,
    });
    if (r.type === 'exception') throw new Error(`in the page: ${r.exceptionDetails.text}`);
    return JSON.parse(r.result.value ?? 'null');
  }

  async waitFor(fn, arg, timeoutMs, what) {
    const t0 = Date.now();
    for (;;) {
      const v = await this.eval(fn, arg);
      if (v) return v;
      if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // Ends the session, which quits Firefox.
  async close() {
    this.ws.close();
    await fetch(this.endpoint, { method: 'DELETE' }).catch(() => {});
  }
}
