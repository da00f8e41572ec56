//! Lesson 8: the verifier's rule and what it pays for sample answers to prompt q0.

use crate::train::sequence::task::{self, EOS, FIRST_SYMBOL};
use serde::Serialize;

/// The reward rule and seven answers with their verdicts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Verifier {
    pub first_symbol: f64,
    pub second_symbol: f64,
    pub stop: f64,
    pub overlong_penalty: f64,
    /// The correct answer to q0.
    pub correct_q0: String,
    pub examples: Vec<VerifierExample>,
}

/// One answer and its verdict.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct VerifierExample {
    pub answer: String,
    pub reward: f64,
    pub correct: bool,
}

/// The lesson's worked example.
pub fn verifier() -> Verifier {
    let [a, c, b, d] = [0, 2, 1, 3].map(|k| FIRST_SYMBOL + k);
    let answers: [&[i64]; 7] = [
        &[a, c, EOS],
        &[a, b, EOS],
        &[c, a, EOS],
        &[a, EOS],
        &[a, c, d, EOS],
        &[a, c, d, b],
        &[EOS],
    ];
    let tenths = |t: i32| f64::from(t) / 10.0;
    Verifier {
        first_symbol: tenths(task::FIRST_SYMBOL_TENTHS),
        second_symbol: tenths(task::SECOND_SYMBOL_TENTHS),
        stop: tenths(task::STOP_TENTHS),
        overlong_penalty: tenths(task::OVERLONG_TENTHS),
        correct_q0: task::decode(&task::correct_response(0)),
        examples: answers
            .iter()
            .map(|r| {
                let v = task::verify(0, r);
                VerifierExample {
                    answer: task::decode(r),
                    reward: v.reward,
                    correct: v.correct,
                }
            })
            .collect(),
    }
}
