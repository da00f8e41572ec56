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
