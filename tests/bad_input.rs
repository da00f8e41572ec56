//! Bad input gives an `Err` whose message names the argument and the rule — never a panic.

#![cfg(not(target_arch = "wasm32"))]

use pgbook::rl::{self, Reduction};

fn message<T: std::fmt::Debug>(r: pgbook::Result<T>) -> String {
    r.expect_err("expected an error").to_string()
}

#[test]
fn non_finite_values_are_rejected_by_name() {
    let m = message(rl::stable_softmax(&[0.0, f64::NAN]));
    assert!(
        m.contains("`logits`") && m.contains("element 1") && m.contains("finite"),
        "{m}"
    );
    let m = message(rl::reward_to_go(&[1.0, f64::INFINITY], 0.9));
    assert!(m.contains("`rewards`"), "{m}");
    let m = message(rl::gae_advantages(
        &[1.0],
        &[f64::NAN],
        &[0.0],
        &[false],
        &[true],
        0.9,
        0.9,
    ));
    assert!(m.contains("`values`"), "{m}");
    let m = message(rl::ppo_clipped_terms(&[1.0], &[f64::NEG_INFINITY], 0.2));
    assert!(m.contains("`advantage`"), "{m}");
    let m = message(rl::masked_token_ppo_terms(
        &[vec![f64::NAN]],
        &[vec![0.0]],
        &[1.0],
        &[vec![0.0]],
        0.2,
    ));
    assert!(m.contains("`new_log_probs`"), "{m}");
    let m = message(rl::group_zscore_advantages(&[1.0, 2.0], f64::NAN));
    assert!(m.contains("`eps`"), "{m}");
}

#[test]
fn parameters_outside_their_range_name_the_rule() {
    for (gamma, lambda, arg) in [
        (1.5, 0.9, "gamma"),
        (-0.1, 0.9, "gamma"),
        (0.9, 1.01, "gae_lambda"),
        (0.9, f64::NAN, "gae_lambda"),
    ] {
        let m = message(rl::gae_advantages(
            &[1.0],
            &[0.0],
            &[0.0],
            &[false],
            &[true],
            gamma,
            lambda,
        ));
        assert!(m.contains(arg) && m.contains("[0, 1]"), "{m}");
    }
    for eps in [-0.1, 1.0, 2.0, f64::NAN] {
        let m = message(rl::ppo_clipped_terms(&[1.0], &[1.0], eps));
        assert!(m.contains("clip_epsilon") && m.contains("[0, 1)"), "{m}");
    }
}

#[test]
fn shapes_and_sizes_are_checked() {
    assert!(message(rl::gae_advantages(
        &[1.0, 2.0],
        &[0.0],
        &[0.0, 0.0],
        &[false; 2],
        &[true; 2],
        0.9,
        0.9
    ))
    .contains("aligned"));
    assert!(message(rl::leave_one_out_baselines(&[1.0])).contains("at least two"));
    assert!(message(rl::group_mean_advantages(&[])).contains("non-empty"));
    assert!(message(rl::stable_softmax(&[])).contains("non-empty"));
    assert!(message(rl::grad_log_softmax(&[0.0, 1.0], 2)).contains("out of range"));
    let ragged = vec![vec![0.0, 1.0], vec![0.0]];
    assert!(message(rl::sequence_log_probability(&ragged, None)).contains("rectangular"));
    let m = message(rl::masked_token_ppo_terms(
        &[vec![0.0, 0.0]],
        &[vec![0.0, 0.0]],
        &[1.0],
        &[vec![1.0, 0.5]],
        0.2,
    ));
    assert!(m.contains("only 0 and 1"), "{m}");
    assert!(message(rl::simulate_group_baseline_bias(1, 10, 0)).contains("group_size"));
    assert!(message(rl::simulate_group_baseline_bias(8, 0, 0)).contains("groups"));
    assert!(message(rl::simulate_group_baseline_bias(1 << 20, 1 << 20, 0)).contains("at most"));
    assert!(message(rl::ppo_diagnostics(&[], &[], &[], 0.2)).contains("non-empty"));
}

#[test]
fn unknown_reduction_is_an_error_naming_the_choices() {
    let m = message("sum".parse::<Reduction>());
    assert!(m.contains("'sum'") && m.contains("token_mean"), "{m}");
    for r in Reduction::ALL {
        assert_eq!(r.name().parse::<Reduction>().unwrap(), r);
    }
}
