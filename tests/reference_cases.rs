//! Every case of `reference_cases.json` (the course's NumPy reference), at its stated tolerance.
//! Error cases must come back as `Err` — never a panic. The test iterates over whatever cases
//! the file holds, so other case files of the same schema can be pointed at with
//! `PGBOOK_FIXTURES`.

#![cfg(not(target_arch = "wasm32"))]

use crate::common::{close, load_fixture};
use ndarray::{aview1, Array2};
use pgbook::rl::{self, AdvantageEstimator, Reduction};
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
/// A 2-D input as an array. A ragged one stays the function's own shape error, as it was when
/// the functions took nested vectors.
fn array(inputs: &Value, key: &str) -> Conv<pgbook::Result<Array2<f64>>> {
    Ok(rl::array2(key, &grid(inputs, key)?))
}
fn index(v: &Value) -> Conv<usize> {
    v.as_u64()
        .map(|u| u as usize)
        .ok_or_else(|| format!("not a non-negative integer: {v}"))
}
fn text<'a>(inputs: &'a Value, key: &str) -> Conv<&'a str> {
    arg(inputs, key)?
        .as_str()
        .ok_or_else(|| format!("`{key}` is not a string"))
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
        "stable_softmax" => rl::stable_softmax(&vector(x, "logits")?)
            .map(|p| json!({ "probs": p }))
            .map_err(e),
        "grad_log_softmax" => {
            rl::grad_log_softmax(&vector(x, "logits")?, index(arg(x, "action")?)?)
                .map(|g| json!({ "grad": g }))
                .map_err(e)
        }
        "reward_to_go" => rl::reward_to_go(&vector(x, "rewards")?, scalar(x, "gamma")?)
            .map(|g| json!({ "returns": g }))
            .map_err(e),
        "discounted_score_weights" => {
            rl::discounted_score_weights(&vector(x, "rewards")?, scalar(x, "gamma")?)
                .map(|w| json!({ "weights": w }))
                .map_err(e)
        }
        "leave_one_out_baselines" => rl::leave_one_out_baselines(aview1(&vector(x, "rewards")?))
            .map(|b| json!({ "baselines": b.to_vec() }))
            .map_err(e),
        "group_mean_advantages" => rl::group_mean_advantages(aview1(&vector(x, "rewards")?))
            .map(|a| json!({ "advantages": a.to_vec() }))
            .map_err(e),
        "group_zscore_advantages" => {
            rl::group_zscore_advantages(aview1(&vector(x, "rewards")?), scalar(x, "eps")?)
                .map(|a| json!({ "advantages": a.to_vec() }))
                .map_err(e)
        }
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
        "ppo_clipped_terms" => rl::ppo_clipped_terms(
            &vector(x, "ratio")?,
            &vector(x, "advantage")?,
            scalar(x, "clip_epsilon")?,
        )
        .map(|t| serde_json::to_value(t).expect("serialisable"))
        .map_err(e),
        "ppo_diagnostics" => rl::ppo_diagnostics(
            &vector(x, "new_log_prob")?,
            &vector(x, "old_log_prob")?,
            &vector(x, "advantage")?,
            scalar(x, "clip_epsilon")?,
        )
        .map(|d| serde_json::to_value(d).expect("serialisable"))
        .map_err(e),
        "response_token_mask" => {
            let lengths = arg(x, "prompt_lengths")?
                .as_array()
                .ok_or("prompt_lengths is not an array")?;
            let lengths: Vec<usize> = lengths.iter().map(index).collect::<Conv<_>>()?;
            let ids = rl::array2("input_ids", &ints(x, "input_ids")?);
            let pad = arg(x, "pad_token_id")?.as_i64().ok_or("pad_token_id")?;
            let eos = arg(x, "eos_token_id")?.as_i64().ok_or("eos_token_id")?;
            let include_eos = arg(x, "include_eos")?.as_bool().ok_or("include_eos")?;
            ids.and_then(|ids| {
                rl::response_token_mask(ids.view(), aview1(&lengths), pad, eos, include_eos)
            })
            .map(|m| json!({ "mask": rl::rows(m.view()) }))
            .map_err(e)
        }
        "sequence_log_probability" => {
            let mask = match arg(x, "mask")? {
                Value::Null => None,
                _ => Some(array(x, "mask")?),
            };
            let lp = array(x, "token_log_probs")?;
            (|| {
                rl::sequence_log_probability(
                    lp?.view(),
                    mask.transpose()?.as_ref().map(|m| m.view()),
                )
            })()
            .map(|l| json!({ "log_probs": l.to_vec() }))
            .map_err(e)
        }
        "broadcast_sequence_advantages" => {
            let (adv, mask) = (vector(x, "sequence_advantages")?, array(x, "token_mask")?);
            mask.and_then(|m| rl::broadcast_sequence_advantages(aview1(&adv), m.view()))
                .map(|a| json!({ "token_advantages": rl::rows(a.view()) }))
                .map_err(e)
        }
        "masked_token_ppo_terms" => {
            let (new, old, mask) = (
                array(x, "new_log_probs")?,
                array(x, "old_log_probs")?,
                array(x, "mask")?,
            );
            let (adv, eps) = (vector(x, "advantages")?, scalar(x, "clip_epsilon")?);
            (|| rl::masked_token_ppo_terms(new?.view(), old?.view(), aview1(&adv), mask?.view(), eps))()
                .map(|t| {
                    let rows = |a: Array2<f64>| rl::rows(a.view());
                    json!({ "ratio": rows(t.ratio), "unclipped": rows(t.unclipped), "clipped": rows(t.clipped), "pessimistic": rows(t.pessimistic) })
                })
                .map_err(e)
        }
        "sequence_log_probability_ratio" => {
            let (new, old, mask) = (
                array(x, "new_log_probs")?,
                array(x, "old_log_probs")?,
                array(x, "mask")?,
            );
            (|| rl::sequence_log_probability_ratio(new?.view(), old?.view(), mask?.view()))()
                .map(|r| json!({ "log_ratio": r.to_vec() }))
                .map_err(e)
        }
        "sequence_probability_ratio" => {
            let (new, old, mask) = (
                array(x, "new_log_probs")?,
                array(x, "old_log_probs")?,
                array(x, "mask")?,
            );
            (|| rl::sequence_probability_ratio(new?.view(), old?.view(), mask?.view()))()
                .map(|r| json!({ "ratio": r.to_vec() }))
                .map_err(e)
        }
        "masked_token_ppo_objective" => {
            let (new, old) = (array(x, "new_log_probs")?, array(x, "old_log_probs")?);
            let (adv, mask, eps) = (
                vector(x, "advantages")?,
                array(x, "mask")?,
                scalar(x, "clip_epsilon")?,
            );
            let reductions: Vec<Result<Reduction, String>> = match x.get("reduction") {
                Some(r) => vec![r
                    .as_str()
                    .ok_or("reduction is not a string")?
                    .parse()
                    .map_err(e)],
                None => Reduction::ALL.into_iter().map(Ok).collect(),
            };
            let mut out = serde_json::Map::new();
            let mut result = Ok(());
            for reduction in reductions {
                match reduction.and_then(|r| {
                    let (new, old, mask) = (new.clone(), old.clone(), mask.clone());
                    (|| {
                        rl::masked_token_ppo_objective(
                            new?.view(),
                            old?.view(),
                            aview1(&adv),
                            mask?.view(),
                            eps,
                            r,
                        )
                    })()
                    .map(|v| (r, v))
                    .map_err(e)
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
            let actions = arg(x, "actions")?
                .as_array()
                .ok_or("actions is not an array")?;
            let actions: Vec<usize> = actions.iter().map(index).collect::<Conv<_>>()?;
            rl::group_gradient_estimates(aview1(&vector(x, "logits")?), aview1(&actions), aview1(&vector(x, "rewards")?))
                .map(|g| json!({ "plain": g.plain.to_vec(), "same_group": g.same_group.to_vec(), "rloo": g.rloo.to_vec() }))
                .map_err(e)
        }
        "group_advantages" => {
            let estimator = text(x, "estimator")?.parse::<AdvantageEstimator>();
            let rewards = vector(x, "rewards")?;
            let eps = scalar(x, "eps")?;
            estimator
                .and_then(|est| rl::group_advantages(aview1(&rewards), est, eps))
                .map(|a| json!({ "advantages": a.to_vec() }))
                .map_err(e)
        }
        "pass_at_k" => {
            let (n, c, k) = (
                index(arg(x, "n")?)?,
                index(arg(x, "c")?)?,
                index(arg(x, "k")?)?,
            );
            rl::pass_at_k(n, c, k)
                .map(|v| json!({ "value": v }))
                .map_err(e)
        }
        "pass_at_k_curve" => {
            let list = |key| -> Conv<Vec<usize>> {
                let a = arg(x, key)?
                    .as_array()
                    .ok_or_else(|| format!("`{key}` is not an array"))?;
                a.iter().map(index).collect()
            };
            let (correct, ks, n) = (list("correct")?, list("ks")?, index(arg(x, "n")?)?);
            rl::pass_at_k_curve(&correct, n, &ks)
                .map(|v| json!({ "values": v }))
                .map_err(e)
        }
        "group_stats" => array(x, "rewards")?
            .and_then(|r| rl::group_stats(r.view()))
            .map(|s| serde_json::to_value(s).expect("serialisable"))
            .map_err(e),
        "bernoulli_group_gradient" => {
            let estimator = text(x, "estimator")?.parse::<AdvantageEstimator>();
            let (p, eps) = (scalar(x, "success_prob")?, scalar(x, "eps")?);
            let g = index(arg(x, "group_size")?)?;
            estimator
                .and_then(|est| rl::bernoulli_group_gradient(p, g, est, eps))
                .map(|g| serde_json::to_value(g).expect("serialisable"))
                .map_err(e)
        }
        "kl_estimators" => {
            let (lp, reference, mask) = (
                array(x, "log_probs")?,
                array(x, "ref_log_probs")?,
                array(x, "mask")?,
            );
            (|| rl::kl_estimators(lp?.view(), reference?.view(), mask?.view()))()
                .map(|k| {
                    let rows = |a: Array2<f64>| rl::rows(a.view());
                    json!({ "k1": rows(k.k1), "k2": rows(k.k2), "k3": rows(k.k3), "k1_mean": k.k1_mean, "k2_mean": k.k2_mean, "k3_mean": k.k3_mean })
                })
                .map_err(e)
        }
        "asymmetric_clipped_terms" => rl::asymmetric_clipped_terms(
            aview1(&vector(x, "ratio")?),
            aview1(&vector(x, "advantage")?),
            scalar(x, "eps_low")?,
            scalar(x, "eps_high")?,
        )
        .map(|t| serde_json::to_value(t).expect("serialisable"))
        .map_err(e),
        "sequence_level_ratio" => {
            let (new, old, mask) = (
                array(x, "new_log_probs")?,
                array(x, "old_log_probs")?,
                array(x, "mask")?,
            );
            (|| rl::sequence_level_ratio(new?.view(), old?.view(), mask?.view()))()
                .map(|r| json!({ "ratio": r.to_vec() }))
                .map_err(e)
        }
        "aggregate_token_terms" => {
            let reduction = text(x, "reduction")?.parse::<Reduction>();
            let max_length = match arg(x, "max_length")? {
                Value::Null => None,
                v => Some(index(v)?),
            };
            let (terms, mask) = (array(x, "terms")?, array(x, "mask")?);
            (|| rl::aggregate_token_terms(terms?.view(), mask?.view(), reduction?, max_length))()
                .map(|v| json!({ "value": v }))
                .map_err(e)
        }
        "kl_in_reward" => {
            let (lp, reference, mask) = (
                array(x, "log_probs")?,
                array(x, "ref_log_probs")?,
                array(x, "mask")?,
            );
            let (rewards, beta) = (vector(x, "rewards")?, scalar(x, "beta")?);
            (|| {
                rl::kl_in_reward(
                    aview1(&rewards),
                    lp?.view(),
                    reference?.view(),
                    mask?.view(),
                    beta,
                )
            })()
            .map(|t| json!({ "token_rewards": rl::rows(t.view()) }))
            .map_err(e)
        }
        other => return Err(format!("a function this crate does not implement: {other}")),
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

/// What running every case of one case file gave.
struct Outcome {
    checked: usize,
    errors: usize,
    conversions: usize,
    failures: Vec<String>,
}

/// Runs every case of a case file of the course's schema; failures name the case.
fn run_case_file(fixture: &Value) -> Outcome {
    let functions = fixture["functions"]
        .as_object()
        .expect("`functions` must be an object");
    assert!(!functions.is_empty(), "the case file holds no functions");
    let mut out = Outcome {
        checked: 0,
        errors: 0,
        conversions: 0,
        failures: Vec::new(),
    };
    for (function, cases) in functions {
        for case in cases.as_array().expect("cases must be an array") {
            let name = case["name"].as_str().unwrap_or("?");
            let wants_error = case["error"].as_bool().unwrap_or(false);
            let outcome = std::panic::catch_unwind(|| run(function, &case["inputs"]));
            let label = format!("{function}/{name}");
            match (outcome, wants_error) {
                (Err(_), _) => out.failures.push(format!("{label}: panicked")),
                (Ok(Err(conv)), true) if !conv.starts_with("a function") => {
                    out.conversions += 1;
                    out.errors += 1;
                    eprintln!("{label}: rejected by the argument types ({conv})");
                }
                (Ok(Err(conv)), _) => out
                    .failures
                    .push(format!("{label}: inputs not understood: {conv}")),
                (Ok(Ok(Err(_))), true) => out.errors += 1,
                (Ok(Ok(Err(msg))), false) => out
                    .failures
                    .push(format!("{label}: unexpected error: {msg}")),
                (Ok(Ok(Ok(v))), true) => out
                    .failures
                    .push(format!("{label}: expected an error, got {v}")),
                (Ok(Ok(Ok(actual))), false) => {
                    compare(&label, &actual, &case["expected"], &mut out.failures)
                }
            }
            out.checked += 1;
        }
    }
    out
}

#[test]
fn every_reference_case_passes_at_the_stated_tolerance() {
    let out = run_case_file(&load_fixture("reference_cases.json"));
    eprintln!(
        "{} cases checked, {} error cases ({} rejected by argument types)",
        out.checked, out.errors, out.conversions
    );
    assert!(
        out.failures.is_empty(),
        "{} failures:\n{}",
        out.failures.len(),
        out.failures.join("\n")
    );
    assert!(out.checked > 0, "no cases found");
}

/// The GRPO family's functions and the evaluation of a language-model policy, each of which
/// must have cases in the file.
const GRPO_FAMILY: [&str; 10] = [
    "group_advantages",
    "bernoulli_group_gradient",
    "kl_estimators",
    "asymmetric_clipped_terms",
    "sequence_level_ratio",
    "aggregate_token_terms",
    "kl_in_reward",
    "pass_at_k",
    "pass_at_k_curve",
    "group_stats",
];

/// Moves the first number of a value by a relative 1e-6 (far beyond the tolerance).
fn perturb_first_number(v: &mut Value) -> bool {
    match v {
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(0.0);
            *v = json!(x + 1e-6 * x.abs().max(1.0));
            true
        }
        Value::Array(a) => a.iter_mut().any(perturb_first_number),
        Value::Object(o) => o.values_mut().any(perturb_first_number),
        _ => false,
    }
}

/// A perturbed copy of the fixture, written to a temporary directory and read back like
/// `PGBOOK_FIXTURES` would: one expected number of one case of each GRPO-family function is
/// moved, and exactly those cases fail. So the runner can fail, and compares every function.
#[test]
fn a_perturbed_copy_of_the_fixture_fails_on_exactly_the_perturbed_cases() {
    let mut fixture = load_fixture("reference_cases.json");
    let mut perturbed = Vec::new();
    for function in GRPO_FAMILY {
        let cases = fixture["functions"][function]
            .as_array_mut()
            .unwrap_or_else(|| panic!("the fixture has no cases of {function}"));
        let case = cases
            .iter_mut()
            .find(|c| !c["error"].as_bool().unwrap_or(false))
            .unwrap_or_else(|| panic!("{function} has no non-error case"));
        assert!(perturb_first_number(&mut case["expected"]));
        perturbed.push(format!(
            "{function}/{}",
            case["name"].as_str().unwrap_or("?")
        ));
    }
    let dir = std::env::temp_dir().join(format!("pgbook-perturbed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("reference_cases.json");
    std::fs::write(&path, fixture.to_string()).expect("write the perturbed copy");
    let text = std::fs::read_to_string(&path).expect("read it back");
    std::fs::remove_dir_all(&dir).ok();
    let out = run_case_file(&serde_json::from_str(&text).expect("valid JSON"));
    // A failure reads `function/case.output…` or `function/case: …`.
    let of_case = |f: &str, case: &str| {
        f.strip_prefix(case)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with(':'))
    };
    for f in &out.failures {
        assert!(
            perturbed.iter().any(|case| of_case(f, case)),
            "an unperturbed case failed: {f}"
        );
    }
    for case in &perturbed {
        assert!(
            out.failures.iter().any(|f| of_case(f, case)),
            "the perturbed case {case} passed: {:#?}",
            out.failures
        );
    }
}
