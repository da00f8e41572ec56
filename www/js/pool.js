// @ts-check
// The pool of Web Workers a panel's run trains on.

/** @typedef {import('./types.js').Job} Job */
/** @typedef {import('./protocol.js').FromWorker} WorkerMessage */
/** @typedef {import('./protocol.js').ToWorker} ToWorker */

/** @param {Worker} worker @param {ToWorker} message */
const tell = (worker, message) => worker.postMessage(message);

const WORKER_URL = new URL('./worker.js', import.meta.url);

// One run = one job per seed, on a pool of at most navigator.hardwareConcurrency workers (the
// rest queue and start as workers free up). Reports arrive as messages; nothing blocks the page.
export class WorkerRun {
  /** @param {string} kind @param {Job[]} jobs @param {(job: number, m: WorkerMessage) => void} onMessage */
  constructor(kind, jobs, onMessage) {
    this.kind = kind;
    this.onMessage = onMessage;
    this.jobs = jobs;
    this.next = 0; // the first job not yet given to a worker
    this.paused = false; // a pause applies to running workers and to jobs that start later
    /** @type {{ worker: Worker, job: number }[]} the job each worker runs now, or -1 */
    this.workers = [];
    const size = Math.max(1, Math.min(jobs.length, navigator.hardwareConcurrency || 2));
    for (let k = 0; k < size; k++) this.workers.push(this.spawn());
  }

  spawn() {
    const slot = { worker: new Worker(WORKER_URL, { type: 'module' }), job: -1 };
    const w = slot.worker;
    w.onmessage = (/** @type {MessageEvent<WorkerMessage>} */ e) => {
      const m = e.data;
      if (m.type === 'ready') {
        this.assign(slot);
        return;
      }
      if (slot.job < 0) return;
      const i = slot.job;
      if (m.type === 'finished') slot.job = -1;
      this.onMessage(i, m);
      if (m.type === 'finished') this.assign(slot);
    };
    // An exception the worker did not catch (e.g. its script failed to load).
    w.onerror = (e) => {
      e.preventDefault();
      const message = e.message ? `фоновый поток остановился с ошибкой (${e.message})` : 'фоновый поток остановился с ошибкой';
      this.onMessage(Math.max(0, slot.job), { type: 'error', message });
    };
    w.onmessageerror = () =>
      this.onMessage(Math.max(0, slot.job), { type: 'error', message: 'сообщение фонового потока не удалось прочитать' });
    return slot;
  }

  /**
   * Gives the next queued job to a free worker (a pause before it started is honoured: the job
   * starts paused).
   * @param {{ worker: Worker, job: number }} slot
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

  terminate() {
    this.workers.forEach((s) => s.worker.terminate());
    this.workers = [];
  }
}
