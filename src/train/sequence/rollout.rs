//! One iteration's experience: G sampled responses per prompt, verified, with the group's
//! advantages (the configured estimator, on rewards with the KL penalty when it goes in the
//! reward), the response mask after the causal shift, and the frozen old and reference
//! log-probs.

use super::config::KlPlacement;
use super::report::FirstBatchRow;
use super::task::{self, Verdict};
use super::tasks::{Prompt, TaskKind};
use super::{Policy, SequenceRun};
use crate::error::{Error, Quantity, Result, Rule};
use crate::math;
use crate::nn::{categorical, PolicyTape};
use crate::rl;
use crate::rng::{self, Rng};
use ndarray::{Array1, Array2};

/// One iteration's rollout, laid out as the lesson draws it. Rows are grouped by prompt:
/// rows `c·G .. (c+1)·G` answer prompt class `c`.
/// The arrays are the course's (`ndarray`, as the NumPy reference has them).
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutBatch {
    /// The task the rows answer.
    pub task: TaskKind,
    /// Prompt class of every row (its index among the task's prompts).
    pub prompt_classes: Vec<usize>,
    /// Difficulty level of every row's prompt (0-based).
    pub levels: Vec<usize>,
    /// `[B, T]` token ids: `<bos> prompt… response… <pad>…`.
    pub input_ids: Array2<i64>,
    /// Prompt length of every row `[B]` (lesson 8: 2, `<bos> q<c>`).
    pub prompt_lengths: Array1<usize>,
    /// Verifier rewards `[B]`.
    pub rewards: Array1<f64>,
    /// Fully correct answers `[B]`.
    pub correct: Vec<bool>,
    /// Advantages `[B]` of the configured estimator within each group (RLOO's sum to zero).
    pub advantages: Array1<f64>,
    /// `[B, T−1]` response mask aligned with the labels `input_ids[:, 1:]`, `<eos>` included
    /// unless the settings leave it out.
    pub mask: Array2<f64>,
    /// `[B, T−1]` log-probs of the sampled tokens under the sampling policy, frozen; 0 off
    /// the mask.
    pub old_log_probs: Array2<f64>,
    /// `[B, T−1]` log-probs of the same tokens under the reference policy (the policy before
    /// RL); 0 off the mask.
    pub ref_log_probs: Array2<f64>,
    /// The verifier's rewards of every group drawn, one row per group (under dynamic
    /// sampling, the dropped ones too): what the group statistics count.
    pub drawn_rewards: Vec<Vec<f64>>,
    /// Groups dynamic sampling dropped and the batch does not hold.
    pub dropped: usize,
}

/// One prompt's group of sampled answers: each response, its tokens' log-probs, its verdict.
struct Group {
    prompt: Prompt,
    answers: Vec<(Vec<i64>, Vec<f64>, Verdict)>,
}

impl Group {
    fn rewards(&self) -> Vec<f64> {
        self.answers.iter().map(|(_, _, v)| v.reward).collect()
    }
}

impl RolloutBatch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.input_ids.nrows()
    }

    /// Whether the batch has no rows.
    pub fn is_empty(&self) -> bool {
        self.input_ids.nrows() == 0
    }

    /// Number of response tokens of row `b`, `<eos>` included whether or not the mask holds
    /// it (a length the runs with and without `<eos>` in the mask report alike).
    pub fn response_len(&self, b: usize) -> usize {
        let row = self.input_ids.row(b);
        row.iter()
            .skip(self.prompt_lengths[b])
            .filter(|&&x| x != task::PAD)
            .count()
    }
}

/// A prompt read by the policy: its state (the GRU's hidden state, the transformer's KV
/// cache) and the first response token's log-probs.
#[derive(Debug, Clone)]
pub(crate) struct PromptState<S> {
    state: S,
    log_probs: Vec<f64>,
}

/// The advantages' ε: a group whose rewards' std is below it gets zero advantages.
pub const STD_EPS: f64 = 1e-8;

impl<P: Policy> SequenceRun<P> {
    /// The state after reading `prompt` and the log-probs of the first response token. They
    /// are the same for every response to that prompt, so every rollout and evaluation
    /// computes them once per prompt.
    pub(super) fn read_prompt(policy: &P, prompt: &Prompt) -> Result<PromptState<P::State>> {
        let mut state = policy.initial_state();
        let mut log_probs = vec![0.0; policy.outputs()];
        for &token in &prompt.tokens {
            policy.step(token as usize, &mut state, &mut log_probs)?;
        }
        Ok(PromptState { state, log_probs })
    }

