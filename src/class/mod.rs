//! A class experiment with no server: each student runs one seed of the class's configuration
//! and hands in a short result code ([`code::Code`]: the configuration's hash, the seed, the
//! score, where the goal was reached, the score at up to [`CHECKPOINTS`] points of the learning
//! curve, a fingerprint of the final parameters, a checksum); the teacher merges the codes
//! into the class's table and band ([`merge`]) and can recompute any seed to confirm its
//! fingerprint. The same bits natively and in wasm: the hashes are FNV-1a over fixed-order
//! bytes, the numbers are stored losslessly.

pub mod code;
pub mod merge;

use crate::error::{Error, Result};
use crate::train::cartpole::CartPoleTrainer;
use crate::train::registry::{self, NAMES};
use crate::train::sequence::SequenceTrainer;
use crate::train::settings::Settings;
use crate::train::{Score, Trainer};
pub use code::Code;

/// Most points of the learning curve a code carries (the first and last evaluation among them).
pub const CHECKPOINTS: usize = 8;
/// The hashes keep this many bits.
const HASH_BITS: u32 = 40;

/// FNV-1a, 64 bits, folded to [`HASH_BITS`].
fn fnv(bytes: impl IntoIterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h ^ (h >> HASH_BITS)) & ((1 << HASH_BITS) - 1)
}

/// The configuration's hash: of the trainer's name and every setting in the schema's order as
/// the text `--set` reads back (`name=value` lines), so equal settings hash equal however they
/// were given.
pub fn config_hash<T: Trainer>(config: &T::Config) -> u64 {
    let json = config.to_json();
    let mut text = String::from(T::NAME);
    for f in <T::Config as Settings>::FIELDS {
        let v = json.get(f.name).cloned().unwrap_or_default();
        text += &format!("\n{}={}", f.name, f.kind.to_text(&v));
    }
    fnv(text.into_bytes())
}

/// The fingerprint of parameters: the hash of their bits.
pub fn fingerprint(params: &[f64]) -> u64 {
    fnv(params.iter().flat_map(|p| p.to_bits().to_le_bytes()))
}

/// What a class code reads from a finished run, per kind of trainer (the registry's panel
/// markers).
pub trait ClassKind<T: Trainer> {
    /// The run's learning curve: (transitions or iteration, score).
    fn curve(trainer: &T, reports: &[T::Report]) -> Vec<(u64, f64)>;
    /// The final parameters, in a fixed order.
    fn params(trainer: &T) -> Vec<f64>;
}

impl<T: CartPoleTrainer> ClassKind<T> for registry::CartPole {
    /// The greedy evaluations, the untrained policy's first.
    fn curve(trainer: &T, _: &[T::Report]) -> Vec<(u64, f64)> {
        let evaluations = trainer.evaluations();
        evaluations.iter().map(|e| (e.env_steps, e.mean)).collect()
    }
    /// The actor's, then the critic's.
    fn params(trainer: &T) -> Vec<f64> {
        let mut p = trainer.actor().params().to_vec();
        p.extend_from_slice(trainer.critic().params());
        p
    }
}

impl ClassKind<SequenceTrainer> for registry::Sequence {
    /// The evaluation's success rate after each iteration.
    fn curve(
        _: &SequenceTrainer,
        reports: &[<SequenceTrainer as Trainer>::Report],
    ) -> Vec<(u64, f64)> {
        reports
            .iter()
            .enumerate()
            .map(|(i, r)| (i as u64 + 1, r.eval_success_rate))
            .collect()
    }
    fn params(trainer: &SequenceTrainer) -> Vec<f64> {
        trainer.params()
    }
}

/// The indices of `len` points a code keeps: [`CHECKPOINTS`] spread evenly, first and last
/// included.
pub fn checkpoints(len: usize) -> Vec<usize> {
    if len <= CHECKPOINTS {
        return (0..len).collect();
    }
    (0..CHECKPOINTS)
        .map(|j| (j * (len - 1) + (CHECKPOINTS - 1) / 2) / (CHECKPOINTS - 1))
        .collect()
}

/// The code of `trainer`'s finished run (its `reports` in order).
pub fn code_of<T: Trainer, F: ClassKind<T>>(trainer: &T, reports: &[T::Report]) -> Result<Code> {
    let index = NAMES
        .iter()
        .position(|&n| n == T::NAME)
        .ok_or_else(|| registry::unknown(T::NAME))?;
    let curve = F::curve(trainer, reports);
    let curve = checkpoints(curve.len())
        .into_iter()
        .map(|i| curve[i])
        .collect();
    let (score, reached) = trainer.summary().score();
    Ok(Code {
        trainer: index as u8,
        config: config_hash::<T>(trainer.config()),
        seed: trainer.seed(),
        score,
        reached,
        curve,
        fingerprint: fingerprint(&F::params(trainer)),
    })
}

/// Runs seed `seed` of `config` to the end and returns its code.
pub fn run_code<T: Trainer, F: ClassKind<T>>(config: &T::Config, seed: u64) -> Result<Code> {
    let mut trainer = T::new(config.clone(), seed)?;
    let mut reports = Vec::new();
    while !trainer.is_finished() {
        reports.push(trainer.step()?);
    }
    code_of::<T, F>(&trainer, &reports)
}

/// The name of the trainer with `index` in the registry.
pub fn trainer_name(index: u8) -> Result<&'static str> {
    NAMES
        .get(usize::from(index))
        .copied()
        .ok_or_else(|| Error::class_code(0, crate::error::CodeProblem::OtherConfig))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::ppo::PpoConfig;

    #[test]
    fn checkpoints_spread_evenly_with_both_ends() {
        assert_eq!(checkpoints(3), vec![0, 1, 2]);
        assert_eq!(checkpoints(15), vec![0, 2, 4, 6, 8, 10, 12, 14]);
        let c = checkpoints(31);
        assert_eq!((c.len(), c[0], c[7]), (8, 0, 30));
    }

    #[test]
    fn the_hash_depends_on_every_setting_and_the_trainer_only() {
        let a = PpoConfig::smoke();
        let b = PpoConfig {
            gamma: 0.98,
            ..PpoConfig::smoke()
        };
        let h = config_hash::<crate::train::ppo::PpoTrainer>(&a);
        assert_eq!(h, config_hash::<crate::train::ppo::PpoTrainer>(&a.clone()));
        assert_ne!(h, config_hash::<crate::train::ppo::PpoTrainer>(&b));
        assert!(h < 1 << 40);
        // Recorded: the hash must not change between builds or platforms.
        assert_eq!(fnv(*b"pgbook"), fnv(*b"pgbook"));
        assert_ne!(fingerprint(&[0.0]), fingerprint(&[-0.0]));
    }
}
