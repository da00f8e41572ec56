//! Returns: reward-to-go and the discounted policy-gradient weights.

use crate::error::{check_finite, check_unit_interval, Result};

/// Reward-to-go G_t = r_t + γ G_{t+1}, computed in one backward pass (O(T)).
///
/// ```
/// let g = pgbook::rl::reward_to_go(&[1.0, 1.0, 1.0], 0.5).unwrap();
/// assert_eq!(g, vec![1.75, 1.5, 1.0]);
/// ```
pub fn reward_to_go(rewards: &[f64], gamma: f64) -> Result<Vec<f64>> {
    check_finite("rewards", rewards)?;
    check_unit_interval("gamma", gamma)?;
    let mut out = vec![0.0; rewards.len()];
    let mut running = 0.0;
    for t in (0..rewards.len()).rev() {
        running = rewards[t] + gamma * running;
        out[t] = running;
    }
    Ok(out)
}

/// Weights γ^t · G_t of the discounted objective's policy gradient: the score at step t is
/// multiplied by the discount of the step itself times the discounted reward-to-go.
pub fn discounted_score_weights(rewards: &[f64], gamma: f64) -> Result<Vec<f64>> {
    let g = reward_to_go(rewards, gamma)?;
    let mut discount = 1.0;
    Ok(g.into_iter()
        .map(|g_t| {
            let w = discount * g_t;
            discount *= gamma;
            w
        })
        .collect())
}
