//! REINFORCE on CartPole-v1, step by step: one [`ReinforceTrainer::step`] = a batch of whole
//! episodes with the current policy + one gradient step, in the order of lessons 1–3:
//! settings ([`config`]) → whole episodes ([`rollout`]) → the weight of each step (G₀, G_t or
//! γ^t·G_t) → the baseline (none, the batch mean, or a critic fitted to the batch) and optional
//! normalisation → one Adam step on −mean log π(a|s)·A ([`loss`]) → greedy evaluation → report
//! ([`report`]).
//!
//! The same CartPole, tanh MLP, orthogonal initialisation, Adam and global gradient-norm
//! clipping as PPO, and the same evaluation protocol ([`crate::train::cartpole`]). The trainer
//! is pure computation (no clock, no threads, no I/O): the same code runs in the CLI, the tests
//! and a browser Web Worker, and the same seed gives a bit-identical run. Every variant of the
//! same seed starts from the same networks and collects the same first batch.

pub mod config;
pub mod loss;
pub mod report;
pub mod rollout;

pub use config::{Baseline, ReinforceConfig, ReinforceProfile, Weight};
pub use loss::{
    policy_loss_and_gradients, value_loss_and_gradients, LossWorkspace, PolicyBatch,
    PolicyLossParts,
};
pub use report::UpdateReport;
pub use rollout::{advantages, Batch};

use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::{clip_grad_norm, MlpCache};
use crate::rng::Rng;
use crate::train::cartpole::agent::{explained_variance, AgentView, EvaluationPlan};
use crate::train::cartpole::{
    mean_return, mean_std, CartPoleAgent, CartPoleTrainer, Evaluation, RunSummary,
};
use crate::train::{Progress, ProgressUnit, Trainer};

/// The fewest steps a CartPole-v1 episode lasts, whatever the start and the actions (checked
/// by a test): with it, the most updates a budget allows.
pub const MIN_EPISODE_STEPS: usize = 8;

/// A REINFORCE run on CartPole-v1 that advances one update per [`ReinforceTrainer::step`].
///
/// ```
/// use pgbook::train::reinforce::{ReinforceConfig, ReinforceTrainer};
/// use pgbook::train::{cartpole::CartPoleTrainer, Trainer};
/// let config = ReinforceConfig { env_step_budget: 8_000, ..ReinforceConfig::smoke() };
/// let mut trainer = ReinforceTrainer::new(config, 11)?;
/// while !trainer.is_finished() {
///     let report = trainer.step()?;
///     assert_eq!(report.episodes_finished, 8);
/// }
/// assert!(trainer.env_steps() <= 8_000);
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ReinforceTrainer {
    config: ReinforceConfig,
    /// The policy (the agent's actor), the critic V(s) — fitted on each batch when the
    /// baseline is learned, created for every variant, so that all variants of a seed share
    /// the policy's initialisation and the random stream — the counters and evaluations.
    agent: CartPoleAgent,
    /// Environment resets and action sampling.
    rng: Rng,
    batch: Batch,
    rollout_cache: MlpCache,
    loss_ws: LossWorkspace,
    values: Vec<f64>,
}

impl ReinforceTrainer {
    /// A fresh run: validated config, orthogonally initialised policy (output gain 0.01: the
    /// first policy is near uniform) and critic, and an evaluation of the untrained policy at
    /// 0 transitions.
    pub fn new(config: ReinforceConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let plan = EvaluationPlan::new(config.evaluation_every, config.evaluation_episodes);
        let (agent, rng) = CartPoleAgent::seeded(&config.hidden_sizes, plan, seed)?;
        Ok(ReinforceTrainer {
            agent,
            rng,
            batch: Batch::default(),
            rollout_cache: MlpCache::default(),
            loss_ws: LossWorkspace::default(),
            values: Vec::new(),
            config,
        })
    }

