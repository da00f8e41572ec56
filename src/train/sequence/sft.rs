//! The supervised stage before RL (SFT): teacher forcing on demonstrations the task writes —
//! each step a batch of training prompts with their correct responses, the mean cross-entropy
//! of the response tokens, its exact gradient through the policy's batched forward and
//! backward, one Adam step. Its own random stream (the run's seed, offset), so the RL that
//! follows draws what it would draw without it; its own Adam, so RL starts a fresh one.

use super::report::{PassAtKStages, SftStage};
use super::rollout::layout_row;
use super::{Policy, SequenceRun};
use crate::error::{Error, Quantity, Result, Rule, StepUnit};
use crate::nn::{categorical, clip_grad_norm, Adam, PolicyTape, Scalar};
use crate::rng::{self, Rng};

/// Offset of SFT's random stream from the run's seed.
const SFT_SEED_OFFSET: u64 = 0x5F7_0000;

/// SFT's random stream for the run with `seed`.
pub fn sft_seed(seed: u64) -> u64 {
    seed.wrapping_add(SFT_SEED_OFFSET)
}

impl<P: Policy> SequenceRun<P> {
    /// What comes before the first RL iteration in a run with SFT or pass@k: pass@k of the
    /// untrained network, the supervised stage, pass@k of the SFT policy — which becomes RL's
    /// starting point and its KL reference. `None` for a run with neither.
    pub(super) fn pretrain(&mut self) -> Result<Option<SftStage>> {
        if self.config.sft_steps == 0 && self.config.pass_k_samples == 0 {
            return Ok(None);
        }
        let untrained = self.pass_at_k()?;
        let (losses, tokens) = self.supervised_fine_tuning()?;
        let sft = if self.config.sft_steps > 0 {
            self.reference = self.policy.clone();
            self.pass_at_k()?
        } else {
            None
        };
        self.stages = Some(PassAtKStages {
            untrained: untrained.clone(),
            sft: sft.clone(),
            rl: None,
        });
        Ok(Some(SftStage {
            batch: self.config.sft_batch,
            tokens,
            losses,
            pass_at_k_untrained: untrained,
            pass_at_k_sft: sft,
        }))
    }

    /// Runs `sft_steps` supervised steps on the policy and returns each step's mean
    /// cross-entropy per response token (before its update) and the tokens seen.
    pub(super) fn supervised_fine_tuning(&mut self) -> Result<(Vec<f64>, usize)> {
        let steps = self.config.sft_steps;
        let mut rng = rng::seeded(sft_seed(self.seed));
        let mut adam = Adam::new(self.policy.params().len());
        let (mut losses, mut tokens) = (Vec::with_capacity(steps), 0);
        for step in 0..steps {
            crate::train::report_stage(crate::train::Stage::Pretrain {
                step: step as u64 + 1,
                steps: steps as u64,
            });
            let (loss, count, mut grad) = self.demonstration_loss(&mut rng)?;
            let norm = clip_grad_norm(&mut [&mut grad], self.config.max_grad_norm);
            if let Some(what) = super::non_finite(loss, norm) {
                return Err(Error::diverged(StepUnit::Iteration, 1, what));
            }
            let lr = self.config.sft_learning_rate;
            adam.step(self.policy.params_mut(), &grad, lr);
            losses.push(loss);
            tokens += count;
        }
        if self.policy.params().iter().any(|p| !p.is_finite()) {
            return Err(Error::diverged(
                StepUnit::Iteration,
                1,
                Quantity::Parameters,
            ));
        }
        Ok((losses, tokens))
    }

    /// One batch of demonstrations: the mean cross-entropy of its response tokens (`<eos>`
    /// included), how many there were, and the loss's gradient.
    fn demonstration_loss(&self, rng: &mut Rng) -> Result<(f64, usize, Vec<P::Scalar>)> {
        let c = &self.config;
        let (task, t) = (c.task, c.sequence_len());
        let prompts = task.iteration_prompts(rng, c.sft_batch);
        let mut rows = Vec::with_capacity(prompts.len());
        for prompt in &prompts {
            let worked = rng::uniform(rng) < c.sft_worked_share;
            let response = task.demonstration(prompt, worked);
            let row = layout_row(&prompt.tokens, &response, t);
            rows.push((row, prompt.tokens.len(), response.len()));
        }
        // Labels are the next tokens: the response's, after the causal shift.
        let inputs: Vec<Vec<usize>> = rows
            .iter()
            .map(|(row, _, _)| row[..t - 1].iter().map(|&x| x as usize).collect())
            .collect();
        let tape = self.policy.forward(&inputs)?;
        let (actions, steps) = (self.policy.outputs(), tape.steps());
        let count: usize = rows.iter().map(|(_, _, len)| len).sum();
        let weight = 1.0 / count.max(1) as f64;
        let mut d_logits = vec![0.0; rows.len() * steps * actions];
        let mut d_log_probs = vec![0.0; actions];
        let mut loss = 0.0;
        for (b, (row, start, len)) in rows.iter().enumerate() {
            for k in start - 1..start - 1 + len {
                let action = task.token_action(row[k + 1]).ok_or_else(|| {
                    let arg = format!("demonstration[{b}][{}]", k + 1);
                    Error::range(arg, Rule::IndexBelow(actions), row[k + 1])
                })?;
                let log_probs = tape.log_probs(b, k);
                loss -= log_probs[action];
                d_log_probs.fill(0.0);
                d_log_probs[action] = -weight;
                let i = (b * steps + k) * actions;
                categorical::log_softmax_backward(
                    log_probs,
                    &d_log_probs,
                    &mut d_logits[i..i + actions],
                );
            }
        }
        let grad = self.policy.backward(&tape, &d_logits)?;
        Ok((loss * weight, count, grad))
    }
}
