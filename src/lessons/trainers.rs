//! Lessons 6 and 8: the trainers' actual settings, quoted by the text. Read from the trainers'
//! schemas (their profiles' defaults), so the lesson never states a setting the code does not use.

use crate::train::cartpole::SOLVED_THRESHOLD;
use crate::train::ppo::{PpoConfig, PpoProfile};
use crate::train::reinforce::{ReinforceConfig, ReinforceProfile};
use crate::train::sequence::{SequenceConfig, SequenceProfile};
use crate::train::settings::{Profile, Settings};
use serde::Serialize;

/// One PPO profile as the lesson describes it.
#[derive(Debug, Clone, Serialize)]
pub struct PpoProfileFacts {
    /// Every setting of the profile (the schema's defaults).
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
pub struct SequenceProfileFacts {
    pub config: SequenceConfig,
    pub seeds: Vec<u64>,
    /// Whether the profile trains one seed only (lesson 8 then says a spread is not visible).
    pub single_seed: bool,
}

fn sequence(profile: SequenceProfile) -> SequenceProfileFacts {
    let seeds = profile.seeds().to_vec();
    SequenceProfileFacts {
        config: SequenceConfig::for_profile(profile),
        single_seed: seeds.len() == 1,
        seeds,
    }
}

/// The trainers' settings the lessons quote.
#[derive(Debug, Clone, Serialize)]
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
    /// REINFORCE's `full` settings (lessons 1 and 2 say what its loss optimises).
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
pub fn trainers() -> Trainers {
    Trainers {
        ppo_smoke: ppo(PpoProfile::Smoke),
        ppo_full: ppo(PpoProfile::Full),
        sequence_full: sequence(SequenceProfile::Full),
        sequence_grpo: sequence(SequenceProfile::Grpo),
        sequence_transformer: sequence(SequenceProfile::Transformer),
        reinforce_full_seeds: ReinforceProfile::Full.seeds().to_vec(),
        reinforce_full: ReinforceConfig::for_profile(ReinforceProfile::Full),
        solved_threshold: SOLVED_THRESHOLD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quoted_settings_are_the_profiles() {
        let t = trainers();
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
