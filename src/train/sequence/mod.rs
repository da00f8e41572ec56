//! Lesson 8's whole LLM-style loop at toy scale, and the GRPO family's recipes: a policy
//! network (a GRU or a small transformer, [`policy`]) answers prompts (lesson 8's three, or the copy task's four difficulty levels), a verifier
//! scores each answer, a group estimator (RLOO, GRPO's std, Dr. GRPO's mean, …) turns the
//! scores of a group into advantages, and several epochs of clipped PPO update the policy.
//!
//! One [`SequenceRun::step`] is one iteration, in the order it runs:
//! 0. **SFT** (the first iteration of a run with `sft_steps` > 0, [`sft`]): teacher forcing
//!    on the task's demonstrations makes the policy RL starts from, which is also the KL's
//!    reference; with pass@k on ([`pass_k`]), pass@k of the untrained and the SFT policy on
//!    the held-out prompts.
//! 1. **Rollout.** For every prompt, `group_size` responses are sampled token by token up to
//!    `max_response_len` (so lengths vary) and laid out as `input_ids [B, T]`:
//!    `<bos> prompt… response… <eos> <pad>…` with the prompts' lengths. With dynamic
//!    sampling (DAPO), groups whose rewards are all equal are dropped and more drawn.
//! 2. **Rewards and advantages.** The task's verifier scores every response;
//!    [`rl::group_advantages`] with `advantage_estimator` gives each response its advantage
//!    within its group (with the KL in the reward, on the penalised rewards of
//!    [`rl::kl_in_reward`]).
//! 3. **Mask and old log-probs.** [`rl::response_token_mask`] marks the response labels after the
//!    causal shift (the generated `<eos>` kept, prompt and PAD left out). The log-probs of the
//!    sampled tokens are frozen: they are the "old policy" of every PPO epoch.
//! 4. **PPO epochs.** Each epoch takes one full-batch Adam step on the negative clipped
//!    objective (token- or sequence-level ratio, clip range [1 − ε, 1 + ε_high]) under the
//!    chosen [`rl::Reduction`] — with ε_high = ε and token ratios the value of
//!    [`rl::masked_token_ppo_objective`] — plus β times the KL estimator to the reference
//!    policy when the KL goes in the loss, minus an entropy bonus that is annealed to zero over
//!    the run (without it a group often agrees on a half-right answer, such as the right
//!    first symbol and a wrong second one, before the right one is ever sampled; then every
//!    advantage in the group is zero and nothing more is learned).
//! 5. **Evaluation** on fresh samples (its own random stream, so evaluating never changes
//!    the training run) and greedy answers; every `pass_k_every` iterations pass@k, and with
//!    it the statistics of the iteration's groups ([`rl::group_stats`]).
//!
//! No clocks, threads or I/O: the trainer runs unchanged in a Web Worker, and the same seed
//! gives a bit-identical run natively and in the browser (elementary functions come from
//! [`crate::math`], the same `libm` port on every target).

pub mod addition_task;
pub mod config;
pub mod copy_task;
pub mod cost;
pub mod inspect;
pub mod lab;
pub mod loss;
pub mod pass_k;
pub mod pipeline_run;
pub mod policy;
pub mod policy_file;
pub mod report;
pub mod rollout;
pub mod sft;
pub mod task;
pub mod tasks;
mod trainer;

pub use config::PolicyKind;
pub use config::{KlPlacement, RatioLevel, SequenceConfig, SequenceProfile};
pub use inspect::{ClipState, GroupInspection, InspectedAnswer, InspectedToken};
pub use loss::LossAndGradient;
pub use policy::Policy;
pub use report::{
    FirstBatchRow, GreedyAnswer, IterationReport, PassAtK, PassAtKStages, SampleEvaluation,
    SequenceSummary, SftStage, SOLVED_SUCCESS,
};
pub use rollout::RolloutBatch;
pub use tasks::{Prompt, TaskKind};
pub use trainer::SequenceTrainer;

use crate::error::{Error, Quantity, Result, StepUnit};
use crate::nn::{clip_grad_norm, Adam, Scalar};
use crate::rl::{self, DiagnosticsAccumulator};
use crate::rng::{self, Rng};
use crate::train::evaluation_seed;

