// @ts-check
/// <reference lib="webworker" />
// A trainer in a Web Worker: the page's main thread never runs a training step.
// It drives any trainer through the same wasm handle (TrainerRun): no branch per kind.
// The messages both ways are protocol.js's unions (ToWorker, FromWorker).
import init, * as wasm from '../pkg/pgbook.js';

/** @type {import('../pkg/pgbook.js').TrainerRun | null} the wasm trainer handle */
let run = null;
/** @type {'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'failed'} */
let state = 'idle';
const SLICE_MS = 30; // work per slice before the worker looks at its messages again

const scope = /** @type {DedicatedWorkerGlobalScope & { pgbookPanic?: (message: string) => void }} */ (/** @type {unknown} */ (self));

/** @param {import('./protocol.js').FromWorker} m */
const post = (m) => scope.postMessage(m);

// A panic inside wasm arrives here through the Rust panic hook.
scope.pgbookPanic = (/** @type {string} */ message) => {
  state = 'failed';
  post({ type: 'panic', message });
};

// Yields to the worker's event loop without setTimeout's 4 ms clamping.
const channel = new MessageChannel();
/** @type {(() => void) | null} */
let wake = null;
channel.port1.onmessage = () => {
  const w = wake;
  wake = null;
  w?.();
};
const yieldToEvents = () =>
  new Promise((resolve) => {
    wake = () => resolve(undefined);
    channel.port2.postMessage(null);
  });

// Where a long step is: wasm calls this at most every 250 ms while a step runs.
const onProgress = (/** @type {import('./protocol.js').StepProgress} */ progress) => post({ type: 'progress', progress });

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @param {unknown} e */
function fail(e) {
  if (state === 'failed') return; // the panic message is already on its way
  state = 'failed';
  post({ type: 'error', message: messageOf(e) });
}

async function loop() {
  while (state === 'running' && run) {
    const t0 = performance.now();
    try {
      while (state === 'running' && performance.now() - t0 < SLICE_MS) {
        if (run.is_finished()) {
          state = 'finished';
          // The trained policy goes with the summary: the page keeps it, downloads it, replays it.
          post({ type: 'finished', line: run.summary(), policy: run.policy() });
          return;
        }
        const { line, extra } = run.step(onProgress);
        post({ type: 'update', line, extra });
      }
    } catch (e) {
      fail(e);
      return;
    }
    await yieldToEvents();
  }
}

scope.onmessage = (/** @type {MessageEvent<import('./protocol.js').ToWorker>} */ event) => {
  const msg = event.data;
  try {
    switch (msg.type) {
      case 'start':
        // A worker of the pool takes its next job here; a pause asked for before the job
        // started is honoured from its first step.
        run?.free();
        run = new wasm.TrainerRun(msg.kind, JSON.stringify(msg.request), msg.seed);
        state = msg.paused ? 'paused' : 'running';
        post({ type: 'started', info: run.info() });
        if (state === 'running') loop();
        break;
      case 'pause':
        if (state === 'running') {
          state = 'paused';
          post({ type: 'paused' });
        }
        break;
      case 'resume':
        if (state === 'paused') {
          state = 'running';
          loop();
        }
        break;
      case 'stop':
        if (state === 'running' || state === 'paused') {
          state = 'stopped';
          post({ type: 'stopped' });
        }
        break;
      case 'bench':
        // The CLI's `bench ppo` or `bench transformer`, measured in a worker (see e2e/bench.mjs).
        post({
          type: 'bench',
          result:
            msg.which === 'transformer'
              ? wasm.bench_transformer(msg.repeats ?? 3, msg.precision)
              : wasm.bench_ppo(msg.updates ?? 60, msg.repeats ?? 3, msg.precision),
        });
        break;
      case 'speed':
        // This machine's speed for the panels' estimates (js/pool.js's measureSpeed), measured
        // here so that the page's main thread never runs training updates.
        post({ type: 'speed', speed: wasm.measure_speed() });
        break;
      case 'class': {
        // A class seat's seed, step by step (its progress at most every 250 ms), then its
        // result code (js/class.js; the page ends this worker when it has the code).
        const seat = new wasm.ClassRun(msg.kind, JSON.stringify(msg.request), msg.seed);
        try {
          let last = performance.now();
          while (!seat.is_finished()) {
            seat.step();
            if (performance.now() - last >= 250) {
              last = performance.now();
              const [done, total] = seat.progress();
              post({ type: 'class_progress', done, total });
            }
          }
          post({ type: 'class', code: seat.code() });
        } finally {
          seat.free();
        }
        break;
      }
      case 'class_verify':
        // A handed-in code's seed recomputed: its seed, or the reason it is refused.
        post({ type: 'class_verify', seed: wasm.class_verify(msg.kind, JSON.stringify(msg.request), msg.code) });
        break;
      case 'fail':
        // The page's self-check: a deliberate panic inside the wasm module of this worker.
        wasm.self_test_panic();
        break;
      default: {
        /** @type {never} */
        const unknown = msg;
        post({ type: 'error', message: `неизвестное сообщение «${String(/** @type {any} */ (unknown).type).slice(0, 24)}»` });
      }
    }
  } catch (e) {
    fail(e);
  }
};

try {
  await init();
  post({ type: 'ready' });
} catch (e) {
  post({ type: 'error', message: `модуль WebAssembly не загрузился в фоновом потоке (${messageOf(e)})` });
}
