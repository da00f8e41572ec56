// @ts-check
// The pool of Web Workers a panel's run trains on.

/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./protocol.js').FromWorker} WorkerMessage */
/** @typedef {import('./protocol.js').ToWorker} ToWorker */
/** @typedef {{ worker: Worker, job: number }} Slot */

/** @param {Worker} worker @param {ToWorker} message */
const tell = (worker, message) => worker.postMessage(message);

/** A trainers' worker: the module worker.js beside this module, or the one-file book's (onefile.js). */
export const newWorker = () => window.pgbookNewWorker?.() ?? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });

// One run = one job per seed, on a pool of at most navigator.hardwareConcurrency workers (the
// rest queue and start as workers free up). Reports arrive as messages; nothing blocks the page.
// A job that fails (an error, a panic, a trap such as running out of memory) ends alone: its
// worker is replaced by a fresh one, which takes the next queued job, and the others go on.
export class WorkerRun {
  /**
   * @param {string} kind @param {Job[]} jobs
   * @param {(job: number, m: WorkerMessage) => void} onMessage job −1: the pool itself failed (no worker could start)
   */
  constructor(kind, jobs, onMessage) {
    this.kind = kind;
    this.onMessage = onMessage;
    this.jobs = jobs;
    this.next = 0; // the first job not yet given to a worker
    this.paused = false; // a pause applies to running workers and to jobs that start later
    /** @type {Slot[]} the job each worker runs now, or -1 */
    this.workers = [];
    const size = Math.max(1, Math.min(jobs.length, navigator.hardwareConcurrency || 2));
    for (let k = 0; k < size; k++) this.workers.push(this.spawn());
  }

  /** @returns {Slot} */
  spawn() {
    /** @type {Slot} */
    const slot = { worker: newWorker(), job: -1 };
    // Counted for the page tests: a refused run makes no worker (the one that measures this
    // machine's speed at load is not a run's).
    window.pgbookRunWorkers = (window.pgbookRunWorkers ?? 0) + 1;
    const w = slot.worker;
    let ready = false;
    w.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ e) => {
      const m = e.data;
      if (m.type === 'ready') {
        ready = true;
        this.assign(slot);
        return;
      }
      if (slot.job < 0) {
        // Before any job (its module did not load): nothing else would run either.
        if (m.type === 'error' || m.type === 'panic') this.onMessage(-1, m);
        return;
      }
      const i = slot.job;
      if (m.type === 'finished' || m.type === 'error' || m.type === 'panic') slot.job = -1;
      this.onMessage(i, m);
      if (m.type === 'finished') this.assign(slot);
      else if (m.type === 'error' || m.type === 'panic') this.replace(slot);
    };
    // An exception the worker did not catch (its script failed to load, or it died).
    w.onerror = (e) => {
      e.preventDefault();
      const message = e.message ? `фоновый поток остановился с ошибкой (${e.message})` : 'фоновый поток остановился с ошибкой';
      const i = slot.job;
      slot.job = -1;
      // A worker that never started fails the run (another would fail alike); one that did is
      // replaced.
      if (i >= 0 || !ready) this.onMessage(i, { type: 'error', message });
      if (ready) this.replace(slot);
    };
    w.onmessageerror = () => {
      const i = slot.job;
      slot.job = -1;
      this.onMessage(i, { type: 'error', message: 'сообщение фонового потока не удалось прочитать' });
      this.replace(slot);
    };
    return slot;
  }

  /**
   * A failed worker's slot gets a fresh worker (a trapped wasm instance cannot be trusted),
   * which takes the next queued job once its module is ready.
   * @param {Slot} slot
   */
  replace(slot) {
    const k = this.workers.indexOf(slot);
    if (k < 0) return; // the run was terminated meanwhile
    slot.worker.onmessage = null;
    slot.worker.onerror = null;
    slot.worker.terminate();
    this.workers[k] = this.next < this.jobs.length ? this.spawn() : { worker: slot.worker, job: -1 };
  }

  /**
   * Gives the next queued job to a free worker (a pause before it started is honoured: the job
   * starts paused).
   * @param {Slot} slot
   */
  assign(slot) {
    if (this.next >= this.jobs.length) return;
    const i = this.next++;
    const job = this.jobs[i];
    slot.job = i;
    tell(slot.worker, { type: 'start', kind: this.kind, request: job.request, seed: job.seed, paused: this.paused });
  }

  /** @param {'pause' | 'resume'} type */
  send(type) {
    this.paused = type === 'pause';
    this.workers.filter((s) => s.job >= 0).forEach((s) => tell(s.worker, { type }));
  }

  /** One job's worker only (the page tests' self-check sends `fail`). @param {number} i @param {'pause' | 'resume' | 'stop' | 'fail'} type */
  sendTo(i, type) {
    const slot = this.workers.find((s) => s.job === i);
    if (slot) tell(slot.worker, { type });
  }

  /** Whether job `i` runs on a worker now. @param {number} i */
  running(i) {
    return this.workers.some((s) => s.job === i);
  }

  terminate() {
    this.workers.forEach((s) => s.worker.terminate());
    this.workers = [];
  }
}

/**
 * This machine's speed in wasm's work units per second (check_run's work_per_seed), measured by
 * a worker of its own (wasm measure_speed: about 45 ms of a small PPO run's updates), so that the
 * page stays responsive while it loads. Rejects when the worker cannot measure.
 * @returns {Promise<number>}
 */
export function measureSpeed() {
  return new Promise((resolve, reject) => {
    const worker = newWorker();
    /** @param {number | Error} result */
    const end = (result) => {
      worker.terminate();
      if (typeof result === 'number') resolve(result);
      else reject(result);
    };
    worker.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ e) => {
      const m = e.data;
      if (m.type === 'ready') tell(worker, { type: 'speed' });
      else if (m.type === 'speed') end(m.speed);
      else if (m.type === 'error' || m.type === 'panic') end(new Error(m.message));
    };
    worker.onerror = (e) => {
      e.preventDefault();
      end(new Error(e.message || 'фоновый поток остановился с ошибкой'));
    };
  });
}
