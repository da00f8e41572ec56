// @ts-check
// What wasm tells the page about trainers and results (type definitions only), shared by the
// panel modules: here rather than in a panel module, so that no module a panel imports points
// back at it; apart from protocol.js, which the worker checks without the DOM. The results and
// a checked run are Rust's serde types as tsify declares them in www/pkg/pgbook.d.ts
// (src/train/compare.rs, src/web/schema.rs); the schema is still a hand copy (wasm builds it
// as a JSON value: see docs/notes.md, issue 41 item 1).
/** @typedef {import('./settings-form.js').Field} SchemaField */
/** @typedef {{ name: string, label: string, seeds: number[] }} SchemaProfile */

/**
 * What wasm's trainer_schema says of a trainer.
 * @typedef {{ name: string, fields: SchemaField[], profiles: SchemaProfile[], solved_threshold: number, time_step_s: number, page: { file: string, seeds_param: string, max_seeds: number }, panel: 'cartpole' | 'sequence', diagnostics: boolean }} Schema
 */
/** @typedef {{ request: import('../pkg/pgbook.js').Request, seed: number }} Job */
/** @typedef {import('../pkg/pgbook.js').CheckedRun} CheckedRun a run as wasm's check_run accepted it */
/** @typedef {import('../pkg/pgbook.js').ConfigResult} ConfigResult a row of wasm's results table */
/** @typedef {import('../pkg/pgbook.js').Quartiles} Quartiles median and IQR */
/** @typedef {import('../pkg/pgbook.js').Extra} Extra a trainer's own column (absent in runs saved before them) */

export {};
