//! A2C on CartPole-v1 — the synchronous advantage actor–critic, the step between REINFORCE
//! with a learned baseline (lessons 1–3) and PPO (lessons 5–6). One [`A2cTrainer::step`] = a
//! fixed rollout of N environments × T steps with the current policy ([`crate::train::cartpole::rollout`],
//! PPO's), GAE advantages with the two masks, then **one** gradient step on
//! −mean log π(a|s)·A + vf·½·mean (V − R)² − ent·H ([`loss`]): no ratio and no clip, since
//! the data is always the current policy's → greedy evaluation → report ([`report`]).
//!
//! Against REINFORCE it bootstraps from the critic instead of waiting for whole episodes;
//! against PPO it spends each rollout on one step instead of epochs of minibatches. The same
//! agent, evaluation protocol and bit-identical runs as both.

pub mod config;
pub mod loss;
pub mod report;
#[cfg(test)]
mod tests;

pub use config::{A2cConfig, A2cProfile};
pub use loss::{a2c_loss_and_gradients, Batch, LossCoefficients, LossParts, LossWorkspace};
pub use report::UpdateReport;

use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::clip_grad_norm;
use crate::rng::Rng;
use crate::train::cartpole::agent::{explained_variance, AgentView, EvaluationPlan};
use crate::train::cartpole::rollout::{Envs, Rollout};
use crate::train::cartpole::{
    mean_return, mean_std, CartPoleAgent, CartPoleTrainer, Evaluation, RunSummary,
};
use crate::train::{Progress, ProgressUnit, Trainer};

/// An A2C run on CartPole-v1 that advances one update per [`A2cTrainer::step`].
///
/// ```
/// use pgbook::train::a2c::{A2cConfig, A2cTrainer};
/// use pgbook::train::{cartpole::CartPoleTrainer, Trainer};
/// let config = A2cConfig { num_updates: 5, ..A2cConfig::smoke() };
/// let mut trainer = A2cTrainer::new(config, 11)?;
/// while !trainer.is_finished() {
///     trainer.step()?;
/// }
/// assert_eq!(trainer.env_steps(), 5 * 8 * 8);
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct A2cTrainer {
    config: A2cConfig,
    /// Actor, critic, their optimisers, the counters and the evaluations.
    agent: CartPoleAgent,
    /// Action sampling and environment resets.
    rng: Rng,
    envs: Envs<f64>,
    rollout: Rollout<f64>,
    loss_ws: LossWorkspace,
}

impl A2cTrainer {
    /// A fresh run: validated config, the agent's networks, N reset environments, and an
    /// evaluation of the untrained policy at 0 transitions.
    pub fn new(config: A2cConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let plan = EvaluationPlan::new(config.evaluation_every, config.evaluation_episodes);
        let (agent, mut rng) = CartPoleAgent::seeded(&config.hidden_sizes, plan, seed)?;
        let envs = Envs::new(config.num_envs, &mut rng);
        Ok(A2cTrainer {
            agent,
            rng,
            envs,
            rollout: Rollout::default(),
            loss_ws: LossWorkspace::default(),
            config,
        })
    }

