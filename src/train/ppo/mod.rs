//! PPO on CartPole-v1, step by step: one [`PpoTrainer::step`] = one fixed rollout from N
//! vectorised environments + one PPO update, in the order the course lists them:
//! settings ([`config`]) → rollout and GAE ([`rollout`]) → epochs of minibatch steps on the
//! clipped loss ([`loss`]) → greedy evaluation → report ([`report`]).
//!
//! The trainer is pure computation (no clock, no threads, no I/O), so the same code runs in the
//! CLI, the tests and a browser Web Worker; reports and configs are serde values. The same seed
//! gives a bit-identical run.
//!
//! The algorithm is [`Ppo<S>`], generic over the networks' scalar; [`PpoTrainer`] picks `S`
//! from the `precision` setting (f32 or f64). Rewards, advantages, the loss and every reported
//! number stay f64.

pub mod config;
pub mod loss;
pub mod report;

pub use config::{PpoConfig, PpoProfile};
pub use loss::{ppo_loss_and_gradients, LossCoefficients, LossParts, LossWorkspace, Minibatch};
pub use report::UpdateReport;

use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::{clip_grad_norm, Precision, Scalar};
use crate::rl::DiagnosticsAccumulator;
use crate::rng::{self, Rng};
use crate::train::cartpole::agent::{explained_variance, AgentView, EvaluationPlan};
use crate::train::cartpole::rollout::{Envs, Gathered, Rollout};
use crate::train::cartpole::{mean_return, CartPoleAgent, CartPoleTrainer, Evaluation, RunSummary};
use crate::train::{Progress, ProgressUnit, Trainer};

/// A PPO run on CartPole-v1 with its networks in `S`: the algorithm ([`PpoTrainer`] holds one
/// of these).
#[derive(Debug, Clone)]
pub struct Ppo<S: Scalar> {
    config: PpoConfig,
    /// Actor, critic, their optimisers, the counters and the evaluations.
    agent: CartPoleAgent<S>,
    /// Action sampling, environment resets and minibatch shuffles.
    rng: Rng,
    envs: Envs<S>,
    rollout: Rollout<S>,
    gathered: Gathered<S>,
    loss_ws: LossWorkspace<S>,
}

impl<S: Scalar> Ppo<S> {
    /// A fresh run: validated config, orthogonally initialised actor and critic, N reset
    /// environments, and an evaluation of the untrained policy at 0 transitions.
    pub fn new(config: PpoConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let plan = EvaluationPlan::new(config.evaluation_every, config.evaluation_episodes);
        let (agent, mut rng) = CartPoleAgent::seeded(&config.hidden_sizes, plan, seed)?;
        let envs = Envs::new(config.num_envs, &mut rng);
        Ok(Ppo {
            agent,
            rng,
            envs,
            rollout: Rollout::default(),
            gathered: Gathered::default(),
            loss_ws: LossWorkspace::default(),
            config,
        })
    }

