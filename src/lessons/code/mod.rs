//! The coding exercises (the exercises lesson's «Напишите сами» and the notebook to take home): for each
//! function a reader writes in NumPy, its signature and stub, our reference solution, the test
//! vectors and the hints for typical mistakes. Every expected answer is the core's — its
//! output, or its refusal (the reader's function must then raise) — and so is every typical
//! mistake's answer, computed by the core on changed inputs (a hint is given when the reader's
//! output matches one). The Python sources are the files in `www/python/`: the same text the
//! lessons show beside their formulas (`data-snippet`), tested against these vectors.

use crate::{Error, Result};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

mod early;
mod late;
mod notebook;
mod python;

pub use notebook::notebook;
pub use python::{source, stub, SOURCES};

/// Named values in their order (a function's keyword arguments, or its outputs in the order
/// it returns them: the checker maps a returned tuple by it), written as a JSON object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Named(pub Vec<(String, Value)>);

impl Named {
    /// The value named `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Replaces the value named `key`.
    pub(crate) fn set(&mut self, key: &str, v: Value) {
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| k == key) {
            slot.1 = v;
        }
    }
}

impl Serialize for Named {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// One test vector: a call of `function` with `inputs` and what the core answers.
#[derive(Debug, Clone, Serialize)]
pub struct Case {
    pub function: &'static str,
    /// What the case tests, in Russian (the checker names a failed case by it).
    pub about: String,
    /// Keyword arguments, by the Python parameter's name.
    pub inputs: Named,
    /// The core refused these inputs: the reader's function must raise.
    pub error: bool,
    /// The named outputs (absent when `error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<Named>,
    /// Typical mistakes that give a different answer on this case.
    pub mistakes: Vec<CaseMistake>,
}

/// What a typical mistake answers on one case, and the hint for it.
#[derive(Debug, Clone, Serialize)]
pub struct CaseMistake {
    pub hint: &'static str,
    /// The mistake's outputs; `None`: it gives NaN or infinity (JSON has no such numbers).
    pub output: Option<Named>,
}

/// One exercise of the notebook and of the exercises lesson's «Напишите сами».
#[derive(Debug, Clone, Serialize)]
pub struct CodeExercise {
    /// The page's anchor (`code-ID`) and the notebook's section.
    pub id: &'static str,
    /// Its title, in Russian.
    pub title: &'static str,
    /// The task in Russian; `code` in backticks.
    pub task: &'static str,
    /// The lesson page whose formulas this implements.
    pub lesson: &'static str,
    /// The functions to write, in order (the check is `check(f, g)`).
    pub functions: Vec<&'static str>,
    /// Every typical mistake's hint, in the order the cases meet them.
    pub hints: Vec<&'static str>,
    pub cases: Vec<Case>,
}

impl CodeExercise {
    fn new(
        id: &'static str,
        title: &'static str,
        lesson: &'static str,
        task: &'static str,
    ) -> Self {
        Self {
            id,
            title,
            task,
            lesson,
            functions: Vec::new(),
            hints: Vec::new(),
            cases: Vec::new(),
        }
    }

    fn add(&mut self, case: Case) {
        if !self.functions.contains(&case.function) {
            self.functions.push(case.function);
        }
        for m in &case.mistakes {
            if !self.hints.contains(&m.hint) {
                self.hints.push(m.hint);
            }
        }
        self.cases.push(case);
    }
}

/// The named outputs of one call, e.g. `outputs(&[("returns", json!(g))])`.
pub(crate) fn outputs(named: &[(&str, Value)]) -> Named {
    Named(
        named
            .iter()
            .map(|(k, v)| ((*k).to_string(), v.clone()))
            .collect(),
    )
}

/// A JSON value of anything serialisable (our arrays and numbers always are).
pub(crate) fn value<T: Serialize>(x: T) -> Value {
    serde_json::to_value(x).unwrap_or(Value::Null)
}

impl Case {
    /// A case of `function` with its inputs, answered by the core: `answer` is the core's
    /// outputs or its refusal.
    fn new(
        function: &'static str,
        about: impl Into<String>,
        inputs: &[(&str, Value)],
        answer: Result<Named>,
    ) -> Self {
        let (error, expected) = match answer {
            Ok(out) => (false, Some(out)),
            Err(_) => (true, None),
        };
        Case {
            function,
            about: about.into(),
            inputs: outputs(inputs),
            error,
            expected,
            mistakes: Vec::new(),
        }
    }

