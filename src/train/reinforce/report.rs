//! What one REINFORCE update reports.

use crate::train::cartpole::{CartPoleReport, Evaluation};
use serde::{Deserialize, Serialize};

/// What one update did: the batch, its weights and advantages, the losses, and an evaluation
/// when one was due.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify), tsify(missing_as_null))]
#[cfg_attr(target_arch = "wasm32", tsify(rename = "ReinforceReport"))]
pub struct UpdateReport {
    /// 1-based update number.
    pub update: usize,
    /// Training transitions collected so far.
    pub env_steps: u64,
    /// Transitions in this update's batch.
    pub batch_steps: usize,
    /// Learning rate of the policy step.
    pub learning_rate: f64,
    /// The policy surrogate −mean log π(a|s)·A over the batch's steps.
    pub policy_loss: f64,
    /// Mean policy entropy (nats) over the batch's steps.
    pub entropy: f64,
    /// Global norm of the policy gradient before clipping.
    pub grad_norm: f64,
    /// Mean of the weights (G₀, G_t or γ^t·G_t) over the batch's steps.
    pub weight_mean: f64,
    /// Their population standard deviation.
    pub weight_std: f64,
    /// Population standard deviation of the advantages the scores were multiplied with (after
    /// the baseline and any normalisation): what the baseline takes out of the estimate.
    pub advantage_std: f64,
    /// The critic's loss ½·mean (V − weight)² on this batch before it was fitted to it (how
    /// well it predicts fresh episodes); `None` without the learned baseline.
    pub value_loss: Option<f64>,
    /// 1 − Var(weight − V)/Var(weight) of the fitted critic on this batch (`None` without the
    /// learned baseline, or when the weights do not vary).
    pub explained_variance: Option<f64>,
    /// Training episodes in this batch (all of them end: whole episodes).
    pub episodes_finished: usize,
    /// Their mean undiscounted return (sampled actions).
    pub mean_episode_return: Option<f64>,
    /// The greedy evaluation after this update, if one was due.
    pub evaluation: Option<Evaluation>,
}

impl CartPoleReport for UpdateReport {
    fn evaluation(&self) -> Option<&Evaluation> {
        self.evaluation.as_ref()
    }
    fn env_steps(&self) -> u64 {
        self.env_steps
    }
}