    /// One rollout and one PPO update; the report carries an evaluation every
    /// `evaluation_every` updates and after the last one.
    pub fn step(&mut self) -> Result<UpdateReport> {
        if self.is_finished() {
            return Err(Error::finished(StepUnit::Update, self.config.num_updates));
        }
        let cfg = self.config.clone();
        // Linear anneal: the first update uses the full rate, the last 1/num_updates of it.
        let frac = 1.0 - self.agent.updates_done() as f64 / cfg.num_updates as f64;
        let lr = if cfg.anneal_lr {
            frac * cfg.learning_rate
        } else {
            cfg.learning_rate
        };
        let clip = match cfg.clip_coef {
            Some(eps) if cfg.anneal_clip => Some(frac * eps),
            eps => eps,
        };
        let update = self.agent.updates_done() + 1;

        // 1. Rollout with the current policy; old log-probs and values are stored.
        let finished_returns = self.rollout.collect(
            &mut self.envs,
            &self.agent.actor,
            &self.agent.critic,
            &cfg.rollout_spec(),
            &mut self.rng,
        );
        self.agent.collected(cfg.batch_size() as u64);

        // 2. GAE over the buffer with the two masks (cut at each environment's last record),
        //    then value targets R = A + V_old.
        self.rollout
            .compute_advantages(&cfg.rollout_spec(), update)?;
        let explained_variance = explained_variance(&self.rollout.values, &self.rollout.returns);

        // 3. Several epochs of shuffled minibatches.
        let coef = LossCoefficients {
            clip_epsilon: clip.unwrap_or(f64::INFINITY),
            value_clip: clip.filter(|_| cfg.clip_vloss),
            ent_coef: cfg.ent_coef,
            vf_coef: cfg.vf_coef,
        };
        let mut order: Vec<usize> = (0..cfg.batch_size()).collect();
        // Without clipping, «вне 1 ± ε» is counted against the ε the run would have had (the
        // full profile's, annealed alike), so lesson 5 can compare it with the clipped runs.
        let reference = PpoConfig::full().clip_coef.unwrap_or(f64::INFINITY);
        let reference = if cfg.anneal_clip {
            frac * reference
        } else {
            reference
        };
        let mut diag = DiagnosticsAccumulator::with_reference_epsilon(reference);
        let (mut sums, mut grad_norm_sum, mut steps) = ([0.0; 3], 0.0, 0usize);
        let (epochs, minibatches) = (
            cfg.update_epochs,
            cfg.batch_size().div_ceil(cfg.minibatch_size),
        );
        for epoch in 1..=epochs {
            rng::shuffle(&mut self.rng, &mut order);
            let mut last_kl = 0.0;
            for (minibatch, idx) in (1..).zip(order.chunks(cfg.minibatch_size)) {
                crate::train::report_stage(crate::train::Stage::Minibatch {
                    epoch: epoch as u64,
                    epochs: epochs as u64,
                    minibatch,
                    minibatches: minibatches as u64,
                });
                let (parts, grad_norm) = self.minibatch_step(idx, &coef, lr, Some(&mut diag));
                if !parts.loss.is_finite() {
                    return Err(Error::diverged(StepUnit::Update, update, Quantity::Loss));
                }
                if !grad_norm.is_finite() {
                    return Err(Error::diverged(
                        StepUnit::Update,
                        update,
                        Quantity::Gradient,
                    ));
                }
                sums[0] += parts.policy_loss;
                sums[1] += parts.value_loss;
                sums[2] += parts.entropy;
                grad_norm_sum += grad_norm;
                steps += 1;
                last_kl = parts.approx_kl;
            }
            // Early stop on the last minibatch's KL, checked after each epoch as CleanRL does.
            if cfg.target_kl.is_some_and(|target| last_kl > target) {
                break;
            }
        }
        self.agent.check_finite(update)?;
        let d = diag
            .finish()
            .ok_or_else(|| Error::diverged(StepUnit::Update, update, Quantity::Ratio))?;

        // 4. A separate greedy evaluation on its own environments, when due.
        let evaluation = self.agent.finish_update(update, update >= cfg.num_updates);

        // 5. The report.
        let nf = steps as f64;
        Ok(UpdateReport {
            update,
            env_steps: self.agent.env_steps(),
            learning_rate: lr,
            clip_epsilon: clip,
            policy_loss: sums[0] / nf,
            value_loss: sums[1] / nf,
            entropy: sums[2] / nf,
            approx_kl: d.approx_kl_nonnegative,
            active_clip_fraction: d.active_clip_fraction,
            ratio_outside_fraction: d.ratio_outside_fraction,
            explained_variance,
            grad_norm: grad_norm_sum / nf,
            episodes_finished: finished_returns.len(),
            mean_episode_return: mean_return(&finished_returns),
            value_at_truncation: mean_return(&self.rollout.truncation_values),
            evaluation,
        })
    }

