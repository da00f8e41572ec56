//! PPO on CartPole-v1, step by step: one [`PpoTrainer::step`] = one fixed rollout from N
//! vectorised environments + one PPO update, in the order the course lists them.
//!
//! The trainer is pure computation (no clock, no threads, no I/O), so the same code runs in the
//! CLI, the tests and a browser Web Worker; reports and configs are serde values. The same seed
//! gives a bit-identical run.

use crate::envs::cartpole::{CartPole, NUM_ACTIONS, OBS_DIM};
use crate::error::{Error, Quantity, Result, Rule};
use crate::math;
use crate::nn::{categorical, clip_grad_norm, Adam, Mlp, MlpCache};
use crate::rl::{gae_advantages, DiagnosticsAccumulator};
use crate::rng::{self, Rng};
use serde::{Deserialize, Serialize};

/// Every hyperparameter of a run, in one place (CleanRL style).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PpoConfig {
    /// Parallel training environments N.
    pub num_envs: usize,
    /// Steps per environment in one rollout T (batch = N·T transitions).
    pub num_steps: usize,
    /// PPO updates in the whole run.
    pub num_updates: usize,
    /// Transitions per minibatch (at most N·T).
    pub minibatch_size: usize,
    /// Passes over the rollout per update.
    pub update_epochs: usize,
    /// Adam learning rate at the start.
    pub learning_rate: f64,
    /// Anneal the learning rate linearly to 0 over the run.
    pub anneal_lr: bool,
    /// Discount γ.
    pub gamma: f64,
    /// GAE λ.
    pub gae_lambda: f64,
    /// Clip range ε of the policy ratio (at the start, if annealed).
    pub clip_coef: f64,
    /// Anneal ε linearly to 0 together with the learning rate.
    pub anneal_clip: bool,
    /// Clip the value loss around the old values with the same ε.
    pub clip_vloss: bool,
    /// Entropy bonus coefficient.
    pub ent_coef: f64,
    /// Value loss coefficient.
    pub vf_coef: f64,
    /// Global gradient-norm limit (actor and critic together).
    pub max_grad_norm: f64,
    /// Normalise advantages per minibatch (mean 0, std 1).
    pub norm_adv: bool,
    /// Hidden layer widths of both the actor and the critic (separate networks).
    pub hidden_sizes: Vec<usize>,
    /// Greedy evaluation every this many updates (0: only after the last update).
    pub evaluation_every: usize,
    /// Episodes per evaluation (run side by side on their own seeded environments).
    pub evaluation_episodes: usize,
}

impl PpoConfig {
    /// The `full` profile: configuration A of the reference runs (8 envs × 32 steps, λ 0.8,
    /// γ 0.98, no entropy bonus, lr 1e-3 and ε 0.2 both annealed to 0, no value clipping,
    /// grad-norm 0.5) with 10 epochs of two minibatches of 128 instead of 20 epochs of one
    /// minibatch of 256: the same 20 Adam steps per update for half the computation. 390
    /// updates = 99,840 transitions, evaluated every 10 updates (2,560 transitions).
    pub fn full() -> Self {
        PpoConfig {
            num_envs: 8,
            num_steps: 32,
            num_updates: 390,
            minibatch_size: 128,
            update_epochs: 10,
            learning_rate: 1e-3,
            anneal_lr: true,
            gamma: 0.98,
            gae_lambda: 0.8,
            clip_coef: 0.2,
            anneal_clip: true,
            clip_vloss: false,
            ent_coef: 0.0,
            vf_coef: 0.5,
            max_grad_norm: 0.5,
            norm_adv: true,
            hidden_sizes: vec![64, 64],
            evaluation_every: 10,
            evaluation_episodes: 10,
        }
    }

    /// The `smoke` profile: the full configuration over a short run (120 updates = 30,720
    /// transitions, about a second), evaluated every 2 updates.
    pub fn smoke() -> Self {
        PpoConfig {
            num_updates: 120,
            evaluation_every: 2,
            ..Self::full()
        }
    }

    /// CleanRL's `ppo.py` defaults (4 envs × 128 steps, 4 epochs of 4 minibatches of 128,
    /// lr 2.5e-4 annealed, γ 0.99, λ 0.95, entropy 0.01, value clipping): the benchmark setting.
    pub fn cleanrl() -> Self {
        PpoConfig {
            num_envs: 4,
            num_steps: 128,
            num_updates: 195,
            minibatch_size: 128,
            update_epochs: 4,
            learning_rate: 2.5e-4,
            anneal_lr: true,
            gamma: 0.99,
            gae_lambda: 0.95,
            clip_coef: 0.2,
            anneal_clip: false,
            clip_vloss: true,
            ent_coef: 0.01,
            vf_coef: 0.5,
            max_grad_norm: 0.5,
            norm_adv: true,
            hidden_sizes: vec![64, 64],
            evaluation_every: 0,
            evaluation_episodes: 10,
        }
    }

