//! Lesson 8's whole LLM-style loop at toy scale: a GRU policy answers three prompts, a verifier
//! scores each answer, RLOO turns the scores of a group into advantages, and several epochs of
//! token-level clipped PPO update the policy.
//!
//! One [`SequenceTrainer::step`] is one iteration, in the order it runs:
//! 1. **Rollout.** For every prompt, `group_size` responses are sampled token by token up to
//!    `max_response_len` (so lengths vary) and laid out as `input_ids [B, T]`:
//!    `<bos> q<c> response… <eos> <pad>…` with `prompt_lengths = 2`.
//! 2. **Rewards and advantages.** [`task::verify`] scores every response;
//!    [`rl::rloo_advantages`] gives each response its reward minus the mean of the other
//!    responses to the same prompt.
//! 3. **Mask and old log-probs.** [`rl::response_token_mask`] marks the response labels after the
//!    causal shift (the generated `<eos>` kept, prompt and PAD left out). The log-probs of the
//!    sampled tokens are frozen: they are the "old policy" of every PPO epoch.
//! 4. **PPO epochs.** Each epoch takes one full-batch Adam step on the negative token-level
//!    clipped objective under the chosen [`Reduction`] — the value of
//!    [`rl::masked_token_ppo_objective`] — minus an entropy bonus that is annealed to zero over
//!    the run (without it a group often agrees on a half-right answer, such as the right
//!    first symbol and a wrong second one, before the right one is ever sampled; then every
//!    advantage in the group is zero and nothing more is learned).
//! 5. **Evaluation** on fresh samples (its own random stream, so evaluating never changes
//!    the training run) and greedy answers.
//!
//! No clocks, threads or I/O: the trainer runs unchanged in a Web Worker, and the same seed
//! gives a bit-identical run on the same platform. (Native builds take `exp`/`tanh` from the
//! system's libm and wasm from Rust's own, so a native and a browser run of one seed may
//! drift apart in the last bits.)

pub mod task;

use crate::error::{check_clip_epsilon, Error, Quantity, Result, Rule};
use crate::math;
use crate::nn::gru::{log_softmax_backward, Gru, GruShape};
use crate::nn::{clip_grad_norm, Adam};
use crate::rl::{self, DiagnosticsAccumulator, Grid, Reduction};
use crate::rng::{self, Rng};
use serde::{Deserialize, Serialize};
use task::{Verdict, NUM_ACTIONS, NUM_PROMPTS, PROMPT_LENGTH};

/// Every setting of a run. Build one with [`SequenceConfig::profile`] and adjust fields;
/// [`SequenceTrainer::new`] validates it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceConfig {
    /// Number of iterations (rollout + PPO epochs).
    pub iterations: usize,
    /// Responses sampled per prompt, G ≥ 2 (a leave-one-out baseline needs another response).
    pub group_size: usize,
    /// Most tokens a response may have, `<eos>` included; at least 3 (two symbols + `<eos>`).
    pub max_response_len: usize,
    /// Embedding width.
    pub embed_dim: usize,
    /// GRU hidden width.
    pub hidden_dim: usize,
    /// Adam step size.
    pub learning_rate: f64,
    /// Full-batch PPO epochs per rollout.
    pub ppo_epochs: usize,
    /// PPO clip range ε.
    pub clip_epsilon: f64,
    /// Global gradient-norm limit.
    pub max_grad_norm: f64,
    /// Initial weight of the entropy bonus (mean entropy of the policy over response tokens),
    /// annealed linearly to 0 over the run: early on it keeps a group's answers diverse long
    /// enough to find both symbols, at the end it lets the policy become sharp. 0 turns it off.
    pub entropy_coef: f64,
    /// How token terms are reduced to one objective.
    pub reduction: Reduction,
    /// Fresh samples per prompt for every evaluation.
    pub eval_samples_per_prompt: usize,
    /// Scale of the output head at initialisation: small values start near the uniform policy.
    pub head_init_scale: f64,
}

impl SequenceConfig {
    /// The quick profile: a few seconds' worth of learning, enough to see the reward rise.
    pub fn smoke() -> Self {
        SequenceConfig {
            iterations: 40,
            ..Self::full()
        }
    }

