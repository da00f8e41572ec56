//! Lessons 6 and 8: the trainers' actual settings, quoted by the text. Read from the trainers'
//! schemas (their profiles' defaults), so the lesson never states a setting the code does not use.

use crate::rl::AdvantageEstimator;
use crate::train::a2c::{A2cConfig, A2cProfile};
use crate::train::cartpole::{CartPoleTrainer, SOLVED_THRESHOLD};
use crate::train::ppo::{PpoConfig, PpoProfile};
use crate::train::reinforce::{ReinforceConfig, ReinforceProfile, ReinforceTrainer};
use crate::train::sequence::{SequenceConfig, SequenceProfile};
use crate::train::settings::{Profile, Settings};
use crate::train::Trainer;
use crate::Result;
use serde::Serialize;

/// One PPO profile as the lesson describes it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct PpoProfileFacts {
    /// Every setting of the profile (the schema's defaults).
    /// The profile\'s settings by name (their types: the trainer\'s schema).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub config: PpoConfig,
    /// The seeds the profile trains.
    pub seeds: Vec<u64>,
    pub seed_count: usize,
    /// N × T transitions per rollout.
    pub batch_size: usize,
    /// Optimiser steps per update: epochs × ⌈N·T / minibatch⌉ (without an early KL stop).
    pub minibatch_steps: usize,
    /// Transitions of one seed's run.
    pub env_steps_per_seed: u64,
    /// Transitions of all seeds together: what the progress line counts to.
    pub env_steps_all_seeds: u64,
    /// Whether an entropy bonus is used (ent_coef > 0).
    pub entropy_bonus: bool,
    /// γλ: the weight per step with which GAE carries an error back (lesson 4).
    pub gamma_lambda: f64,
    /// 1/(1 − γ) rounded to whole steps: the horizon lesson 4 quotes for the profile's γ.
    pub horizon: f64,
}

/// One sequence-task profile as the lesson describes it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct SequenceProfileFacts {
    /// The profile\'s settings by name (their types: the trainer\'s schema).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub config: SequenceConfig,
    pub seeds: Vec<u64>,
    /// Whether the profile trains one seed only (lesson 8 then says a spread is not visible).
    pub single_seed: bool,
    /// Whether its advantages are z-scores with the sample (G − 1) standard deviation (lesson
    /// 9 and exercise 26 say which of GRPO's two conventions the `grpo` profile uses).
    pub sample_std: bool,
}

fn sequence(profile: SequenceProfile) -> SequenceProfileFacts {
    let seeds = profile.seeds().to_vec();
    let config = SequenceConfig::for_profile(profile);
    SequenceProfileFacts {
        sample_std: config.advantage_estimator == AdvantageEstimator::MeanStdSample,
        config,
        single_seed: seeds.len() == 1,
        seeds,
    }
}

/// A2C's `full` profile (lessons 4 and 6 name where it differs from PPO's).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct A2cProfileFacts {
    /// The profile\'s settings by name (their types: the trainer\'s schema).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub config: A2cConfig,
    /// N × T transitions per rollout.
    pub batch_size: usize,
    /// Transitions of one seed's run.
    pub env_steps_per_seed: u64,
    /// Whether an entropy bonus is used (ent_coef > 0).
    pub entropy_bonus: bool,
}

/// REINFORCE's `smoke` profile as lesson 1's first task describes it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct ReinforceSmokeFacts {
    /// The profile\'s settings by name (their types: the trainer\'s schema).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub config: ReinforceConfig,
    pub seeds: Vec<u64>,
    /// Each seed's first evaluation (after `evaluation_every` updates): where the curve starts.
    pub first_evaluations: Vec<f64>,
    /// Every seed's final evaluation reaches at least this: the lesson's expected outcome,
    /// checked by running the profile (tests/reinforce.rs).
    pub final_at_least: f64,
}

/// What lesson 1 promises of REINFORCE's `smoke` run on its seeds.
pub const REINFORCE_SMOKE_FINAL_AT_LEAST: f64 = 300.0;

fn reinforce_smoke() -> Result<ReinforceSmokeFacts> {
    let config = ReinforceConfig::for_profile(ReinforceProfile::Smoke);
    let seeds = ReinforceProfile::Smoke.seeds().to_vec();
    let mut first_evaluations = Vec::with_capacity(seeds.len());
    for &seed in &seeds {
        // A few updates, not the run: only until the first evaluation.
        let mut run = ReinforceTrainer::new(config.clone(), seed)?;
        while run.evaluations().is_empty() && !run.is_finished() {
            run.step()?;
        }
        first_evaluations.push(run.evaluations().first().map_or(0.0, |e| e.mean));
    }
    Ok(ReinforceSmokeFacts {
        config,
        seeds,
        first_evaluations,
        final_at_least: REINFORCE_SMOKE_FINAL_AT_LEAST,
    })
}