    /// A profile by name: `smoke`, `full` or `cleanrl`.
    pub fn profile(name: &str) -> Result<Self> {
        match name {
            "smoke" => Ok(Self::smoke()),
            "full" => Ok(Self::full()),
            "cleanrl" => Ok(Self::cleanrl()),
            _ => Err(Error::unknown(
                "profile",
                name,
                &["smoke", "full", "cleanrl"],
            )),
        }
    }

    /// The seeds the course uses for a profile.
    pub fn default_seeds(profile: &str) -> Vec<u64> {
        match profile {
            "full" => vec![11, 37, 71, 101, 131],
            _ => vec![11, 37],
        }
    }

    /// Transitions per rollout, N·T.
    pub fn batch_size(&self) -> usize {
        self.num_envs * self.num_steps
    }

    /// Transitions of the whole run (for a progress bar).
    pub fn total_env_steps(&self) -> u64 {
        (self.num_updates * self.batch_size()) as u64
    }

    /// Checks every field; the error names the first offending one.
    pub fn validate(&self) -> Result<()> {
        // Bounds far above any sensible run keep every size product from overflowing.
        let counts = [
            ("num_envs", self.num_envs, 1 << 12),
            ("num_steps", self.num_steps, 1 << 20),
            ("num_updates", self.num_updates, 1 << 24),
            ("minibatch_size", self.minibatch_size, 1 << 24),
            ("update_epochs", self.update_epochs, 1 << 12),
            ("evaluation_episodes", self.evaluation_episodes, 1 << 12),
        ];
        for (name, v, max) in counts {
            check(name, v as f64, Rule::between(1.0, max as f64))?;
        }
        // num_envs × num_steps ≤ 2^24.
        let max_steps = (1usize << 24) / self.num_envs;
        check(
            "num_steps",
            self.num_steps as f64,
            Rule::at_most(max_steps as f64),
        )?;
        if self.minibatch_size > self.batch_size() {
            return Err(Error::range(
                "minibatch_size",
                Rule::NotAbove {
                    what: "num_envs × num_steps".into(),
                    limit: self.batch_size() as f64,
                },
                self.minibatch_size,
            ));
        }
        check("learning_rate", self.learning_rate, Rule::positive())?;
        check("gamma", self.gamma, Rule::between(0.0, 1.0))?;
        check("gae_lambda", self.gae_lambda, Rule::between(0.0, 1.0))?;
        let open_unit = Rule::Interval {
            min: Some(crate::error::Bound::open(0.0)),
            max: Some(crate::error::Bound::open(1.0)),
        };
        check("clip_coef", self.clip_coef, open_unit)?;
        check("ent_coef", self.ent_coef, Rule::non_negative())?;
        check("vf_coef", self.vf_coef, Rule::non_negative())?;
        check("max_grad_norm", self.max_grad_norm, Rule::positive())?;
        if self.hidden_sizes.is_empty() {
            return Err(Error::range("hidden_sizes", Rule::NonEmpty, 0usize));
        }
        for &w in &self.hidden_sizes {
            check("hidden_sizes", w as f64, Rule::between(1.0, 4096.0))?;
        }
        Ok(())
    }
}

fn check(arg: &str, x: f64, rule: Rule) -> Result<()> {
    if rule.admits(x) {
        Ok(())
    } else {
        Err(Error::range(arg, rule, x))
    }
}

/// CartPole-v1's "solved" level of an evaluation mean.
pub const SOLVED_THRESHOLD: f64 = 475.0;

/// The end-of-run numbers of one seed (also meaningful mid-run: "so far").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// The run's seed.
    pub seed: u64,
    /// Mean return of the latest evaluation.
    pub final_evaluation_mean: f64,
    /// Its population standard deviation.
    pub final_evaluation_std: f64,
    /// Training transitions collected.
    pub env_steps: u64,
    /// The first evaluation from which every later one is ≥ [`SOLVED_THRESHOLD`].
    pub solved_from_env_steps: Option<u64>,
}

/// One greedy evaluation of the current policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Updates done when evaluated.
    pub update: usize,
    /// Training transitions collected so far (the learning curve's x).
    pub env_steps: u64,
    /// Mean undiscounted return over the episodes.
    pub mean: f64,
    /// Population standard deviation of the returns.
    pub std: f64,
    /// Each episode's return.
    pub returns: Vec<f64>,
}

/// What one update did: losses, how far the policy moved, and an evaluation when one was due.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UpdateReport {
    /// 1-based update number.
    pub update: usize,
    /// Training transitions collected so far.
    pub env_steps: u64,
    /// Learning rate used in this update (after annealing).
    pub learning_rate: f64,
    /// Clip range ε used in this update.
    pub clip_epsilon: f64,
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
    /// The greedy evaluation after this update, if one was due.
    pub evaluation: Option<Evaluation>,
}