    /// One rollout and one gradient step; the report carries an evaluation every
    /// `evaluation_every` updates and after the last one.
    pub fn step(&mut self) -> Result<UpdateReport> {
        if self.is_finished() {
            return Err(Error::finished(StepUnit::Update, self.config.num_updates));
        }
        let cfg = self.config.clone();
        let update = self.agent.updates_done() + 1;
        // Linear anneal: the first update uses the full rate, the last 1/num_updates of it.
        let lr = if cfg.anneal_lr {
            (1.0 - (update - 1) as f64 / cfg.num_updates as f64) * cfg.learning_rate
        } else {
            cfg.learning_rate
        };

        // 1. Rollout with the current policy: N environments × T steps.
        let spec = cfg.rollout_spec();
        let finished_returns = self.rollout.collect(
            &mut self.envs,
            &self.agent.actor,
            &self.agent.critic,
            &spec,
            &mut self.rng,
        );
        self.agent.collected(cfg.batch_size() as u64);

        // 2. GAE over the buffer with the two masks; value targets R = A + V.
        self.rollout.compute_advantages(&spec, update)?;
        let ro = &self.rollout;
        let explained_variance = explained_variance(&ro.values, &ro.returns);

        // 3. Advantages, normalised over the rollout if asked (population std, as REINFORCE).
        let mut advantages = ro.advantages.clone();
        if cfg.norm_adv {
            let (mean, std) = mean_std(&advantages);
            let scale = 1.0 / (std + 1e-8);
            advantages.iter_mut().for_each(|a| *a = (*a - mean) * scale);
        }

        // 4. One gradient step on the whole rollout: policy gradient, critic, entropy.
        let batch = Batch {
            obs: &ro.obs,
            actions: &ro.actions,
            advantages: &advantages,
            returns: &ro.returns,
        };
        let coef = LossCoefficients {
            ent_coef: cfg.ent_coef,
            vf_coef: cfg.vf_coef,
        };
        let a = &mut self.agent;
        crate::train::report_stage(crate::train::Stage::Minibatch {
            epoch: 1,
            epochs: 1,
            minibatch: 1,
            minibatches: 1,
        });
        let parts = a2c_loss_and_gradients(
            &a.actor,
            &a.critic,
            &batch,
            &coef,
            &mut self.loss_ws,
            &mut a.actor_grads,
            &mut a.critic_grads,
        );
        if !parts.loss.is_finite() {
            return Err(Error::diverged(StepUnit::Update, update, Quantity::Loss));
        }
        let grad_norm = clip_grad_norm(
            &mut [&mut a.actor_grads, &mut a.critic_grads],
            cfg.max_grad_norm,
        );
        if !grad_norm.is_finite() {
            return Err(Error::diverged(
                StepUnit::Update,
                update,
                Quantity::Gradient,
            ));
        }
        a.actor_adam.step(a.actor.params_mut(), &a.actor_grads, lr);
        a.critic_adam
            .step(a.critic.params_mut(), &a.critic_grads, lr);
        a.check_finite(update)?;

        // 5. A separate greedy evaluation on its own environments, when due.
        let evaluation = a.finish_update(update, update >= cfg.num_updates);

        // 6. The report.
        Ok(UpdateReport {
            update,
            env_steps: self.agent.env_steps(),
            learning_rate: lr,
            policy_loss: parts.policy_loss,
            value_loss: parts.value_loss,
            entropy: parts.entropy,
            explained_variance,
            grad_norm,
            episodes_finished: finished_returns.len(),
            mean_episode_return: mean_return(&finished_returns),
            value_at_truncation: mean_return(&self.rollout.truncation_values),
            evaluation,
        })
    }
}

impl Trainer for A2cTrainer {
    type Config = A2cConfig;
    type Report = UpdateReport;
    type Summary = RunSummary;
    type Evaluation = Evaluation;
    type Record = dyn AgentView;
    const NAME: &'static str = "a2c";
    const STEP: StepUnit = StepUnit::Update;

    fn new(config: A2cConfig, seed: u64) -> Result<Self> {
        A2cTrainer::new(config, seed)
    }
    fn config(&self) -> &A2cConfig {
        &self.config
    }
    fn step(&mut self) -> Result<UpdateReport> {
        A2cTrainer::step(self)
    }
    fn is_finished(&self) -> bool {
        self.agent.updates_done() >= self.config.num_updates
    }
    fn record(&self) -> &Self::Record {
        &self.agent
    }
    fn planned(config: &A2cConfig) -> Progress {
        Progress {
            done: 0,
            total: config.total_env_steps(),
            unit: ProgressUnit::EnvSteps,
            steps: config.num_updates as u64,
        }
    }
    fn cost(config: &A2cConfig) -> crate::train::cost::Cost {
        use crate::train::cost::{rollout_trainer, CartPoleNets, Cost, Evaluations};
        let nets = CartPoleNets {
            hidden: &config.hidden_sizes,
            scalar: 8,
        };
        // One gradient step over the whole rollout.
        let batch = config.batch_size();
        let evaluations = Evaluations {
            every: config.evaluation_every,
            episodes: config.evaluation_episodes,
        };
        let (updates, envs) = (config.num_updates, config.num_envs);
        let cost = rollout_trainer(nets, batch, batch, 1, updates, envs, evaluations);
        Cost {
            drivers: vec!["num_envs", "num_steps", "hidden_sizes"],
            ..cost
        }
    }
}

impl CartPoleTrainer for A2cTrainer {
    fn headline(config: &A2cConfig, profile: &str) -> String {
        format!(
            "A2C on CartPole-v1, profile {profile}: {} updates × {} transitions, one step each",
            config.num_updates,
            config.batch_size()
        )
    }
}