    /// One batch of whole episodes and one policy-gradient step; the report carries an
    /// evaluation every `evaluation_every` updates and after the last one.
    pub fn step(&mut self) -> Result<UpdateReport> {
        if self.is_finished() {
            // The next batch could exceed the budget.
            return Err(Error::finished(StepUnit::Update, self.agent.updates_done()));
        }
        let cfg = self.config.clone();
        let update = self.agent.updates_done() + 1;

        // 1. Whole episodes with the current policy, side by side.
        self.batch.collect(
            cfg.episodes_per_update,
            &self.agent.actor,
            &mut self.rng,
            &mut self.rollout_cache,
        );
        let n = self.batch.len();
        self.agent.collected(n as u64);

        // 2. The weight of every step: G₀, G_t or γ^t·G_t, each episode on its own.
        let weights = self.batch.weights(cfg.weight, cfg.gamma)?;

        // 3. The baseline. A learned V(s) is first fitted to this batch's weights
        //    (`value_steps` full-batch Adam steps on ½·mean (V − weight)²), then evaluated.
        let (value_loss, values) = if cfg.baseline == Baseline::Value {
            let before = self.fit_critic(&weights, &cfg, update)?;
            let values = self.critic_values(n);
            (Some(before), Some(values))
        } else {
            (None, None)
        };
        let explained_variance = values
            .as_deref()
            .and_then(|v| explained_variance(v, &weights));

        // 4. Advantages: weight − baseline, z-scored over the batch if asked.
        let adv = advantages(&weights, cfg.baseline, values.as_deref(), cfg.norm_adv)?;

        // 5. One policy step on L = −(1/n) Σ log π(a|s)·A over the batch's n steps, its
        //    gradient clipped to `max_grad_norm`.
        let pb = PolicyBatch {
            obs: &self.batch.obs,
            actions: &self.batch.actions,
            advantages: &adv,
        };
        let a = &mut self.agent;
        let parts = policy_loss_and_gradients(&a.actor, &pb, &mut self.loss_ws, &mut a.actor_grads);
        if !parts.loss.is_finite() {
            return Err(Error::diverged(StepUnit::Update, update, Quantity::Loss));
        }
        let grad_norm = clip_grad_norm(&mut [&mut a.actor_grads], cfg.max_grad_norm);
        if !grad_norm.is_finite() {
            return Err(Error::diverged(
                StepUnit::Update,
                update,
                Quantity::Gradient,
            ));
        }
        a.actor_adam
            .step(a.actor.params_mut(), &a.actor_grads, cfg.learning_rate);
        a.check_finite(update)?;

        // 6. A separate greedy evaluation on its own environments, when due.
        let last = self.is_finished();
        let evaluation = self.agent.finish_update(update, last);

        // 7. The report.
        let returns = self.batch.episode_returns();
        let (weight_mean, weight_std) = mean_std(&weights);
        Ok(UpdateReport {
            update,
            env_steps: self.agent.env_steps(),
            batch_steps: n,
            learning_rate: cfg.learning_rate,
            policy_loss: parts.loss,
            entropy: parts.entropy,
            grad_norm,
            weight_mean,
            weight_std,
            advantage_std: mean_std(&adv).1,
            value_loss,
            explained_variance,
            episodes_finished: returns.len(),
            mean_episode_return: mean_return(&returns),
            evaluation,
        })
    }

    /// Fits the critic to `targets` on the current batch: `value_steps` full-batch Adam steps,
    /// each gradient clipped to `max_grad_norm`. Returns the loss before the first step.
    fn fit_critic(&mut self, targets: &[f64], cfg: &ReinforceConfig, update: usize) -> Result<f64> {
        let mut first = None;
        for step in 1..=cfg.value_steps as u64 {
            let steps = cfg.value_steps as u64;
            crate::train::report_stage(crate::train::Stage::Critic { step, steps });
            let a = &mut self.agent;
            let loss = value_loss_and_gradients(
                &a.critic,
                &self.batch.obs,
                targets,
                &mut self.loss_ws,
                &mut a.critic_grads,
                &mut self.values,
            );
            if !loss.is_finite() {
                return Err(Error::diverged(
                    StepUnit::Update,
                    update,
                    Quantity::ValueEstimate,
                ));
            }
            first.get_or_insert(loss);
            let norm = clip_grad_norm(&mut [&mut a.critic_grads], cfg.max_grad_norm);
            if !norm.is_finite() {
                return Err(Error::diverged(
                    StepUnit::Update,
                    update,
                    Quantity::Gradient,
                ));
            }
            a.critic_adam.step(
                a.critic.params_mut(),
                &a.critic_grads,
                cfg.value_learning_rate,
            );
        }
        self.agent.check_finite(update)?;
        Ok(first.unwrap_or(0.0))
    }

    /// V(s) of the batch's `n` steps with the critic as it is now.
    fn critic_values(&mut self, n: usize) -> Vec<f64> {
        self.agent
            .critic
            .forward(&self.batch.obs, n, &mut self.rollout_cache)
            .to_vec()
    }

    /// The last update's batch of episodes.
    pub fn batch(&self) -> &Batch {
        &self.batch
    }
}