    /// Adds a typical mistake's answer on this case, unless it is the right one here (then
    /// the case cannot tell them apart) or the mistake itself is refused.
    fn mistake(mut self, hint: &'static str, output: Result<Named>) -> Self {
        let Ok(output) = output else { return self };
        let finite = all_finite(&output);
        if let Some(expected) = &self.expected {
            let same = output.0.len() == expected.0.len()
                && output
                    .0
                    .iter()
                    .all(|(k, v)| expected.get(k).is_some_and(|w| close(v, w)));
            if finite && same {
                return self;
            }
        }
        self.mistakes.push(CaseMistake {
            hint,
            output: finite.then_some(output),
        });
        self
    }
}

/// Whether every number in `out` is finite (`value` writes NaN and ±∞ as null).
fn all_finite(out: &Named) -> bool {
    fn walk(v: &Value) -> bool {
        match v {
            Value::Null => false,
            Value::Array(xs) => xs.iter().all(walk),
            Value::Object(m) => m.values().all(walk),
            _ => true,
        }
    }
    out.0.iter().all(|(_, v)| walk(v))
}

/// Equal within the fixtures' tolerance (1e-9 · max(1, |expected|)).
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * y.abs().max(1.0),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

/// Every coding exercise, in the book's order.
pub fn exercises() -> Result<Vec<CodeExercise>> {
    Ok(vec![
        early::reward_to_go()?,
        early::leave_one_out_baselines()?,
        early::gae_advantages()?,
        early::ppo()?,
        late::response_token_mask()?,
        late::aggregate_token_terms()?,
        late::group_advantages()?,
        late::kl_estimators()?,
    ])
}

/// The core's vectors for the lessons' snippets that are no exercise (the surrogate's
/// gradient, the causal shift, RLOO advantages): every snippet meets at least one case.
pub fn snippet_cases() -> Result<Vec<Case>> {
    late::snippet_cases()
}

/// Every case of every exercise and snippet by function name: the notebook's and the snippet
/// test's `CASES`.
pub fn cases_by_function() -> Result<BTreeMap<&'static str, Vec<Case>>> {
    let mut all: BTreeMap<&'static str, Vec<Case>> = BTreeMap::new();
    let cases = exercises()?
        .into_iter()
        .flat_map(|e| e.cases)
        .chain(snippet_cases()?);
    for case in cases {
        all.entry(case.function).or_default().push(case);
    }
    Ok(all)
}

/// What the site build needs: the exercises with their stubs and solutions.
#[derive(Debug, Clone, Serialize)]
pub struct ForPage {
    pub exercise: CodeExercise,
    /// The reader's starting point: imports, signatures, docstrings, `raise NotImplementedError`.
    pub stub: String,
    /// Our solution (the lessons' snippets).
    pub solution: String,
}

/// The exercises as the page shows them.
pub fn for_page() -> Result<Vec<ForPage>> {
    exercises()?
        .into_iter()
        .map(|exercise| {
            let stubs: Result<Vec<String>> = exercise.functions.iter().map(|f| stub(f)).collect();
            let solutions: Result<Vec<&str>> =
                exercise.functions.iter().map(|f| source(f)).collect();
            Ok(ForPage {
                stub: stubs?.join("\n\n"),
                solution: solutions?.join("\n\n"),
                exercise,
            })
        })
        .collect()
}

/// The error for a function without a Python source (a programming error caught by tests).
fn unknown_function(name: &str) -> Error {
    let names: Vec<&str> = SOURCES.iter().map(|(n, _)| *n).collect();
    Error::unknown(crate::error::Name::Exercise, name, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every exercise has cases the core answers and cases it refuses, typical mistakes the
    /// cases tell apart from the right answer, and a stub and solution for each function.
    #[test]
    fn every_exercise_is_complete() {
        let all = for_page().unwrap();
        assert_eq!(all.len(), 8);
        for e in &all {
            let ex = &e.exercise;
            let refused = ex.cases.iter().filter(|c| c.error).count();
            assert!(ex.cases.len() - refused >= 3, "{}: answered cases", ex.id);
            assert!(ex.hints.len() >= 2, "{}: {} hints", ex.id, ex.hints.len());
            for c in &ex.cases {
                assert_eq!(c.error, c.expected.is_none(), "{}: {}", ex.id, c.about);
                assert!(!c.error || c.mistakes.is_empty(), "{}: {}", ex.id, c.about);
            }
            for f in &ex.functions {
                assert!(e.stub.contains(&format!("def {f}(")), "{}", ex.id);
                assert!(e.solution.contains(&format!("def {f}(")), "{}", ex.id);
            }
            assert!(
                !e.stub.contains("return "),
                "{}: the stub gives away a body",
                ex.id
            );
        }
    }

    /// The edge cases the issue names are among the vectors, with the core's answers.
    #[test]
    fn the_edge_cases_are_there() {
        let cases = cases_by_function().unwrap();
        let about = |f: &str, what: &str| -> Case {
            cases[f]
                .iter()
                .find(|c| c.about.contains(what))
                .unwrap_or_else(|| panic!("{f}: no case «{what}»"))
                .clone()
        };
        let truncated = about("gae_advantages", "усечённый эпизод");
        assert_eq!(
            truncated.inputs.get("terminated"),
            Some(&serde_json::json!([false, false, false]))
        );
        assert_eq!(
            truncated.inputs.get("trace_cuts"),
            Some(&serde_json::json!([false, false, true]))
        );
        // Bootstrapped at the cut: δ_2 = 1 + 0.9·6 − 3.
        let a = truncated
            .expected
            .unwrap()
            .get("advantages")
            .unwrap()
            .clone();
        assert!((a[2].as_f64().unwrap() - 3.4).abs() < 1e-12, "{a}");
        let pad_eos = about("response_token_mask", "PAD == EOS");
        assert_eq!(
            pad_eos.inputs.get("pad_token_id"),
            pad_eos.inputs.get("eos_token_id")
        );
        assert!(!pad_eos.mistakes.is_empty());
        let equal = about("group_advantages", "все награды равны, mean_std_population");
        let zeros = equal.expected.unwrap().get("advantages").unwrap().clone();
        assert_eq!(zeros, serde_json::json!([0.0, 0.0, 0.0, 0.0]));
        assert!(
            equal.mistakes.iter().any(|m| m.output.is_none()),
            "the NaN of no guard"
        );
        assert!(about("group_advantages", "один ответ, rloo").error);
    }
}
