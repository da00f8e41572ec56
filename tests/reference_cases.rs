//! Every case of `reference_cases.json` (the course's NumPy reference), at its stated tolerance.
//! Error cases must come back as `Err` — never a panic. The test iterates over whatever cases
//! the file holds, so other case files of the same schema can be pointed at with
//! `PGBOOK_FIXTURES`.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{close, load_fixture};
use pgbook::rl::{self, Reduction};
use serde_json::{json, Value};

/// Inputs that cannot even be expressed in the Rust argument types (a 2-D array where a vector
/// is required, a negative action index) are rejected while converting: that is this API's
/// way of refusing them, and it counts as an error result.
type Conv<T> = Result<T, String>;

fn arg<'a>(inputs: &'a Value, key: &str) -> Conv<&'a Value> {
    inputs
        .get(key)
        .ok_or_else(|| format!("missing input `{key}`"))
}
fn num(v: &Value) -> Conv<f64> {
    v.as_f64().ok_or_else(|| format!("not a number: {v}"))
}
fn vector(inputs: &Value, key: &str) -> Conv<Vec<f64>> {
    arg(inputs, key)?
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?
        .iter()
        .map(num)
        .collect()
}
fn bools(inputs: &Value, key: &str) -> Conv<Vec<bool>> {
    let a = arg(inputs, key)?
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?;
    a.iter()
        .map(|v| {
            v.as_bool()
                .ok_or_else(|| format!("`{key}` holds a non-boolean"))
        })
        .collect()
}
fn grid(inputs: &Value, key: &str) -> Conv<Vec<Vec<f64>>> {
    let rows = arg(inputs, key)?
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?;
    rows.iter()
        .map(|r| {
            r.as_array()
                .ok_or_else(|| format!("`{key}` is not 2-D"))?
                .iter()
                .map(num)
                .collect()
        })
        .collect()
}
fn index(v: &Value) -> Conv<usize> {
    v.as_u64()
        .map(|u| u as usize)
        .ok_or_else(|| format!("not a non-negative integer: {v}"))
}
fn scalar(inputs: &Value, key: &str) -> Conv<f64> {
    num(arg(inputs, key)?)
}
fn ints(inputs: &Value, key: &str) -> Conv<Vec<Vec<i64>>> {
    let rows = arg(inputs, key)?
        .as_array()
        .ok_or_else(|| format!("`{key}` is not an array"))?;
    rows.iter()
        .map(|r| {
            r.as_array()
                .ok_or_else(|| format!("`{key}` is not 2-D"))?
                .iter()
                .map(|v| {
                    v.as_i64()
                        .ok_or_else(|| format!("`{key}` holds a non-integer"))
                })
                .collect()
        })
        .collect()
}