impl Trainer for ReinforceTrainer {
    type Config = ReinforceConfig;
    type Report = UpdateReport;
    type Summary = RunSummary;
    type Evaluation = Evaluation;
    type Record = dyn AgentView;
    const NAME: &'static str = "reinforce";
    const STEP: StepUnit = StepUnit::Update;

    fn new(config: ReinforceConfig, seed: u64) -> Result<Self> {
        ReinforceTrainer::new(config, seed)
    }
    fn config(&self) -> &ReinforceConfig {
        &self.config
    }
    fn step(&mut self) -> Result<UpdateReport> {
        ReinforceTrainer::step(self)
    }
    /// Whether the run is over: the next batch could take it past `env_step_budget`.
    fn is_finished(&self) -> bool {
        self.agent.env_steps() as usize + self.config.max_batch_steps()
            > self.config.env_step_budget
    }
    fn record(&self) -> &Self::Record {
        &self.agent
    }
    /// `total` is the budget (a run ends up to one batch of 500-step episodes short of it);
    /// `steps` the most updates it allows (every episode as short as CartPole's can be): the
    /// number of updates depends on how long the episodes last.
    fn planned(config: &ReinforceConfig) -> Progress {
        let shortest = config.episodes_per_update * MIN_EPISODE_STEPS;
        let most = config
            .env_step_budget
            .saturating_sub(config.max_batch_steps())
            / shortest.max(1)
            + 1;
        Progress {
            done: 0,
            total: config.env_step_budget as u64,
            unit: ProgressUnit::EnvSteps,
            steps: most as u64,
        }
    }
    fn cost(config: &ReinforceConfig) -> crate::train::cost::Cost {
        use crate::train::cost::EVALUATION_EPISODE_STEPS as EPISODE_STEPS;
        use crate::train::cost::{per_token_work, CartPoleNets, Cost, Evaluations};
        let nets = CartPoleNets {
            hidden: &config.hidden_sizes,
            scalar: 8,
        };
        // A batch of whole episodes, each up to 500 steps, through both networks at once.
        let bytes = batch_bytes(config, config.max_batch_steps());
        let steps = config.env_step_budget as f64;
        // Sampling (the actor), the policy's forward and backward; a learned baseline adds the
        // critic's fit (forward and backward value_steps times, then its values).
        let sampling = nets.actor_forward_flops(1) + per_token_work(1.0);
        let critic = nets.forward_flops(1) - nets.actor_forward_flops(1);
        let fit = match config.baseline {
            Baseline::Value => critic * (3.0 * config.value_steps as f64 + 1.0),
            _ => 0.0,
        };
        let updates = steps / (config.episodes_per_update as f64 * EPISODE_STEPS);
        // Adam steps: the policy's, and the critic's fit (both networks' count, roughly).
        let optimiser = nets.optimiser_work() * (config.value_steps as f64 + 1.0) * updates;
        let per_step = sampling + 3.0 * nets.actor_forward_flops(1) + fit + optimiser / steps;
        let evaluations = Evaluations {
            every: config.evaluation_every,
            episodes: config.evaluation_episodes,
        };
        let work = per_step * steps + evaluations.work(nets, updates);
        Cost {
            bytes,
            work,
            work_max: work,
            rollout_share: sampling / per_step,
            drivers: vec!["episodes_per_update", "hidden_sizes"],
        }
    }
}

impl CartPoleTrainer for ReinforceTrainer {
    fn headline(config: &ReinforceConfig, profile: &str) -> String {
        use crate::train::settings::Settings;
        let json = config.to_json();
        let text = |name: &str| {
            json.get(name).map_or(String::new(), |v| match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
        };
        format!(
            "REINFORCE on CartPole-v1, profile {profile}: weight {}, baseline {}, normalisation {}, \
             {} episodes per update, budget {} env steps",
            text("weight"),
            text("baseline"),
            if config.norm_adv { "on" } else { "off" },
            config.episodes_per_update,
            config.env_step_budget
        )
    }
}

#[cfg(test)]
mod tests;

/// The bytes a REINFORCE update of `batch` collected steps holds: the networks with Adam, the
/// episodes' buffer and both networks' activations over the whole batch.
pub fn batch_bytes(config: &ReinforceConfig, batch: usize) -> u64 {
    use crate::train::cost::{transition_bytes, CartPoleNets};
    let nets = CartPoleNets {
        hidden: &config.hidden_sizes,
        scalar: 8,
    };
    nets.parameter_bytes()
        + batch as u64 * transition_bytes(8)
        + nets.batch_bytes(batch)
        + nets.batch_bytes(config.episodes_per_update)
}