/// One seeded run with the network `P` ([`SequenceTrainer`] holds one, whichever network its
/// settings name): policy, reference, optimiser and random streams.
///
/// ```
/// use pgbook::nn::Gru;
/// use pgbook::train::sequence::{SequenceConfig, SequenceRun};
/// let mut run = SequenceRun::<Gru>::new(SequenceConfig::smoke(), 5)?;
/// let report = run.step()?;
/// assert_eq!(report.iteration, 1);
/// let first = run.first_batch().unwrap();
/// assert!(first[0].text.starts_with("<bos> q0"));
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SequenceRun<P: Policy> {
    config: SequenceConfig,
    seed: u64,
    policy: P,
    /// The policy as it was when RL started (after SFT, if any): the KL's reference.
    reference: P,
    adam: Adam<P::Scalar>,
    rng: Rng,
    eval_rng: Rng,
    /// pass@k's own stream ([`pass_k`]).
    pass_rng: Rng,
    /// pass@k so far at each stage (runs with SFT or pass@k, after the first step).
    stages: Option<PassAtKStages>,
    iteration: usize,
    first_batch: Option<Vec<FirstBatchRow>>,
    last_evaluation: Option<SampleEvaluation>,
    solved_iteration: Option<usize>,
}

impl<P: Policy> SequenceRun<P> {
    /// Validates `config` (which must name `P` as its policy) and initialises the policy
    /// from `seed`.
    pub fn new(config: SequenceConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        P::check_config(&config)?;
        let mut rng = rng::seeded(seed);
        let policy = P::init(P::shape_of(&config), config.head_init_scale, &mut rng)?;
        let adam = Adam::new(policy.params().len());
        Ok(SequenceRun {
            config,
            seed,
            reference: policy.clone(),
            policy,
            adam,
            rng,
            eval_rng: rng::seeded(evaluation_seed(seed)),
            pass_rng: rng::seeded(pass_k::pass_k_seed(seed)),
            stages: None,
            iteration: 0,
            first_batch: None,
            last_evaluation: None,
            solved_iteration: None,
        })
    }

