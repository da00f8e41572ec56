//! A trained CartPole policy as one JSON file — the trainer, its whole settings, the seed, how
//! far it trained, and the actor's weights: the page downloads it and loads it back to watch it,
//! and `pgbook replay` plays the same greedy episode from it. serde_json writes every f64 in
//! its shortest round-tripping form, so the weights come back to the bit.

use super::{animation_seed, greedy_episode};
use crate::envs::cartpole::{NUM_ACTIONS, OBS_DIM};
use crate::error::{Error, Result, Rule};
use crate::nn::{Mlp, Precision};
use crate::train::settings::Settings;
use crate::train::Trainer;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What the file says it is.
pub const FORMAT: &str = "pgbook-cartpole-policy";
/// The version of its layout.
pub const VERSION: u32 = 1;

/// The file's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The trainer that trained it (`ppo`, …).
    pub trainer: String,
    /// Every setting of the run, by name.
    pub settings: Map<String, Value>,
    /// The run's seed.
    pub seed: u64,
    /// Updates done when it was saved.
    pub update: usize,
    /// Training transitions collected by then.
    pub env_steps: u64,
    /// The actor's layer sizes, input first.
    pub sizes: Vec<usize>,
    /// The actor's parameters, flat (each layer's weights, then its biases).
    pub params: Vec<f64>,
}

impl PolicyFile {
    /// The file of `trainer`'s current `actor`.
    pub fn of<T: Trainer>(trainer: &T, actor: &Mlp, update: usize, env_steps: u64) -> Self {
        PolicyFile {
            format: FORMAT.into(),
            version: VERSION,
            trainer: T::NAME.into(),
            settings: trainer.config().to_json(),
            seed: trainer.seed(),
            update,
            env_steps,
            sizes: actor.sizes().to_vec(),
            params: actor.params().to_vec(),
        }
    }

    /// The file as JSON text.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::parse("policy", "", e))
    }

    /// Reads a policy file and builds its actor: the format and version must be this one's,
    /// the actor must map CartPole's observation to its two actions, and every weight must be
    /// a finite number of the right count.
    pub fn parse(text: &str) -> Result<(PolicyFile, Mlp)> {
        let file: PolicyFile = serde_json::from_str(text).map_err(|e| {
            let start: String = text.chars().take(40).collect();
            Error::parse("policy", start, e)
        })?;
        if file.format != FORMAT {
            return Err(Error::range("format", Rule::one_of(&[FORMAT]), file.format));
        }
        if file.version != VERSION {
            return Err(Error::range("version", Rule::one_of(&["1"]), file.version));
        }
        let (first, last) = (file.sizes.first(), file.sizes.last());
        if first != Some(&OBS_DIM) {
            let rule = Rule::one_of(&[&OBS_DIM.to_string()]);
            return Err(Error::range("sizes[0]", rule, first.copied().unwrap_or(0)));
        }
        if last != Some(&NUM_ACTIONS) || file.sizes.len() < 2 {
            let rule = Rule::one_of(&[&NUM_ACTIONS.to_string()]);
            return Err(Error::range("sizes[-1]", rule, last.copied().unwrap_or(0)));
        }
        file.precision()?;
        let actor = Mlp::from_params(&file.sizes, file.params.clone())?;
        Ok((file, actor))
    }

    /// The precision the actor computed in during training (`f64` for files without the
    /// setting: REINFORCE's, and PPO's from before it): its greedy actions are that
    /// precision's.
    pub fn precision(&self) -> Result<Precision> {
        match self.settings.get("precision") {
            None => Ok(Precision::F64),
            Some(Value::String(p)) => Precision::parse(p),
            Some(other) => Precision::parse(&other.to_string()),
        }
    }

    /// The reset seed of the episode the page showed for this policy when it was saved (the
    /// default of a replay).
    pub fn replay_seed(&self) -> u64 {
        animation_seed(self.seed, self.update)
    }
}