/// The inputs of one minibatch loss; slices are aligned, `obs` is `n × 4`.
#[derive(Debug, Clone, Copy)]
pub struct Minibatch<'a> {
    /// Observations (as f64 of the f32 observation), row-major.
    pub obs: &'a [f64],
    /// Actions taken.
    pub actions: &'a [usize],
    /// log π_old(a|s), stored at collection time.
    pub old_log_probs: &'a [f64],
    /// V_old(s), stored at collection time.
    pub old_values: &'a [f64],
    /// Advantages (already normalised if that is wanted).
    pub advantages: &'a [f64],
    /// Value targets (advantage + old value).
    pub returns: &'a [f64],
}

/// Coefficients of the PPO loss.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LossCoefficients {
    /// Policy ratio clip range ε.
    pub clip_epsilon: f64,
    /// Value clip range (the value moves at most this far from V_old), or none.
    pub value_clip: Option<f64>,
    /// Entropy bonus coefficient.
    pub ent_coef: f64,
    /// Value loss coefficient.
    pub vf_coef: f64,
}

/// The loss and its parts for one minibatch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LossParts {
    /// policy_loss − ent_coef·entropy + vf_coef·value_loss (what is minimised).
    pub loss: f64,
    /// −mean min(r·A, clip(r)·A).
    pub policy_loss: f64,
    /// ½ mean of the (possibly clipped) squared value error.
    pub value_loss: f64,
    /// Mean entropy of the policy.
    pub entropy: f64,
}

/// Scratch space of [`ppo_loss_and_gradients`], reused between calls.
#[derive(Debug, Clone, Default)]
pub struct LossWorkspace {
    actor_cache: MlpCache,
    critic_cache: MlpCache,
    d_logits: Vec<f64>,
    d_values: Vec<f64>,
}

/// The full PPO loss of a minibatch (clipped policy loss, optionally clipped value loss,
/// entropy bonus) and its exact gradients, **written** into `actor_grads` and `critic_grads`.
/// Samples are also added to `diagnostics` when given.
#[allow(clippy::too_many_arguments)]
pub fn ppo_loss_and_gradients(
    actor: &Mlp,
    critic: &Mlp,
    mb: &Minibatch<'_>,
    coef: &LossCoefficients,
    ws: &mut LossWorkspace,
    actor_grads: &mut [f64],
    critic_grads: &mut [f64],
    mut diagnostics: Option<&mut DiagnosticsAccumulator>,
) -> LossParts {
    let n = mb.actions.len();
    let nf = n as f64;
    let LossWorkspace {
        actor_cache,
        critic_cache,
        d_logits,
        d_values,
    } = ws;
    let logits = actor.forward(mb.obs, n, actor_cache);
    let values = critic.forward(mb.obs, n, critic_cache);
    d_logits.clear();
    d_logits.resize(n * NUM_ACTIONS, 0.0);
    d_values.clear();
    d_values.resize(n, 0.0);
    let (eps, mut policy_sum, mut value_sum, mut entropy_sum) = (coef.clip_epsilon, 0.0, 0.0, 0.0);
    let mut probs = [0.0; NUM_ACTIONS];
    for i in 0..n {
        let row = &logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS];
        let (log_prob, entropy) = categorical::log_prob_entropy(row, mb.actions[i], &mut probs);
        // Clipped policy objective: min(r·A, clip(r, 1−ε, 1+ε)·A). Where the clipped branch is
        // the minimum the ratio is outside the range and the gradient is zero.
        let log_ratio = log_prob - mb.old_log_probs[i];
        let ratio = math::exp(log_ratio);
        let adv = mb.advantages[i];
        let unclipped = ratio * adv;
        let clipped = ratio.clamp(1.0 - eps, 1.0 + eps) * adv;
        policy_sum -= unclipped.min(clipped);
        let d_log_prob = if unclipped <= clipped {
            -adv * ratio / nf
        } else {
            0.0
        };
        entropy_sum += entropy;
        let d_entropy = -coef.ent_coef / nf;
        categorical::backward(
            &probs,
            mb.actions[i],
            entropy,
            d_log_prob,
            d_entropy,
            &mut d_logits[i * NUM_ACTIONS..(i + 1) * NUM_ACTIONS],
        );
        if let Some(acc) = diagnostics.as_deref_mut() {
            acc.add(log_ratio, adv, eps);
        }
        // Value loss ½(V − R)², or with clipping ½ max((V − R)², (V_clip − R)²) where
        // V_clip = V_old + clip(V − V_old, −ε_v, ε_v): the value may not jump far in one update.
        let (v, target) = (values[i], mb.returns[i]);
        let err = v - target;
        let (half_sq, d_v) = match coef.value_clip {
            Some(c) => {
                let moved = v - mb.old_values[i];
                let v_clip = mb.old_values[i] + moved.clamp(-c, c);
                let err_clip = v_clip - target;
                if err * err >= err_clip * err_clip {
                    (0.5 * err * err, err)
                } else if moved.abs() < c {
                    (0.5 * err_clip * err_clip, err_clip)
                } else {
                    (0.5 * err_clip * err_clip, 0.0)
                }
            }
            None => (0.5 * err * err, err),
        };
        value_sum += half_sq;
        d_values[i] = coef.vf_coef * d_v / nf;
    }
    actor_grads.fill(0.0);
    critic_grads.fill(0.0);
    actor.backward(actor_cache, d_logits, actor_grads);
    critic.backward(critic_cache, d_values, critic_grads);
    let (policy_loss, value_loss, entropy) = (policy_sum / nf, value_sum / nf, entropy_sum / nf);
    LossParts {
        loss: policy_loss - coef.ent_coef * entropy + coef.vf_coef * value_loss,
        policy_loss,
        value_loss,
        entropy,
    }
}

