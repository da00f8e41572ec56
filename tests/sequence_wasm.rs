//! The sequence trainer compiled to wasm32 and run in the browser (wasm-bindgen-test, headless
//! Chromium and Firefox): the core must not touch clocks, threads or files, and the lesson's
//! run must reach its target there too. Prints the wall time, measured outside the trainer.
#![cfg(target_arch = "wasm32")]

use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
use wasm_bindgen_test::*;

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