/// The trainers' settings the lessons quote.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(target_arch = "wasm32", derive(tsify::Tsify))]
pub struct Trainers {
    pub ppo_smoke: PpoProfileFacts,
    pub ppo_full: PpoProfileFacts,
    pub sequence_full: SequenceProfileFacts,
    /// The `grpo` profile: its seeds are lesson 9's prepared comparisons'.
    pub sequence_grpo: SequenceProfileFacts,
    /// The `transformer` profile: lesson 8 quotes its network's shape.
    pub sequence_transformer: SequenceProfileFacts,
    /// The seeds of REINFORCE's `full` profile (lessons 2 and 3's prepared comparisons).
    pub reinforce_full_seeds: Vec<u64>,
    /// REINFORCE's `smoke` profile: lesson 1's first task.
    pub reinforce_smoke: ReinforceSmokeFacts,
    /// A2C's `full` profile.
    pub a2c_full: A2cProfileFacts,
    /// REINFORCE's `full` settings (lessons 1 and 2 say what its loss optimises).
    #[cfg_attr(target_arch = "wasm32", tsify(type = "Record<string, unknown>"))]
    pub reinforce_full: ReinforceConfig,
    /// CartPole's "solved" level of an evaluation mean («стабильно ≥ …»).
    pub solved_threshold: f64,
}

fn ppo(profile: PpoProfile) -> PpoProfileFacts {
    let config = PpoConfig::for_profile(profile);
    let seeds = profile.seeds().to_vec();
    let batch_size = config.batch_size();
    let per_epoch = batch_size.div_ceil(config.minibatch_size.max(1));
    let env_steps_per_seed = config.total_env_steps();
    PpoProfileFacts {
        seed_count: seeds.len(),
        batch_size,
        minibatch_steps: config.update_epochs * per_epoch,
        env_steps_per_seed,
        env_steps_all_seeds: env_steps_per_seed * seeds.len() as u64,
        entropy_bonus: config.ent_coef > 0.0,
        gamma_lambda: config.gamma * config.gae_lambda,
        horizon: (1.0 / (1.0 - config.gamma)).round(),
        seeds,
        config,
    }
}

/// The settings of the profiles the lessons run.
pub fn trainers() -> Result<Trainers> {
    let a2c = A2cConfig::for_profile(A2cProfile::Full);
    Ok(Trainers {
        ppo_smoke: ppo(PpoProfile::Smoke),
        ppo_full: ppo(PpoProfile::Full),
        sequence_full: sequence(SequenceProfile::Full),
        sequence_grpo: sequence(SequenceProfile::Grpo),
        sequence_transformer: sequence(SequenceProfile::Transformer),
        reinforce_full_seeds: ReinforceProfile::Full.seeds().to_vec(),
        reinforce_full: ReinforceConfig::for_profile(ReinforceProfile::Full),
        reinforce_smoke: reinforce_smoke()?,
        a2c_full: A2cProfileFacts {
            batch_size: a2c.batch_size(),
            env_steps_per_seed: a2c.total_env_steps(),
            entropy_bonus: a2c.ent_coef > 0.0,
            config: a2c,
        },
        solved_threshold: SOLVED_THRESHOLD,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quoted_settings_are_the_profiles() {
        let t = trainers().unwrap();
        assert_eq!(t.ppo_full.config, PpoConfig::full());
        assert_eq!(t.ppo_full.seeds, PpoProfile::Full.seeds());
        assert_eq!(
            t.ppo_full.env_steps_all_seeds,
            t.ppo_full.env_steps_per_seed * t.ppo_full.seed_count as u64
        );
        let json = serde_json::to_value(&t).unwrap();
        // The paths lesson 6 quotes.
        for path in [
            "ent_coef",
            "clip_vloss",
            "clip_coef",
            "anneal_clip",
            "update_epochs",
        ] {
            assert!(!json["ppo_full"]["config"][path].is_null(), "{path}");
        }
        // The horizon is whole steps, so its noun agrees («100 шагов», not «100 шага»).
        assert_eq!(t.ppo_full.horizon.fract(), 0.0);
        assert_eq!(
            t.sequence_full.single_seed,
            t.sequence_full.seeds.len() == 1
        );
        for path in ["group_size", "ppo_epochs", "iterations", "max_response_len"] {
            assert!(json["sequence_full"]["config"][path].is_number(), "{path}");
        }
    }
}
