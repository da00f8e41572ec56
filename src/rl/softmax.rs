//! Softmax policies over a finite set of actions and their score function.

use crate::error::{check_finite, check_non_empty, Error, Result, Rule};
use crate::math;

/// Softmax of `logits`, shifted by the maximum so that no exponent overflows.
///
/// ```
/// let p = pgbook::rl::stable_softmax(&[1000.0, 999.0]).unwrap();
/// assert!((p[0] - 0.7310585786300049).abs() < 1e-15);
/// ```
pub fn stable_softmax(logits: &[f64]) -> Result<Vec<f64>> {
    check_non_empty("logits", logits.len())?;
    check_finite("logits", logits)?;
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = logits.iter().map(|z| math::exp(z - max)).collect();
    let sum: f64 = exp.iter().sum();
    Ok(exp.into_iter().map(|e| e / sum).collect())
}

/// Log-softmax, computed as `z - max - ln Σ exp(z - max)` (finite for any finite logits).
pub fn log_softmax(logits: &[f64]) -> Result<Vec<f64>> {
    check_non_empty("logits", logits.len())?;
    check_finite("logits", logits)?;
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let log_sum = math::ln(logits.iter().map(|z| math::exp(z - max)).sum::<f64>());
    Ok(logits.iter().map(|z| z - max - log_sum).collect())
}

/// The score function ∇_z log softmax(z)[action] = onehot(action) − softmax(z).
pub fn grad_log_softmax(logits: &[f64], action: usize) -> Result<Vec<f64>> {
    let mut grad = stable_softmax(logits)?;
    if action >= grad.len() {
        return Err(Error::range("action", Rule::IndexBelow(grad.len()), action));
    }
    grad.iter_mut().for_each(|g| *g = -*g);
    grad[action] += 1.0;
    Ok(grad)
}

/// Entropy −Σ p log p of the softmax policy, in nats.
pub fn softmax_entropy(logits: &[f64]) -> Result<f64> {
    let log_p = log_softmax(logits)?;
    Ok(-log_p.iter().map(|&lp| math::exp(lp) * lp).sum::<f64>())
}
