//! The PPO clipped surrogate and the diagnostics that say how far a policy moved.

use super::arrays::check_finite as check_finite_view;
use crate::error::{
    check_clip_epsilon, check_finite, check_finite_scalar, check_len, check_non_empty, check_rule,
    Bound, Error, Result, Rule,
};
use ndarray::ArrayView1;
use serde::Serialize;

/// ε_low of clip-higher: 0 ≤ ε_low < 1, like PPO's ε.
fn check_clip_epsilon_named(arg: &str, x: f64) -> Result<()> {
    let rule = Rule::Interval {
        min: Some(Bound::closed(0.0)),
        max: Some(Bound::open(1.0)),
    };
    check_rule(arg, x, rule)
}

/// Per-sample terms of the clipped surrogate (objective terms, to be maximised).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ClippedTerms {
    /// r · A.
    pub unclipped: Vec<f64>,
    /// clip(r, 1 − ε, 1 + ε) · A.
    pub clipped: Vec<f64>,
    /// min(unclipped, clipped): the pessimistic bound PPO maximises.
    pub pessimistic: Vec<f64>,
}

/// The clipped PPO term for one sample: min(r·A, clip(r, 1−ε, 1+ε)·A).
#[inline]
pub fn clipped_objective(ratio: f64, advantage: f64, clip_epsilon: f64) -> f64 {
    asymmetric_clipped_objective(ratio, advantage, clip_epsilon, clip_epsilon)
}

/// DAPO's clip-higher for one sample: min(r·A, clip(r, 1 − ε_low, 1 + ε_high)·A).
#[inline]
pub fn asymmetric_clipped_objective(
    ratio: f64,
    advantage: f64,
    eps_low: f64,
    eps_high: f64,
) -> f64 {
    let unclipped = ratio * advantage;
    let clipped = ratio.clamp(1.0 - eps_low, 1.0 + eps_high) * advantage;
    unclipped.min(clipped)
}

/// One sample's value-loss term ½·max((V − R)², (V_clip − R)²) with
/// V_clip = V_old + clip(V − V_old, −ε_V, ε_V), and its derivative in V: zero where the clipped
/// branch is the larger one and V is outside the band (the clipped value does not move with V).
/// Returns (V_clip, term, ∂term/∂V).
///
/// ```
/// let (v_clip, term, d) = pgbook::rl::clipped_value_term(1.5, 1.0, 2.0, 0.2);
/// assert!((v_clip - 1.2).abs() < 1e-12 && (term - 0.32).abs() < 1e-12 && d == 0.0);
/// ```
pub fn clipped_value_term(value: f64, old_value: f64, target: f64, clip: f64) -> (f64, f64, f64) {
    let moved = value - old_value;
    let v_clip = old_value + moved.clamp(-clip, clip);
    let (err, err_clip) = (value - target, v_clip - target);
    if err * err >= err_clip * err_clip {
        (v_clip, 0.5 * err * err, err)
    } else if moved.abs() < clip {
        (v_clip, 0.5 * err_clip * err_clip, err_clip)
    } else {
        (v_clip, 0.5 * err_clip * err_clip, 0.0)
    }
}

/// Clip-higher terms (DAPO): the clip range [1 − ε_low, 1 + ε_high]; ε_low = ε_high is PPO's.
///
/// ```
/// use ndarray::aview1;
/// let t = pgbook::rl::asymmetric_clipped_terms(aview1(&[1.35]), aview1(&[1.0]), 0.2, 0.28).unwrap();
/// assert_eq!(t.pessimistic, vec![1.28]);
/// ```
pub fn asymmetric_clipped_terms(
    ratio: ArrayView1<'_, f64>,
    advantage: ArrayView1<'_, f64>,
    eps_low: f64,
    eps_high: f64,
) -> Result<ClippedTerms> {
    check_len("advantage", advantage.len(), ratio.len())?;
    check_finite_view("ratio", &ratio)?;
    check_finite_view("advantage", &advantage)?;
    if let Some(i) = ratio.iter().position(|&r| r <= 0.0) {
        return Err(Error::range(
            format!("ratio[{i}]"),
            Rule::positive(),
            ratio[i],
        ));
    }
    check_clip_epsilon_named("eps_low", eps_low)?;
    check_finite_scalar("eps_high", eps_high)?;
    check_rule("eps_high", eps_high, Rule::non_negative())?;
    let (lo, hi) = (1.0 - eps_low, 1.0 + eps_high);
    let unclipped: Vec<f64> = ratio.iter().zip(advantage).map(|(r, a)| r * a).collect();
    let clipped: Vec<f64> = ratio
        .iter()
        .zip(advantage)
        .map(|(r, a)| r.clamp(lo, hi) * a)
        .collect();
    let pessimistic = unclipped
        .iter()
        .zip(&clipped)
        .map(|(u, c)| u.min(*c))
        .collect();
    Ok(ClippedTerms {
        unclipped,
        clipped,
        pessimistic,
    })
}

