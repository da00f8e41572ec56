//! The class's codes merged into its results table (the comparisons' median [IQR] of the
//! final score and of where the goal was reached, [`compare::config_result`]) and band (the
//! learning curves' median and IQR on the checkpoints every code shares, [`curves::aggregate`]),
//! each seed kept visible; and a code checked against a recomputed run of its seed.

use super::{code::Code, run_code, trainer_name, ClassKind};
use crate::error::{CodeProblem, Error, ErrorKind, Result};
use crate::train::compare::{self, ConfigResult};
use crate::train::curves::{self, Curve, CurvePoint};
use crate::train::Trainer;
use serde::Serialize;

/// One student's seed in the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "ClassRow"))]
pub struct Row {
    /// The seed.
    pub seed: u64,
    /// The final score.
    pub score: f64,
    /// Where the goal was reached for good, if it was.
    pub reached: Option<u64>,
    /// The fingerprint, as ten hexadecimal digits.
    pub fingerprint: String,
    /// The code as handed in (grouped, upper case).
    pub code: String,
    /// Its line in what was pasted.
    pub line: usize,
}

/// A refused line.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "ClassRefusal"))]
pub struct Refusal {
    /// The line (1-based).
    pub line: usize,
    /// What was on it.
    pub text: String,
    /// Why it is refused, in Russian.
    pub reason: String,
    /// The error itself (the CLI prints it in English).
    #[serde(skip)]
    pub error: Error,
}

/// The class's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "ClassResult"))]
pub struct Class {
    /// The trainer's name.
    pub trainer: String,
    /// The configuration's hash, ten hexadecimal digits.
    pub config: String,
    /// One row per accepted code, by seed.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "ClassRow[]"))]
    pub rows: Vec<Row>,
    /// Median [IQR] of the final score and of where the goal was reached.
    pub result: ConfigResult,
    /// The band over the seeds' checkpoints (`runs` in the rows' order).
    pub curve: Curve,
    /// The lines refused.
    #[cfg_attr(target_arch = "wasm32", tsify(type = "ClassRefusal[]"))]
    pub refused: Vec<Refusal>,
}

struct Point(u64, f64);

impl CurvePoint for Point {
    fn env_steps(&self) -> u64 {
        self.0
    }
    fn mean(&self) -> f64 {
        self.1
    }
}

/// Hex digits of a 40-bit hash.
pub fn hex(h: u64) -> String {
    format!("{h:010X}")
}

/// Reads `text`, one code per line (blank lines skipped), for the class of trainer index and
/// configuration hash `expected` (`None`: the first readable code's). Refused lines are kept
/// with their reason; the rest make the table. An error only when no code is accepted.
pub fn merge(text: &str, expected: Option<(u8, u64)>) -> Result<Class> {
    let mut class = expected;
    let mut codes: Vec<(usize, String, Code)> = Vec::new();
    let mut refused = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let checked = Code::decode(line).and_then(|code| {
            let key = *class.get_or_insert((code.trainer, code.config));
            if key != (code.trainer, code.config) {
                return Err(Error::class_code(0, CodeProblem::OtherConfig));
            }
            if codes.iter().any(|(_, _, c)| c.seed == code.seed) {
                return Err(Error::class_code(0, CodeProblem::Duplicate(code.seed)));
            }
            Ok(code)
        });
        match checked {
            Ok(code) => codes.push((i + 1, code.encode(), code)),
            Err(e) => {
                let e = at_line(e, i + 1);
                refused.push(Refusal {
                    line: i + 1,
                    text: line.chars().take(160).collect(),
                    reason: e.russian(&|_| None),
                    error: e,
                });
            }
        }
    }
    let Some((trainer, config)) = class.filter(|_| !codes.is_empty()) else {
        return Err(refused
            .into_iter()
            .next()
            .map_or_else(|| Error::class_code(0, CodeProblem::Empty), |r| r.error));
    };
    codes.sort_by_key(|(_, _, c)| c.seed);
    let finished: Vec<compare::Finished<'_, ()>> = codes
        .iter()
        .map(|(_, _, c)| ((c.score, c.reached), &[][..]))
        .collect();
    let trainer_name = trainer_name(trainer)?;
    let result = compare::config_result(0, trainer_name, codes.len(), &finished, |_| Vec::new());
    let runs: Vec<Vec<Point>> = codes
        .iter()
        .map(|(_, _, c)| c.curve.iter().map(|&(x, y)| Point(x, y)).collect())
        .collect();
    let curve = curves::aggregate(&runs)?;
    let rows = codes
        .into_iter()
        .map(|(line, text, c)| Row {
            seed: c.seed,
            score: c.score,
            reached: c.reached,
            fingerprint: hex(c.fingerprint),
            code: text,
            line,
        })
        .collect();
    Ok(Class {
        trainer: trainer_name.to_string(),
        config: hex(config),
        rows,
        result,
        curve,
        refused,
    })
}

/// `e` (a code's refusal) placed on `line`.
pub fn at_line(e: Error, line: usize) -> Error {
    match e.kind() {
        ErrorKind::ClassCode { problem, .. } => Error::class_code(line, problem.clone()),
        _ => e,
    }
}

/// Checks `text` (one code) against its seed recomputed with `config`: a code of another
/// configuration, another final network (a forged fingerprint) or other numbers is refused.
pub fn verify<T: Trainer, F: ClassKind<T>>(config: &T::Config, text: &str) -> Result<Code> {
    let code = Code::decode(text)?;
    if trainer_name(code.trainer)? != T::NAME || code.config != super::config_hash::<T>(config) {
        return Err(Error::class_code(0, CodeProblem::OtherConfig));
    }
    let truth = run_code::<T, F>(config, code.seed)?;
    if truth.fingerprint != code.fingerprint {
        return Err(Error::class_code(0, CodeProblem::Fingerprint(code.seed)));
    }
    if truth != code {
        return Err(Error::class_code(0, CodeProblem::Numbers(code.seed)));
    }
    Ok(code)
}
