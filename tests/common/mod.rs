//! Shared by the integration tests: where the fixtures live and how to read them.
#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;

/// `$PGBOOK_FIXTURES` when set, else `tests/fixtures` in this crate.
pub fn fixtures_dir() -> PathBuf {
    match std::env::var_os("PGBOOK_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
    }
}

/// Parses a fixture file; a missing or unreadable file fails the test loudly, naming the path.
pub fn load_fixture(name: &str) -> Value {
    let path = fixtures_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "fixture {} cannot be read: {e} (set PGBOOK_FIXTURES to the fixture directory)",
            path.display()
        )
    });
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("fixture {} is not valid JSON: {e}", path.display()))
}

/// The course's float tolerance: |actual − expected| ≤ 1e-9 · max(1, |expected|).
pub fn close(actual: f64, expected: f64) -> bool {
    (actual - expected).abs() <= 1e-9 * expected.abs().max(1.0)
        || (actual.is_nan() && expected.is_nan())
}

/// A JSON value as f64 (panics with the key on a schema mismatch).
pub fn f(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"))
}

/// A JSON array of numbers.
pub fn vec_f64(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(f)
        .collect()
}

/// Worst relative error of a sequence run's loss gradient against central differences of its
/// own loss, on `batch`, after two signed steps away from ratio 1 (so that some tokens are
/// clipped and the policy differs from the reference) — whatever the network behind the
/// trainer's seam, in f64.
pub fn worst_sequence_gradient_error<P>(
    run: &mut pgbook::train::sequence::SequenceRun<P>,
    batch: &pgbook::train::sequence::RolloutBatch,
) -> f64
where
    P: pgbook::train::sequence::Policy<Scalar = f64>,
{
    for _ in 0..2 {
        let g = run.loss_and_gradient(batch, None).unwrap().grad;
        run.params_mut()
            .iter_mut()
            .zip(&g)
            .for_each(|(p, g)| *p -= 0.05 * g.signum());
    }
    let grad = run.loss_and_gradient(batch, None).unwrap().grad;
    let h = 1e-6;
    let mut worst = 0.0_f64;
    for i in 0..grad.len() {
        let orig = run.params_mut()[i];
        run.params_mut()[i] = orig + h;
        let up = run.loss_and_gradient(batch, None).unwrap().loss;
        run.params_mut()[i] = orig - h;
        let down = run.loss_and_gradient(batch, None).unwrap().loss;
        run.params_mut()[i] = orig;
        let numeric = (up - down) / (2.0 * h);
        let err = (numeric - grad[i]).abs() / numeric.abs().max(grad[i].abs()).max(1e-3);
        worst = worst.max(err);
    }
    worst
}
