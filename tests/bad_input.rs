//! Bad input gives an `Err` whose kind names the argument and the rule — never a panic.
//! The tests match kinds and fields, not message text.

#![cfg(not(target_arch = "wasm32"))]

use ndarray::{aview1, aview2};
use pgbook::error::{Bound, ErrorKind, Rule};
use pgbook::rl::{self, Reduction};

fn kind<T: std::fmt::Debug>(r: pgbook::Result<T>) -> ErrorKind {
    r.expect_err("expected an error").into_kind()
}

fn non_finite_arg(k: ErrorKind) -> String {
    match k {
        ErrorKind::NonFinite { arg, .. } => arg,
        other => panic!("expected a non-finite error, got {other:?}"),
    }
}

fn range(k: ErrorKind) -> (String, Rule) {
    match k {
        ErrorKind::Range { arg, rule, .. } => (arg, rule),
        other => panic!("expected a range error, got {other:?}"),
    }
}

#[test]
fn non_finite_values_are_rejected_by_name() {
    assert_eq!(
        kind(rl::stable_softmax(&[0.0, f64::NAN])),
        ErrorKind::NonFinite {
            arg: "logits".into(),
            index: 1
        }
    );
    let k = kind(rl::reward_to_go(&[1.0, f64::INFINITY], 0.9));
    assert_eq!(non_finite_arg(k), "rewards");
    let k = kind(rl::gae_advantages(
        &[1.0],
        &[f64::NAN],
        &[0.0],
        &[false],
        &[true],
        0.9,
        0.9,
    ));
    assert_eq!(non_finite_arg(k), "values");
    let k = kind(rl::ppo_clipped_terms(&[1.0], &[f64::NEG_INFINITY], 0.2));
    assert_eq!(non_finite_arg(k), "advantage");
    let k = kind(rl::masked_token_ppo_terms(
        aview2(&[[f64::NAN]]),
        aview2(&[[0.0]]),
        aview1(&[1.0]),
        aview2(&[[0.0]]),
        0.2,
    ));
    assert_eq!(non_finite_arg(k), "new_log_probs");
    let k = kind(rl::group_zscore_advantages(aview1(&[1.0, 2.0]), f64::NAN));
    assert_eq!(non_finite_arg(k), "eps");
}

#[test]
fn parameters_outside_their_range_name_the_rule() {
    for (gamma, lambda, arg) in [
        (1.5, 0.9, "gamma"),
        (-0.1, 0.9, "gamma"),
        (0.9, 1.01, "gae_lambda"),
        (0.9, f64::NAN, "gae_lambda"),
    ] {
        let k = kind(rl::gae_advantages(
            &[1.0],
            &[0.0],
            &[0.0],
            &[false],
            &[true],
            gamma,
            lambda,
        ));
        assert_eq!(range(k), (arg.to_string(), Rule::between(0.0, 1.0)));
    }
    let half_open = Rule::Interval {
        min: Some(Bound::closed(0.0)),
        max: Some(Bound::open(1.0)),
    };
    for eps in [-0.1, 1.0, 2.0, f64::NAN] {
        let k = kind(rl::ppo_clipped_terms(&[1.0], &[1.0], eps));
        assert_eq!(range(k), ("clip_epsilon".to_string(), half_open.clone()));
    }
}

