// @ts-check
// What wasm tells the page about trainers and results (type definitions only), shared by the
// panel modules: here rather than in a panel module, so that no module a panel imports points
// back at it; apart from protocol.js, which the worker checks without the DOM.
/** @typedef {import('./settings-form.js').Field} SchemaField */
/** @typedef {{ name: string, label: string, seeds: number[] }} SchemaProfile */

/**
 * What wasm's trainer_schema says of a trainer.
 * @typedef {{ name: string, fields: SchemaField[], profiles: SchemaProfile[], solved_threshold: number, time_step_s: number, page: { file: string, seeds_param: string, max_seeds: number }, panel: 'cartpole' | 'sequence', diagnostics: boolean }} Schema
 */
/** @typedef {{ request: { profile: string, set: [string, string][] }, seed: number }} Job */
/**
 * A run as wasm's check_run accepted it.
 * @typedef {{ name: string, profile: string, set: [string, string][], seeds: number[], total_per_seed: number, steps_per_seed: number, unit: string, memory_bytes: number, work_per_seed: number }} CheckedRun
 */
/**
 * A row of wasm's results table.
 * @typedef {{ config: number, label: string, seeds: number, finished: number, score: Quartiles | null, reached: number, reached_at: Quartiles | null }} ConfigResult
 * @typedef {{ median: number, q25: number, q75: number }} Quartiles
 */

export {};
