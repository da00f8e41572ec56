//! The token inspector: one sampled group of a run, each token of each answer with the terms
//! the loss gives it — the probability it was sampled with, the policy's entropy there, the
//! ratio and its clip state in the last PPO epoch, the answer's advantage, the token's weight
//! under the reduction and what the token adds to the gradient (d objective / d log π).
//!
//! The inspector never touches the run: it works on a copy, draws a whole iteration's batch
//! (the token weights of `token_mean` and the batch size B depend on every row), takes the
//! iteration's first `ppo_epochs − 1` Adam steps exactly as [`SequenceRun::step`] does, and
//! reads the terms the last epoch's loss sees ([`SequenceRun::loss_and_gradient`]'s formulas).

use super::config::RatioLevel;
use super::rollout::RolloutBatch;
use super::{Policy, SequenceRun};
use crate::error::{Error, Result, Rule};
use crate::math;
use crate::nn::{categorical, clip_grad_norm, PolicyTape};
use crate::rng;
use serde::Serialize;

/// Where a token's ratio stands against the clip range [1 − ε, 1 + ε_high].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub enum ClipState {
    /// Inside the range: the term is r·A and the gradient flows.
    Inside,
    /// Outside, and the clipped term is the minimum: a constant in r, no gradient.
    Clipped,
    /// Outside, but r·A is still the minimum (the ratio moved against the advantage): the
    /// gradient flows and pulls it back.
    OutsideFlowing,
}

/// One response token and its terms.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct InspectedToken {
    /// The token as the task writes it.
    pub token: String,
    /// π_old(token): the probability it was sampled with.
    pub probability: f64,
    /// The current policy's entropy at this position (nats).
    pub entropy: f64,
    /// The ratio the last epoch's term uses (the token's, or its answer's under GSPO).
    pub ratio: f64,
    pub clip: ClipState,
    /// The answer's advantage, shared by its tokens.
    pub advantage: f64,
    /// The reduction's weight on this token's term ([`crate::rl::Reduction::token_weight`]).
    pub weight: f64,
    /// d objective / d log π(token) from the policy term: w·r·A (w·s·A under GSPO), 0 where
    /// clipping is active.
    pub gradient: f64,
}

/// One answer of the group.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct InspectedAnswer {
    /// The whole row: `<bos> prompt… answer…`.
    pub text: String,
    pub reward: f64,
    pub correct: bool,
    pub advantage: f64,
    /// Its tokens in the mask (`<eos>` too unless the settings leave it out).
    pub tokens: Vec<InspectedToken>,
}

/// One group, inspected.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct GroupInspection {
    /// Iterations the run had done.
    pub iteration: usize,
    /// The group's number in the batch (from 0) and how many the batch holds.
    pub group: usize,
    pub groups: usize,
    /// Rows in the batch (B).
    pub batch_rows: usize,
    /// The epoch whose terms are shown (1-based) of `epochs`.
    pub epoch: usize,
    pub epochs: usize,
    pub reduction: &'static str,
    pub ratio_level: &'static str,
    pub clip_low: f64,
    pub clip_high: f64,
    /// The prompt, decoded.
    pub prompt: String,
    pub answers: Vec<InspectedAnswer>,
}

/// The stream a fresh inspection draws from: the run's seed, its iteration and the reader's
/// draw number, mixed so that neighbouring draws are unrelated.
pub fn inspection_stream(seed: u64, iteration: usize, draw: u64) -> u64 {
    let mut x = seed ^ 0x9e37_79b9_7f4a_7c15;
    for v in [iteration as u64, draw] {
        x = (x ^ v).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^= x >> 31;
    }
    x
}

impl<P: Policy> SequenceRun<P> {
    /// Group `group` of the batch the run would draw next (`stream = None`: from the run's own
    /// training stream, the very group its next iteration trains on) or from a fresh stream
    /// `Some(s)`, with its terms in the iteration's last PPO epoch. The run is not changed.
    pub fn inspect_group(&self, group: usize, stream: Option<u64>) -> Result<GroupInspection> {
        let mut run = self.clone();
        if let Some(s) = stream {
            run.rng = rng::seeded(s);
        }
        let batch = run.collect_rollout()?;
        let g = run.config.group_size;
        let groups = batch.len() / g;
        if group >= groups {
            let rule = Rule::WholeNumber {
                min: 0,
                max: groups.saturating_sub(1) as u64,
            };
            return Err(Error::range("group", rule, group));
        }
        let epochs = run.config.ppo_epochs;
        for _ in 1..epochs {
            let mut grad = run.loss_and_gradient(&batch, None)?.grad;
            clip_grad_norm(&mut [&mut grad], run.config.max_grad_norm);
            run.adam
                .step(run.policy.params_mut(), &grad, run.config.learning_rate);
        }
        let answers = (group * g..(group + 1) * g)
            .map(|b| run.inspect_row(&batch, b))
            .collect::<Result<Vec<_>>>()?;
        let c = &run.config;
        let row = group * g;
        let prompt_end = batch.prompt_lengths[row];
        let ids = batch.input_ids.row(row);
        Ok(GroupInspection {
            iteration: self.iteration,
            group,
            groups,
            batch_rows: batch.len(),
            epoch: epochs,
            epochs,
            reduction: c.reduction.name(),
            ratio_level: match c.ratio_level {
                RatioLevel::Token => "token",
                RatioLevel::Sequence => "sequence",
            },
            clip_low: c.clip_epsilon,
            clip_high: c.epsilon_high(),
            prompt: batch
                .task
                .decode(&ids.as_slice().unwrap_or(&[])[1..prompt_end]),
            answers,
        })
    }

