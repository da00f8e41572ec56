//! Group baselines: leave-one-out (RLOO), the same-group mean, z-scored advantages, and the
//! per-group gradient estimators they lead to. One group is a 1-D array of G rewards.

use super::arrays::check_finite;
use super::softmax::grad_log_softmax;
use crate::error::{check_finite_scalar, check_non_empty, Error, Result, Rule};
use ndarray::{Array1, ArrayView1};

/// The sum in index order (ndarray's `sum` would reassociate it).
fn sum(x: &ArrayView1<'_, f64>) -> f64 {
    x.iter().sum()
}

/// Leave-one-out baselines b_i = (Σ_j r_j − r_i) / (G − 1). Needs G ≥ 2.
///
/// ```
/// use ndarray::aview1;
/// let b = pgbook::rl::leave_one_out_baselines(aview1(&[1.0, 0.0, 0.5, 0.0])).unwrap();
/// assert_eq!(b.to_vec(), vec![0.5 / 3.0, 1.5 / 3.0, 1.0 / 3.0, 1.5 / 3.0]);
/// ```
pub fn leave_one_out_baselines(rewards: ArrayView1<'_, f64>) -> Result<Array1<f64>> {
    if rewards.len() < 2 {
        // A leave-one-out baseline needs another reward in the group.
        return Err(Error::range(
            "rewards",
            Rule::Count {
                min: 2,
                max: usize::MAX,
            },
            rewards.len(),
        ));
    }
    check_finite("rewards", &rewards)?;
    let sum = sum(&rewards);
    let denom = (rewards.len() - 1) as f64;
    Ok(rewards.mapv(|r| (sum - r) / denom))
}

/// RLOO advantages r_i − b_i with the leave-one-out baseline; they sum to zero in the group
/// and equal G/(G−1) times the centred rewards.
pub fn rloo_advantages(rewards: ArrayView1<'_, f64>) -> Result<Array1<f64>> {
    let baselines = leave_one_out_baselines(rewards)?;
    Ok(&rewards - &baselines)
}

/// Rewards centred on their own group mean, r_i − mean(r). Needs G ≥ 1.
pub fn group_mean_advantages(rewards: ArrayView1<'_, f64>) -> Result<Array1<f64>> {
    check_non_empty("rewards", rewards.len())?;
    check_finite("rewards", &rewards)?;
    let mean = sum(&rewards) / rewards.len() as f64;
    Ok(rewards.mapv(|r| r - mean))
}

/// Centred rewards divided by the population (ddof = 0) standard deviation of the group;
/// all zeros when that deviation is below `eps` (a group with no signal teaches nothing).
pub fn group_zscore_advantages(rewards: ArrayView1<'_, f64>, eps: f64) -> Result<Array1<f64>> {
    let centered = group_mean_advantages(rewards)?;
    check_finite_scalar("eps", eps)?;
    if eps < 0.0 {
        return Err(Error::range("eps", Rule::non_negative(), eps));
    }
    let scale = (centered.iter().map(|c| c * c).sum::<f64>() / centered.len() as f64).sqrt();
    if scale < eps {
        return Ok(Array1::zeros(centered.len()));
    }
    Ok(centered.mapv_into(|c| c / scale))
}

/// The three per-group estimates of ∇_θ J for a softmax policy with `logits`, one `[K]` vector
/// each: no baseline, the same-group mean, and RLOO.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupGradients {
    /// mean_i R_i s_i.
    pub plain: Array1<f64>,
    /// mean_i (R_i − mean R) s_i: biased by the factor (G−1)/G.
    pub same_group: Array1<f64>,
    /// mean_i (R_i − b_i^LOO) s_i = G/(G−1) · same_group: unbiased.
    pub rloo: Array1<f64>,
}

/// Gradient estimates of one group of sampled `actions` with `rewards` (G ≥ 2).
pub fn group_gradient_estimates(
    logits: ArrayView1<'_, f64>,
    actions: ArrayView1<'_, usize>,
    rewards: ArrayView1<'_, f64>,
) -> Result<GroupGradients> {
    if actions.len() != rewards.len() || actions.len() < 2 {
        return Err(if actions.len() != rewards.len() {
            Error::shape("rewards", vec![actions.len()], vec![rewards.len()])
        } else {
            Error::range(
                "actions",
                Rule::Count {
                    min: 2,
                    max: usize::MAX,
                },
                actions.len(),
            )
        });
    }
    let centered = group_mean_advantages(rewards)?;
    let rloo = rloo_advantages(rewards)?;
    let logits = logits.to_vec();
    let k = logits.len();
    let g = actions.len() as f64;
    let mut out = GroupGradients {
        plain: Array1::zeros(k),
        same_group: Array1::zeros(k),
        rloo: Array1::zeros(k),
    };
    for (i, &a) in actions.iter().enumerate() {
        let score = grad_log_softmax(&logits, a)?;
        for j in 0..k {
            out.plain[j] += rewards[i] * score[j] / g;
            out.same_group[j] += centered[i] * score[j] / g;
            out.rloo[j] += rloo[i] * score[j] / g;
        }
    }
    Ok(out)
}
