//! Properties on random inputs (seeded: every run checks the same 300 cases per property).

#![cfg(not(target_arch = "wasm32"))]

use ndarray::aview1;
use pgbook::rl::{self, Reduction};
use pgbook::rng::{self, Rng};

const TRIALS: usize = 300;

fn random_vec(rng: &mut Rng, n: usize, scale: f64) -> Vec<f64> {
    (0..n)
        .map(|_| rng::uniform_in(rng, -scale, scale))
        .collect()
}

fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn loo_advantages_sum_to_zero_per_group() {
    let mut rng = rng::seeded(1);
    for _ in 0..TRIALS {
        let g = 2 + rng::below(&mut rng, 63);
        let r = random_vec(&mut rng, g, 10.0);
        let adv = rl::rloo_advantages(aview1(&r)).unwrap();
        let scale: f64 = r.iter().map(|x| x.abs()).sum();
        assert!(
            adv.iter().sum::<f64>().abs() <= 1e-12 * (1.0 + scale),
            "G = {g}: {adv:?}"
        );
    }
}

#[test]
fn rloo_is_g_over_g_minus_one_times_centered() {
    let mut rng = rng::seeded(2);
    for _ in 0..TRIALS {
        let g = 2 + rng::below(&mut rng, 63);
        let r = random_vec(&mut rng, g, 5.0);
        let rloo = rl::rloo_advantages(aview1(&r)).unwrap();
        let centered = rl::group_mean_advantages(aview1(&r)).unwrap();
        let k = g as f64 / (g as f64 - 1.0);
        for (a, c) in rloo.iter().zip(&centered) {
            assert!(near(*a, k * c, 1e-12), "G = {g}: {a} vs {}", k * c);
        }
        // And the gradient estimates inherit the same factor.
        let logits = random_vec(&mut rng, 4, 2.0);
        let actions: Vec<usize> = (0..g).map(|_| rng::below(&mut rng, 4)).collect();
        let est =
            rl::group_gradient_estimates(aview1(&logits), aview1(&actions), aview1(&r)).unwrap();
        for (a, s) in est.rloo.iter().zip(&est.same_group) {
            assert!(near(*a, k * s, 1e-12));
        }
    }
}

/// A test grid as an array (it is rectangular by construction).
fn grid(rows: &[Vec<f64>]) -> ndarray::Array2<f64> {
    rl::array2("grid", rows).unwrap()
}

fn random_bools(rng: &mut Rng, n: usize, p: f64) -> Vec<bool> {
    (0..n).map(|_| rng::uniform(rng) < p).collect()
}

#[test]
fn gae_with_lambda_zero_is_the_one_step_td_error() {
    let mut rng = rng::seeded(3);
    for _ in 0..TRIALS {
        let n = 1 + rng::below(&mut rng, 40);
        let (r, v, nv) = (
            random_vec(&mut rng, n, 3.0),
            random_vec(&mut rng, n, 3.0),
            random_vec(&mut rng, n, 3.0),
        );
        let (term, cuts) = (
            random_bools(&mut rng, n, 0.2),
            random_bools(&mut rng, n, 0.3),
        );
        let gamma = rng::uniform(&mut rng);
        let adv = rl::gae_advantages(&r, &v, &nv, &term, &cuts, gamma, 0.0).unwrap();
        for t in 0..n {
            let delta = r[t] + if term[t] { 0.0 } else { gamma * nv[t] } - v[t];
            assert!(near(adv[t], delta, 1e-14), "t = {t}");
        }
    }
}

#[test]
fn gae_with_zero_values_lambda_one_and_no_cuts_is_reward_to_go() {
    let mut rng = rng::seeded(4);
    for _ in 0..TRIALS {
        let n = 1 + rng::below(&mut rng, 60);
        let r = random_vec(&mut rng, n, 3.0);
        let zeros = vec![0.0; n];
        let no = vec![false; n];
        let gamma = rng::uniform(&mut rng);
        let adv = rl::gae_advantages(&r, &zeros, &zeros, &no, &no, gamma, 1.0).unwrap();
        let g = rl::reward_to_go(&r, gamma).unwrap();
        for t in 0..n {
            assert!(near(adv[t], g[t], 1e-12), "t = {t}: {} vs {}", adv[t], g[t]);
        }
    }
}

#[test]
fn clipped_term_equals_the_advantage_at_ratio_one() {
    let mut rng = rng::seeded(5);
    for _ in 0..TRIALS {
        let n = 1 + rng::below(&mut rng, 20);
        let a = random_vec(&mut rng, n, 100.0);
        let eps = rng::uniform_in(&mut rng, 0.0, 0.99);
        let t = rl::ppo_clipped_terms(&vec![1.0; n], &a, eps).unwrap();
        assert_eq!(t.pessimistic, a);
        assert_eq!(t.unclipped, a);
    }
}

#[test]
fn masked_positions_holding_extreme_values_never_produce_inf_or_nan() {
    let mut rng = rng::seeded(6);
    for _ in 0..TRIALS {
        let (b, t) = (1 + rng::below(&mut rng, 6), 1 + rng::below(&mut rng, 12));
        let mut mask = vec![vec![0.0; t]; b];
        let mut new = vec![vec![0.0; t]; b];
        let mut old = vec![vec![0.0; t]; b];
        for i in 0..b {
            for k in 0..t {
                if rng::uniform(&mut rng) < 0.5 {
                    mask[i][k] = 1.0;
                    new[i][k] = rng::uniform_in(&mut rng, -3.0, 0.0);
                    old[i][k] = rng::uniform_in(&mut rng, -3.0, 0.0);
                } else {
                    // Off-mask junk: ±1e4 would overflow exp or make inf − inf = NaN if used.
                    let sign = if rng::uniform(&mut rng) < 0.5 {
                        -1.0
                    } else {
                        1.0
                    };
                    new[i][k] = sign * 1e4;
                    old[i][k] = -sign * 1e4;
                }
            }
        }
        let adv = random_vec(&mut rng, b, 2.0);
        let (new, old, adv) = (grid(&new), grid(&old), aview1(&adv));
        let mask = grid(&mask);
        let (new, old, mask) = (new.view(), old.view(), mask.view());
        let terms = rl::masked_token_ppo_terms(new, old, adv, mask, 0.2).unwrap();
        for grid in [
            &terms.ratio,
            &terms.unclipped,
            &terms.clipped,
            &terms.pessimistic,
        ] {
            assert!(grid.iter().all(|x| x.is_finite()));
        }
        for r in Reduction::ALL {
            assert!(rl::masked_token_ppo_objective(new, old, adv, mask, 0.2, r)
                .unwrap()
                .is_finite());
        }
        let lr = rl::sequence_log_probability_ratio(new, old, mask).unwrap();
        assert!(lr.iter().all(|x| x.is_finite()));
        let lp = rl::sequence_log_probability(new, Some(mask)).unwrap();
        assert!(lp.iter().all(|x| x.is_finite()));
    }
}

#[test]
fn softmax_sums_to_one_and_score_sums_to_zero() {
    let mut rng = rng::seeded(7);
    for _ in 0..TRIALS {
        let k = 1 + rng::below(&mut rng, 10);
        let z = random_vec(&mut rng, k, 800.0);
        let p = rl::stable_softmax(&z).unwrap();
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let a = rng::below(&mut rng, k);
        let g = rl::grad_log_softmax(&z, a).unwrap();
        assert!(g.iter().sum::<f64>().abs() < 1e-12);
        assert!(rl::softmax_entropy(&z).unwrap() >= -1e-12);
    }
}
