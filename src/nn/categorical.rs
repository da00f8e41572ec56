//! The categorical policy head, once for every network: log-softmax, log-probabilities and
//! entropy of softmax(logits), their gradients with respect to the logits, and the greedy
//! action.

use crate::math;

/// The largest logit and ln Σ exp(z − max): log softmax(z)_k = z_k − max − ln Σ.
#[inline]
fn log_normaliser(logits: &[f64]) -> (f64, f64) {
    let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (
        max,
        math::ln(logits.iter().map(|z| math::exp(z - max)).sum::<f64>()),
    )
}

/// In place: `logits ← log_softmax(logits)`, shifted by the maximum so nothing overflows.
#[inline]
pub fn log_softmax_in_place(logits: &mut [f64]) {
    let (max, log_sum) = log_normaliser(logits);
    let shift = log_sum + max;
    logits.iter_mut().for_each(|z| *z -= shift);
}

/// Turns the gradient with respect to log-probabilities into the gradient with respect to
/// the logits: d/dz_k = g_k − softmax_k · Σ_j g_j (the log-softmax Jacobian).
pub fn log_softmax_backward(log_probs: &[f64], d_log_probs: &[f64], d_logits: &mut [f64]) {
    let total: f64 = d_log_probs.iter().sum();
    for ((out, &lp), &g) in d_logits.iter_mut().zip(log_probs).zip(d_log_probs) {
        *out = g - math::exp(lp) * total;
    }
}

/// Entropy −Σ p log p of a distribution given by its log-probabilities.
#[inline]
pub fn entropy_of_log_probs(log_probs: &[f64]) -> f64 {
    -log_probs.iter().map(|&lp| math::exp(lp) * lp).sum::<f64>()
}

/// Adds `weight · ∂(−H)/∂z` to `d_logits` for the distribution with `log_probs` and entropy
/// `entropy`: ∂(−H)/∂z_k = p_k (log p_k + H).
#[inline]
pub fn add_negative_entropy_gradient(
    log_probs: &[f64],
    entropy: f64,
    weight: f64,
    d_logits: &mut [f64],
) {
    for (dz, lp) in d_logits.iter_mut().zip(log_probs) {
        *dz += weight * math::exp(*lp) * (lp + entropy);
    }
}

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
pub fn argmax<T: PartialOrd>(logits: &[T]) -> usize {
    let mut best = 0;
    for (k, z) in logits.iter().enumerate() {
        if *z > logits[best] {
            best = k;
        }
    }
    best
}