/// The rollout buffer, environment-major: record `e·T + t` is env e's step t, so each
/// environment's trajectory is one contiguous slice for GAE.
#[derive(Debug, Clone, Default)]
struct Rollout {
    obs: Vec<f64>,
    actions: Vec<usize>,
    log_probs: Vec<f64>,
    values: Vec<f64>,
    rewards: Vec<f64>,
    /// V of the observation that followed (the real one, before any reset).
    next_values: Vec<f64>,
    /// True terminal: no bootstrap.
    terminated: Vec<bool>,
    /// The GAE recursion stops here: terminal, truncation, or the end of the buffer.
    trace_cuts: Vec<bool>,
    advantages: Vec<f64>,
    returns: Vec<f64>,
}

/// Minibatch gather buffers.
#[derive(Debug, Clone, Default)]
struct Gathered {
    obs: Vec<f64>,
    actions: Vec<usize>,
    log_probs: Vec<f64>,
    values: Vec<f64>,
    advantages: Vec<f64>,
    returns: Vec<f64>,
}

/// A PPO run on CartPole-v1 that advances one update per [`PpoTrainer::step`].
///
/// ```
/// use pgbook::train::ppo::{PpoConfig, PpoTrainer};
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
    config: PpoConfig,
    seed: u64,
    actor: Mlp,
    critic: Mlp,
    actor_adam: Adam,
    critic_adam: Adam,
    actor_grads: Vec<f64>,
    critic_grads: Vec<f64>,
    /// Action sampling, environment resets and minibatch shuffles.
    rng: Rng,
    envs: Vec<CartPole>,
    /// Current observation of each environment, as f64 of the f32 observation.
    obs: Vec<f64>,
    running_returns: Vec<f64>,
    update: usize,
    env_steps: u64,
    rollout: Rollout,
    gathered: Gathered,
    loss_ws: LossWorkspace,
    actor_cache: MlpCache,
    critic_cache: MlpCache,
    evaluations: Vec<Evaluation>,
}

/// Offset that gives the evaluation environments a seed stream of their own.
const EVALUATION_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

impl PpoTrainer {
    /// A fresh run: validated config, orthogonally initialised actor and critic, N reset
    /// environments, and an evaluation of the untrained policy at 0 transitions.
    pub fn new(config: PpoConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let mut rng = rng::seeded(seed);
        let mut sizes = vec![OBS_DIM];
        sizes.extend(&config.hidden_sizes);
        let root2 = std::f64::consts::SQRT_2;
        let actor = Mlp::new(
            &[&sizes[..], &[NUM_ACTIONS]].concat(),
            root2,
            0.01,
            &mut rng,
        )?;
        let critic = Mlp::new(&[&sizes[..], &[1]].concat(), root2, 1.0, &mut rng)?;
        let envs: Vec<CartPole> = (0..config.num_envs)
            .map(|_| CartPole::new(&mut rng))
            .collect();
        let obs = envs.iter().flat_map(obs_f64).collect();
        let mut trainer = PpoTrainer {
            actor_adam: Adam::new(actor.params().len()),
            critic_adam: Adam::new(critic.params().len()),
            actor_grads: vec![0.0; actor.params().len()],
            critic_grads: vec![0.0; critic.params().len()],
            running_returns: vec![0.0; config.num_envs],
            actor,
            critic,
            rng,
            envs,
            obs,
            update: 0,
            env_steps: 0,
            rollout: Rollout::default(),
            gathered: Gathered::default(),
            loss_ws: LossWorkspace::default(),
            actor_cache: MlpCache::default(),
            critic_cache: MlpCache::default(),
            evaluations: Vec::new(),
            seed,
            config,
        };
        let first = trainer.evaluate();
        trainer.evaluations.push(first);
        Ok(trainer)
    }

