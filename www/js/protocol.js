// @ts-check
// The messages between a panel's pool and a trainer's Web Worker, one discriminated union per
// direction: tsc checks both sides (a misspelt type or field does not compile). They are
// declared in Rust (src/web/protocol.rs, with the typed parts from src/web/panel.rs,
// src/web/worker.rs and src/train/mod.rs's Stage) and written by tsify into
// www/pkg/pgbook.d.ts; this module only names them for the page and the worker. The report
// itself crosses as the CLI's JSON line (`line`), read by wasm's RunBoard, never by key here.

/** @typedef {import('../pkg/pgbook.js').ToWorker} ToWorker page → worker */
/** @typedef {import('../pkg/pgbook.js').FromWorker} FromWorker worker → page */
/** @typedef {import('../pkg/pgbook.js').CartPoleExtra} CartPoleExtra what a CartPole step adds */
/** @typedef {import('../pkg/pgbook.js').GreedyRow} GreedyRow one showcase prompt's greedy answer */
/** @typedef {import('../pkg/pgbook.js').FirstBatchView} FirstBatchRow one row of the first batch */
/** @typedef {import('../pkg/pgbook.js').SequenceExtra} SequenceExtra what a sequence iteration adds */
/** @typedef {import('../pkg/pgbook.js').StepExtra} StepExtra what a step adds, by its `panel` tag */
/** @typedef {import('../pkg/pgbook.js').Stage} Stage where a running step is */
/** @typedef {import('../pkg/pgbook.js').StepProgress} StepProgress step `step` of `steps` at `stage` */

export {};