/// Runs one function on a case's inputs. `Ok(Err(msg))` is the function's own error;
/// `Err(msg)` is a conversion failure.
fn run(function: &str, x: &Value) -> Conv<Result<Value, String>> {
    let e = |err: pgbook::Error| err.to_string();
    Ok(match function {
        "stable_softmax" => rl::stable_softmax(&vector(x, "logits")?).map(|p| json!({ "probs": p })).map_err(e),
        "grad_log_softmax" => rl::grad_log_softmax(&vector(x, "logits")?, index(arg(x, "action")?)?)
            .map(|g| json!({ "grad": g }))
            .map_err(e),
        "reward_to_go" => rl::reward_to_go(&vector(x, "rewards")?, scalar(x, "gamma")?)
            .map(|g| json!({ "returns": g }))
            .map_err(e),
        "discounted_score_weights" => rl::discounted_score_weights(&vector(x, "rewards")?, scalar(x, "gamma")?)
            .map(|w| json!({ "weights": w }))
            .map_err(e),
        "leave_one_out_baselines" => rl::leave_one_out_baselines(&vector(x, "rewards")?)
            .map(|b| json!({ "baselines": b }))
            .map_err(e),
        "group_mean_advantages" => rl::group_mean_advantages(&vector(x, "rewards")?)
            .map(|a| json!({ "advantages": a }))
            .map_err(e),
        "group_zscore_advantages" => rl::group_zscore_advantages(&vector(x, "rewards")?, scalar(x, "eps")?)
            .map(|a| json!({ "advantages": a }))
            .map_err(e),
        "gae_advantages" => rl::gae_advantages(
            &vector(x, "rewards")?,
            &vector(x, "values")?,
            &vector(x, "next_values")?,
            &bools(x, "terminated")?,
            &bools(x, "trace_cuts")?,
            scalar(x, "gamma")?,
            scalar(x, "gae_lambda")?,
        )
        .map(|a| json!({ "advantages": a }))
        .map_err(e),
        "ppo_clipped_terms" => {
            rl::ppo_clipped_terms(&vector(x, "ratio")?, &vector(x, "advantage")?, scalar(x, "clip_epsilon")?)
                .map(|t| serde_json::to_value(t).expect("serialisable"))
                .map_err(e)
        }
        "ppo_diagnostics" => rl::ppo_diagnostics(
            &vector(x, "new_log_prob")?,
            &vector(x, "old_log_prob")?,
            &vector(x, "advantage")?,
            scalar(x, "clip_epsilon")?,
        )
        .map(|d| serde_json::to_value(d).expect("serialisable"))
        .map_err(e),
        "response_token_mask" => {
            let lengths = arg(x, "prompt_lengths")?.as_array().ok_or("prompt_lengths is not an array")?;
            let lengths: Vec<usize> = lengths.iter().map(index).collect::<Conv<_>>()?;
            rl::response_token_mask(
                &ints(x, "input_ids")?,
                &lengths,
                arg(x, "pad_token_id")?.as_i64().ok_or("pad_token_id")?,
                arg(x, "eos_token_id")?.as_i64().ok_or("eos_token_id")?,
                arg(x, "include_eos")?.as_bool().ok_or("include_eos")?,
            )
            .map(|m| json!({ "mask": m }))
            .map_err(e)
        }
        "sequence_log_probability" => {
            let mask = match arg(x, "mask")? {
                Value::Null => None,
                _ => Some(grid(x, "mask")?),
            };
            rl::sequence_log_probability(&grid(x, "token_log_probs")?, mask.as_deref())
                .map(|l| json!({ "log_probs": l }))
                .map_err(e)
        }
        "broadcast_sequence_advantages" => {
            rl::broadcast_sequence_advantages(&vector(x, "sequence_advantages")?, &grid(x, "token_mask")?)
                .map(|a| json!({ "token_advantages": a }))
                .map_err(e)
        }
        "masked_token_ppo_terms" => rl::masked_token_ppo_terms(
            &grid(x, "new_log_probs")?,
            &grid(x, "old_log_probs")?,
            &vector(x, "advantages")?,
            &grid(x, "mask")?,
            scalar(x, "clip_epsilon")?,
        )
        .map(|t| json!({ "ratio": t.ratio, "unclipped": t.unclipped, "clipped": t.clipped, "pessimistic": t.pessimistic }))
        .map_err(e),
        "sequence_log_probability_ratio" => {
            rl::sequence_log_probability_ratio(&grid(x, "new_log_probs")?, &grid(x, "old_log_probs")?, &grid(x, "mask")?)
                .map(|r| json!({ "log_ratio": r }))
                .map_err(e)
        }
        "sequence_probability_ratio" => {
            rl::sequence_probability_ratio(&grid(x, "new_log_probs")?, &grid(x, "old_log_probs")?, &grid(x, "mask")?)
                .map(|r| json!({ "ratio": r }))
                .map_err(e)
        }
        "masked_token_ppo_objective" => {
            let (new, old) = (grid(x, "new_log_probs")?, grid(x, "old_log_probs")?);
            let (adv, mask, eps) = (vector(x, "advantages")?, grid(x, "mask")?, scalar(x, "clip_epsilon")?);
            let reductions: Vec<Result<Reduction, String>> = match x.get("reduction") {
                Some(r) => vec![r.as_str().ok_or("reduction is not a string")?.parse().map_err(e)],
                None => Reduction::ALL.into_iter().map(Ok).collect(),
            };
            let mut out = serde_json::Map::new();
            let mut result = Ok(());
            for reduction in reductions {
                match reduction.and_then(|r| {
                    rl::masked_token_ppo_objective(&new, &old, &adv, &mask, eps, r).map(|v| (r, v)).map_err(e)
                }) {
                    Ok((r, v)) => {
                        out.insert(r.name().to_string(), json!(v));
                    }
                    Err(msg) => result = Err(msg),
                }
            }
            result.map(|()| Value::Object(out))
        }
        "group_gradient_estimates" => {
            let actions = arg(x, "actions")?.as_array().ok_or("actions is not an array")?;
            let actions: Vec<usize> = actions.iter().map(index).collect::<Conv<_>>()?;
            rl::group_gradient_estimates(&vector(x, "logits")?, &actions, &vector(x, "rewards")?)
                .map(|g| json!({ "plain": g.plain, "same_group": g.same_group, "rloo": g.rloo }))
                .map_err(e)
        }
        other => panic!("reference_cases.json names a function this crate does not implement: {other}"),
    })
}