    /// Gathers the minibatch `idx`, normalises its advantages, computes loss and gradients,
    /// clips the global gradient norm and takes an Adam step on both networks.
    fn minibatch_step(
        &mut self,
        idx: &[usize],
        coef: &LossCoefficients,
        lr: f64,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> (LossParts, f64) {
        let g = &mut self.gathered;
        g.gather(&self.rollout, idx, self.config.norm_adv);
        let mb = Minibatch {
            obs: &g.obs,
            actions: &g.actions,
            old_log_probs: &g.log_probs,
            old_values: &g.values,
            advantages: &g.advantages,
            returns: &g.returns,
        };
        let a = &mut self.agent;
        let parts = ppo_loss_and_gradients(
            &a.actor,
            &a.critic,
            &mb,
            coef,
            &mut self.loss_ws,
            &mut a.actor_grads,
            &mut a.critic_grads,
            diagnostics,
        );
        // Global gradient-norm clipping over actor and critic together.
        let norm = clip_grad_norm(
            &mut [&mut a.actor_grads, &mut a.critic_grads],
            self.config.max_grad_norm,
        );
        a.actor_adam.step(a.actor.params_mut(), &a.actor_grads, lr);
        a.critic_adam
            .step(a.critic.params_mut(), &a.critic_grads, lr);
        (parts, norm)
    }

    /// Runs `count` more minibatch steps of `minibatch_size` on the last rollout (the
    /// benchmark's unit of work; it changes the networks like training does).
    pub fn train_minibatches(&mut self, count: usize) -> Result<()> {
        let batch = self.config.batch_size();
        if self.rollout.returns.len() != batch {
            // Needs a rollout: call step() first.
            let got = vec![self.rollout.returns.len()];
            return Err(Error::shape("rollout", vec![batch], got));
        }
        let coef = LossCoefficients {
            clip_epsilon: self.config.clip_coef.unwrap_or(f64::INFINITY),
            value_clip: self.config.clip_coef.filter(|_| self.config.clip_vloss),
            ent_coef: self.config.ent_coef,
            vf_coef: self.config.vf_coef,
        };
        let mut order: Vec<usize> = (0..batch).collect();
        let lr = self.config.learning_rate;
        for _ in 0..count {
            rng::shuffle(&mut self.rng, &mut order);
            let (parts, _) =
                self.minibatch_step(&order[..self.config.minibatch_size], &coef, lr, None);
            if !parts.loss.is_finite() {
                return Err(Error::diverged(
                    StepUnit::Update,
                    self.agent.updates_done(),
                    Quantity::Loss,
                ));
            }
        }
        Ok(())
    }

    /// The run's configuration.
    pub fn config(&self) -> &PpoConfig {
        &self.config
    }

    /// Whether all `num_updates` updates are done.
    pub fn is_finished(&self) -> bool {
        self.agent.updates_done() >= self.config.num_updates
    }

    /// The agent: networks, counters, evaluations.
    pub fn agent(&self) -> &CartPoleAgent<S> {
        &self.agent
    }
}

/// A PPO run on CartPole-v1 that advances one update per [`PpoTrainer::step`], its networks
/// in the scalar of its `precision` setting.
///
/// ```
/// use pgbook::train::ppo::{PpoConfig, PpoTrainer};
/// use pgbook::train::{cartpole::CartPoleTrainer, Trainer};
/// let config = PpoConfig { num_updates: 4, ..PpoConfig::smoke() };
/// let mut trainer = PpoTrainer::new(config, 11)?;
/// while !trainer.is_finished() {
///     let report = trainer.step()?;
///     assert!(report.approx_kl >= 0.0);
/// }
/// assert_eq!(trainer.env_steps(), 4 * 256);
/// let frames = trainer.greedy_episode(7); // CartPole states for an animation
/// assert!(frames.len() >= 2);
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PpoTrainer {
    run: ByPrecision,
}

#[derive(Debug, Clone)]
enum ByPrecision {
    F32(Ppo<f32>),
    F64(Ppo<f64>),
}

/// `$body` with `$t` bound to the run, whatever its scalar.
macro_rules! by_precision {
    ($self:expr, $t:ident => $body:expr) => {
        match $self {
            ByPrecision::F32($t) => $body,
            ByPrecision::F64($t) => $body,
        }
    };
}

impl PpoTrainer {
    /// A fresh run ([`Ppo::new`]) in the precision `config` names.
    pub fn new(config: PpoConfig, seed: u64) -> Result<Self> {
        let run = match config.precision {
            Precision::F32 => ByPrecision::F32(Ppo::new(config, seed)?),
            Precision::F64 => ByPrecision::F64(Ppo::new(config, seed)?),
        };
        Ok(PpoTrainer { run })
    }