#[test]
fn shapes_and_sizes_are_checked() {
    // Inputs must be aligned one-dimensional arrays.
    assert_eq!(
        kind(rl::gae_advantages(
            &[1.0, 2.0],
            &[0.0],
            &[0.0, 0.0],
            &[false; 2],
            &[true; 2],
            0.9,
            0.9
        )),
        ErrorKind::Shape {
            arg: "values".into(),
            expected: vec![2],
            got: vec![1]
        }
    );
    // At least two rewards for a leave-one-out baseline.
    let (arg, rule) = range(kind(rl::leave_one_out_baselines(aview1(&[1.0]))));
    assert!(arg == "rewards" && matches!(rule, Rule::Count { min: 2, .. }));
    let non_empty = |k| range(k).1 == Rule::NonEmpty;
    assert!(non_empty(kind(rl::group_mean_advantages(aview1(&[])))));
    assert!(non_empty(kind(rl::stable_softmax(&[]))));
    assert_eq!(
        range(kind(rl::grad_log_softmax(&[0.0, 1.0], 2))),
        ("action".to_string(), Rule::IndexBelow(2))
    );
    // Not rectangular: the offending row is named.
    let ragged = vec![vec![0.0, 1.0], vec![0.0]];
    assert_eq!(
        kind(
            rl::array2("token_log_probs", &ragged)
                .and_then(|a| rl::sequence_log_probability(a.view(), None))
        ),
        ErrorKind::Shape {
            arg: "token_log_probs[1]".into(),
            expected: vec![2],
            got: vec![1]
        }
    );
    let k = kind(rl::masked_token_ppo_terms(
        aview2(&[[0.0, 0.0]]),
        aview2(&[[0.0, 0.0]]),
        aview1(&[1.0]),
        aview2(&[[1.0, 0.5]]),
        0.2,
    ));
    assert_eq!(range(k), ("mask[0][1]".to_string(), Rule::Binary));
    let (arg, _) = range(kind(rl::simulate_group_baseline_bias(1, 10, 0)));
    assert_eq!(arg, "group_size");
    let (arg, _) = range(kind(rl::simulate_group_baseline_bias(8, 0, 0)));
    assert_eq!(arg, "groups");
    let (arg, rule) = range(kind(rl::simulate_group_baseline_bias(1 << 20, 1 << 20, 0)));
    assert!(arg == "groups × group_size" && matches!(rule, Rule::Interval { min: None, .. }));
    assert!(non_empty(kind(rl::ppo_diagnostics(&[], &[], &[], 0.2))));
}

#[test]
fn unknown_reduction_is_an_error_naming_the_choices() {
    match kind("sum".parse::<Reduction>()) {
        ErrorKind::Unknown { what, name, known } => {
            assert_eq!(
                (what, name.as_str()),
                (pgbook::error::Name::Reduction, "sum")
            );
            assert!(known.contains(&"token_mean".to_string()));
        }
        other => panic!("{other:?}"),
    }
    for r in Reduction::ALL {
        assert_eq!(r.name().parse::<Reduction>().unwrap(), r);
    }
}

#[test]
fn reinforce_settings_and_advantages_name_the_setting_and_rule() {
    use pgbook::train::reinforce::{advantages, Baseline, ReinforceConfig, ReinforceTrainer};
    use pgbook::train::settings::Settings;
    let base = ReinforceConfig::smoke();
    // The budget must hold one batch of whole episodes at the time limit: 8 × 500 steps.
    let small = ReinforceConfig {
        env_step_budget: 1000,
        ..base.clone()
    };
    assert_eq!(
        range(kind(ReinforceTrainer::new(small, 1))),
        ("env_step_budget".to_string(), Rule::at_least(4000.0))
    );
    let (arg, rule) = range(kind(
        base.with_text(&[("baseline".into(), "critic".into())]),
    ));
    assert_eq!(arg, "baseline");
    assert_eq!(rule, Rule::one_of(&["none", "batch_mean", "value"]));
    let (arg, rule) = range(kind(base.with_text(&[("value_steps".into(), "0".into())])));
    assert_eq!(
        (arg.as_str(), rule),
        ("value_steps", Rule::WholeNumber { min: 1, max: 1000 })
    );
    assert_eq!(
        non_finite_arg(kind(base.with_text(&[("gamma".into(), "1e999".into())]))),
        "gamma"
    );
    // A learned baseline needs its values; the weights must be finite.
    assert_eq!(
        kind(advantages(&[1.0, 2.0], Baseline::Value, None, false)),
        ErrorKind::Shape {
            arg: "values".into(),
            expected: vec![2],
            got: vec![0]
        }
    );
    let k = kind(advantages(
        &[1.0, f64::NAN],
        Baseline::BatchMean,
        None,
        false,
    ));
    assert_eq!(non_finite_arg(k), "rewards");
}
