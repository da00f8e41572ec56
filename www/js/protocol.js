// @ts-check
// The messages between a panel's pool and a trainer's Web Worker, one discriminated union per
// direction: tsc checks both sides (a misspelt type or field does not compile). The report
// itself crosses as the CLI's JSON line (`line`), read by wasm's RunBoard, never by key here.

/**
 * Page → worker.
 * @typedef {{ type: 'start', kind: string, request: { profile: string, set: [string, string][] }, seed: number, paused?: boolean }
 *   | { type: 'pause' } | { type: 'resume' } | { type: 'stop' } | { type: 'fail' }
 *   | { type: 'bench', updates?: number, repeats?: number, precision?: string }} ToWorker
 */

/**
 * Worker → page. `info` is what the untrained run says (totals, the first evaluation) and goes
 * back to wasm's RunBoard as it came; `extra` is what a step adds for the panel (CartPole: the
 * greedy episode; sequence: the greedy answers, the first batch).
 * @typedef {{ type: 'ready' }
 *   | { type: 'started', info: unknown }
 *   | { type: 'update', line: string, extra: any }
 *   | { type: 'finished', line: string, policy?: string | null }
 *   | { type: 'paused' } | { type: 'stopped' }
 *   | { type: 'error', message: string } | { type: 'panic', message: string }
 *   | { type: 'bench', result: unknown }} FromWorker
 */

export {};
