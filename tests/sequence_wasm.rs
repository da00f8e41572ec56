//! The sequence trainer compiled to wasm32 and run in the browser (wasm-bindgen-test, headless
//! Chromium and Firefox): the core must not touch clocks, threads or files, and the lesson's
//! run must reach its target there too (prints the wall time, measured outside the trainer),
//! and the transformer's and issue 37's recorded runs come out bit for bit as natively.
#![cfg(target_arch = "wasm32")]

use pgbook::train::lines::run_lines;
use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
use wasm_bindgen_test::*;

/// The transformer's short runs recorded natively (`tests/sequence_transformer.rs`), in both
/// precisions and on both tasks: the browser must print the same lines, byte for byte.
#[wasm_bindgen_test]
fn transformer_runs_equal_the_native_ones() {
    assert_eq!(replay(include_str!("fixtures/transformer_runs.jsonl")), 4);
}

/// Runs every recorded case of `recorded` (lines of `{config, seed, lines}`) and checks its
/// lines; returns how many cases there were.
fn replay(recorded: &str) -> usize {
    let mut count = 0;
    for case in recorded.lines() {
        let case: serde_json::Value = serde_json::from_str(case).unwrap();
        let config: SequenceConfig = serde_json::from_value(case["config"].clone()).unwrap();
        let seed = case["seed"].as_u64().unwrap();
        let lines = run_lines::<SequenceTrainer>(&config, &[seed]).unwrap();
        let want: Vec<&str> = case["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap())
            .collect();
        assert_eq!(lines, want, "{} {}", config.policy, config.precision.name());
        count += 1;
    }
    count
}

/// Issue 37's pipeline (SFT, pass@k, group statistics, dynamic sampling) recorded natively
/// (`tests/r1.rs`): the browser must print the same lines, byte for byte.
#[wasm_bindgen_test]
fn r1_runs_equal_the_native_ones() {
    assert_eq!(replay(include_str!("fixtures/r1_runs.jsonl")), 2);
}

#[wasm_bindgen_test]
fn full_profile_seed_5_in_wasm() {
    let start = js_sys::Date::now();
    let mut trainer = SequenceTrainer::new(SequenceConfig::full(), 5).unwrap();
    let mut last = None;
    while !trainer.done() {
        last = Some(trainer.step().unwrap());
    }
    let last = last.unwrap();
    let seconds = (js_sys::Date::now() - start) / 1000.0;
    console_log!(
        "wasm full seed 5: success {:.3}, greedy {}/3, {:.2} s, final mean reward {:?}, approx_kl {:?}",
        last.eval_success_rate,
        last.greedy_correct,
        seconds,
        last.eval_mean_reward,
        last.approx_kl
    );
    assert_eq!(last.greedy_correct, 3);
    assert!(last.eval_success_rate >= 0.95, "{last:?}");
}