    /// The profile the lesson runs: all three prompts answered correctly.
    pub fn full() -> Self {
        SequenceConfig {
            iterations: 200,
            group_size: 8,
            max_response_len: 4,
            embed_dim: 16,
            hidden_dim: 32,
            learning_rate: 3e-3,
            ppo_epochs: 4,
            clip_epsilon: 0.2,
            max_grad_norm: 1.0,
            entropy_coef: 0.1,
            reduction: Reduction::TokenMean,
            eval_samples_per_prompt: 64,
            head_init_scale: 0.1,
        }
    }

    /// A profile by name: `smoke` or `full`.
    pub fn profile(name: &str) -> Result<Self> {
        match name {
            "smoke" => Ok(Self::smoke()),
            "full" => Ok(Self::full()),
            _ => Err(Error::unknown("profile", name, &["smoke", "full"])),
        }
    }

    /// Parses a JSON config (as the Web Worker sends it); unknown fields and an unknown
    /// reduction are errors, and the result is validated.
    pub fn from_json(json: &str) -> Result<Self> {
        let config: SequenceConfig =
            serde_json::from_str(json).map_err(|e| Error::parse("sequence config", json, e))?;
        config.validate()?;
        Ok(config)
    }

    /// Checks every rule; the error names the field and the rule.
    pub fn validate(&self) -> Result<()> {
        let check = |arg: &str, x: f64, rule: Rule| {
            if rule.admits(x) {
                Ok(())
            } else {
                Err(Error::range(arg, rule, x))
            }
        };
        check("iterations", self.iterations as f64, Rule::at_least(1.0))?;
        // A leave-one-out baseline needs another response in the group.
        check("group_size", self.group_size as f64, Rule::at_least(2.0))?;
        // The correct answer is two symbols followed by <eos>.
        let len = Rule::between(task::ANSWER_LENGTH as f64, 32.0);
        check("max_response_len", self.max_response_len as f64, len)?;
        check("embed_dim", self.embed_dim as f64, Rule::at_least(1.0))?;
        check("hidden_dim", self.hidden_dim as f64, Rule::at_least(1.0))?;
        check("ppo_epochs", self.ppo_epochs as f64, Rule::at_least(1.0))?;
        let samples = self.eval_samples_per_prompt as f64;
        check("eval_samples_per_prompt", samples, Rule::at_least(1.0))?;
        check("entropy_coef", self.entropy_coef, Rule::non_negative())?;
        check("learning_rate", self.learning_rate, Rule::positive())?;
        check("max_grad_norm", self.max_grad_norm, Rule::positive())?;
        check(
            "head_init_scale",
            self.head_init_scale,
            Rule::non_negative(),
        )?;
        check_clip_epsilon(self.clip_epsilon)
    }

    /// `T`: tokens per row of `input_ids`.
    pub fn sequence_len(&self) -> usize {
        PROMPT_LENGTH + self.max_response_len
    }
}

/// One iteration's rollout, laid out as the lesson draws it. Rows are grouped by prompt:
/// rows `c·G .. (c+1)·G` answer prompt class `c`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutBatch {
    /// Prompt class of every row.
    pub prompt_classes: Vec<usize>,
    /// `[B, T]` token ids: `<bos> q<c> response… <pad>…`.
    pub input_ids: Vec<Vec<i64>>,
    /// Prompt length of every row (2: `<bos> q<c>`).
    pub prompt_lengths: Vec<usize>,
    /// Verifier rewards `[B]`.
    pub rewards: Vec<f64>,
    /// Fully correct answers `[B]`.
    pub correct: Vec<bool>,
    /// RLOO advantages `[B]`; they sum to zero within each group.
    pub advantages: Vec<f64>,
    /// `[B, T−1]` response mask aligned with the labels `input_ids[:, 1:]`, `<eos>` included.
    pub mask: Grid,
    /// `[B, T−1]` log-probs of the sampled tokens under the sampling policy, frozen; 0 off
    /// the mask.
    pub old_log_probs: Grid,
}

impl RolloutBatch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.input_ids.len()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.input_ids.is_empty()
    }

    /// Number of response tokens of row `b` (`<eos>` included).
    pub fn response_len(&self, b: usize) -> usize {
        self.mask[b].iter().filter(|&&m| m == 1.0).count()
    }
}