    /// The run's configuration.
    pub fn config(&self) -> &PpoConfig {
        &self.config
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Updates done so far.
    pub fn updates_done(&self) -> usize {
        self.update
    }

    /// Training transitions collected so far (over all environments).
    pub fn env_steps(&self) -> u64 {
        self.env_steps
    }

    /// Whether all `num_updates` updates are done.
    pub fn is_finished(&self) -> bool {
        self.update >= self.config.num_updates
    }

    /// Every evaluation so far, the untrained policy's first.
    pub fn evaluations(&self) -> &[Evaluation] {
        &self.evaluations
    }

    /// The latest evaluation, the transitions so far and when the run became stably solved.
    pub fn summary(&self) -> RunSummary {
        // `new` evaluates the untrained policy, so there is always a latest evaluation.
        let (mean, std) = self
            .evaluations
            .last()
            .map_or((0.0, 0.0), |e| (e.mean, e.std));
        RunSummary {
            seed: self.seed,
            final_evaluation_mean: mean,
            final_evaluation_std: std,
            env_steps: self.env_steps,
            solved_from_env_steps: solved_from_env_steps(&self.evaluations, SOLVED_THRESHOLD),
        }
    }

    /// The actor network (logits of the two actions).
    pub fn actor(&self) -> &Mlp {
        &self.actor
    }

    /// The critic network (V).
    pub fn critic(&self) -> &Mlp {
        &self.critic
    }

    /// One rollout and one PPO update; the report carries an evaluation every
    /// `evaluation_every` updates and after the last one.
    pub fn step(&mut self) -> Result<UpdateReport> {
        if self.is_finished() {
            // The run is finished: every configured update is done.
            let n = self.config.num_updates;
            return Err(Error::range("update", Rule::at_most(n as f64), n + 1));
        }
        let cfg = self.config.clone();
        // Linear anneal: the first update uses the full rate, the last 1/num_updates of it.
        let frac = 1.0 - self.update as f64 / cfg.num_updates as f64;
        let lr = if cfg.anneal_lr {
            frac * cfg.learning_rate
        } else {
            cfg.learning_rate
        };
        let clip = if cfg.anneal_clip {
            frac * cfg.clip_coef
        } else {
            cfg.clip_coef
        };
        let update = self.update + 1;

        // 1. Rollout with the current policy; old log-probs and values are stored.
        let finished_returns = self.collect_rollout();

        // 2. GAE per environment with the two masks, then value targets R = A + V_old.
        let (n_envs, t_len) = (cfg.num_envs, cfg.num_steps);
        let ro = &mut self.rollout;
        ro.advantages.clear();
        for e in 0..n_envs {
            let r = e * t_len..(e + 1) * t_len;
            let adv = gae_advantages(
                &ro.rewards[r.clone()],
                &ro.values[r.clone()],
                &ro.next_values[r.clone()],
                &ro.terminated[r.clone()],
                &ro.trace_cuts[r],
                cfg.gamma,
                cfg.gae_lambda,
            )
            .map_err(|_| Error::diverged(update, Quantity::ValueEstimate))?;
            ro.advantages.extend(adv);
        }
        ro.returns.clear();
        ro.returns
            .extend(ro.advantages.iter().zip(&ro.values).map(|(a, v)| a + v));
        let explained_variance = explained_variance(&ro.values, &ro.returns);

        // 3. Several epochs of shuffled minibatches.
        let coef = LossCoefficients {
            clip_epsilon: clip,
            value_clip: cfg.clip_vloss.then_some(clip),
            ent_coef: cfg.ent_coef,
            vf_coef: cfg.vf_coef,
        };
        let batch = cfg.batch_size();
        let mut order: Vec<usize> = (0..batch).collect();
        let mut diag = DiagnosticsAccumulator::default();
        let (mut sums, mut grad_norm_sum, mut steps) = ([0.0; 3], 0.0, 0usize);
        for _ in 0..cfg.update_epochs {
            rng::shuffle(&mut self.rng, &mut order);
            for idx in order.chunks(cfg.minibatch_size) {
                let (parts, grad_norm) = self.minibatch_step(idx, &coef, lr, Some(&mut diag));
                if !parts.loss.is_finite() {
                    return Err(Error::diverged(update, Quantity::Loss));
                }
                if !grad_norm.is_finite() {
                    return Err(Error::diverged(update, Quantity::Gradient));
                }
                sums[0] += parts.policy_loss;
                sums[1] += parts.value_loss;
                sums[2] += parts.entropy;
                grad_norm_sum += grad_norm;
                steps += 1;
            }
        }
        if self
            .actor
            .params()
            .iter()
            .chain(self.critic.params())
            .any(|p| !p.is_finite())
        {
            return Err(Error::diverged(update, Quantity::Parameters));
        }
        let d = diag
            .finish()
            .ok_or_else(|| Error::diverged(update, Quantity::Ratio))?;
        self.update = update;

        // 4. A separate greedy evaluation on its own environments.
        let due = cfg.evaluation_every > 0 && update % cfg.evaluation_every == 0;
        let evaluation = if due || self.is_finished() {
            let ev = self.evaluate();
            self.evaluations.push(ev.clone());
            Some(ev)
        } else {
            None
        };
        let nf = steps as f64;
        let episodes_finished = finished_returns.len();
        Ok(UpdateReport {
            update,
            env_steps: self.env_steps,
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
            episodes_finished,
            mean_episode_return: (episodes_finished > 0)
                .then(|| finished_returns.iter().sum::<f64>() / episodes_finished as f64),
            evaluation,
        })
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
            clip_epsilon: self.config.clip_coef,
            value_clip: self.config.clip_vloss.then_some(self.config.clip_coef),
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
                return Err(Error::diverged(self.update, Quantity::Loss));
            }
        }
        Ok(())
    }

    /// A greedy episode of the current policy from a reset drawn with `reset_seed`: the
    /// CartPole states from the initial one to the last (for an animation).
    pub fn greedy_episode(&self, reset_seed: u64) -> Vec<[f64; 4]> {
        let mut rng = rng::seeded(reset_seed);
        let mut env = CartPole::new(&mut rng);
        let mut cache = MlpCache::default();
        let mut states = vec![env.state()];
        loop {
            let logits = self.actor.forward(&obs_f64(&env), 1, &mut cache);
            let t = env.step(categorical::argmax(logits));
            states.push(env.state());
            if t.terminated || t.truncated {
                return states;
            }
        }
    }

    /// Collects T steps from each of the N environments into the rollout buffer; returns the
    /// returns of the training episodes that ended.
    fn collect_rollout(&mut self) -> Vec<f64> {
        let (n_envs, t_len) = (self.config.num_envs, self.config.num_steps);
        let size = n_envs * t_len;
        let ro = &mut self.rollout;
        ro.obs.resize(size * OBS_DIM, 0.0);
        ro.actions.resize(size, 0);
        ro.log_probs.resize(size, 0.0);
        ro.values.resize(size, 0.0);
        ro.rewards.resize(size, 0.0);
        ro.next_values.resize(size, 0.0);
        ro.terminated.resize(size, false);
        ro.trace_cuts.resize(size, false);
        let mut finished = Vec::new();
        let mut probs = [0.0; NUM_ACTIONS];
        let mut truncated_obs = Vec::new();
        for t in 0..t_len {
            let logits = self.actor.forward(&self.obs, n_envs, &mut self.actor_cache);
            let values = self
                .critic
                .forward(&self.obs, n_envs, &mut self.critic_cache);
            truncated_obs.clear();
            for e in 0..n_envs {
                let k = e * t_len + t;
                if t > 0 && !ro.terminated[k - 1] && !ro.trace_cuts[k - 1] {
                    // The previous step continued into this observation: bootstrap from it.
                    ro.next_values[k - 1] = values[e];
                }
                let row = &logits[e * NUM_ACTIONS..(e + 1) * NUM_ACTIONS];
                // Sample a ~ π(·|s), then store log π_old(a|s) computed exactly as the loss
                // recomputes it (so the first minibatch sees ratios of exactly 1).
                categorical::log_prob_entropy(row, 0, &mut probs); // fills `probs`
                let action = rng::categorical(&mut self.rng, &probs);
                let (log_prob, _) = categorical::log_prob_entropy(row, action, &mut probs);
                ro.obs[k * OBS_DIM..(k + 1) * OBS_DIM]
                    .copy_from_slice(&self.obs[e * OBS_DIM..(e + 1) * OBS_DIM]);
                ro.actions[k] = action;
                ro.log_probs[k] = log_prob;
                ro.values[k] = values[e];
                let tr = self.envs[e].step(action);
                ro.rewards[k] = tr.reward;
                ro.terminated[k] = tr.terminated;
                // The trace stops at a terminal, at a truncation and at the buffer's edge.
                ro.trace_cuts[k] = tr.terminated || tr.truncated || t + 1 == t_len;
                ro.next_values[k] = 0.0;
                self.running_returns[e] += tr.reward;
                if tr.truncated && !tr.terminated {
                    // Truncation is not an ending: bootstrap from V of the last real
                    // observation, which the reset below is about to replace.
                    truncated_obs.push((k, obs_f64(&self.envs[e])));
                }
                if tr.terminated || tr.truncated {
                    finished.push(self.running_returns[e]);
                    self.running_returns[e] = 0.0;
                    self.envs[e].reset(&mut self.rng);
                }
                let next = obs_f64(&self.envs[e]);
                self.obs[e * OBS_DIM..(e + 1) * OBS_DIM].copy_from_slice(&next);
            }
            for (k, o) in &truncated_obs {
                ro.next_values[*k] = self.critic.forward(o, 1, &mut self.critic_cache)[0];
            }
        }
        // The buffer's last record bootstraps from the observation that follows it.
        let values = self
            .critic
            .forward(&self.obs, n_envs, &mut self.critic_cache);
        for (e, (&v, env)) in values.iter().zip(&self.envs).enumerate() {
            let k = e * t_len + t_len - 1;
            // Already set when the episode ended there (terminal: none; truncation: V(final)).
            let cut_by_episode = ro.terminated[k] || env.steps() == 0;
            if !cut_by_episode {
                ro.next_values[k] = v;
            }
        }
        self.env_steps += size as u64;
        finished
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
        let (ro, g) = (&self.rollout, &mut self.gathered);
        g.obs.clear();
        g.actions.clear();
        g.log_probs.clear();
        g.values.clear();
        g.advantages.clear();
        g.returns.clear();
        for &k in idx {
            g.obs
                .extend_from_slice(&ro.obs[k * OBS_DIM..(k + 1) * OBS_DIM]);
            g.actions.push(ro.actions[k]);
            g.log_probs.push(ro.log_probs[k]);
            g.values.push(ro.values[k]);
            g.advantages.push(ro.advantages[k]);
            g.returns.push(ro.returns[k]);
        }
        if self.config.norm_adv {
            // Advantage normalisation per minibatch (unbiased std, + 1e-8 as CleanRL).
            let n = g.advantages.len() as f64;
            let mean = g.advantages.iter().sum::<f64>() / n;
            let var = g
                .advantages
                .iter()
                .map(|a| (a - mean) * (a - mean))
                .sum::<f64>()
                / (n - 1.0).max(1.0);
            let scale = 1.0 / (var.sqrt() + 1e-8);
            g.advantages
                .iter_mut()
                .for_each(|a| *a = (*a - mean) * scale);
        }
        let mb = Minibatch {
            obs: &g.obs,
            actions: &g.actions,
            old_log_probs: &g.log_probs,
            old_values: &g.values,
            advantages: &g.advantages,
            returns: &g.returns,
        };
        let parts = ppo_loss_and_gradients(
            &self.actor,
            &self.critic,
            &mb,
            coef,
            &mut self.loss_ws,
            &mut self.actor_grads,
            &mut self.critic_grads,
            diagnostics,
        );
        // Global gradient-norm clipping over actor and critic together.
        let norm = clip_grad_norm(
            &mut [&mut self.actor_grads, &mut self.critic_grads],
            self.config.max_grad_norm,
        );
        self.actor_adam
            .step(self.actor.params_mut(), &self.actor_grads, lr);
        self.critic_adam
            .step(self.critic.params_mut(), &self.critic_grads, lr);
        (parts, norm)
    }

    /// Greedy (argmax) evaluation: `evaluation_episodes` episodes side by side on environments
    /// reset from the run's evaluation seed (the same starts every time, so evaluations differ
    /// only through the policy).
    fn evaluate(&mut self) -> Evaluation {
        let count = self.config.evaluation_episodes;
        let mut rng = rng::seeded(self.seed.wrapping_add(EVALUATION_SEED_OFFSET));
        let mut envs: Vec<CartPole> = (0..count).map(|_| CartPole::new(&mut rng)).collect();
        let mut returns = vec![0.0; count];
        let mut active: Vec<usize> = (0..count).collect();
        let mut obs = Vec::with_capacity(count * OBS_DIM);
        while !active.is_empty() {
            obs.clear();
            obs.extend(active.iter().flat_map(|&e| obs_f64(&envs[e])));
            let logits = self
                .actor
                .forward(&obs, active.len(), &mut self.actor_cache);
            let mut still = Vec::with_capacity(active.len());
            for (row, &e) in logits.chunks_exact(NUM_ACTIONS).zip(&active) {
                let t = envs[e].step(categorical::argmax(row));
                returns[e] += t.reward;
                if !(t.terminated || t.truncated) {
                    still.push(e);
                }
            }
            active = still;
        }
        let (mean, std) = mean_std(&returns);
        Evaluation {
            update: self.update,
            env_steps: self.env_steps,
            mean,
            std,
            returns,
        }
    }
}

