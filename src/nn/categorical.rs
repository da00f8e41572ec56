//! The categorical policy head: log-probabilities and entropy of softmax(logits) and their
//! gradients with respect to the logits.

use crate::math;

/// `log softmax(z)[a]`, softmax(z) and entropy for one row of logits; `probs` receives softmax(z).
#[inline]
pub fn log_prob_entropy(logits: &[f64], action: usize, probs: &mut [f64]) -> (f64, f64) {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for (p, &z) in probs.iter_mut().zip(logits) {
        *p = math::exp(z - max);
        sum += *p;
    }
    let log_sum = math::ln(sum);
    let mut entropy = 0.0;
    for (p, &z) in probs.iter_mut().zip(logits) {
        *p /= sum;
        entropy -= *p * (z - max - log_sum);
    }
    (logits[action] - max - log_sum, entropy)
}

/// Adds `d_log_prob · ∂log p_a/∂z + d_entropy · ∂H/∂z` to `d_logits`, where
/// ∂log p_a/∂z_k = 1[k = a] − p_k and ∂H/∂z_k = −p_k (log p_k + H).
#[inline]
pub fn backward(
    probs: &[f64],
    action: usize,
    entropy: f64,
    d_log_prob: f64,
    d_entropy: f64,
    d_logits: &mut [f64],
) {
    for (k, (g, &p)) in d_logits.iter_mut().zip(probs).enumerate() {
        let onehot = if k == action { 1.0 } else { 0.0 };
        // p ln p → 0 as p → 0; guard the 0 · (−∞) of an underflowed probability.
        let dh = if p > 0.0 {
            -p * (math::ln(p) + entropy)
        } else {
            0.0
        };
        *g += d_log_prob * (onehot - p) + d_entropy * dh;
    }
}

/// The greedy action: the index of the largest logit (the first on ties).
#[inline]
pub fn argmax(logits: &[f64]) -> usize {
    let mut best = 0;
    for (k, &z) in logits.iter().enumerate() {
        if z > logits[best] {
            best = k;
        }
    }
    best
}