/// Compares an actual value with an expected one: floats at the course's tolerance, exact
/// for fractions, masks and booleans (which the tolerance also forces for 0/1 values).
fn compare(path: &str, actual: &Value, expected: &Value, failures: &mut Vec<String>) {
    match (actual, expected) {
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                failures.push(format!(
                    "{path}: length {} != expected {}",
                    a.len(),
                    b.len()
                ));
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                compare(&format!("{path}[{i}]"), x, y, failures);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (k, y) in b {
                match a.get(k) {
                    Some(x) => compare(&format!("{path}.{k}"), x, y, failures),
                    None => failures.push(format!("{path}: missing output `{k}`")),
                }
            }
        }
        (x, y) if x.is_number() && y.is_number() => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            // Masks must match exactly. Fractions k/n are compared at the float tolerance: NumPy's
            // mean of booleans can differ from k/n by one ulp, while a different k is far off.
            let output = path.rsplit('.').next().unwrap_or(path);
            let exact = output.starts_with("mask");
            if (exact && x != y) || !close(x, y) {
                failures.push(format!("{path}: {x:e} != expected {y:e}"));
            }
        }
        (x, y) if x != y => failures.push(format!("{path}: {x} != expected {y}")),
        _ => {}
    }
}

#[test]
fn every_reference_case_passes_at_the_stated_tolerance() {
    let fixture = load_fixture("reference_cases.json");
    let functions = fixture["functions"]
        .as_object()
        .expect("`functions` must be an object");
    assert!(
        !functions.is_empty(),
        "reference_cases.json holds no functions"
    );
    let (mut checked, mut errors, mut conversions) = (0, 0, 0);
    let mut failures = Vec::new();
    for (function, cases) in functions {
        for case in cases.as_array().expect("cases must be an array") {
            let name = case["name"].as_str().unwrap_or("?");
            let wants_error = case["error"].as_bool().unwrap_or(false);
            let outcome = std::panic::catch_unwind(|| run(function, &case["inputs"]));
            let label = format!("{function}/{name}");
            match (outcome, wants_error) {
                (Err(_), _) => failures.push(format!("{label}: panicked")),
                (Ok(Err(conv)), true) => {
                    conversions += 1;
                    errors += 1;
                    eprintln!("{label}: rejected by the argument types ({conv})");
                }
                (Ok(Err(conv)), false) => {
                    failures.push(format!("{label}: inputs not understood: {conv}"))
                }
                (Ok(Ok(Err(_))), true) => errors += 1,
                (Ok(Ok(Err(msg))), false) => {
                    failures.push(format!("{label}: unexpected error: {msg}"))
                }
                (Ok(Ok(Ok(v))), true) => {
                    failures.push(format!("{label}: expected an error, got {v}"))
                }
                (Ok(Ok(Ok(actual))), false) => {
                    compare(&label, &actual, &case["expected"], &mut failures)
                }
            }
            checked += 1;
        }
    }
    eprintln!(
        "{checked} cases checked, {errors} error cases ({conversions} rejected by argument types)"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 0, "no cases found");
}
