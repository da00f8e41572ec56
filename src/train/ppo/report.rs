//! What one PPO update reports.

use crate::train::cartpole::{CartPoleReport, Evaluation};
use serde::{Deserialize, Serialize};

/// What one update did: losses, how far the policy moved, and an evaluation when one was due.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "PpoReport"))]
pub struct UpdateReport {
    /// 1-based update number.
    pub update: usize,
    /// Training transitions collected so far.
    pub env_steps: u64,
    /// Learning rate used in this update (after annealing).
    pub learning_rate: f64,
    /// Clip range ε used in this update (`None`: no clipping).
    pub clip_epsilon: Option<f64>,
    /// Mean clipped policy loss over the minibatch steps.
    pub policy_loss: f64,
    /// Mean value loss over the minibatch steps.
    pub value_loss: f64,
    /// Mean policy entropy (nats) over the minibatch steps.
    pub entropy: f64,
    /// Non-negative approx KL mean((r − 1) − log r) over all minibatch steps.
    pub approx_kl: f64,
    /// Fraction of samples whose clipping changed the pessimistic minimum.
    pub active_clip_fraction: f64,
    /// Fraction of samples with the ratio outside [1 − ε, 1 + ε].
    pub ratio_outside_fraction: f64,
    /// 1 − Var(returns − values)/Var(returns) of the rollout's old values (`None` when the
    /// returns do not vary).
    pub explained_variance: Option<f64>,
    /// Mean global gradient norm before clipping.
    pub grad_norm: f64,
    /// Training episodes that ended (terminated or truncated) during this rollout.
    pub episodes_finished: usize,
    /// Their mean return (sampled actions), if any ended.
    pub mean_episode_return: Option<f64>,
    /// The critic's mean V of the last observation before each time-limit truncation of this
    /// rollout (`None`: no episode reached the limit). With two masks it learns the value of
    /// the cut-off future; with one `done` flag it is taught that this future is worth nothing.
    pub value_at_truncation: Option<f64>,
    /// The greedy evaluation after this update, if one was due.
    pub evaluation: Option<Evaluation>,
}

impl CartPoleReport for UpdateReport {
    const CRITIC_AT_LIMIT: bool = true;
    fn evaluation(&self) -> Option<&Evaluation> {
        self.evaluation.as_ref()
    }
    fn env_steps(&self) -> u64 {
        self.env_steps
    }
    fn value_at_truncation(&self) -> Option<f64> {
        self.value_at_truncation
    }
}