    /// One rollout and one PPO update ([`Ppo::step`]).
    pub fn step(&mut self) -> Result<UpdateReport> {
        by_precision!(&mut self.run, t => t.step())
    }

    /// [`Ppo::train_minibatches`].
    pub fn train_minibatches(&mut self, count: usize) -> Result<()> {
        by_precision!(&mut self.run, t => t.train_minibatches(count))
    }
}

impl Trainer for PpoTrainer {
    type Config = PpoConfig;
    type Report = UpdateReport;
    type Summary = RunSummary;
    type Evaluation = Evaluation;
    type Record = dyn AgentView;
    const NAME: &'static str = "ppo";
    const STEP: StepUnit = StepUnit::Update;

    fn new(config: PpoConfig, seed: u64) -> Result<Self> {
        PpoTrainer::new(config, seed)
    }
    fn config(&self) -> &PpoConfig {
        by_precision!(&self.run, t => t.config())
    }
    fn step(&mut self) -> Result<UpdateReport> {
        PpoTrainer::step(self)
    }
    fn is_finished(&self) -> bool {
        by_precision!(&self.run, t => t.is_finished())
    }
    /// The agent, whatever its networks' scalar: counters, evaluations, the networks in f64
    /// (exact: f32 widens without rounding), greedy episodes in the run's own precision.
    fn record(&self) -> &Self::Record {
        by_precision!(&self.run, t => t.agent())
    }
    fn planned(config: &PpoConfig) -> Progress {
        Progress {
            done: 0,
            total: config.total_env_steps(),
            unit: ProgressUnit::EnvSteps,
            steps: config.num_updates as u64,
        }
    }
    fn cost(config: &PpoConfig) -> crate::train::cost::Cost {
        use crate::train::cost::{rollout_trainer, CartPoleNets, Cost, Evaluations};
        let scalar = match config.precision {
            crate::nn::Precision::F32 => 4,
            crate::nn::Precision::F64 => 8,
        };
        let nets = CartPoleNets {
            hidden: &config.hidden_sizes,
            scalar,
        };
        let batch = config.batch_size();
        let evaluations = Evaluations {
            every: config.evaluation_every,
            episodes: config.evaluation_episodes,
        };
        let cost = rollout_trainer(
            nets,
            batch,
            config.minibatch_size,
            config.update_epochs,
            config.num_updates,
            config.num_envs,
            evaluations,
        );
        // The minibatch's activations or the rollout buffer, whichever is larger, first.
        let activations = nets.batch_bytes(config.minibatch_size.min(batch));
        let buffer = batch as u64 * crate::train::cost::transition_bytes(scalar);
        let mut drivers = vec!["minibatch_size", "hidden_sizes", "num_envs", "num_steps"];
        if buffer > activations {
            drivers.rotate_left(2);
        }
        Cost { drivers, ..cost }
    }
}

impl CartPoleTrainer for PpoTrainer {
    fn headline(config: &PpoConfig, profile: &str) -> String {
        format!(
            "PPO on CartPole-v1, profile {profile}: {} updates × {} transitions",
            config.num_updates,
            config.batch_size()
        )
    }
}

#[cfg(test)]
mod tests;
