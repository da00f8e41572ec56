//! Lesson 2: reward-to-go and the discounted weights γ^t G_t.

use crate::{rl, Result};
use serde::Serialize;

/// Rewards (1, 0, 2) at γ = 0.5.
#[derive(Debug, Clone, Serialize)]
pub struct Returns {
    pub rewards: Vec<f64>,
    pub gamma: f64,
    pub reward_to_go: Vec<f64>,
    pub discounts: Vec<f64>,
    pub weights: Vec<f64>,
}

/// The lesson's worked example.
pub fn returns() -> Result<Returns> {
    let (rewards, gamma) = (vec![1.0, 0.0, 2.0], 0.5);
    let discounts = (0..rewards.len()).map(|t| gamma_pow(gamma, t)).collect();
    Ok(Returns {
        reward_to_go: rl::reward_to_go(&rewards, gamma)?,
        weights: rl::discounted_score_weights(&rewards, gamma)?,
        discounts,
        rewards,
        gamma,
    })
}

fn gamma_pow(gamma: f64, t: usize) -> f64 {
    (0..t).fold(1.0, |acc, _| acc * gamma)
}
