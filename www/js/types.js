// @ts-check
// What wasm tells the page about trainers and results (type definitions only), shared by the
// panel modules: here rather than in a panel module, so that no module a panel imports points
// back at it; apart from protocol.js, which the worker checks without the DOM. The results and
// a checked run are Rust's serde types as tsify declares them in www/pkg/pgbook.d.ts
// (src/train/compare.rs, src/train/settings/schema.rs, src/web/schema.rs).
/** @typedef {import('../pkg/pgbook.js').TrainerSchema} Schema what wasm's trainer_schema says of a trainer */
/** @typedef {{ request: import('../pkg/pgbook.js').Request, seed: number }} Job */
/** @typedef {import('../pkg/pgbook.js').CheckedRun} CheckedRun a run as wasm's check_run accepted it */
/** @typedef {import('../pkg/pgbook.js').ConfigResult} ConfigResult a row of wasm's results table */
/** @typedef {import('../pkg/pgbook.js').Quartiles} Quartiles median and IQR */
/** @typedef {import('../pkg/pgbook.js').Extra} Extra a trainer's own column (absent in runs saved before them) */

export {};
