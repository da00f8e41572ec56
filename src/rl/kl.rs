//! KL to a reference policy from tokens sampled by the current one: the three estimators
//! k1, k2, k3 per token, and the penalty placed in the reward (RLHF-PPO).

use super::arrays::{check_finite, check_shape2};
use super::tokens::check_binary_mask;
use crate::error::{check_finite_scalar, check_len, Error, Result, Rule};
use ndarray::{Array2, ArrayView1, ArrayView2};

crate::choice! {
    /// One estimator of KL(π_θ ‖ π_ref) per sampled token, with d = log π_θ − log π_ref.
    pub enum KlEstimator, parse crate::error::Name::KlEstimator {
        /// d: unbiased, can be negative.
        K1 = "k1",
        /// d²/2: biased, never negative, low variance.
        K2 = "k2",
        /// exp(−d) − 1 + d: unbiased and never negative.
        K3 = "k3",
    }
}

impl KlEstimator {
    /// The estimate of one token with log-ratio `d`.
    #[inline]
    pub fn value(self, d: f64) -> f64 {
        match self {
            KlEstimator::K1 => d,
            KlEstimator::K2 => d * d / 2.0,
            KlEstimator::K3 => crate::math::exp(-d) - 1.0 + d,
        }
    }

    /// d value / d d: the gradient the estimator gives the token's log-prob when it is a loss
    /// term (1, d, 1 − exp(−d)).
    #[inline]
    pub fn derivative(self, d: f64) -> f64 {
        match self {
            KlEstimator::K1 => 1.0,
            KlEstimator::K2 => d,
            KlEstimator::K3 => 1.0 - crate::math::exp(-d),
        }
    }
}

/// The three estimators per token (0 off the mask) and their means over the mask.
#[derive(Debug, Clone, PartialEq)]
pub struct KlEstimates {
    /// k1 `[B, T]`.
    pub k1: Array2<f64>,
    /// k2 `[B, T]`.
    pub k2: Array2<f64>,
    /// k3 `[B, T]`.
    pub k3: Array2<f64>,
    /// Σ k1 / max(mask ones, 1).
    pub k1_mean: f64,
    /// Σ k2 / max(mask ones, 1).
    pub k2_mean: f64,
    /// Σ k3 / max(mask ones, 1).
    pub k3_mean: f64,
}

fn check_kl_inputs(
    log_probs: ArrayView2<'_, f64>,
    ref_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<()> {
    check_finite("log_probs", &log_probs)?;
    check_finite("ref_log_probs", &ref_log_probs)?;
    check_shape2("ref_log_probs", ref_log_probs, log_probs.dim())?;
    check_finite("mask", &mask)?;
    check_shape2("mask", mask, log_probs.dim())?;
    check_binary_mask("mask", mask)
}

/// k1, k2, k3 of every response token. Off the mask everything is exactly 0 (the log-probs
/// there may be junk that must not reach `exp`).
pub fn kl_estimators(
    log_probs: ArrayView2<'_, f64>,
    ref_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
) -> Result<KlEstimates> {
    check_kl_inputs(log_probs, ref_log_probs, mask)?;
    let dim = log_probs.dim();
    let per = |e: KlEstimator| {
        Array2::from_shape_fn(dim, |i| {
            if mask[i] == 1.0 {
                e.value(log_probs[i] - ref_log_probs[i])
            } else {
                0.0
            }
        })
    };
    let (k1, k2, k3) = (
        per(KlEstimator::K1),
        per(KlEstimator::K2),
        per(KlEstimator::K3),
    );
    let count = mask.iter().sum::<f64>().max(1.0);
    let mean = |a: &Array2<f64>| a.iter().sum::<f64>() / count;
    Ok(KlEstimates {
        k1_mean: mean(&k1),
        k2_mean: mean(&k2),
        k3_mean: mean(&k3),
        k1,
        k2,
        k3,
    })
}

/// The KL penalty in the reward: every response token gets −β·(log π − log π_ref), and the
/// last response token of row b also gets `rewards[b]`; 0 off the mask. A row without
/// response tokens has nowhere to put its reward: an error.
pub fn kl_in_reward(
    rewards: ArrayView1<'_, f64>,
    log_probs: ArrayView2<'_, f64>,
    ref_log_probs: ArrayView2<'_, f64>,
    mask: ArrayView2<'_, f64>,
    beta: f64,
) -> Result<Array2<f64>> {
    check_kl_inputs(log_probs, ref_log_probs, mask)?;
    check_len("rewards", rewards.len(), log_probs.nrows())?;
    check_finite("rewards", &rewards)?;
    check_finite_scalar("beta", beta)?;
    if beta < 0.0 {
        return Err(Error::range("beta", Rule::non_negative(), beta));
    }
    let mut out = Array2::zeros(log_probs.dim());
    for (b, row) in mask.rows().into_iter().enumerate() {
        let last = row
            .iter()
            .rposition(|&m| m == 1.0)
            .ok_or_else(|| Error::range(format!("mask[{b}]"), Rule::NonEmpty, 0usize))?;
        for (k, &m) in row.iter().enumerate() {
            if m == 1.0 {
                out[[b, k]] = -beta * (log_probs[[b, k]] - ref_log_probs[[b, k]]);
            }
        }
        out[[b, last]] += rewards[b];
    }
    Ok(out)
}
