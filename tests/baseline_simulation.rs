//! The group-baseline experiment against the exact expectations of `baseline_bias_bandit`.

#![cfg(not(target_arch = "wasm32"))]

use crate::common::{close, f, load_fixture};
use pgbook::rl::{
    bandit_exact_gradient, bandit_exact_stds, bandit_plain_std, simulate_group_baseline_bias,
};

const GROUPS: usize = 40_000;

#[test]
fn means_and_stds_agree_with_exact_enumeration_for_every_group_size() {
    let bandit = load_fixture("reference_cases.json")["baseline_bias_bandit"].clone();
    let expectations = bandit["expectations"].as_array().expect("expectations[]");
    assert!(!expectations.is_empty());
    let exact = bandit_exact_gradient();
    for (j, e) in bandit["exact_gradient"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        assert!(close(exact[j], f(e)), "exact gradient component {j}");
    }
    for e in expectations {
        let g = e["group_size"].as_u64().unwrap() as usize;
        let r = simulate_group_baseline_bias(g, GROUPS, 2026 + g as u64).unwrap();
        assert!(close(r.exact, f(&e["exact"])));
        assert!(close(r.predicted_same_group, f(&e["predicted_same_group"])));
        assert!(close(
            r.predicted_same_group,
            (g as f64 - 1.0) / g as f64 * r.exact
        ));
        let m = (GROUPS as f64).sqrt();
        for (name, mean, expected_mean, expected_std) in [
            (
                "plain",
                r.plain_mean,
                f(&e["expected_plain_mean"]),
                f(&e["expected_plain_std"]),
            ),
            (
                "same_group",
                r.same_group_mean,
                f(&e["expected_same_group_mean"]),
                f(&e["expected_same_group_std"]),
            ),
            (
                "rloo",
                r.rloo_mean,
                f(&e["expected_rloo_mean"]),
                f(&e["expected_rloo_std"]),
            ),
        ] {
            let z = (mean - expected_mean) / (expected_std / m);
            assert!(
                z.abs() < 4.0,
                "G = {g}, {name}: mean {mean} vs {expected_mean} (z = {z:.2})"
            );
        }
        // RLOO is unbiased; the same-group mean is shrunk by (G−1)/G.
        assert!(((r.rloo_mean - r.exact) / (r.rloo_std / m)).abs() < 4.0);
        assert!(
            ((r.same_group_mean - r.predicted_same_group) / (r.same_group_std / m)).abs() < 4.0
        );
        // Sample stds within 3 % of the exact ones (their own sampling error is ~1 % here).
        for (name, std, expected) in [
            ("plain", r.plain_std, f(&e["expected_plain_std"])),
            (
                "same_group",
                r.same_group_std,
                f(&e["expected_same_group_std"]),
            ),
            ("rloo", r.rloo_std, f(&e["expected_rloo_std"])),
        ] {
            assert!(
                (std / expected - 1.0).abs() < 0.03,
                "G = {g}, {name} std {std} vs {expected}"
            );
        }
        assert!((bandit_plain_std(g) / f(&e["expected_plain_std"]) - 1.0).abs() < 1e-9);
        // The closed-form stds agree with the fixture's exact enumeration.
        let (plain, same, rloo) = bandit_exact_stds(g);
        assert!(
            close(plain, f(&e["expected_plain_std"])),
            "G = {g}: plain {plain}"
        );
        assert!(
            close(same, f(&e["expected_same_group_std"])),
            "G = {g}: same {same}"
        );
        assert!(
            close(rloo, f(&e["expected_rloo_std"])),
            "G = {g}: rloo {rloo}"
        );
    }
}

#[test]
fn the_notebook_run_shows_the_shrinkage_clearly() {
    // group size 8, 80 000 groups, seed 2026 — the notebook's numbers, with our RNG.
    let r = simulate_group_baseline_bias(8, 80_000, 2026).unwrap();
    let m = 80_000f64.sqrt();
    let z_same_vs_exact = (r.same_group_mean - r.exact) / (r.same_group_std / m);
    assert!(z_same_vs_exact < -30.0, "z = {z_same_vs_exact}");
    assert_eq!(
        r,
        simulate_group_baseline_bias(8, 80_000, 2026).unwrap(),
        "same seed, same numbers"
    );
    assert_ne!(r, simulate_group_baseline_bias(8, 80_000, 2027).unwrap());
}

#[test]
fn zscored_groups_agree_with_exact_enumeration_and_are_not_the_gradient() {
    use pgbook::rl::{
        group_zscore_advantages, simulate_group_zscore, stable_softmax, BANDIT_COMPONENT,
        BANDIT_LOGITS, BANDIT_SUCCESS,
    };
    let p = stable_softmax(&BANDIT_LOGITS).unwrap();
    let k = p.len();
    // G = 3: every (action, reward) of every sample, weighted by its probability.
    let g = 3;
    let outcomes: Vec<(usize, f64, f64)> = (0..k)
        .flat_map(|a| {
            let s = BANDIT_SUCCESS[a];
            [(a, 1.0, p[a] * s), (a, 0.0, p[a] * (1.0 - s))]
        })
        .collect();
    let (mut mean, mut second) = (0.0, 0.0);
    let n = outcomes.len();
    for code in 0..n.pow(g as u32) {
        let picks: Vec<&(usize, f64, f64)> = (0..g)
            .map(|i| &outcomes[code / n.pow(i as u32) % n])
            .collect();
        let weight: f64 = picks.iter().map(|o| o.2).product();
        let rewards: Vec<f64> = picks.iter().map(|o| o.1).collect();
        let z = group_zscore_advantages(ndarray::aview1(&rewards), 1e-8).unwrap();
        let estimate: f64 = picks
            .iter()
            .zip(z.iter())
            .map(|(o, z)| z * (f64::from(u8::from(o.0 == BANDIT_COMPONENT)) - p[BANDIT_COMPONENT]))
            .sum::<f64>()
            / g as f64;
        mean += weight * estimate;
        second += weight * estimate * estimate;
    }
    let std = (second - mean * mean).sqrt();
    let (mc_mean, mc_std) = simulate_group_zscore(g, GROUPS, 7, 1e-8).unwrap();
    let se = std / (GROUPS as f64).sqrt();
    assert!(
        (mc_mean - mean).abs() < 4.0 * se,
        "{mc_mean} vs exact {mean} ± {se}"
    );
    assert!((mc_std / std - 1.0).abs() < 0.05, "{mc_std} vs {std}");
    // Its mean is not the gradient component (σ rescales each group).
    let exact = bandit_exact_gradient()[BANDIT_COMPONENT];
    assert!((mean - exact).abs() > 10.0 * se, "{mean} vs {exact}");
    // The same refusals as the three estimators'.
    assert!(simulate_group_zscore(1, 10, 7, 1e-8).is_err());
    assert!(simulate_group_zscore(4, 0, 7, 1e-8).is_err());
    assert!(simulate_group_zscore(4, 10, 7, -1.0).is_err());
}