    /// The run's settings.
    pub fn config(&self) -> &SequenceConfig {
        &self.config
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Iterations done so far.
    pub fn iteration(&self) -> usize {
        self.iteration
    }

    /// Whether every configured iteration has run.
    pub fn done(&self) -> bool {
        self.is_finished()
    }

    /// Whether every configured iteration has run.
    pub fn is_finished(&self) -> bool {
        self.iteration >= self.config.iterations
    }

    /// The latest evaluation so far, the greedy answers and when the run was first solved.
    pub fn summary(&self) -> SequenceSummary {
        let ev = self.last_evaluation.as_ref();
        SequenceSummary {
            seed: self.seed,
            reduction: self.config.reduction.name().to_string(),
            final_mean_reward: ev.map_or(0.0, |e| e.mean_reward),
            final_success_rate: ev.map_or(0.0, |e| e.success_rate),
            greedy_correct: ev.map_or(0, SampleEvaluation::greedy_correct),
            prompts: self.config.task.levels(),
            final_success_by_level: ev.map_or_else(Vec::new, |e| e.success_by_level.clone()),
            iterations: self.iteration,
            solved_iteration: self.solved_iteration,
            greedy: ev.map_or_else(Vec::new, |e| e.greedy.clone()),
            pass_at_k: self.stages.clone(),
        }
    }

    /// The policy network.
    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// The reference policy (the policy before the first update).
    pub fn reference(&self) -> &P {
        &self.reference
    }

    /// The policy's parameters, writable (for experiments and tests).
    pub fn params_mut(&mut self) -> &mut [P::Scalar] {
        self.policy.params_mut()
    }

    /// The latest evaluation (`None` before the first iteration).
    pub fn last_evaluation(&self) -> Option<&SampleEvaluation> {
        self.last_evaluation.as_ref()
    }

    /// The first rollout, kept for display (`None` before the first step).
    pub fn first_batch(&self) -> Option<&[FirstBatchRow]> {
        self.first_batch.as_deref()
    }
    fn diverged(&self, quantity: Quantity) -> Error {
        Error::diverged(StepUnit::Iteration, self.iteration + 1, quantity)
    }
    /// One iteration: rollout, group advantages, `ppo_epochs` clipped updates, evaluation.
    /// Stepping past `iterations` is allowed (the entropy bonus is then 0); [`Self::done`]
    /// says when the configured run is over.
    pub fn step(&mut self) -> Result<IterationReport> {
        let sft = if self.iteration == 0 && self.stages.is_none() {
            self.pretrain()?
        } else {
            None
        };
        let batch = self.collect_rollout()?;
        if self.first_batch.is_none() {
            self.first_batch = Some(rollout::first_batch_rows(&batch));
        }
        let mut diagnostics = DiagnosticsAccumulator::default();
        let mut first_loss = 0.0;
        let mut entropy = 0.0;
        let mut norm_sum = 0.0;
        for epoch in 0..self.config.ppo_epochs {
            crate::train::report_stage(crate::train::Stage::Minibatch {
                epoch: epoch as u64 + 1,
                epochs: self.config.ppo_epochs as u64,
                minibatch: 1,
                minibatches: 1,
            });
            let LossAndGradient {
                loss,
                policy_loss,
                mean_entropy,
                mut grad,
                ..
            } = self.loss_and_gradient(&batch, Some(&mut diagnostics))?;
            let norm = clip_grad_norm(&mut [&mut grad], self.config.max_grad_norm);
            if let Some(what) = non_finite(loss, norm) {
                return Err(self.diverged(what));
            }
            if epoch == 0 {
                first_loss = policy_loss;
                entropy = mean_entropy;
            }
            norm_sum += norm;
            self.adam
                .step(self.policy.params_mut(), &grad, self.config.learning_rate);
        }
        if self.policy.params().iter().any(|p| !p.is_finite()) {
            return Err(self.diverged(Quantity::Parameters));
        }
        let diag = diagnostics
            .finish()
            .ok_or_else(|| self.diverged(Quantity::Ratio))?;
        self.iteration += 1;
        crate::train::report_stage(crate::train::Stage::Evaluation);
        let evaluation = self.evaluate()?;
        let c = &self.config;
        let pass_due = self.iteration % c.pass_k_every == 0 || self.iteration == c.iterations;
        let pass_at_k = if pass_due { self.pass_at_k()? } else { None };
        if let (Some(stages), Some(p)) = (self.stages.as_mut(), &pass_at_k) {
            stages.rl = Some(p.clone());
        }
        let group_stats = self.config.reports_groups().then(|| {
            let (groups, g) = (batch.drawn_rewards.len(), self.config.group_size);
            let flat: Vec<f64> = batch.drawn_rewards.concat();
            ndarray::Array2::from_shape_vec((groups, g), flat)
                .map_err(|_| Error::shape("rewards", vec![groups, g], vec![groups]))
                .and_then(|r| rl::group_stats(r.view()))
        });
        let rows = batch.len() as f64;
        let lengths: Vec<f64> = (0..batch.len())
            .map(|b| batch.response_len(b) as f64)
            .collect();
        let mean_length_where = |want: bool| {
            let picked: Vec<f64> = (0..batch.len())
                .filter(|&b| batch.correct[b] == want)
                .map(|b| lengths[b])
                .collect();
            (!picked.is_empty()).then(|| picked.iter().sum::<f64>() / picked.len() as f64)
        };
        let kl = rl::kl_estimators(
            batch.old_log_probs.view(),
            batch.ref_log_probs.view(),
            batch.mask.view(),
        )?;
        let report = IterationReport {
            iteration: self.iteration,
            mean_reward: batch.rewards.iter().sum::<f64>() / rows,
            success_rate: batch.correct.iter().filter(|&&c| c).count() as f64 / rows,
            mean_response_length: lengths.iter().sum::<f64>() / rows,
            mean_length_correct: mean_length_where(true),
            mean_length_incorrect: mean_length_where(false),
            kl_to_reference: kl.k3_mean,
            approx_kl: diag.approx_kl_nonnegative,
            ratio_outside_fraction: diag.ratio_outside_fraction,
            active_clip_fraction: diag.active_clip_fraction,
            policy_loss: first_loss,
            entropy,
            grad_norm: norm_sum / self.config.ppo_epochs as f64,
            eval_mean_reward: evaluation.mean_reward,
            eval_success_rate: evaluation.success_rate,
            success_by_level: evaluation.success_by_level.clone(),
            greedy_correct: evaluation.greedy_correct(),
            sft,
            group_stats: group_stats.transpose()?,
            groups_drawn: self
                .config
                .reports_groups()
                .then_some(batch.drawn_rewards.len()),
            groups_dropped: self.config.reports_groups().then_some(batch.dropped),
            pass_at_k,
        };
        let prompts = self.config.task.levels();
        if self.solved_iteration.is_none() && SequenceSummary::is_solved(&report, prompts) {
            self.solved_iteration = Some(self.iteration);
        }
        self.last_evaluation = Some(evaluation);
        Ok(report)
    }

    /// Mean reward and success rate over `eval_samples_per_prompt` fresh samples per level
    /// (lesson 8: per prompt; the copy task draws each sample's prompt of that level), all
    /// from the evaluation stream, and the greedy answer to every showcase prompt.
    pub fn evaluate(&mut self) -> Result<SampleEvaluation> {
        let n = self.config.eval_samples_per_prompt;
        let (task, max_len) = (self.config.task, self.config.max_response_len);
        let (mut reward_sum, mut correct) = (0.0, 0usize);
        let mut success_by_level = Vec::with_capacity(task.levels());
        for level in 0..task.levels() {
            let mut level_correct = 0usize;
            let mut cached: Option<(Prompt, rollout::PromptState<P::State>)> = None;
            for _ in 0..n {
                let prompt = task.eval_prompt(level, &mut self.eval_rng);
                // Lesson 8 asks the same prompt every time: read it once.
                let state = match cached.take() {
                    Some((p, state)) if p == prompt => state,
                    _ => Self::read_prompt(&self.policy, &prompt)?,
                };
                let (response, _) = Self::generate(
                    &self.policy,
                    task,
                    &state,
                    max_len,
                    Some(&mut self.eval_rng),
                )?;
                let verdict = task.verify(&prompt, &response);
                reward_sum += verdict.reward;
                level_correct += usize::from(verdict.correct);
                cached = Some((prompt, state));
            }
            correct += level_correct;
            success_by_level.push(level_correct as f64 / n as f64);
        }
        let samples = n * task.levels();
        Ok(SampleEvaluation {
            mean_reward: reward_sum / samples as f64,
            success_rate: correct as f64 / samples as f64,
            samples,
            success_by_level,
            greedy: self.greedy_answers()?,
        })
    }

    /// The most probable answer to every showcase prompt, decoded.
    pub fn greedy_answers(&self) -> Result<Vec<GreedyAnswer>> {
        let (task, t) = (self.config.task, self.config.sequence_len());
        task.showcase()
            .into_iter()
            .map(|prompt| {
                let state = Self::read_prompt(&self.policy, &prompt)?;
                let (response, _) = Self::generate(
                    &self.policy,
                    task,
                    &state,
                    self.config.max_response_len,
                    None,
                )?;
                let verdict = task.verify(&prompt, &response);
                Ok(GreedyAnswer {
                    prompt_class: prompt.class,
                    prompt: task.decode(&prompt.tokens[1..]),
                    text: task.decode(&rollout::layout_row(&prompt.tokens, &response, t)),
                    correct_answer: task.decode(&task.correct_row(&prompt)),
                    reward: verdict.reward,
                    correct: verdict.correct,
                })
            })
            .collect()
    }
}

/// What went non-finite in an update, if anything: the loss, else the gradient's norm.
pub(crate) fn non_finite(loss: f64, grad_norm: f64) -> Option<Quantity> {
    if !loss.is_finite() {
        Some(Quantity::Loss)
    } else if !grad_norm.is_finite() {
        Some(Quantity::Gradient)
    } else {
        None
    }
}