    /// Puts a saved network in place of the policy, as after `iteration` iterations.
    pub(super) fn load_policy(&mut self, policy: P, iteration: usize) {
        self.policy = policy;
        self.iteration = iteration;
    }

    /// Row `b`'s tokens under the current policy (the loss's formulas, term by term).
    fn inspect_row(&self, batch: &RolloutBatch, b: usize) -> Result<InspectedAnswer> {
        let c = &self.config;
        let (eps, eps_high) = (c.clip_epsilon, c.epsilon_high());
        let inputs = Self::model_inputs(batch)?;
        let tape = self.policy.forward(&inputs[b..=b])?;
        let steps = tape.steps();
        let counts = crate::rl::row_sums(batch.mask.view());
        let total: f64 = counts.iter().sum();
        let weight = c
            .reduction
            .token_weight(counts[b], total, batch.len(), c.max_response_len);
        let advantage = batch.advantages[b];
        let positions: Vec<usize> = (0..steps).filter(|&k| batch.mask[[b, k]] == 1.0).collect();
        let mut log_ratios = Vec::with_capacity(positions.len());
        for &k in &positions {
            let action = Self::label_action(batch, b, k)?;
            log_ratios.push(tape.log_probs(0, k)[action] - batch.old_log_probs[[b, k]]);
        }
        let sequence_log_ratio = match c.ratio_level {
            RatioLevel::Token => None,
            RatioLevel::Sequence => Some(log_ratios.iter().sum::<f64>() / counts[b].max(1.0)),
        };
        let mut tokens = Vec::with_capacity(positions.len());
        for (&k, &own) in positions.iter().zip(&log_ratios) {
            let ratio = math::exp(sequence_log_ratio.unwrap_or(own));
            let unclipped = ratio * advantage;
            let pessimistic =
                crate::rl::asymmetric_clipped_objective(ratio, advantage, eps, eps_high);
            let outside = ratio < 1.0 - eps || ratio > 1.0 + eps_high;
            let flowing = unclipped <= pessimistic;
            let clip = match (outside, flowing) {
                (false, _) => ClipState::Inside,
                (true, true) => ClipState::OutsideFlowing,
                (true, false) => ClipState::Clipped,
            };
            tokens.push(InspectedToken {
                token: batch.task.decode(&[batch.input_ids[[b, k + 1]]]),
                probability: math::exp(batch.old_log_probs[[b, k]]),
                entropy: categorical::entropy_of_log_probs(tape.log_probs(0, k)),
                ratio,
                clip,
                advantage,
                weight,
                gradient: if flowing { weight * unclipped } else { 0.0 },
            });
        }
        let end = batch.prompt_lengths[b];
        let row: Vec<i64> = batch.input_ids.row(b).iter().copied().collect();
        Ok(InspectedAnswer {
            text: format!(
                "{} → {}",
                batch.task.decode(&row[1..end]),
                batch.task.decode(&row[end..])
            ),
            reward: batch.rewards[b],
            correct: batch.correct[b],
            advantage,
            tokens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::{SequencePolicy, Transformer};
    use crate::train::sequence::{SequenceConfig, SequenceProfile};
    use crate::train::settings::Settings;

    fn small(profile: SequenceProfile) -> SequenceConfig {
        SequenceConfig {
            iterations: 4,
            prompts_per_iteration: 4,
            eval_samples_per_prompt: 4,
            ..SequenceConfig::for_profile(profile)
        }
    }

    /// The inspected terms are the loss's: reduced like the loss, they give the last epoch's
    /// policy loss, and the run itself is unchanged.
    #[test]
    fn the_terms_add_up_to_the_last_epochs_policy_loss() {
        let mut run =
            SequenceRun::<Transformer<f32>>::new(small(SequenceProfile::Transformer), 3).unwrap();
        run.step().unwrap();
        let before = run.clone().step().unwrap();
        let groups = run.config.prompts_per_iteration;
        let all: Vec<GroupInspection> = (0..groups)
            .map(|g| run.inspect_group(g, None).unwrap())
            .collect();
        assert_eq!(
            run.clone().step().unwrap(),
            before,
            "inspecting changes nothing"
        );
        // The loss of the last epoch, computed by the loss itself on a copy.
        let mut copy = run.clone();
        let batch = copy.collect_rollout().unwrap();
        for _ in 1..copy.config.ppo_epochs {
            let mut grad = copy.loss_and_gradient(&batch, None).unwrap().grad;
            clip_grad_norm(&mut [&mut grad], copy.config.max_grad_norm);
            copy.adam
                .step(copy.policy.params_mut(), &grad, copy.config.learning_rate);
        }
        let want = copy.loss_and_gradient(&batch, None).unwrap().policy_loss;
        let (eps, high) = (all[0].clip_low, all[0].clip_high);
        let mut objective = 0.0;
        for answer in all.iter().flat_map(|g| &g.answers) {
            for t in &answer.tokens {
                let term = crate::rl::asymmetric_clipped_objective(t.ratio, t.advantage, eps, high);
                objective += t.weight * term;
            }
        }
        assert!((-objective - want).abs() < 1e-9, "{} vs {want}", -objective);
        let tokens: Vec<&InspectedToken> = all
            .iter()
            .flat_map(|g| &g.answers)
            .flat_map(|a| &a.tokens)
            .collect();
        assert!(
            tokens.iter().any(|t| t.ratio != 1.0),
            "the epochs moved the ratios"
        );
        for t in &tokens {
            assert!((0.0..=1.0).contains(&t.probability) && t.entropy >= 0.0);
            match t.clip {
                ClipState::Clipped => assert_eq!(t.gradient, 0.0),
                _ => assert!((t.gradient - t.weight * t.ratio * t.advantage).abs() < 1e-15),
            }
        }
    }

    /// One epoch: every ratio is 1, nothing is clipped; a fresh stream draws another group;
    /// a group past the batch is refused.
    #[test]
    fn one_epoch_leaves_every_ratio_at_one_and_bad_groups_are_refused() {
        let config = SequenceConfig {
            ppo_epochs: 1,
            ..small(SequenceProfile::Grpo)
        };
        let run = SequenceRun::<crate::nn::Gru>::new(config, 7).unwrap();
        let a = run.inspect_group(0, None).unwrap();
        assert_eq!((a.epoch, a.epochs, a.groups), (1, 1, 4));
        assert_eq!(a.answers.len(), run.config.group_size);
        for t in a.answers.iter().flat_map(|x| &x.tokens) {
            assert_eq!((t.ratio, t.clip), (1.0, ClipState::Inside));
        }
        let other = run
            .inspect_group(0, Some(inspection_stream(7, 0, 1)))
            .unwrap();
        let texts =
            |g: &GroupInspection| g.answers.iter().map(|x| x.text.clone()).collect::<Vec<_>>();
        assert_ne!(texts(&a), texts(&other));
        assert!(run.inspect_group(4, None).is_err());
    }

    /// A saved network comes back as the run it was saved from (weights, iteration) and can be
    /// inspected; a file that is not a policy file is refused.
    #[test]
    fn a_policy_file_is_inspected_as_its_run() {
        use crate::train::sequence::SequenceTrainer;
        let mut trainer = SequenceTrainer::new(small(SequenceProfile::Transformer), 2).unwrap();
        trainer.step().unwrap();
        let file = trainer.policy_file().unwrap().unwrap();
        let back = SequenceTrainer::from_policy_file(&file).unwrap();
        assert_eq!(back.params(), trainer.params());
        assert_eq!((back.iteration(), back.seed()), (1, 2));
        let g = back
            .inspect_group(1, Some(inspection_stream(2, 1, 0)))
            .unwrap();
        assert_eq!((g.iteration, g.group), (1, 1));
        assert!(SequenceTrainer::from_policy_file("{}").is_err());
    }

    /// The addition task after SFT and one RL iteration: the answers are the task's own
    /// (`a + b =` prompts), and the terms still add up to sums of the same kind.
    #[test]
    fn the_addition_task_after_sft_is_inspected() {
        use crate::train::sequence::SequenceTrainer;
        let config = SequenceConfig::for_profile(SequenceProfile::R1Smoke);
        let mut trainer = SequenceTrainer::new(config, 5).unwrap();
        trainer.step().unwrap();
        let g = trainer.inspect_group(0, None).unwrap();
        assert!(g.prompt.contains('+'), "{}", g.prompt);
        assert!(g.answers.iter().all(|a| !a.tokens.is_empty()));
    }
}
