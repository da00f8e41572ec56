//! The messages between a panel's pool (www/js/pool.js) and a trainer's Web Worker
//! (www/js/worker.js), one union per direction, declared here so that TypeScript reads them
//! from Rust: tsify writes them into www/pkg/pgbook.d.ts and tsc checks both sides of the
//! worker against them (www/js/protocol.js only names them). No Rust code sends or reads these
//! two enums: the worker's JavaScript does, with wasm's typed parts inside them (`StepExtra`,
//! `StepProgress`, the trainer's `Request`).

use super::panel::{CartPoleExtra, SequenceExtra};
use super::worker::StepProgress;
use crate::train::settings::Request;
use serde::Serialize;
use tsify::Tsify;

/// Page → worker.
#[allow(dead_code)] // declarations for TypeScript (the module's doc)
#[derive(Serialize, Tsify)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum ToWorker {
    /// Build trainer `kind`'s run of `request` on `seed`; paused before its first step if
    /// `paused` (a restored run).
    Start {
        kind: String,
        request: Request,
        seed: f64,
        #[tsify(optional)]
        paused: Option<bool>,
    },
    Pause,
    Resume,
    Stop,
    /// Makes the worker panic (the page tests' crash check).
    Fail,
    /// A benchmark: `which` trainer (PPO by default), `updates`, `repeats`, `precision`.
    Bench {
        #[tsify(optional)]
        which: Option<BenchKind>,
        #[tsify(optional)]
        updates: Option<f64>,
        #[tsify(optional)]
        repeats: Option<f64>,
        #[tsify(optional)]
        precision: Option<String>,
    },
    /// This machine's speed (`measure_speed`).
    Speed,
    /// A class seat (js/class.js): trainer `kind`'s `request` on `seed`, step by step
    /// (`ClassRun`), then its result code.
    Class {
        kind: String,
        request: Request,
        seed: f64,
    },
    /// A handed-in class code's seed recomputed with trainer `kind`'s `request`
    /// (`class_verify`).
    ClassVerify {
        kind: String,
        request: Request,
        code: String,
    },
}

/// The benchmarks a worker runs (`bench_ppo`, `bench_transformer`).
#[allow(dead_code)] // declarations for TypeScript (the module's doc)
#[derive(Serialize, Tsify)]
#[serde(rename_all = "snake_case")]
pub(super) enum BenchKind {
    Ppo,
    Transformer,
}

/// What a step adds for the panel, by its `panel` tag.
#[allow(dead_code)] // declarations for TypeScript (the module's doc)
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub(super) enum StepExtra {
    CartPole(CartPoleExtra),
    Sequence(SequenceExtra),
}

/// Worker → page. `info` is what the untrained run says (totals, the first evaluation) and
/// goes back to wasm's RunBoard as it came; `progress` arrives while a step runs, at most four
/// times a second.
#[allow(dead_code)] // declarations for TypeScript (the module's doc)
#[derive(Serialize, Tsify)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum FromWorker {
    Ready,
    Started {
        #[tsify(type = "AnyStartInfo")]
        info: (),
    },
    Progress {
        progress: StepProgress,
    },
    /// A step's report as the CLI's JSON line, read by wasm's RunBoard (never by key in JS).
    Update {
        line: String,
        extra: StepExtra,
    },
    /// The summary line and the trained policy's file (none for trainers without one).
    Finished {
        line: String,
        #[tsify(optional)]
        policy: Option<String>,
    },
    Paused,
    Stopped,
    Error {
        message: String,
    },
    Panic {
        message: String,
    },
    Bench {
        #[tsify(type = "BenchResult | TransformerBench")]
        result: (),
    },
    Speed {
        speed: f64,
    },
    /// A class seat's result code.
    Class {
        code: String,
    },
    /// A class seat's progress: `done` of `total` (the trainer's progress unit).
    ClassProgress {
        done: f64,
        total: f64,
    },
    /// A recomputed class code matched: its seed.
    ClassVerify {
        seed: f64,
    },
}