/// A greedy episode of a policy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    /// The reset seed the episode started from.
    pub reset_seed: u64,
    /// Its undiscounted return (one per step: CartPole pays 1 a step).
    pub episode_return: f64,
    /// The states from the initial one to the last.
    pub states: Vec<[f64; 4]>,
}

/// The greedy episode of `actor` computing in `precision` (its weights rounded to f32 exactly
/// as trained, when they were) from a reset drawn with `reset_seed`.
pub fn replay(actor: &Mlp, precision: Precision, reset_seed: u64) -> Replay {
    let states = match precision {
        Precision::F32 => greedy_episode(&actor.to_scalar::<f32>(), reset_seed),
        Precision::F64 => greedy_episode(actor, reset_seed),
    };
    Replay {
        reset_seed,
        episode_return: (states.len() - 1) as f64,
        states,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::cartpole::CartPoleTrainer;
    use crate::train::ppo::{PpoConfig, PpoTrainer};

    #[test]
    fn a_saved_policy_comes_back_to_the_bit_and_replays_the_same_episode() {
        let config = PpoConfig {
            num_updates: 3,
            precision: Precision::F64,
            ..PpoConfig::smoke()
        };
        let mut t = PpoTrainer::new(config, 11).unwrap();
        while !t.is_finished() {
            t.step().unwrap();
        }
        let file = PolicyFile::of(&t, &t.actor(), 3, t.summary().env_steps);
        let text = file.to_json().unwrap();
        let (back, actor) = PolicyFile::parse(&text).unwrap();
        assert_eq!(back, file);
        assert_eq!(actor.params(), t.actor().params());
        assert_eq!(back.settings["num_updates"], 3);
        let seed = back.replay_seed();
        let precision = back.precision().unwrap();
        assert_eq!(precision, Precision::F64);
        assert_eq!(
            replay(&actor, precision, seed).states,
            t.greedy_episode(seed)
        );
        assert_eq!(
            replay(&actor, precision, seed).episode_return,
            (t.greedy_episode(seed).len() - 1) as f64
        );
    }

    #[test]
    fn an_f32_policy_replays_in_f32() {
        let config = PpoConfig {
            num_updates: 6,
            precision: Precision::F32,
            ..PpoConfig::smoke()
        };
        let mut t = PpoTrainer::new(config, 37).unwrap();
        while !t.is_finished() {
            t.step().unwrap();
        }
        let file = PolicyFile::of(&t, &t.actor(), 6, t.summary().env_steps);
        let (back, actor) = PolicyFile::parse(&file.to_json().unwrap()).unwrap();
        assert_eq!(back.precision().unwrap(), Precision::F32);
        for seed in [back.replay_seed(), 1, 2, 3] {
            let r = replay(&actor, Precision::F32, seed);
            assert_eq!(r.states, t.greedy_episode(seed), "reset seed {seed}");
        }
        let mut bad = file.clone();
        bad.settings.insert("precision".into(), "f16".into());
        assert!(PolicyFile::parse(&bad.to_json().unwrap()).is_err());
    }

    #[test]
    fn a_broken_file_is_refused_with_what_is_wrong() {
        let t = PpoTrainer::new(PpoConfig::smoke(), 11).unwrap();
        let good = PolicyFile::of(&t, &t.actor(), 0, 0);
        let broken = |f: &dyn Fn(&mut PolicyFile)| {
            let mut p = good.clone();
            f(&mut p);
            PolicyFile::parse(&p.to_json().unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(broken(&|p| p.format = "other".into()).contains("format"));
        assert!(broken(&|p| p.version = 2).contains("version"));
        assert!(broken(&|p| p.sizes[0] = 5).contains("sizes[0]"));
        assert!(broken(&|p| *p.sizes.last_mut().unwrap() = 3).contains("sizes[-1]"));
        assert!(broken(&|p| {
            p.params.pop();
        })
        .contains("params"));
        // serde_json writes a NaN as null, which is no number.
        assert!(broken(&|p| p.params[0] = f64::NAN).contains("policy"));
        assert!(PolicyFile::parse("{").is_err());
        assert!(PolicyFile::parse("").is_err());
    }
}
