//! The notebook's first experiment: how a group baseline biases the gradient estimate.
//!
//! A three-armed bandit with a softmax policy: groups of G actions are sampled, each action
//! earns a Bernoulli reward, and each group yields three estimates of ∂J/∂θ_0 — with no
//! baseline, with the same-group mean (shrunk by (G−1)/G) and with RLOO (unbiased).

use super::softmax::stable_softmax;
use crate::error::{Error, Result, Rule};
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
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
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
    bandit_exact_stds(group_size).0
}

/// Exact standard deviations of the three per-group estimators (plain, same-group, RLOO) for
/// groups of `group_size` ≥ 2, from the moments of one sample (R, s) with s the score
/// component. With E[s] = 0, the same-group estimate U = a ΣX − b Σ_{i≠j} R_i s_j, where
/// X = R s, a = (G−1)/G² and b = 1/G², has
///   E[U²] = a²(G E[X²] + G(G−1) μ_X²) − 2ab G(G−1) μ_R E[R s²]
///         + b²(G(G−1)(E[R²] E[s²] + μ_X²) + G(G−1)(G−2) μ_R² E[s²]),
/// and RLOO = G/(G−1) · U.
pub fn bandit_exact_stds(group_size: usize) -> (f64, f64, f64) {
    let p = bandit_policy();
    let (mut mu_x, mut e_x2, mut mu_r, mut e_r2, mut e_s2, mut e_rs2) =
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for a in 0..3 {
        let s = f64::from(u8::from(a == BANDIT_COMPONENT)) - p[BANDIT_COMPONENT];
        let q = BANDIT_SUCCESS[a]; // R is Bernoulli(q): E[R] = E[R²] = q.
        mu_x += p[a] * q * s;
        e_x2 += p[a] * q * s * s;
        mu_r += p[a] * q;
        e_r2 += p[a] * q;
        e_s2 += p[a] * s * s;
        e_rs2 += p[a] * q * s * s;
    }
    let g = group_size as f64;
    let plain = ((e_x2 - mu_x * mu_x) / g).sqrt();
    let (a, b) = ((g - 1.0) / (g * g), 1.0 / (g * g));
    let pairs = g * (g - 1.0);
    let e_u2 = a * a * (g * e_x2 + pairs * mu_x * mu_x) - 2.0 * a * b * pairs * mu_r * e_rs2
        + b * b * (pairs * (e_r2 * e_s2 + mu_x * mu_x) + pairs * (g - 2.0) * mu_r * mu_r * e_s2);
    let mean_u = (g - 1.0) / g * mu_x;
    let same = (e_u2 - mean_u * mean_u).max(0.0).sqrt();
    (plain, same, same * g / (g - 1.0))
}

/// Samples `groups` groups of `group_size` actions with a ChaCha8 stream seeded by `seed` and
/// reports the mean and population std of the three per-group estimators.
pub fn simulate_group_baseline_bias(
    group_size: usize,
    groups: usize,
    seed: u64,
) -> Result<BaselineBias> {
    check_groups(group_size, groups)?;
    let p = bandit_policy();
    let exact = bandit_exact_gradient()[BANDIT_COMPONENT];
    let g = group_size as f64;
    let mut rng = rng::seeded(seed);
    let (mut actions, mut rewards) = (vec![0usize; group_size], vec![0.0; group_size]);
    let mut sums = Moments::default();
    for _ in 0..groups {
        draw_group(&mut rng, &p, &mut actions, &mut rewards);
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

/// The same groups as [`simulate_group_baseline_bias`] (same seed, same draws) under z-scored
/// advantages (R_i − mean R)/σ ([`group_zscore_advantages`](super::group_zscore_advantages),
/// zeros when σ < `eps`): the mean and population std over groups of component 0 of
/// mean_i A_i s_i. Not an estimate of the gradient: σ rescales each group by its own rewards.
pub fn simulate_group_zscore(
    group_size: usize,
    groups: usize,
    seed: u64,
    eps: f64,
) -> Result<(f64, f64)> {
    check_groups(group_size, groups)?;
    let p = bandit_policy();
    let mut rng = rng::seeded(seed);
    let (mut actions, mut rewards) = (vec![0usize; group_size], vec![0.0; group_size]);
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    for _ in 0..groups {
        draw_group(&mut rng, &p, &mut actions, &mut rewards);
        let z = super::group_zscore_advantages(ndarray::aview1(&rewards), eps)?;
        let mut estimate = 0.0;
        for i in 0..group_size {
            let s = f64::from(u8::from(actions[i] == BANDIT_COMPONENT)) - p[BANDIT_COMPONENT];
            estimate += z[i] * s;
        }
        let estimate = estimate / group_size as f64;
        sum += estimate;
        sum_sq += estimate * estimate;
    }
    let mean = sum / groups as f64;
    Ok((mean, (sum_sq / groups as f64 - mean * mean).max(0.0).sqrt()))
}

/// One group of the bandit: every sample's action from `p`, then every sample's reward (the
/// order of the draws is what makes two simulations on one seed see the same groups).
fn draw_group(rng: &mut rng::Rng, p: &[f64], actions: &mut [usize], rewards: &mut [f64]) {
    for a in actions.iter_mut() {
        *a = rng::categorical(rng, p);
    }
    for (r, &a) in rewards.iter_mut().zip(actions.iter()) {
        *r = f64::from(u8::from(rng::uniform(rng) < BANDIT_SUCCESS[a]));
    }
}

/// The group simulations' limits: two samples per group at least (RLOO needs another sample),
/// one group at least, [`MAX_SAMPLES`] in all.
fn check_groups(group_size: usize, groups: usize) -> Result<()> {
    if group_size < 2 {
        return Err(Error::range("group_size", Rule::at_least(2.0), group_size));
    }
    if groups == 0 {
        return Err(Error::range("groups", Rule::at_least(1.0), groups));
    }
    if groups.saturating_mul(group_size) > MAX_SAMPLES {
        return Err(Error::range(
            "groups × group_size",
            Rule::at_most(MAX_SAMPLES as f64),
            groups.saturating_mul(group_size),
        ));
    }
    Ok(())
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
