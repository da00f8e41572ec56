//! Lesson 1: the score of a softmax policy, ∇ log π(a) = onehot(a) − softmax(z).

use crate::{rl, Result};
use serde::Serialize;

/// The score of action 2 under logits (1, 0, −1).
#[derive(Debug, Clone, Serialize)]
pub struct Score {
    pub logits: Vec<f64>,
    pub action: usize,
    pub probs: Vec<f64>,
    pub grad: Vec<f64>,
    /// Σ of the score's components: zero, since the probabilities sum to one.
    pub grad_sum: f64,
}

/// The lesson's worked example.
pub fn score() -> Result<Score> {
    let logits = vec![1.0, 0.0, -1.0];
    let action = 2;
    let grad = rl::grad_log_softmax(&logits, action)?;
    Ok(Score {
        probs: rl::stable_softmax(&logits)?,
        grad_sum: grad.iter().sum(),
        grad,
        logits,
        action,
    })
}
