//! One iteration's experience: G sampled responses per prompt, verified, with RLOO advantages,
//! the response mask after the causal shift and the frozen old log-probs.

use super::report::FirstBatchRow;
use super::task::{self, Verdict, NUM_ACTIONS, NUM_PROMPTS, PROMPT_LENGTH};
use super::SequenceTrainer;
use crate::error::{Error, Quantity, Result, Rule};
use crate::math;
use crate::nn::categorical;
use crate::nn::gru::Gru;
use crate::rl;
use crate::rng::{self, Rng};
use ndarray::{Array1, Array2};

/// One iteration's rollout, laid out as the lesson draws it. Rows are grouped by prompt:
/// rows `c·G .. (c+1)·G` answer prompt class `c`.
/// The arrays are the course's (`ndarray`, as the NumPy reference has them).
#[derive(Debug, Clone, PartialEq)]
pub struct RolloutBatch {
    /// Prompt class of every row.
    pub prompt_classes: Vec<usize>,
    /// `[B, T]` token ids: `<bos> q<c> response… <pad>…`.
    pub input_ids: Array2<i64>,
    /// Prompt length of every row `[B]` (2: `<bos> q<c>`).
    pub prompt_lengths: Array1<usize>,
    /// Verifier rewards `[B]`.
    pub rewards: Array1<f64>,
    /// Fully correct answers `[B]`.
    pub correct: Vec<bool>,
    /// RLOO advantages `[B]`; they sum to zero within each group.
    pub advantages: Array1<f64>,
    /// `[B, T−1]` response mask aligned with the labels `input_ids[:, 1:]`, `<eos>` included
    /// unless the settings leave it out.
    pub mask: Array2<f64>,
    /// `[B, T−1]` log-probs of the sampled tokens under the sampling policy, frozen; 0 off
    /// the mask.
    pub old_log_probs: Array2<f64>,
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

    /// Number of response tokens of row `b` (`<eos>` included).
    pub fn response_len(&self, b: usize) -> usize {
        self.mask.row(b).iter().filter(|&&m| m == 1.0).count()
    }
}

/// A prompt read by the policy: the state and the first response token's log-probs.
#[derive(Debug, Clone)]
pub(super) struct PromptState {
    state: Vec<f64>,
    log_probs: [f64; NUM_ACTIONS],
}

impl SequenceTrainer {
    /// The state after reading the prompt `<bos> q<c>` and the log-probs of the first
    /// response token. They are the same for every response to that prompt, so every rollout
    /// and evaluation computes them once per prompt.
    pub(super) fn read_prompt(policy: &Gru, class: usize) -> Result<PromptState> {
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
    pub(super) fn generate(
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
                None => categorical::argmax(&log_probs),
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
        let mut prompt_classes = Vec::with_capacity(b);
        let mut ids: Vec<i64> = Vec::with_capacity(b * t);
        let mut rewards = Vec::with_capacity(b);
        let mut correct = Vec::with_capacity(b);
        let mut advantages = Vec::with_capacity(b);
        let mut old_log_probs = Array2::zeros((b, t - 1));
        for class in 0..NUM_PROMPTS {
            let prompt = Self::read_prompt(&self.policy, class)?;
            for _ in 0..g {
                let row = prompt_classes.len();
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
                    old_log_probs[[row, PROMPT_LENGTH - 1 + i]] = *lp;
                }
                let Verdict {
                    reward,
                    correct: ok,
                } = task::verify(class, &response);
                prompt_classes.push(class);
                ids.extend(task::layout_row(class, &response, t));
                rewards.push(reward);
                correct.push(ok);
            }
            let group = &rewards[class * g..(class + 1) * g];
            advantages.extend(rl::rloo_advantages(group.into())?);
        }
        let input_ids = Array2::from_shape_vec((b, t), ids)
            .map_err(|_| Error::shape("input_ids", vec![b, t], vec![prompt_classes.len()]))?;
        let prompt_lengths = Array1::from_elem(b, PROMPT_LENGTH);
        let mask = rl::response_token_mask(
            input_ids.view(),
            prompt_lengths.view(),
            task::PAD,
            task::EOS,
            self.config.include_eos,
        )?;
        Ok(RolloutBatch {
            prompt_classes,
            input_ids,
            prompt_lengths,
            rewards: Array1::from(rewards),
            correct,
            advantages: Array1::from(advantages),
            mask,
            old_log_probs,
        })
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
    pub(super) fn label_action(batch: &RolloutBatch, b: usize, k: usize) -> Result<usize> {
        let token = batch.input_ids[[b, k + 1]];
        task::token_action(token).ok_or_else(|| {
            let names: Vec<String> = (0..NUM_ACTIONS)
                .map(|a| task::token_text(task::action_token(a)))
                .collect();
            let arg = format!("input_ids[{b}][{}]", k + 1);
            Error::range(arg, Rule::OneOf(names), task::token_text(token))
        })
    }
}

pub(super) fn first_batch_rows(batch: &RolloutBatch) -> Vec<FirstBatchRow> {
    (0..batch.len())
        .map(|b| FirstBatchRow {
            prompt_class: batch.prompt_classes[b],
            input_ids: batch.input_ids.row(b).to_vec(),
            text: task::decode(&batch.input_ids.row(b).to_vec()),
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
