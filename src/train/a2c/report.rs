//! What one A2C update reports.

use crate::train::cartpole::{CartPoleReport, Evaluation};
use serde::{Deserialize, Serialize};

/// What one update did: the losses of its one gradient step, the critic's fit, and an
/// evaluation when one was due.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "A2cReport"))]
pub struct UpdateReport {
    /// 1-based update number.
    pub update: usize,
    /// Training transitions collected so far.
    pub env_steps: u64,
    /// Learning rate used in this update (after annealing).
    pub learning_rate: f64,
    /// −mean log π(a|s)·A over the rollout.
    pub policy_loss: f64,
    /// ½·mean (V − R)² over the rollout, before the step.
    pub value_loss: f64,
    /// Mean policy entropy (nats) over the rollout.
    pub entropy: f64,
    /// 1 − Var(R − V)/Var(R) of the rollout's values (`None` when the targets do not vary).
    pub explained_variance: Option<f64>,
    /// Global gradient norm before clipping.
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
