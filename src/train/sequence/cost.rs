//! What a sequence run costs, from its settings and its network's [`PolicyCost`] alone: one
//! model of an iteration's phases, read by the work bound of the settings' relations
//! ([`SequenceConfig::total_work`]), by the memory bound and by the page's estimate
//! ([`SequenceConfig::cost`], `Trainer::cost`).

use super::config::SequenceConfig;
use crate::nn::PolicyCost;
use crate::train::cost::{per_token_work, Cost, F64_FLOP, VECTOR_COST};

/// Tokens an iteration puts through the network, by how they go through it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Phases {
    /// Tokens read one at a time while sampling the responses (a row's whole layout, planned).
    pub sampled: f64,
    /// Tokens of the batch's rows through the batched forward (the causal shift drops one).
    pub batched: f64,
    /// Batched forward passes per iteration: the reference's log-probs and one per epoch.
    pub forwards: f64,
    /// Backward passes per iteration: one per epoch.
    pub backwards: f64,
    /// Tokens read one at a time by the evaluation's fresh samples.
    pub evaluated: f64,
}

/// What a run does besides its iterations: the SFT stage and the pass@k evaluations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extras {
    /// Tokens of SFT's demonstrations through the batched forward and backward, all steps.
    pub demonstrated: f64,
    /// Rows of one SFT batch × its tokens (the SFT's share of the memory).
    pub sft_batch_tokens: f64,
    /// Tokens read one at a time by every pass@k evaluation of the run.
    pub pass_k_sampled: f64,
}

impl SequenceConfig {
    /// The phases of one iteration under these settings.
    pub fn phases(&self) -> Phases {
        let rows = (self.prompts() * self.group_size) as f64;
        let t = self.sequence_len() as f64;
        let epochs = self.ppo_epochs as f64;
        Phases {
            sampled: rows * t,
            batched: rows * (t - 1.0),
            forwards: 1.0 + epochs,
            backwards: epochs,
            evaluated: (self.task.levels() * self.eval_samples_per_prompt) as f64 * t,
        }
    }

    /// The SFT stage's and pass@k's tokens over the run.
    pub fn extras(&self) -> Extras {
        let t = self.sequence_len() as f64;
        let sft_batch_tokens = (self.sft_batch * (self.sequence_len() - 1)) as f64;
        let evaluations = if self.pass_k_samples == 0 {
            0
        } else {
            let rl = self.iterations / self.pass_k_every
                + usize::from(self.iterations % self.pass_k_every != 0);
            1 + usize::from(self.sft_steps > 0) + rl
        };
        let samples = self.task.levels() * self.pass_k_prompts * self.pass_k_samples;
        Extras {
            demonstrated: self.sft_steps as f64 * sft_batch_tokens,
            sft_batch_tokens: if self.sft_steps > 0 {
                sft_batch_tokens
            } else {
                0.0
            },
            pass_k_sampled: (evaluations * samples) as f64 * t,
        }
    }

    /// Rollouts an iteration may sample beyond its planned one: dynamic sampling draws more
    /// groups when too many teach nothing, up to `max_draw_factor` × the prompts in all.
    pub fn extra_draws(&self) -> f64 {
        if self.dynamic_sampling {
            self.max_draw_factor.saturating_sub(1) as f64
        } else {
            0.0
        }
    }

    /// Multiply-adds of the whole run at the most (what the settings' work bound caps: every
    /// extra draw dynamic sampling may make counted).
    pub fn total_work(&self) -> f64 {
        let (p, c, e) = (self.phases(), self.policy_cost(), self.extras());
        // A backward pass costs about two forward passes.
        let per_iteration = (p.sampled * (1.0 + self.extra_draws()) + p.evaluated) * c.step_macs
            + p.batched * c.forward_macs * (p.forwards + 2.0 * p.backwards);
        self.iterations as f64 * per_iteration
            + e.pass_k_sampled * c.step_macs
            + e.demonstrated * c.forward_macs * 3.0
    }

    /// Peak memory and planned work of one seed's run.
    pub fn cost(&self) -> Cost {
        let (p, c) = (self.phases(), self.policy_cost());
        let flop = if c.scalar_bytes > 4 { F64_FLOP } else { 1.0 };
        // Work units are f32 FLOPs of the blocked kernels; a product one vector at a time
        // costs VECTOR_COST of them per multiply-add pair.
        let step_work = 2.0 * c.step_macs * flop * VECTOR_COST;
        let vector_share = 1.0 - c.forward_blocked_share;
        let forward_work =
            2.0 * c.forward_macs * flop * (c.forward_blocked_share + vector_share * VECTOR_COST);
        let sampling = p.sampled * step_work + per_token_work(p.sampled);
        let training = p.batched * forward_work * (p.forwards + 2.0 * p.backwards);
        let evaluation = p.evaluated * step_work + per_token_work(p.evaluated);
        let e = self.extras();
        let extras = e.pass_k_sampled * step_work
            + per_token_work(e.pass_k_sampled)
            + e.demonstrated * forward_work * 3.0;
        let tokens = p.batched.max(p.evaluated).max(e.sft_batch_tokens);
        let work = self.iterations as f64 * (sampling + training + evaluation) + extras;
        Cost {
            bytes: bytes(&c, tokens, self.task.num_actions()),
            work,
            work_max: work + self.iterations as f64 * self.extra_draws() * sampling,
            rollout_share: sampling / (sampling + training),
            drivers: self.memory_drivers(),
        }
    }

    /// The settings that make a run's memory large, most important first.
    fn memory_drivers(&self) -> Vec<&'static str> {
        let mut drivers = vec!["prompts_per_iteration", "group_size", "max_response_len"];
        drivers.extend(match self.policy {
            super::PolicyKind::Gru => &["hidden_dim"][..],
            super::PolicyKind::Transformer => &["model_dim", "mlp_dim", "layers"][..],
        });
        drivers
    }
}

/// The policy, its reference, its gradient and Adam's two moments (and a copy in flight),
/// then the batch's activations and the f64 log-probabilities, their gradient and the loss's
/// scratch per output, for the larger of the training batch and the evaluation's samples.
fn bytes(c: &PolicyCost, tokens: f64, outputs: usize) -> u64 {
    let per_token = c.tape_per_token * c.scalar_bytes + 3 * outputs as u64 * 8;
    6 * c.params * c.scalar_bytes + tokens as u64 * per_token + 2 * c.state * c.scalar_bytes
}
