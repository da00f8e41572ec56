//! Lesson 10: the checkable exercises. Each has its right answer computed here (by the same
//! `rl` functions the lessons use) and a check of the reader's answer that says, in Russian,
//! whether it is right. Choice exercises compare the set of marked options; numeric and code
//! exercises compare numbers within a stated tolerance. The reader's text is parsed here (a
//! decimal comma, a real minus), never trusted as a number by the page.
//!
//! | module          | exercises                                                        |
//! |-----------------|------------------------------------------------------------------|
//! | [`numeric`]     | 9, 11–16 (fresh numbers, not the lessons' worked examples), 24–27 |
//! | [`sources`]     | 17–23: the project's functions on small inputs (the page shows their source) |
//! | [`derivations`] | 28–30: the λ = 1 telescoping, importance sampling, the clip's zero gradient |
//! | [`bugs`]        | 31–33: code with a mistake to find, and what it returns           |
//! | [`evaluation`]  | 34–35: pass@k from n samples, groups that teach nothing           |

use crate::Result;
use serde::Serialize;
use std::collections::BTreeMap;

pub mod bugs;
mod check;
mod derivations;
mod evaluation;
mod numeric;
mod sources;
#[cfg(test)]
mod tests;

pub use check::{check, parse_answer, Check};

/// Absolute tolerance of every numeric answer (three decimals are enough).
pub const TOLERANCE: f64 = 0.005;

/// One exercise's right answer and what the page shows of it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(hashmap_as_object))]
pub struct Exercise {
    /// Choice: the right options (1-based); empty for a numeric exercise.
    pub correct_options: Vec<usize>,
    /// How many options a choice exercise has.
    pub options: usize,
    /// Numeric: the values the fields must hold, in the fields' order (as open as the
    /// solution behind «Показать ответ»).
    pub expected: Vec<f64>,
    /// Numeric: the tolerance the page states.
    pub tolerance: f64,
    /// The inputs the exercise gives the reader (shown in its statement), by name.
    pub given: BTreeMap<&'static str, Vec<f64>>,
    /// Intermediate numbers the solution quotes (shown behind «Показать ответ»), by name.
    pub solution: BTreeMap<&'static str, Vec<f64>>,
    /// Typical mistakes: the values a reader who made one would enter, and the hint the check
    /// gives when the wrong fields hold exactly those (not shown on the page before a check).
    #[serde(skip)]
    pub mistakes: Vec<Mistake>,
}

/// A typical wrong answer and what to say about it.
#[derive(Debug, Clone)]
pub struct Mistake {
    pub values: Vec<f64>,
    pub hint: &'static str,
}

impl Exercise {
    fn with_mistake(mut self, values: Vec<f64>, hint: &'static str) -> Self {
        self.mistakes.push(Mistake { values, hint });
        self
    }

    fn with_solution(mut self, name: &'static str, values: Vec<f64>) -> Self {
        self.solution.insert(name, values);
        self
    }
}

fn choice(options: usize, correct: &[usize]) -> Exercise {
    Exercise {
        correct_options: correct.to_vec(),
        options,
        expected: Vec::new(),
        tolerance: 0.0,
        given: BTreeMap::new(),
        solution: BTreeMap::new(),
        mistakes: Vec::new(),
    }
}

fn numbers(expected: Vec<f64>, given: &[(&'static str, Vec<f64>)]) -> Exercise {
    Exercise {
        correct_options: Vec::new(),
        options: 0,
        expected,
        tolerance: TOLERANCE,
        given: given.iter().cloned().collect(),
        solution: BTreeMap::new(),
        mistakes: Vec::new(),
    }
}

fn bits(xs: &[bool]) -> Vec<f64> {
    xs.iter().map(|&b| f64::from(u8::from(b))).collect()
}

/// Every checkable exercise, by number.
pub fn exercises() -> Result<BTreeMap<usize, Exercise>> {
    let mut all = BTreeMap::new();
    all.insert(1, choice(5, &[2, 4]));
    all.insert(6, choice(5, &[1, 2, 3]));
    numeric::add(&mut all)?;
    sources::add(&mut all)?;
    derivations::add(&mut all)?;
    bugs::add(&mut all)?;
    evaluation::add(&mut all)?;
    Ok(all)
}

/// Z-scores with the sample (n − 1) standard deviation: the typical mistake of exercises 19, 24.
fn sample_std_zscores(group: &[f64]) -> Vec<f64> {
    let n = group.len() as f64;
    let m = group.iter().sum::<f64>() / n;
    let var = group.iter().map(|r| (r - m) * (r - m)).sum::<f64>() / (n - 1.0).max(1.0);
    let s = var.sqrt();
    group.iter().map(|r| (r - m) / (s + 1e-8)).collect()
}
