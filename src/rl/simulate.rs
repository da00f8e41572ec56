//! The notebook's first experiment: how a group baseline biases the gradient estimate.
//!
//! A three-armed bandit with a softmax policy: groups of G actions are sampled, each action
//! earns a Bernoulli reward, and each group yields three estimates of ∂J/∂θ_0 — with no
//! baseline, with the same-group mean (shrunk by (G−1)/G) and with RLOO (unbiased).

use super::softmax::stable_softmax;
use crate::error::{Error, Result};
use crate::rng;
use serde::Serialize;

/// The bandit's logits θ.
pub const BANDIT_LOGITS: [f64; 3] = [0.0, 1.0, -1.0];
/// Success probability q_a of each action's Bernoulli reward.
pub const BANDIT_SUCCESS: [f64; 3] = [0.8, 0.3, 0.5];
/// The reported gradient component.
pub const BANDIT_COMPONENT: usize = 0;
/// Upper bound on groups × group size, so a page or a CLI call cannot run away.
pub const MAX_SAMPLES: usize = 200_000_000;

/// The eight quantities the experiment reports.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BaselineBias {
    /// The exact gradient component p_0 (q_0 − J).
    pub exact: f64,
    /// Mean over groups of the estimate with no baseline.
    pub plain_mean: f64,
    /// Mean over groups of the same-group-mean estimate.
    pub same_group_mean: f64,
    /// Mean over groups of the RLOO estimate.
    pub rloo_mean: f64,
    /// (G − 1)/G · exact: where the same-group mean should land.
    pub predicted_same_group: f64,
    /// Population std over groups, no baseline.
    pub plain_std: f64,
    /// Population std over groups, same-group mean.
    pub same_group_std: f64,
    /// Population std over groups, RLOO.
    pub rloo_std: f64,
}

/// Exact ∇J of the bandit: ∂J/∂θ_j = p_j (q_j − J).
pub fn bandit_exact_gradient() -> [f64; 3] {
    let p = bandit_policy();
    let j: f64 = p.iter().zip(BANDIT_SUCCESS).map(|(p, q)| p * q).sum();
    [0, 1, 2].map(|a| p[a] * (BANDIT_SUCCESS[a] - j))
}

fn bandit_policy() -> [f64; 3] {
    let p =
        stable_softmax(&BANDIT_LOGITS).unwrap_or_else(|_| unreachable!("constant finite logits"));
    [p[0], p[1], p[2]]
}

/// Exact per-group standard deviation of the plain estimator:
/// sqrt((Σ_a p_a q_a s_a² − exact²) / G), with s_a = 1[a = 0] − p_0.
pub fn bandit_plain_std(group_size: usize) -> f64 {
    let p = bandit_policy();
    let exact = bandit_exact_gradient()[BANDIT_COMPONENT];
    let second: f64 = (0..3)
        .map(|a| {
            let s = f64::from(u8::from(a == BANDIT_COMPONENT)) - p[BANDIT_COMPONENT];
            p[a] * BANDIT_SUCCESS[a] * s * s
        })
        .sum();
    ((second - exact * exact) / group_size as f64).sqrt()
}

/// Samples `groups` groups of `group_size` actions with a ChaCha8 stream seeded by `seed` and
/// reports the mean and population std of the three per-group estimators.
pub fn simulate_group_baseline_bias(
    group_size: usize,
    groups: usize,
    seed: u64,
) -> Result<BaselineBias> {
    if group_size < 2 {
        return Err(Error::invalid(
            "group_size",
            format!(
                "must be at least 2: RLOO needs another sample in the group (got {group_size})"
            ),
        ));
    }
    if groups == 0 {
        return Err(Error::invalid("groups", "must be at least 1"));
    }
    if groups.saturating_mul(group_size) > MAX_SAMPLES {
        return Err(Error::invalid(
            "groups",
            format!(
                "groups × group_size must be at most {MAX_SAMPLES} (got {groups} × {group_size})"
            ),
        ));
    }
    let p = bandit_policy();
    let exact = bandit_exact_gradient()[BANDIT_COMPONENT];
    let g = group_size as f64;
    let mut rng = rng::seeded(seed);
    let (mut actions, mut rewards) = (vec![0usize; group_size], vec![0.0; group_size]);
    let mut sums = Moments::default();
    for _ in 0..groups {
        for i in 0..group_size {
            actions[i] = rng::categorical(&mut rng, &p);
        }
        for i in 0..group_size {
            rewards[i] = f64::from(u8::from(
                rng::uniform(&mut rng) < BANDIT_SUCCESS[actions[i]],
            ));
        }
        // Component 0 of the score: 1[a = 0] − p_0. The same numbers as
        // `group_gradient_estimates(..)[0]`, without building the full K-vectors per group.
        let mean_r = rewards.iter().sum::<f64>() / g;
        let (mut plain, mut same) = (0.0, 0.0);
        for i in 0..group_size {
            let s = f64::from(u8::from(actions[i] == BANDIT_COMPONENT)) - p[BANDIT_COMPONENT];
            plain += rewards[i] * s;
            same += (rewards[i] - mean_r) * s;
        }
        let (plain, same) = (plain / g, same / g);
        sums.add([plain, same, same * g / (g - 1.0)]);
    }
    let [plain, same, rloo] = sums.finish(groups as f64);
    Ok(BaselineBias {
        exact,
        plain_mean: plain.0,
        same_group_mean: same.0,
        rloo_mean: rloo.0,
        predicted_same_group: (g - 1.0) / g * exact,
        plain_std: plain.1,
        same_group_std: same.1,
        rloo_std: rloo.1,
    })
}

/// Running sums for means and population standard deviations of three estimators.
#[derive(Default)]
struct Moments {
    sum: [f64; 3],
    sum_sq: [f64; 3],
}

impl Moments {
    fn add(&mut self, x: [f64; 3]) {
        for k in 0..3 {
            self.sum[k] += x[k];
            self.sum_sq[k] += x[k] * x[k];
        }
    }

    fn finish(&self, n: f64) -> [(f64, f64); 3] {
        [0, 1, 2].map(|k| {
            let mean = self.sum[k] / n;
            (mean, (self.sum_sq[k] / n - mean * mean).max(0.0).sqrt())
        })
    }
}
