// A trainer in a Web Worker: the page's main thread never runs a training step.
// It drives any trainer through the same wasm handle (TrainerRun): no branch per kind.
// Protocol (page → worker): start {kind, request, seed, paused}, pause, resume, stop, fail
// (self-check), bench {updates, repeats}.
// (worker → page): ready, started {info}, update {line, extra}, finished {line},
// paused, stopped, error {message}, panic {message}, bench {result}.
import init, * as wasm from '../pkg/pgbook.js';

let run = null;          // the wasm trainer handle
let state = 'idle';      // idle | running | paused | stopped | finished | failed
const SLICE_MS = 30;     // work per slice before the worker looks at its messages again

// A panic inside wasm arrives here through the Rust panic hook.
self.pgbookPanic = (message) => {
  state = 'failed';
  postMessage({ type: 'panic', message });
};

// Yields to the worker's event loop without setTimeout's 4 ms clamping.
const channel = new MessageChannel();
let wake = null;
channel.port1.onmessage = () => { const w = wake; wake = null; w?.(); };
const yieldToEvents = () => new Promise((resolve) => { wake = resolve; channel.port2.postMessage(null); });

function fail(e) {
  if (state === 'failed') return; // the panic message is already on its way
  state = 'failed';
  postMessage({ type: 'error', message: String(e?.message ?? e) });
}

async function loop() {
  while (state === 'running') {
    const t0 = performance.now();
    try {
      while (state === 'running' && performance.now() - t0 < SLICE_MS) {
        if (run.is_finished()) {
          state = 'finished';
          postMessage({ type: 'finished', line: run.summary() });
          return;
        }
        const { line, extra } = run.step();
        postMessage({ type: 'update', line, extra });
      }
    } catch (e) {
      fail(e);
      return;
    }
    await yieldToEvents();
  }
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    switch (msg.type) {
      case 'start':
        // A worker of the pool takes its next job here; a pause asked for before the job
        // started is honoured from its first step.
        run?.free();
        run = new wasm.TrainerRun(msg.kind, JSON.stringify(msg.request), msg.seed);
        state = msg.paused ? 'paused' : 'running';
        postMessage({ type: 'started', info: run.info() });
        if (state === 'running') loop();
        break;
      case 'pause':
        if (state === 'running') { state = 'paused'; postMessage({ type: 'paused' }); }
        break;
      case 'resume':
        if (state === 'paused') { state = 'running'; loop(); }
        break;
      case 'stop':
        if (state === 'running' || state === 'paused') { state = 'stopped'; postMessage({ type: 'stopped' }); }
        break;
      case 'bench':
        // The CLI's `bench ppo`, measured in a worker (see e2e/bench.mjs).
        postMessage({ type: 'bench', result: wasm.bench_ppo(msg.updates ?? 60, msg.repeats ?? 3) });
        break;
      case 'fail':
        // The page's self-check: a deliberate panic inside the wasm module of this worker.
        wasm.self_test_panic();
        break;
      default:
        postMessage({ type: 'error', message: `неизвестное сообщение «${String(msg.type).slice(0, 24)}»` });
    }
  } catch (e) {
    fail(e);
  }
};

try {
  await init();
  postMessage({ type: 'ready' });
} catch (e) {
  postMessage({ type: 'error', message: `модуль WebAssembly не загрузился в фоновом потоке (${e?.message ?? e})` });
}
