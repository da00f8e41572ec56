//! Generalised advantage estimation with two separate masks.
//!
//! `terminated[t]` answers "may we bootstrap from V(s_{t+1})?" — only a true terminal says no.
//! `trace_cuts[t]` answers "does the backward recursion stop here?" — yes at a terminal, at a
//! time-limit truncation and at the edge of the rollout buffer. A single `done` flag conflates
//! the two and biases targets at every truncation.

use crate::error::{check_finite, check_len, check_unit_interval, Result};

crate::choice! {
    /// What a time-limit truncation means for the bootstrap.
    pub enum Truncation {
        /// Two masks: bootstrap from V of the last real observation (the episode goes on beyond
        /// the time limit; only the data stops).
        Bootstrap = "bootstrap",
        /// One `done` flag: the truncation is treated as a terminal, no bootstrap (what CleanRL's
        /// `ppo.py` does) — a bias at every truncation.
        Terminal = "terminal",
    }
}

impl Truncation {
    /// Whether a record that `terminated` (or was `truncated`) may not bootstrap from V of the
    /// observation that followed it: the `terminated` mask.
    pub fn no_bootstrap(self, terminated: bool, truncated: bool) -> bool {
        match self {
            Truncation::Bootstrap => terminated,
            Truncation::Terminal => terminated || truncated,
        }
    }
}

/// Advantages A_t = δ_t + γλ(1 − cut_t) A_{t+1}, with δ_t = r_t + γ(1 − term_t) V'_t − V_t.
///
/// ```
/// // Worked example: a buffer boundary at t = 0 (bootstrap, cut) and a terminal at t = 1.
/// let a = pgbook::rl::gae_advantages(&[1.0, 100.0], &[2.0, 0.0], &[10.0, 0.0],
///     &[false, true], &[true, true], 0.9, 1.0).unwrap();
/// assert_eq!(a, vec![8.0, 100.0]);
/// ```
pub fn gae_advantages(
    rewards: &[f64],
    values: &[f64],
    next_values: &[f64],
    terminated: &[bool],
    trace_cuts: &[bool],
    gamma: f64,
    gae_lambda: f64,
) -> Result<Vec<f64>> {
    let n = rewards.len();
    check_len("values", values.len(), n)?;
    check_len("next_values", next_values.len(), n)?;
    check_len("terminated", terminated.len(), n)?;
    check_len("trace_cuts", trace_cuts.len(), n)?;
    check_unit_interval("gamma", gamma)?;
    check_unit_interval("gae_lambda", gae_lambda)?;
    check_finite("rewards", rewards)?;
    check_finite("values", values)?;
    check_finite("next_values", next_values)?;
    let mut out = vec![0.0; n];
    let mut running = 0.0;
    for t in (0..n).rev() {
        let bootstrap = if terminated[t] {
            0.0
        } else {
            gamma * next_values[t]
        };
        let delta = rewards[t] + bootstrap - values[t];
        let carry = if trace_cuts[t] {
            0.0
        } else {
            gamma * gae_lambda * running
        };
        running = delta + carry;
        out[t] = running;
    }
    Ok(out)
}

/// One-step TD errors δ_t = r_t + γ(1 − term_t) V'_t − V_t (GAE with λ = 0).
pub fn td_errors(
    rewards: &[f64],
    values: &[f64],
    next_values: &[f64],
    terminated: &[bool],
    gamma: f64,
) -> Result<Vec<f64>> {
    let cuts = vec![true; rewards.len()];
    gae_advantages(rewards, values, next_values, terminated, &cuts, gamma, 0.0)
}
