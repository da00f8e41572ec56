//! Evaluation as the field does it: `pass_k_samples` answers sampled per fixed held-out
//! prompt (the same prompts for the untrained, SFT and RL policies and for every seed), the
//! unbiased pass@k for k = 1 … n over every prompt and per difficulty level
//! ([`rl::pass_at_k_curve`]), and the lengths of right and wrong answers. Its own random
//! stream, so evaluating never changes the training run or the per-iteration evaluation.

use super::report::PassAtK;
use super::{Policy, SequenceRun};
use crate::error::Result;
use crate::rl;

/// Offset of pass@k's random stream from the run's seed.
const PASS_K_SEED_OFFSET: u64 = 0x9A55_0000;

/// pass@k's random stream for the run with `seed`.
pub fn pass_k_seed(seed: u64) -> u64 {
    seed.wrapping_add(PASS_K_SEED_OFFSET)
}

impl<P: Policy> SequenceRun<P> {
    /// pass@k of the policy now (`None` when `pass_k_samples` is 0).
    pub fn pass_at_k(&mut self) -> Result<Option<PassAtK>> {
        let c = &self.config;
        let (n, task, max_len) = (c.pass_k_samples, c.task, c.max_response_len);
        if n == 0 {
            return Ok(None);
        }
        let ks: Vec<usize> = (1..=n).collect();
        let (mut all, mut prompts_by_level, mut curve_by_level) = (Vec::new(), vec![], vec![]);
        let mut lengths = [(0.0, 0usize); 2]; // [wrong, right]: sum and count
        for level in 0..task.levels() {
            let prompts = task.evaluation_prompts(level, c.pass_k_prompts);
            let mut counts = Vec::with_capacity(prompts.len());
            for prompt in &prompts {
                let state = Self::read_prompt(&self.policy, prompt)?;
                let mut right = 0;
                for _ in 0..n {
                    let rng = Some(&mut self.pass_rng);
                    let (response, _) = Self::generate(&self.policy, task, &state, max_len, rng)?;
                    let correct = task.verify(prompt, &response).correct;
                    right += usize::from(correct);
                    let slot = &mut lengths[usize::from(correct)];
                    slot.0 += response.len() as f64;
                    slot.1 += 1;
                }
                counts.push(right);
            }
            curve_by_level.push(rl::pass_at_k_curve(&counts, n, &ks)?);
            prompts_by_level.push(counts.len());
            all.extend(counts);
        }
        let mean = |(sum, count): (f64, usize)| (count > 0).then(|| sum / count as f64);
        Ok(Some(PassAtK {
            n,
            prompts_by_level,
            curve: rl::pass_at_k_curve(&all, n, &ks)?,
            curve_by_level,
            mean_length_correct: mean(lengths[1]),
            mean_length_incorrect: mean(lengths[0]),
        }))
    }
}