/// Clipped-surrogate terms for positive probability ratios `ratio` and advantages.
///
/// ```
/// let t = pgbook::rl::ppo_clipped_terms(&[1.5, 0.5], &[1.0, -1.0], 0.2).unwrap();
/// assert_eq!(t.pessimistic, vec![1.2, -0.8]);
/// ```
pub fn ppo_clipped_terms(
    ratio: &[f64],
    advantage: &[f64],
    clip_epsilon: f64,
) -> Result<ClippedTerms> {
    check_len("advantage", advantage.len(), ratio.len())?;
    check_clip_epsilon(clip_epsilon)?;
    asymmetric_clipped_terms(
        ArrayView1::from(ratio),
        ArrayView1::from(advantage),
        clip_epsilon,
        clip_epsilon,
    )
}

/// How far the new policy moved from the one that collected the data.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PpoDiagnostics {
    /// Fraction of samples with r outside [1 − ε, 1 + ε], whatever the sign of A.
    pub ratio_outside_fraction: f64,
    /// Fraction of samples where clipping changed the pessimistic minimum (zero gradient there).
    pub active_clip_fraction: f64,
    /// mean((r − 1) − log r) ≥ 0: the "k3" estimator of KL(old ‖ new) on this batch.
    pub approx_kl_nonnegative: f64,
    /// mean(log r); its negative is the naive KL estimate, which can go below zero.
    pub mean_log_ratio: f64,
}

/// Diagnostics of one batch from new and old log-probabilities of the taken actions.
pub fn ppo_diagnostics(
    new_log_prob: &[f64],
    old_log_prob: &[f64],
    advantage: &[f64],
    clip_epsilon: f64,
) -> Result<PpoDiagnostics> {
    let n = new_log_prob.len();
    check_len("old_log_prob", old_log_prob.len(), n)?;
    check_len("advantage", advantage.len(), n)?;
    check_finite("new_log_prob", new_log_prob)?;
    check_finite("old_log_prob", old_log_prob)?;
    check_finite("advantage", advantage)?;
    check_clip_epsilon(clip_epsilon)?;
    check_non_empty("new_log_prob", n)?;
    let mut acc = DiagnosticsAccumulator::default();
    for i in 0..n {
        acc.add(
            new_log_prob[i] - old_log_prob[i],
            advantage[i],
            clip_epsilon,
        );
    }
    // exp(new − old) overflowed: the policies differ too much for a finite ratio.
    acc.finish()
        .ok_or_else(|| Error::non_finite("exp(new_log_prob − old_log_prob)", 0))
}

/// Streaming form of [`ppo_diagnostics`], used by the trainers over their minibatches.
#[derive(Debug, Clone, Default)]
pub struct DiagnosticsAccumulator {
    count: usize,
    outside: usize,
    active: usize,
    kl_sum: f64,
    log_ratio_sum: f64,
    reference_epsilon: Option<f64>,
}

impl DiagnosticsAccumulator {
    /// An accumulator that counts ratios outside 1 ± `epsilon` (and the clipping that would be
    /// active) for samples added with no clipping (ε = ∞): an unclipped run's share is then
    /// measured against the ε it would have had, not reported as 0.
    pub fn with_reference_epsilon(epsilon: f64) -> Self {
        Self {
            reference_epsilon: Some(epsilon),
            ..Self::default()
        }
    }

    /// Adds one sample with log-ratio `log_ratio` = new − old and advantage `advantage`.
    #[inline]
    pub fn add(&mut self, log_ratio: f64, advantage: f64, clip_epsilon: f64) {
        let clip_epsilon = match self.reference_epsilon {
            Some(reference) if clip_epsilon == f64::INFINITY => reference,
            _ => clip_epsilon,
        };
        self.add_asymmetric(log_ratio, advantage, clip_epsilon, clip_epsilon);
    }

    /// [`Self::add`] with the clip range [1 − ε_low, 1 + ε_high] (clip-higher).
    #[inline]
    pub fn add_asymmetric(&mut self, log_ratio: f64, advantage: f64, eps_low: f64, eps_high: f64) {
        let ratio = crate::math::exp(log_ratio);
        let unclipped = ratio * advantage;
        let pessimistic = asymmetric_clipped_objective(ratio, advantage, eps_low, eps_high);
        self.count += 1;
        self.outside += usize::from(ratio < 1.0 - eps_low || ratio > 1.0 + eps_high);
        self.active += usize::from(pessimistic < unclipped - 1e-15);
        self.kl_sum += (ratio - 1.0) - log_ratio;
        self.log_ratio_sum += log_ratio;
    }

    /// Number of samples added.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The diagnostics, or `None` if nothing was added or a value is not finite.
    pub fn finish(&self) -> Option<PpoDiagnostics> {
        if self.count == 0 {
            return None;
        }
        let n = self.count as f64;
        let d = PpoDiagnostics {
            ratio_outside_fraction: self.outside as f64 / n,
            active_clip_fraction: self.active as f64 / n,
            approx_kl_nonnegative: self.kl_sum / n,
            mean_log_ratio: self.log_ratio_sum / n,
        };
        (d.approx_kl_nonnegative.is_finite() && d.mean_log_ratio.is_finite()).then_some(d)
    }
}