/// One row of the first rollout, kept for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstBatchRow {
    /// Prompt class.
    pub prompt_class: usize,
    /// The row of `input_ids`.
    pub input_ids: Vec<i64>,
    /// The row decoded, PAD left out.
    pub text: String,
    /// Verifier reward.
    pub reward: f64,
    /// RLOO advantage.
    pub advantage: f64,
    /// Response mask row (0/1), aligned with `input_ids[1..]`.
    pub mask: Vec<u8>,
}

/// The greedy (most probable token at every step) answer to one prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GreedyAnswer {
    /// Prompt class.
    pub prompt_class: usize,
    /// The whole row decoded: `<bos> q<c> …`.
    pub text: String,
    /// Verifier reward.
    pub reward: f64,
    /// Fully correct.
    pub correct: bool,
}

/// Evaluation on fresh samples, plus the greedy answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Mean verifier reward over the samples.
    pub mean_reward: f64,
    /// Fraction of fully correct sampled answers.
    pub success_rate: f64,
    /// Number of samples (per prompt × prompts).
    pub samples: usize,
    /// The greedy answer to every prompt.
    pub greedy: Vec<GreedyAnswer>,
}

impl Evaluation {
    /// How many prompts the greedy policy answers correctly.
    pub fn greedy_correct(&self) -> usize {
        self.greedy.iter().filter(|g| g.correct).count()
    }
}

/// What one iteration did and how the policy stands after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationReport {
    /// 1-based iteration number.
    pub iteration: usize,
    /// Mean reward of the rollout.
    pub mean_reward: f64,
    /// Fully correct fraction of the rollout.
    pub success_rate: f64,
    /// Mean response length of the rollout, `<eos>` included.
    pub mean_response_length: f64,
    /// Non-negative KL estimate mean((r − 1) − log r) over response tokens, before every
    /// epoch's update (the first epoch contributes zeros).
    pub approx_kl: f64,
    /// Fraction of token ratios outside [1 − ε, 1 + ε], same tokens.
    pub ratio_outside_fraction: f64,
    /// Fraction of tokens where clipping changed the pessimistic minimum.
    pub active_clip_fraction: f64,
    /// Loss of the first epoch (−objective at ratio 1: minus the reduced advantages).
    pub policy_loss: f64,
    /// Mean entropy of the policy over the rollout's response tokens (before the update).
    pub entropy: f64,
    /// Mean global gradient norm before clipping.
    pub grad_norm: f64,
    /// Evaluation after the update: mean reward over fresh samples.
    pub eval_mean_reward: f64,
    /// Evaluation after the update: fully correct fraction.
    pub eval_success_rate: f64,
    /// Evaluation after the update: prompts whose greedy answer is correct.
    pub greedy_correct: usize,
}

/// The loss of one batch, its parts, and its gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct LossAndGradient {
    /// What the update minimises: `policy_loss − entropy_coef_now · mean_entropy`.
    pub loss: f64,
    /// −objective of the token-level clipped surrogate under the configured reduction.
    pub policy_loss: f64,
    /// Mean entropy of the policy over response tokens.
    pub mean_entropy: f64,
    /// d loss / d parameter, flat like the policy's parameters.
    pub grad: Vec<f64>,
}

/// The trainer: policy, optimiser and random streams of one seeded run.
///
/// ```
/// use pgbook::train::sequence::{SequenceConfig, SequenceTrainer};
/// let mut trainer = SequenceTrainer::new(SequenceConfig::smoke(), 5)?;
/// let report = trainer.step()?;
/// assert_eq!(report.iteration, 1);
/// let first = trainer.first_batch().unwrap();
/// assert!(first[0].text.starts_with("<bos> q0"));
/// # Ok::<(), pgbook::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SequenceTrainer {
    config: SequenceConfig,
    seed: u64,
    policy: Gru,
    adam: Adam,
    rng: Rng,
    eval_rng: Rng,
    iteration: usize,
    first_batch: Option<Vec<FirstBatchRow>>,
}

/// A prompt read by the policy: the state and the first response token's log-probs.
#[derive(Debug, Clone)]
struct PromptState {
    state: Vec<f64>,
    log_probs: [f64; NUM_ACTIONS],
}

/// Offset of the evaluation stream's seed: evaluation draws never shift the training stream.
const EVAL_SEED_OFFSET: u64 = 0x9E37_79B9_7F4A_7C15;