    /// Samples (or, with `rng = None`, decodes greedily) one response after `prompt`, the
    /// output of [`Self::read_prompt`]. Returns the response tokens and the log-prob of each
    /// under the current policy.
    pub(super) fn generate(
        policy: &P,
        task: TaskKind,
        prompt: &PromptState<P::State>,
        max_len: usize,
        mut rng: Option<&mut Rng>,
    ) -> Result<(Vec<i64>, Vec<f64>)> {
        let mut state = prompt.state.clone();
        let mut log_probs = prompt.log_probs.clone();
        let mut probs = vec![0.0; log_probs.len()];
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
                None => categorical::argmax(&log_probs),
            };
            let token = task.action_token(action);
            response.push(token);
            chosen_log_probs.push(log_probs[action]);
            if token == task::EOS {
                break;
            }
        }
        Ok((response, chosen_log_probs))
    }

    /// One group: `group_size` responses to `prompt`, sampled with the training stream and
    /// judged. `done` counts the answers sampled so far this iteration (for the progress hook).
    fn sample_group(&mut self, prompt: &Prompt, done: &mut u64, total: u64) -> Result<Group> {
        let state = Self::read_prompt(&self.policy, prompt)?;
        let mut group = Group {
            prompt: prompt.clone(),
            answers: Vec::with_capacity(self.config.group_size),
        };
        for _ in 0..self.config.group_size {
            let (response, log_probs) = Self::generate(
                &self.policy,
                self.config.task,
                &state,
                self.config.max_response_len,
                Some(&mut self.rng),
            )?;
            if log_probs.iter().any(|lp| !lp.is_finite()) {
                return Err(self.diverged(Quantity::LogProbability));
            }
            let verdict = self.config.verdict(prompt, &response);
            group.answers.push((response, log_probs, verdict));
            *done += 1;
            let (done, total) = (*done, total.max(*done));
            crate::train::report_stage(crate::train::Stage::Rollout { done, total });
        }
        Ok(group)
    }

    /// The groups an iteration trains on. Without dynamic sampling: one per prompt drawn.
    /// With it (DAPO): prompts are drawn one at a time and a group whose rewards are all
    /// equal is dropped, until the batch holds `prompts()` groups or `max_draw_factor` times
    /// as many were drawn; a batch still short is filled with the first dropped groups (they
    /// add nothing to the policy term). Also returns every drawn group's rewards.
    fn sample_groups(&mut self) -> Result<(Vec<Group>, Vec<Vec<f64>>, usize)> {
        let c = &self.config;
        let (want, task) = (c.prompts(), c.task);
        let total = (want * c.group_size) as u64;
        let mut done = 0;
        if !c.dynamic_sampling {
            let prompts = task.iteration_prompts(&mut self.rng, c.prompts_per_iteration);
            let groups = prompts
                .iter()
                .map(|prompt| self.sample_group(prompt, &mut done, total))
                .collect::<Result<Vec<_>>>()?;
            let rewards = groups.iter().map(Group::rewards).collect();
            return Ok((groups, rewards, 0));
        }
        let bound = want * c.max_draw_factor;
        let (mut kept, mut dropped, mut rewards) = (Vec::new(), Vec::new(), Vec::new());
        while kept.len() < want && rewards.len() < bound {
            let prompt = task.iteration_prompts(&mut self.rng, 1).remove(0);
            let group = self.sample_group(&prompt, &mut done, total)?;
            let r = group.rewards();
            if r.iter().all(|&x| x == r[0]) {
                dropped.push(group);
            } else {
                kept.push(group);
            }
            rewards.push(r);
        }
        let dropped_count = dropped.len();
        let short = want - kept.len();
        kept.extend(dropped.into_iter().take(short));
        Ok((kept, rewards, dropped_count - short.min(dropped_count)))
    }

    /// Steps 1–3 of an iteration: samples G responses per prompt with the training stream
    /// (under dynamic sampling, drawing past groups that teach nothing), scores them,
    /// computes the response mask, the frozen old and reference log-probs and the advantages.
    pub fn collect_rollout(&mut self) -> Result<RolloutBatch> {
        let (g, t) = (self.config.group_size, self.config.sequence_len());
        let task = self.config.task;
        let (groups, drawn_rewards, dropped) = self.sample_groups()?;
        let b = groups.len() * g;
        let mut prompt_classes = Vec::with_capacity(b);
        let mut levels = Vec::with_capacity(b);
        let mut lengths = Vec::with_capacity(b);
        let mut ids: Vec<i64> = Vec::with_capacity(b * t);
        let mut rewards = Vec::with_capacity(b);
        let mut correct = Vec::with_capacity(b);
        let mut old_log_probs = Array2::zeros((b, t - 1));
        for Group { prompt, answers } in &groups {
            let start = prompt.tokens.len();
            for (response, log_probs, verdict) in answers {
                let row = prompt_classes.len();
                // The response token at position start + i is label column start + i − 1
                // after the causal shift.
                for (i, lp) in log_probs.iter().enumerate() {
                    old_log_probs[[row, start - 1 + i]] = *lp;
                }
                prompt_classes.push(prompt.class);
                levels.push(prompt.level);
                lengths.push(start);
                ids.extend(layout_row(&prompt.tokens, response, t));
                rewards.push(verdict.reward);
                correct.push(verdict.correct);
            }
        }
        let input_ids = Array2::from_shape_vec((b, t), ids)
            .map_err(|_| Error::shape("input_ids", vec![b, t], vec![prompt_classes.len()]))?;
        let prompt_lengths = Array1::from(lengths);
        let mask = rl::response_token_mask(
            input_ids.view(),
            prompt_lengths.view(),
            task::PAD,
            task::EOS,
            self.config.include_eos,
        )?;
        let mut batch = RolloutBatch {
            task,
            prompt_classes,
            levels,
            input_ids,
            prompt_lengths,
            rewards: Array1::from(rewards),
            correct,
            advantages: Array1::zeros(b),
            mask,
            old_log_probs,
            ref_log_probs: Array2::zeros((b, t - 1)),
            drawn_rewards,
            dropped,
        };
        batch.ref_log_probs = Self::log_probs_under(&self.reference, &batch)?;
        batch.advantages = self.advantages(&batch)?;
        Ok(batch)
    }

    /// Log-probs `[B, T−1]` of the batch's response tokens under `policy`, 0 off the mask.
    pub(super) fn log_probs_under(policy: &P, batch: &RolloutBatch) -> Result<Array2<f64>> {
        let tape = policy.forward(&Self::model_inputs(batch)?)?;
        let mut out = Array2::zeros((batch.len(), tape.steps()));
        for ((b, k), value) in out.indexed_iter_mut() {
            if batch.mask[[b, k]] == 1.0 {
                *value = tape.log_probs(b, k)[Self::label_action(batch, b, k)?];
            }
        }
        Ok(out)
    }

    /// The group advantages of a batch (rows grouped by prompt, G per group). With the KL in
    /// the reward, each response's reward is the sum of [`rl::kl_in_reward`]'s token rewards
    /// (the verifier's reward − β·Σ_t (log π_old − log π_ref)) before the estimator.
    pub fn advantages(&self, batch: &RolloutBatch) -> Result<Array1<f64>> {
        let c = &self.config;
        let rewards = if c.kl_placement == KlPlacement::Reward {
            let token_rewards = rl::kl_in_reward(
                batch.rewards.view(),
                batch.old_log_probs.view(),
                batch.ref_log_probs.view(),
                batch.mask.view(),
                c.kl_coef,
            )?;
            token_rewards
                .rows()
                .into_iter()
                .map(|row| row.iter().sum())
                .collect()
        } else {
            batch.rewards.clone()
        };
        let mut advantages = Vec::with_capacity(batch.len());
        for group in rewards.exact_chunks(c.group_size) {
            let a = rl::group_advantages(group, c.advantage_estimator, STD_EPS)?;
            advantages.extend(a);
        }
        Ok(Array1::from(advantages))
    }

    /// Model inputs of a batch: every token but the last (the causal shift).
    pub(super) fn model_inputs(batch: &RolloutBatch) -> Result<Vec<Vec<usize>>> {
        batch
            .input_ids
            .rows()
            .into_iter()
            .map(|row| {
                row.iter()
                    .take(row.len().saturating_sub(1))
                    .map(|&t| {
                        usize::try_from(t)
                            .ok()
                            .filter(|&t| t < batch.task.vocab_size())
                            .ok_or_else(|| {
                                let rule = Rule::IndexBelow(batch.task.vocab_size());
                                Error::range("input_ids", rule, t)
                            })
                    })
                    .collect()
            })
            .collect()
    }

    /// The action of label `(b, k)` on the mask: the token at `input_ids[b][k + 1]`.
    pub(super) fn label_action(batch: &RolloutBatch, b: usize, k: usize) -> Result<usize> {
        let token = batch.input_ids[[b, k + 1]];
        let task = batch.task;
        task.token_action(token).ok_or_else(|| {
            let names: Vec<String> = (0..task.num_actions())
                .map(|a| task.decode(&[task.action_token(a)]))
                .collect();
            let arg = format!("input_ids[{b}][{}]", k + 1);
            Error::range(arg, Rule::OneOf(names), task.decode(&[token]))
        })
    }
}

/// One row of the batch layout: the prompt, the response, then PAD up to `total_len`.
pub fn layout_row(prompt: &[i64], response: &[i64], total_len: usize) -> Vec<i64> {
    let mut row = Vec::with_capacity(total_len);
    row.extend_from_slice(prompt);
    row.extend_from_slice(response);
    row.resize(total_len.max(row.len()), task::PAD);
    row
}

pub(super) fn first_batch_rows(batch: &RolloutBatch) -> Vec<FirstBatchRow> {
    (0..batch.len())
        .map(|b| FirstBatchRow {
            prompt_class: batch.prompt_classes[b],
            input_ids: batch.input_ids.row(b).to_vec(),
            text: batch.task.decode(&batch.input_ids.row(b).to_vec()),
            prompt: batch
                .task
                .decode(&batch.input_ids.row(b).to_vec()[1..batch.prompt_lengths[b]]),
            reward: batch.rewards[b],
            advantage: batch.advantages[b],
            mask: batch
                .mask
                .row(b)
                .iter()
                .map(|&m| u8::from(m == 1.0))
                .collect(),
        })
        .collect()
}