/// The first evaluation from which every later evaluation mean is ≥ `threshold`, as its
/// transition count (`None` if the last one is below).
pub fn solved_from_env_steps(evaluations: &[Evaluation], threshold: f64) -> Option<u64> {
    let mut first = None;
    for ev in evaluations.iter().rev() {
        if ev.mean >= threshold {
            first = Some(ev.env_steps);
        } else {
            break;
        }
    }
    first
}

fn obs_f64(env: &CartPole) -> [f64; OBS_DIM] {
    env.observation().map(f64::from)
}

/// Mean and population standard deviation.
pub(crate) fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

/// 1 − Var(y − ŷ)/Var(y); `None` when the targets do not vary.
fn explained_variance(pred: &[f64], target: &[f64]) -> Option<f64> {
    let (_, sd_y) = mean_std(target);
    let diff: Vec<f64> = target.iter().zip(pred).map(|(y, p)| y - p).collect();
    let (_, sd_d) = mean_std(&diff);
    (sd_y > 0.0).then(|| 1.0 - (sd_d * sd_d) / (sd_y * sd_y))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> PpoConfig {
        PpoConfig {
            num_envs: 2,
            num_steps: 4,
            num_updates: 3,
            minibatch_size: 4,
            update_epochs: 2,
            hidden_sizes: vec![8, 8],
            ..PpoConfig::full()
        }
    }

    #[test]
    fn truncation_bootstraps_from_the_last_real_observation_and_cuts_the_trace() {
        let mut tr = PpoTrainer::new(tiny(), 3).unwrap();
        // Env 0 is upright two steps before the time limit: its step t = 1 is step 500.
        tr.envs[0] = CartPole::from_state_at([0.0, 0.0, 0.01, 0.0], 498);
        tr.obs[..OBS_DIM].copy_from_slice(&obs_f64(&tr.envs[0]));
        // Replay env 0's first two steps to know the real observation at the limit.
        let mut cache = MlpCache::default();
        tr.collect_rollout();
        let ro = &tr.rollout;
        let t_len = 4;
        let mut replay = CartPole::from_state_at([0.0, 0.0, 0.01, 0.0], 498);
        replay.step(ro.actions[0]);
        let t = replay.step(ro.actions[1]);
        assert!(t.truncated && !t.terminated);
        let v_final = tr.critic.forward(&obs_f64(&replay), 1, &mut cache)[0];
        // t = 0 continues into t = 1: bootstrap from the stored value, no cut.
        assert_eq!(ro.next_values[0], ro.values[1]);
        assert!(!ro.trace_cuts[0] && !ro.terminated[0]);
        // t = 1 is truncated: not terminal, bootstrapped from V(final real obs), trace cut.
        assert!(!ro.terminated[1] && ro.trace_cuts[1]);
        assert_eq!(ro.next_values[1], v_final);
        // After the reset the next record starts a fresh episode.
        assert_ne!(ro.obs[2 * OBS_DIM..3 * OBS_DIM], obs_f64(&replay));
        // The buffer's last record of every env: cut, bootstrapped from the next observation.
        let v_next = tr.critic.forward(&tr.obs, 2, &mut cache).to_vec();
        for (e, &v) in v_next.iter().enumerate() {
            let k = e * t_len + t_len - 1;
            assert!(ro.trace_cuts[k]);
            if !ro.terminated[k] && tr.envs[e].steps() > 0 {
                assert_eq!(ro.next_values[k], v);
            }
        }
    }

    #[test]
    fn a_non_finite_parameter_stops_the_run_naming_the_update() {
        let mut tr = PpoTrainer::new(tiny(), 5).unwrap();
        tr.step().unwrap();
        tr.critic.params_mut()[0] = f64::NAN;
        match tr.step() {
            Err(e) => assert_eq!(
                e.kind(),
                &crate::error::ErrorKind::Diverged {
                    step: 2,
                    quantity: Quantity::ValueEstimate
                }
            ),
            Ok(_) => panic!("expected divergence"),
        }
    }

    #[test]
    fn solved_from_is_the_start_of_the_final_run_above_the_threshold() {
        let ev = |env_steps, mean| Evaluation {
            update: 0,
            env_steps,
            mean,
            std: 0.0,
            returns: vec![],
        };
        let evs = [
            ev(0, 20.0),
            ev(10, 480.0),
            ev(20, 300.0),
            ev(30, 475.0),
            ev(40, 500.0),
        ];
        assert_eq!(solved_from_env_steps(&evs, 475.0), Some(30));
        assert_eq!(solved_from_env_steps(&evs[..3], 475.0), None);
        assert_eq!(solved_from_env_steps(&[], 475.0), None);
    }

    #[test]
    fn stored_old_log_probs_and_values_match_the_loss_exactly_before_the_update() {
        // Row results do not depend on the batch they are computed in, so the ratio of the
        // first minibatch is exactly 1 and the value error is exactly 0.
        let mut tr = PpoTrainer::new(tiny(), 9).unwrap();
        tr.collect_rollout();
        let ro = &tr.rollout;
        let zeros = vec![0.0; ro.actions.len()];
        let mb = Minibatch {
            obs: &ro.obs,
            actions: &ro.actions,
            old_log_probs: &ro.log_probs,
            old_values: &ro.values,
            advantages: &zeros,
            returns: &ro.values,
        };
        let coef = LossCoefficients {
            clip_epsilon: 0.2,
            value_clip: None,
            ent_coef: 0.0,
            vf_coef: 0.5,
        };
        let mut grads = (
            vec![0.0; tr.actor.params().len()],
            vec![0.0; tr.critic.params().len()],
        );
        let mut diag = DiagnosticsAccumulator::default();
        let parts = ppo_loss_and_gradients(
            &tr.actor,
            &tr.critic,
            &mb,
            &coef,
            &mut LossWorkspace::default(),
            &mut grads.0,
            &mut grads.1,
            Some(&mut diag),
        );
        let d = diag.finish().unwrap();
        assert_eq!(d.mean_log_ratio, 0.0);
        assert_eq!(d.approx_kl_nonnegative, 0.0);
        assert_eq!(parts.value_loss, 0.0);
    }
}