impl SequenceTrainer {
    /// Validates `config` and initialises the policy from `seed`.
    pub fn new(config: SequenceConfig, seed: u64) -> Result<Self> {
        config.validate()?;
        let mut rng = rng::seeded(seed);
        let shape = GruShape {
            vocab: task::VOCAB_SIZE,
            embed: config.embed_dim,
            hidden: config.hidden_dim,
            outputs: NUM_ACTIONS,
        };
        let policy = Gru::new(shape, config.head_init_scale, &mut rng)?;
        let adam = Adam::new(policy.params.len());
        Ok(SequenceTrainer {
            config,
            seed,
            policy,
            adam,
            rng,
            eval_rng: rng::seeded(seed.wrapping_add(EVAL_SEED_OFFSET)),
            iteration: 0,
            first_batch: None,
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
        self.iteration >= self.config.iterations
    }

    /// The policy network.
    pub fn policy(&self) -> &Gru {
        &self.policy
    }

    /// The policy's parameters, writable (for experiments and tests).
    pub fn params_mut(&mut self) -> &mut [f64] {
        &mut self.policy.params
    }

    /// The first rollout, kept for display (`None` before the first step).
    pub fn first_batch(&self) -> Option<&[FirstBatchRow]> {
        self.first_batch.as_deref()
    }

    /// The state after reading the prompt `<bos> q<c>` and the log-probs of the first
    /// response token. They are the same for every response to that prompt, so every rollout
    /// and evaluation computes them once per prompt.
    fn read_prompt(policy: &Gru, class: usize) -> Result<PromptState> {
        let mut state = policy.initial_state();
        let mut log_probs = [0.0; NUM_ACTIONS];
        policy.step(task::BOS as usize, &mut state, &mut log_probs)?;
        policy.step(
            task::PROMPT_TOKENS[class] as usize,
            &mut state,
            &mut log_probs,
        )?;
        Ok(PromptState { state, log_probs })
    }

    /// Samples (or, with `rng = None`, decodes greedily) one response after `prompt`, the
    /// output of [`Self::read_prompt`]. Returns the response tokens and the log-prob of each
    /// under the current policy.
    fn generate(
        policy: &Gru,
        prompt: &PromptState,
        max_len: usize,
        mut rng: Option<&mut Rng>,
    ) -> Result<(Vec<i64>, Vec<f64>)> {
        let mut state = prompt.state.clone();
        let mut log_probs = prompt.log_probs;
        let mut probs = [0.0; NUM_ACTIONS];
        let mut response = Vec::with_capacity(max_len);
        let mut chosen_log_probs = Vec::with_capacity(max_len);
        for _ in 0..max_len {
            // After the first token, read the last one emitted to get the next distribution.
            if let Some(&token) = response.last() {
                policy.step(token as usize, &mut state, &mut log_probs)?;
            }
            let action = match rng.as_deref_mut() {
                Some(r) => {
                    probs
                        .iter_mut()
                        .zip(&log_probs)
                        .for_each(|(p, lp)| *p = math::exp(*lp));
                    rng::categorical(r, &probs)
                }
                // Greedy: the first of the most probable actions.
                None => (0..NUM_ACTIONS).fold(0, |best, a| {
                    if log_probs[a] > log_probs[best] {
                        a
                    } else {
                        best
                    }
                }),
            };
            let token = task::action_token(action);
            response.push(token);
            chosen_log_probs.push(log_probs[action]);
            if token == task::EOS {
                break;
            }
        }
        Ok((response, chosen_log_probs))
    }

    /// Step 1–3 of an iteration: samples G responses per prompt with the training stream,
    /// scores them, computes RLOO advantages, the response mask and the frozen old log-probs.
    pub fn collect_rollout(&mut self) -> Result<RolloutBatch> {
        let (g, t) = (self.config.group_size, self.config.sequence_len());
        let b = NUM_PROMPTS * g;
        let mut batch = RolloutBatch {
            prompt_classes: Vec::with_capacity(b),
            input_ids: Vec::with_capacity(b),
            prompt_lengths: vec![PROMPT_LENGTH; b],
            rewards: Vec::with_capacity(b),
            correct: Vec::with_capacity(b),
            advantages: Vec::with_capacity(b),
            mask: Vec::new(),
            old_log_probs: vec![vec![0.0; t - 1]; b],
        };
        for class in 0..NUM_PROMPTS {
            let prompt = Self::read_prompt(&self.policy, class)?;
            for _ in 0..g {
                let row = batch.input_ids.len();
                let (response, log_probs) = Self::generate(
                    &self.policy,
                    &prompt,
                    self.config.max_response_len,
                    Some(&mut self.rng),
                )?;
                if log_probs.iter().any(|lp| !lp.is_finite()) {
                    return Err(self.diverged(Quantity::LogProbability));
                }
                // The response token at position PROMPT_LENGTH + i is label column
                // PROMPT_LENGTH + i − 1 after the causal shift.
                for (i, lp) in log_probs.iter().enumerate() {
                    batch.old_log_probs[row][PROMPT_LENGTH - 1 + i] = *lp;
                }
                let Verdict { reward, correct } = task::verify(class, &response);
                batch.prompt_classes.push(class);
                batch.input_ids.push(task::layout_row(class, &response, t));
                batch.rewards.push(reward);
                batch.correct.push(correct);
            }
            let group = &batch.rewards[class * g..(class + 1) * g];
            batch.advantages.extend(rl::rloo_advantages(group.into())?);
        }
        batch.mask = rl::rows(
            rl::response_token_mask(
                rl::array2("input_ids", &batch.input_ids)?.view(),
                (&batch.prompt_lengths).into(),
                task::PAD,
                task::EOS,
                true,
            )?
            .view(),
        );
        Ok(batch)
    }

    fn diverged(&self, quantity: Quantity) -> Error {
        Error::diverged(self.iteration + 1, quantity)
    }

    /// Model inputs of a batch: every token but the last (the causal shift).
    fn model_inputs(batch: &RolloutBatch) -> Result<Vec<Vec<usize>>> {
        batch
            .input_ids
            .iter()
            .map(|row| {
                row[..row.len().saturating_sub(1)]
                    .iter()
                    .map(|&t| {
                        usize::try_from(t)
                            .ok()
                            .filter(|&t| t < task::VOCAB_SIZE)
                            .ok_or_else(|| {
                                let rule = Rule::IndexBelow(task::VOCAB_SIZE);
                                Error::range("input_ids", rule, t)
                            })
                    })
                    .collect()
            })
            .collect()
    }

    /// The action of label `(b, k)` on the mask: the token at `input_ids[b][k + 1]`.
    fn label_action(batch: &RolloutBatch, b: usize, k: usize) -> Result<usize> {
        let token = batch.input_ids[b][k + 1];
        task::token_action(token).ok_or_else(|| {
            let names: Vec<String> = (0..NUM_ACTIONS)
                .map(|a| task::token_text(task::action_token(a)))
                .collect();
            let arg = format!("input_ids[{b}][{}]", k + 1);
            Error::range(arg, Rule::OneOf(names), task::token_text(token))
        })
    }

    /// `[B, T−1]` log-probs of the batch's response tokens under the current policy, 0 off
    /// the mask (the "new" log-probs of PPO).
    pub fn token_log_probs(&self, batch: &RolloutBatch) -> Result<Grid> {
        let tape = self.policy.forward(&Self::model_inputs(batch)?)?;
        let mut out = vec![vec![0.0; tape.steps()]; batch.len()];
        for (b, row) in out.iter_mut().enumerate() {
            for (k, value) in row.iter_mut().enumerate() {
                if batch.mask[b][k] == 1.0 {
                    *value = tape.log_probs(b, k)[Self::label_action(batch, b, k)?];
                }
            }
        }
        Ok(out)
    }

    /// The entropy weight of the coming iteration: `entropy_coef` annealed linearly to 0.
    pub fn entropy_coef_now(&self) -> f64 {
        let left = self.config.iterations.saturating_sub(self.iteration) as f64;
        self.config.entropy_coef * left / self.config.iterations as f64
    }

    /// The loss of `batch` under the current policy and its gradient with respect to every
    /// parameter; token diagnostics go into `diagnostics`.
    ///
    /// The policy part is −objective of [`rl::masked_token_ppo_objective`]: per response token
    /// min(r·A, clip(r, 1 − ε, 1 + ε)·A) with r = exp(new − old), reduced by
    /// `config.reduction`. Its derivative with respect to the new log-prob is
    /// weight · r · A where the unclipped term is the minimum, and 0 where clipping is active.
    /// The total subtracts [`Self::entropy_coef_now`] times the mean entropy over response
    /// tokens.
    pub fn loss_and_gradient(
        &self,
        batch: &RolloutBatch,
        diagnostics: Option<&mut DiagnosticsAccumulator>,
    ) -> Result<LossAndGradient> {
        let eps = self.config.clip_epsilon;
        let tape = self.policy.forward(&Self::model_inputs(batch)?)?;
        let (rows, steps) = (tape.batch(), tape.steps());
        if batch.mask.len() != rows
            || batch.mask.iter().any(|m| m.len() != steps)
            || batch.old_log_probs.len() != rows
            || batch.old_log_probs.iter().any(|m| m.len() != steps)
            || batch.advantages.len() != rows
        {
            // mask and old_log_probs must be [B, T−1] and advantages [B].
            let shape = |m: &Grid| vec![m.len(), m.first().map_or(0, Vec::len)];
            return Err(if batch.advantages.len() != rows {
                Error::shape("advantages", vec![rows], vec![batch.advantages.len()])
            } else if shape(&batch.mask) != [rows, steps] {
                Error::shape("mask", vec![rows, steps], shape(&batch.mask))
            } else {
                Error::shape(
                    "old_log_probs",
                    vec![rows, steps],
                    shape(&batch.old_log_probs),
                )
            });
        }
        let counts: Vec<f64> = batch.mask.iter().map(|m| m.iter().sum()).collect();
        let total: f64 = counts.iter().sum();
        let coef = self.entropy_coef_now();
        let entropy_weight = coef / total.max(1.0);
        let mut sums = vec![0.0; rows];
        let mut entropy_sum = 0.0;
        let mut d_logits = vec![0.0; rows * steps * NUM_ACTIONS];
        let mut d_log_probs = [0.0; NUM_ACTIONS];
        let mut diagnostics = diagnostics;
        for b in 0..rows {
            let advantage = batch.advantages[b];
            let weight = self.config.reduction.token_weight(counts[b], total, rows);
            for k in 0..steps {
                if batch.mask[b][k] != 1.0 {
                    continue;
                }
                let action = Self::label_action(batch, b, k)?;
                let log_probs = tape.log_probs(b, k);
                let log_ratio = log_probs[action] - batch.old_log_probs[b][k];
                let ratio = math::exp(log_ratio);
                let unclipped = ratio * advantage;
                let pessimistic = rl::clipped_objective(ratio, advantage, eps);
                sums[b] += pessimistic;
                if let Some(acc) = diagnostics.as_deref_mut() {
                    acc.add(log_ratio, advantage, eps);
                }
                let i = (b * steps + k) * NUM_ACTIONS;
                let d = &mut d_logits[i..i + NUM_ACTIONS];
                // Where clipping is active the minimum is a constant in r: no gradient.
                if unclipped <= pessimistic {
                    d_log_probs.fill(0.0);
                    // Loss = −objective.
                    d_log_probs[action] = -weight * unclipped;
                    log_softmax_backward(log_probs, &d_log_probs, d);
                }
                let entropy: f64 = -log_probs.iter().map(|&lp| math::exp(lp) * lp).sum::<f64>();
                entropy_sum += entropy;
                if entropy_weight > 0.0 {
                    // d(−c·H)/dz_k = c · p_k (log p_k + H).
                    for (dz, lp) in d.iter_mut().zip(log_probs) {
                        *dz += entropy_weight * math::exp(*lp) * (lp + entropy);
                    }
                }
            }
        }
        let policy_loss = -self.config.reduction.reduce(&sums, &counts);
        let mean_entropy = entropy_sum / total.max(1.0);
        let grad = self.policy.backward(&tape, &d_logits)?;
        Ok(LossAndGradient {
            loss: policy_loss - coef * mean_entropy,
            policy_loss,
            mean_entropy,
            grad,
        })
    }

    /// One iteration: rollout, RLOO advantages, `ppo_epochs` clipped updates, evaluation.
    /// Stepping past `iterations` is allowed (the entropy bonus is then 0); [`Self::done`]
    /// says when the configured run is over.
    pub fn step(&mut self) -> Result<IterationReport> {
        let batch = self.collect_rollout()?;
        if self.first_batch.is_none() {
            self.first_batch = Some(first_batch_rows(&batch));
        }
        let mut diagnostics = DiagnosticsAccumulator::default();
        let mut first_loss = 0.0;
        let mut entropy = 0.0;
        let mut norm_sum = 0.0;
        for epoch in 0..self.config.ppo_epochs {
            let LossAndGradient {
                loss,
                policy_loss,
                mean_entropy,
                mut grad,
            } = self.loss_and_gradient(&batch, Some(&mut diagnostics))?;
            let norm = clip_grad_norm(&mut [&mut grad], self.config.max_grad_norm);
            if !loss.is_finite() || !norm.is_finite() {
                let what = if loss.is_finite() {
                    Quantity::Gradient
                } else {
                    Quantity::Loss
                };
                return Err(self.diverged(what));
            }
            if epoch == 0 {
                first_loss = policy_loss;
                entropy = mean_entropy;
            }
            norm_sum += norm;
            self.adam
                .step(&mut self.policy.params, &grad, self.config.learning_rate);
        }
        if self.policy.params.iter().any(|p| !p.is_finite()) {
            return Err(self.diverged(Quantity::Parameters));
        }
        let diag = diagnostics
            .finish()
            .ok_or_else(|| self.diverged(Quantity::Ratio))?;
        self.iteration += 1;
        let evaluation = self.evaluate()?;
        let rows = batch.len() as f64;
        Ok(IterationReport {
            iteration: self.iteration,
            mean_reward: batch.rewards.iter().sum::<f64>() / rows,
            success_rate: batch.correct.iter().filter(|&&c| c).count() as f64 / rows,
            mean_response_length: (0..batch.len())
                .map(|b| batch.response_len(b) as f64)
                .sum::<f64>()
                / rows,
            approx_kl: diag.approx_kl_nonnegative,
            ratio_outside_fraction: diag.ratio_outside_fraction,
            active_clip_fraction: diag.active_clip_fraction,
            policy_loss: first_loss,
            entropy,
            grad_norm: norm_sum / self.config.ppo_epochs as f64,
            eval_mean_reward: evaluation.mean_reward,
            eval_success_rate: evaluation.success_rate,
            greedy_correct: evaluation.greedy_correct(),
        })
    }

    /// Mean reward and success rate over `eval_samples_per_prompt` fresh samples per prompt
    /// (drawn from the evaluation stream), and the greedy answer to every prompt.
    pub fn evaluate(&mut self) -> Result<Evaluation> {
        let n = self.config.eval_samples_per_prompt;
        let max_len = self.config.max_response_len;
        let (mut reward_sum, mut correct) = (0.0, 0usize);
        for class in 0..NUM_PROMPTS {
            let prompt = Self::read_prompt(&self.policy, class)?;
            for _ in 0..n {
                let (response, _) =
                    Self::generate(&self.policy, &prompt, max_len, Some(&mut self.eval_rng))?;
                let verdict = task::verify(class, &response);
                reward_sum += verdict.reward;
                correct += usize::from(verdict.correct);
            }
        }
        let samples = n * NUM_PROMPTS;
        Ok(Evaluation {
            mean_reward: reward_sum / samples as f64,
            success_rate: correct as f64 / samples as f64,
            samples,
            greedy: self.greedy_answers()?,
        })
    }

    /// The most probable answer to every prompt, decoded.
    pub fn greedy_answers(&self) -> Result<Vec<GreedyAnswer>> {
        let t = self.config.sequence_len();
        (0..NUM_PROMPTS)
            .map(|class| {
                let prompt = Self::read_prompt(&self.policy, class)?;
                let (response, _) =
                    Self::generate(&self.policy, &prompt, self.config.max_response_len, None)?;
                let verdict = task::verify(class, &response);
                Ok(GreedyAnswer {
                    prompt_class: class,
                    text: task::decode(&task::layout_row(class, &response, t)),
                    reward: verdict.reward,
                    correct: verdict.correct,
                })
            })
            .collect()
    }
}

fn first_batch_rows(batch: &RolloutBatch) -> Vec<FirstBatchRow> {
    (0..batch.len())
        .map(|b| FirstBatchRow {
            prompt_class: batch.prompt_classes[b],
            input_ids: batch.input_ids[b].clone(),
            text: task::decode(&batch.input_ids[b]),
            reward: batch.rewards[b],
            advantage: batch.advantages[b],
            mask: batch.mask[b].iter().map(|&m| u8::from(m == 1.0)).collect(),
        })
        .collect()
}
